"""Play recorded games from JSON Lines scripts.

A script's first line names the players in seating order (the first rolls
first); every further line is one event::

    {"players": ["Sarah", "Tim", "Maria"]}
    {"roll": [6, 4, 1, 2, 3, 5, 5, 2]}
    {"decision": "continue"}
    {"frame": "photos/throw2.jpg"}

``roll`` gives the values thrown; ``frame`` a photo of the throw, read by the
dice reader (relative paths are relative to the script); ``decision`` is
``"stop"`` or ``"continue"``. Blank lines are skipped.

Example::

    >>> import io
    >>> play_lines(['{"players": ["A", "B"]}', '{"roll": [1,1,1,1,1,1,1,1]}'], ".")["turn"]["player"]
    'B'
"""

from __future__ import annotations

import json
import os
from typing import Callable, Iterable

from .durchmarsch import Durchmarsch, DurchmarschError, WrongDiceCount

__all__ = ["ReplayError", "play_script", "play_lines"]


class ReplayError(ValueError):
    """An illegal or unreadable line; the message starts with ``line N:``."""


def play_script(path: str, *, reader: Callable | None = None) -> dict:
    """Play the script at ``path``; returns the final state (``Durchmarsch.to_dict``).

    Raises :class:`ReplayError` for the first bad line, ``OSError`` when the
    script cannot be opened.
    """
    with open(path, encoding="utf-8") as f:
        return play_lines(f, os.path.dirname(os.path.abspath(path)), reader=reader)


def play_lines(lines: Iterable[str], base: str, *, reader: Callable | None = None) -> dict:
    """Play script lines; ``base`` is the folder relative frame paths start from."""
    game: Durchmarsch | None = None
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            raise ReplayError(f"line {n}: not JSON: {e.msg}") from None
        if not isinstance(data, dict) or len(data) != 1:
            raise ReplayError(f"line {n}: an event is an object with one key (players, roll, frame or decision)")
        (key, value), = data.items()
        try:
            if game is None:
                if key != "players":
                    raise ReplayError(f"line {n}: the first line must be {{\"players\": [...]}}")
                if not isinstance(value, list):
                    raise ReplayError(f"line {n}: players must be a list of names")
                game = Durchmarsch(value)
            elif key == "players":
                raise ReplayError(f"line {n}: players are given once, on the first line")
            elif key == "roll":
                if not isinstance(value, list):
                    raise ReplayError(f"line {n}: roll must be a list of die values")
                game.throw(value)
            elif key == "frame":
                game.throw(_read_frame(value, base, game, reader))
            elif key == "decision":
                game.decide(value)
            else:
                raise ReplayError(f"line {n}: unknown event {key!r} (players, roll, frame or decision)")
        except ReplayError:
            raise
        except WrongDiceCount as e:
            raise ReplayError(f"line {n}: illegal throw: {e}") from None
        except (DurchmarschError, ValueError) as e:
            raise ReplayError(f"line {n}: {e}") from None
    if game is None:
        raise ReplayError("line 1: the script is empty; it must start with {\"players\": [...]}")
    return game.to_dict()


def _read_frame(value, base: str, game: Durchmarsch, reader) -> list[int]:
    from vision.reader import load_image, read_dice

    if not isinstance(value, str):
        raise ValueError("frame must be a path to an image")
    path = value if os.path.isabs(value) else os.path.join(base, value)
    img = load_image(path)  # UnreadableImage is a ValueError
    dice = (reader or read_dice)(img)
    values = [d.value for d in dice]
    due = game.expect_throw()
    if len(values) != due:
        raise ValueError(f"illegal throw: the photo {value} shows {len(values)} dice {sorted(values)}, but {due} dice are due")
    return values
