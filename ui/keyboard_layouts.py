"""On-screen keyboard layouts for typing player names, one per language (issue 30),
and what a key of Kivy's ``VKeyboard`` does to a name field.

The layouts are Kivy ``VKeyboard`` JSON files in ``ui/keyboards/<lang>.json``
(Kivy's format: ``cols``, ``rows`` and for each row ``normal_<row>`` and
``shift_<row>``, a list of keys ``[shown, text, keycode, width]``): 5 rows of 12
units for an 800×480 screen: the language's accented letters and ⌫, three rows
of the national letter layout (QWERTZ, AZERTY, QWERTY) with ``-``, ``'`` and ⏎,
⇧, and a space bar. The shift layer has the capitals (``Ä Ö Ü``, ``É È``…; ``ß``
has no capital in names and stays ``ß``).

Wiring in the UI (one touch at a time, so ⇧ is a toggle, not held)::

    kb = VKeyboard(layout=layout_path(lang))
    def on_key(kb, keycode, internal=None, modifiers=()):
        field.text, action = apply_key(field.text, (keycode, internal), shift=kb.have_capslock)
        if action == "next":
            ...  # focus the next name field, or Start after the last one
        else:  # ⇧ toggles; after a letter, capitals return at a word's start
            kb.have_capslock = (not kb.have_capslock) if action == "shift" else auto_shift(field.text)
    kb.bind(on_key_down=on_key)                                 # special keys
    kb.bind(on_textinput=lambda kb, text: on_key(kb, None, text))  # letters under SDL2

(Kivy's own "shift" key only holds the shift layer while pressed; the app keeps
it with ``have_capslock``, which shows the shift layer while set. Under SDL2
windows VKeyboard sends letter keys as ``on_textinput(text)`` and keys without
text, such as ⌫ ⏎ ⇧, as ``on_key_down(keycode, None, modifiers)``.)

Pure: no Kivy import.
"""

from __future__ import annotations

import os
import re

#: The accented letters of names in German, English, French and Italian: every layout
#: carries them all on its accent layer (the àé… key), with their capitals.
ALL_ACCENTS = "äöüßéèêëàâçïîìíôòóûùúñá"

LANGS = ("de", "en", "fr", "it")
"""Languages with their own layout; others use English's."""

KEYBOARD_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keyboards")

_WORD_START = (" ", "-", "'")


def layout_path(lang: str) -> str:
    """Absolute path of the layout JSON for ``lang`` (``"de"``, ``"fr_CH"``, ``"it-IT"``…;
    the region is ignored), for ``VKeyboard.layout`` (Kivy loads a layout given as a
    path ending in ``.json``). An unknown language gets the English layout."""
    base = re.split(r"[_\-.]", (lang or "").strip().lower(), maxsplit=1)[0]
    return os.path.join(KEYBOARD_DIR, f"{base if base in LANGS else 'en'}.json")


def apply_key(text: str, key, *, shift: bool, max_len: int | None = None) -> tuple[str, str | None]:
    """What one key of the on-screen keyboard does to a name field.

    ``text``: the field's text now. ``key``: either a ``(keycode, internal)`` pair as
    ``VKeyboard`` sends with ``on_key_down(keycode, internal, modifiers)`` (keycode is
    the layout's third entry, e.g. ``"backspace"``, ``"enter"``, ``"shift"``,
    ``"spacebar"`` or the letter; internal is the text to insert or ``None``), or the
    text itself as ``on_textinput(text)`` sends it. ``shift``: whether the shift
    layer is on (a letter is then inserted as a capital, even one from the normal
    layer; ``ß`` stays ``ß``). ``max_len``: the longest name accepted (``None``: no limit).

    Returns ``(new_text, action)``; action is ``None`` (just edit the field),
    ``"next"`` (⏎: go on to the next name), ``"shift"`` (⇧ or caps lock: toggle the
    shift layer; the text is unchanged) or ``"accents"`` (the accent key àé…: show
    or leave the layer of every accented letter of the four languages' names). ⌫ removes the last character. A space at the
    start of a name or after a space is ignored; keys without text (escape, tab, the
    layout's unknown specials) change nothing.
    """
    if isinstance(key, str):
        keycode, internal = None, key
    else:
        keycode, internal = key
    if keycode == "backspace":
        return text[:-1], None
    if keycode == "enter" or internal in ("\n", "\r"):
        return text, "next"
    if keycode in ("shift", "capslock"):
        return text, "shift"
    if keycode == "accents":
        return text, "accents"
    if keycode == "spacebar" and not internal:
        internal = " "
    if not internal or internal == "\t" or keycode in ("escape", "tab"):
        return text, None
    if internal == " " and (not text or text.endswith(" ")):
        return text, None
    if shift:
        upper = internal.upper()
        internal = upper if len(upper) == len(internal) else internal  # ß → SS would lengthen the name
    new = text + internal
    if max_len is not None and len(new) > max_len:
        return text, None
    return new, None


def auto_shift(text: str) -> bool:
    """Whether the next letter of a name is a capital: at the start of the name and
    after a space, hyphen or apostrophe ("Anna-Lena", "Jean Luc", "O'Neill"), so ⇧
    works once, as on a phone's keyboard."""
    return not text or text.endswith(_WORD_START)
