"""The companion's languages: gettext catalogs for Deutsch, English, Français, Italiano.

Messages are written in English in the code and marked with :func:`_`; the
catalogs in ``companion/locale/<lang>/LC_MESSAGES/companion.po`` translate
them, using the game's own terms from the publisher's rulebook in each
language (``../shared/seeds/durchmarsch-{de,en,fr,it}.txt``: Wurf/lancer/tiro
for throw, Fehlwurf/lancer raté/tiro fallito for misthrow, Reihe/rangée/fila
for row, Würfler for roller). Babel extracts and compiles them
(``scripts/i18n``); at run time only the stdlib's :mod:`gettext` and the
compiled ``.mo`` files are needed.

Example::

    >>> set_language("de")
    >>> _("Misthrow: no {target}.").format(target=4)
    'Fehlwurf: keine 4.'
    >>> set_language("en"); _("Row struck out.")
    'Row struck out.'
"""

from __future__ import annotations

import gettext
import os

__all__ = ["LANGUAGES", "LOCALE_DIR", "DOMAIN", "translation", "set_language", "language", "_", "ngettext", "N_"]

#: The languages offered, by code, with their names in their own language.
LANGUAGES = {"de": "Deutsch", "en": "English", "fr": "Français", "it": "Italiano"}
#: Where the catalogs live (``<lang>/LC_MESSAGES/companion.mo``).
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
DOMAIN = "companion"

_current: gettext.NullTranslations = gettext.NullTranslations()
_lang = "en"


def translation(lang: str) -> gettext.NullTranslations:
    """The catalog of language ``lang`` (a key of :data:`LANGUAGES`).

    English is the language of the source, so a missing English catalog falls
    back to the messages as written. Raises ``ValueError`` for a language not
    offered, and ``FileNotFoundError`` when its compiled catalog is missing
    (run ``scripts/i18n``).
    """
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not offered (choose from {', '.join(LANGUAGES)})")
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=(lang == "en"))


def set_language(lang: str) -> None:
    """Make ``lang`` the language of :func:`_` and :func:`ngettext` (errors as :func:`translation`)."""
    global _current, _lang
    _current = translation(lang)
    _lang = lang


def language() -> str:
    """The code of the language in use."""
    return _lang


def _(message: str) -> str:
    """``message`` (English) in the language in use."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for count ``n``, in the language in use."""
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it yet (for tables built at import)."""
    return message
