"""Short rules cards, one per game and language, and their conversion to Kivy markup.

The cards are the files ``companion/rules/<game>.<lang>.md``: at most 25 lines of
plain text with light Markdown (``#``/``##`` headings, ``-`` bullets, ``**bold**``),
written from the rulebooks' own words (``../shared/seeds/``) and the project's
rulings (``../shared/rules/``). Pure: reads only the package's own card files.
"""

from __future__ import annotations

import re
from importlib import resources

GAMES = ("durchmarsch", "fenn")
"""The games that have a rules card."""

FALLBACK_LANGS = ("en", "de")
"""Languages tried, in order, when a card is missing in the asked language."""


def card(game: str, lang: str) -> str:
    """The rules card of ``game`` in ``lang`` as Markdown text.

    ``lang`` is a language code such as ``"de"`` or ``"fr"`` (a region suffix as
    in ``"fr_CH"`` or ``"fr-CH"`` is ignored). A language without a card falls back
    to English, then German. Raises ``ValueError`` for a game without cards,
    naming the known games.
    """
    if game not in GAMES:
        raise ValueError(f"no rules card for game {game!r}; known games: {', '.join(GAMES)}")
    base = re.split(r"[_\-.]", (lang or "").strip().lower(), maxsplit=1)[0]
    folder = resources.files("companion") / "rules"
    for code in (base, *FALLBACK_LANGS):
        path = folder / f"{game}.{code}.md"
        if code and path.is_file():
            return path.read_text(encoding="utf-8")
    raise ValueError(f"no rules card file for {game!r} in {base!r}, English or German")  # broken install


def _escape(text: str) -> str:
    """Text escaped for a Kivy Label with ``markup=True``, as
    ``kivy.utils.escape_markup`` does (``&`` → ``&amp;``, ``[`` → ``&bl;``,
    ``]`` → ``&br;``); written out here so this module does not import Kivy."""
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


_BOLD = re.compile(r"\*\*(.+?)\*\*")
def to_kivy_markup(text: str, font_size: float = 20) -> str:
    """Light Markdown → Kivy Label markup (for a Label with ``markup=True``).

    - ``# Title`` → bold at 1.5 × ``font_size``, ``## Section`` (and deeper) →
      bold at 1.2 × ``font_size``, as ``[size=N]`` with N whole pixels (pass the
      Label's ``font_size``, which Kivy holds in pixels);
    - ``- item`` → ``• item``;
    - ``**bold**`` → ``[b]bold[/b]``;
    - every ``&``, ``[`` and ``]`` of the text itself is escaped as Kivy's
      ``kivy.utils.escape_markup`` does, so the card's text cannot open a tag.

    Line breaks are kept; blank lines stay blank.
    """
    out = []
    for line in text.splitlines():
        stripped = line.strip()
        m = re.match(r"^(#{1,6})\s+(.*)$", stripped)
        if m:
            level = len(m.group(1))
            size = round(font_size * (1.5 if level == 1 else 1.2))
            body = _inline(m.group(2))
            out.append(f"[size={size}][b]{body}[/b][/size]")
        elif re.match(r"^[-*]\s+", stripped):
            out.append("• " + _inline(re.sub(r"^[-*]\s+", "", stripped)))
        else:
            out.append(_inline(line.rstrip()))
    return "\n".join(out)


def _inline(text: str) -> str:
    """One line's text escaped, with ``**bold**`` turned into ``[b]…[/b]``."""
    parts = _BOLD.split(text)
    # split() with one group alternates: plain, bold, plain, bold, ...
    for i in range(1, len(parts) - 1, 2):
        # Punctuation right after a bold word goes inside it: Kivy may break a line between two
        # markup spans, which left "5 dés" at a line's end and its "." alone on the next.
        stuck = re.match(r"^[.,;:!?)»]+", parts[i + 1])
        if stuck:
            parts[i] += stuck.group(0)
            parts[i + 1] = parts[i + 1][stuck.end():]
    return "".join(_escape(p) if i % 2 == 0 else f"[b]{_escape(p)}[/b]" for i, p in enumerate(parts))
