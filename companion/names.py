"""The one check of a player's name, wherever names enter: the start screen,
a replay script, a stored game.

    >>> clean_name("  Zoë ")
    'Zoë'
    >>> clean_name("Tim\\u202e")
    Traceback (most recent call last):
    ...
    ValueError: a name may not hold control or direction characters: 'Tim\\u202e'
"""

from __future__ import annotations

import unicodedata

__all__ = ["clean_name", "MOST"]

#: The longest name, in characters after NFC and trimming.
MOST = 24


def clean_name(text, *, most: int = MOST) -> str:
    """``text`` as a player's name: NFC-normalised and trimmed, 1 to ``most``
    characters, all printable (no control, format or bidi characters such as
    U+202E, no line breaks, no NUL).

    Raises ``ValueError`` with a message saying what is wrong (a name that is
    not a string, empty, too long, or holding such a character); the message
    shows at most the first 30 characters of a long name.
    """
    if not isinstance(text, str):
        raise ValueError(f"a name is text, not {type(text).__name__}")
    if len(text) > 4 * most + 64:  # never normalise megabytes
        raise ValueError(f"a name is 1 to {most} characters, not {len(text)}")
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise ValueError("a name may not be empty")
    if len(name) > most:
        raise ValueError(f"a name is 1 to {most} characters, not {len(name)}: {name[:30]!r}...")
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or \
                unicodedata.bidirectional(ch) in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"):
            raise ValueError(f"a name may not hold control or direction characters: {name!r}")
    return name
