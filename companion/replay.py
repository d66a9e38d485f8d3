"""Play recorded games from JSON Lines scripts, through the session the app uses.

A script's first line names the players in seating order (the first rolls
first); every further line is one event::

    {"players": ["Sarah", "Tim", "Maria"]}
    {"roll": [6, 4, 1, 2, 3, 5, 5, 2]}
    {"decision": "continue"}
    {"frame": "photos/throw2.jpg"}
    {"frame": "photos/throw3.jpg", "values": [6, 4, 1, 2, 3, 5, 5, 2]}

``roll`` gives the values thrown; ``frame`` a photo of the throw (relative
paths are relative to the script), read by the dice reader with the count of
dice due, as the app reads it; ``decision`` is ``"stop"`` or ``"continue"``.
Blank lines are skipped.

Every event goes through :class:`companion.session.GameSession` (kept in a
temporary store), so a replay does what the app does at the table. A frame
line with ``values`` (what the players confirmed) is judged as the app would
judge it: a sure read equal to them is *read* (scored without asking); an
unsure read, or one with the wrong count, is *asked*; a sure read that
differs is a *silent error*. The confirmed values are scored in every case,
so the game goes on as it was played. A frame line without ``values``
scores what the reader read, and its dice count must be the count due.

Example::

    >>> play_lines(['{"players": ["A", "B"]}', '{"roll": [1,1,1,1,1,1,1,1]}'], ".")["turn"]["player"]
    'B'
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from typing import Callable, Iterable

from .durchmarsch import WrongDiceCount
from .game import IllegalEvent
from .session import GameSession
from .storage import Store

__all__ = ["ReplayError", "Replay", "play_script", "play_lines", "replay_lines", "replay_script", "export_game"]


class ReplayError(ValueError):
    """An illegal or unreadable line; the message starts with ``line N:``."""


@dataclass
class Replay:
    """What a script came to.

    ``state``: the game's final ``to_dict()``. ``throws``: for the frame lines
    that carry confirmed ``values``, how many were ``read`` (sure and right),
    ``asked`` (unsure or wrong count) and ``silent_errors`` (sure but
    wrong); None when the script has no such line.
    """

    state: dict
    throws: dict | None = None


def play_script(path: str, *, reader: Callable | None = None) -> dict:
    """Play the script at ``path``; returns the final state (the game's ``to_dict``).

    Raises :class:`ReplayError` for the first bad line, ``OSError`` when the
    script cannot be opened.
    """
    return replay_script(path, reader=reader).state


def play_lines(lines: Iterable[str], base: str, *, reader: Callable | None = None) -> dict:
    """Play script lines; ``base`` is the folder relative frame paths start from.
    Returns the final state; raises :class:`ReplayError` for the first bad line."""
    return replay_lines(lines, base, reader=reader).state


def replay_script(path: str, *, reader: Callable | None = None) -> Replay:
    """Play the script at ``path``; returns a :class:`Replay` (state and throw counts).

    Raises :class:`ReplayError` for the first bad line (a line that is not
    UTF-8 text is named), ``OSError`` when the script cannot be opened, and
    :class:`companion.files.InputError` for one that is not a regular file or
    is over :data:`MOST_BYTES`.
    """
    from .files import read_input

    raw = read_input(path, most=MOST_BYTES)
    return replay_lines(_decoded(raw.split(b"\n")), os.path.dirname(os.path.abspath(path)), reader=reader)


#: The largest script read, bytes; the longest line, characters.
MOST_BYTES, MOST_LINE = 32 * 1024 * 1024, 64 * 1024


def _decoded(lines: list[bytes]):
    for n, line in enumerate(lines, 1):
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ReplayError(f"line {n}: not UTF-8 text (byte {e.start + 1})") from None


def replay_lines(lines: Iterable[str], base: str, *, reader: Callable | None = None) -> Replay:
    """Play script lines through a :class:`GameSession` in a temporary store.

    ``reader``: the session's reader (``vision.reader.read_throw`` by default).
    Returns a :class:`Replay`; raises :class:`ReplayError` for the first bad line.
    """
    with tempfile.TemporaryDirectory(prefix="companion-replay-") as tmp:
        store = Store(tmp)
        try:
            return _play(lines, base, GameSession(store, reader=reader))
        finally:
            store.close()


_KEYS = "players, roll, frame (with values) or decision"


def _events(lines: Iterable[str]):
    """``(line number, decoded JSON)`` of each non-blank script line, numbered from 1.
    Raises :class:`ReplayError` for a line that is not JSON. One generator serves
    a whole script: a Fenn script's lines go on in :func:`_play_fenn` from where
    :func:`_play` found its first line."""
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        if len(line) > MOST_LINE:
            raise ReplayError(f"line {n}: {len(line)} characters, more than the {MOST_LINE} allowed")
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as e:
            raise ReplayError(f"line {n}: not JSON: {e.msg}") from None
        except RecursionError:
            raise ReplayError(f"line {n}: not JSON: nested too deep") from None
        except ValueError as e:  # an integer of thousands of digits
            raise ReplayError(f"line {n}: not JSON: {str(e)[:80]}") from None


def _play(lines: Iterable[str], base: str, session: GameSession) -> Replay:
    counts = {"read": 0, "asked": 0, "silent_errors": 0}
    confirmed_seen = False
    events = _events(lines)
    for n, data in events:
        if not isinstance(data, dict) or not data:
            raise ReplayError(f"line {n}: an event is an object with one key ({_KEYS})")
        if session.game is None and data.get("game") == "fenn":
            return _play_fenn(n, data, events, session)
        key = next(iter(data))
        if len(data) != 1 and not (key == "frame" and set(data) == {"frame", "values"}):
            raise ReplayError(f"line {n}: an event is an object with one key ({_KEYS})")
        value = data[key]
        try:
            if session.game is None:
                if key != "players":
                    raise ReplayError(f"line {n}: the first line must be {{\"players\": [...]}}")
                if not isinstance(value, list):
                    raise ReplayError(f"line {n}: players must be a list of names")
                session.start(value, first=0)
            elif key == "players":
                raise ReplayError(f"line {n}: players are given once, on the first line")
            elif key == "roll":
                if not isinstance(value, list):
                    raise ReplayError(f"line {n}: roll must be a list of die values")
                session.throw(value)
            elif key == "frame":
                if "values" in data:
                    confirmed_seen = True
                    counts[_judge_frame(session, value, data["values"], base)] += 1
                else:
                    _score_frame(session, value, base)
            elif key == "decision":
                session.decide(value)
            else:
                raise ReplayError(f"line {n}: unknown event {key!r} ({_KEYS})")
        except ReplayError:
            raise
        except WrongDiceCount as e:
            raise ReplayError(f"line {n}: illegal throw: {e}") from None
        except (IllegalEvent, ValueError, TypeError) as e:
            raise ReplayError(f"line {n}: {e}") from None
    if session.game is None:
        raise ReplayError("line 1: the script is empty; it must start with {\"players\": [...]}")
    return Replay(session.game.to_dict(), dict(counts) if confirmed_seen else None)


def _play_fenn(first_n: int, head: dict, events, session: GameSession) -> Replay:
    """A Fenn script (issue 31): ``{"game": "fenn", "players": [blue, red]}``, then
    start throws ``{"black": 3}``, whole turns ``{"turn": {"field": 3, "top": 2,
    "black": 6}}`` (``black`` omitted: unchanged) accepted when the rules reach
    them by a legal turn (F15), and ``{"turn": "pass"}``."""
    from .fenn import BlackThrow, Pass, whole

    if not {"game", "players"} <= set(head) <= {"game", "players", "options"} or not isinstance(head["players"], list) \
            or not isinstance(head.get("options", {}), dict):
        raise ReplayError(f"line {first_n}: the first line of a Fenn script is "
                          '{"game": "fenn", "players": [blue, red]} (and "options": {"faces": ...} if not the defaults)')
    try:
        session.start(head["players"], first=0, game="fenn", options=head.get("options"))
    except (ValueError, TypeError) as e:
        raise ReplayError(f"line {first_n}: {e}") from None
    for n, data in events:  # the same script's lines after its first (see _events)
        game = session.game
        try:
            if not isinstance(data, dict) or len(data) != 1:
                raise ValueError('an event is {"black": N} or {"turn": {...}} or {"turn": "pass"}')
            (key, value), = data.items()
            if key == "black":
                session.apply(BlackThrow(whole(value, "black")))
            elif key == "turn" and value == "pass":
                session.apply(Pass())
            elif key == "turn" and isinstance(value, dict):
                session.apply(game.event_from_json(data))  # a whole turn (F15), checked by the engine
            else:
                raise ValueError(f"unknown event {str(data)[:80]}")
        except (IllegalEvent, ValueError, TypeError) as e:
            raise ReplayError(f"line {n}: {e}") from None
    return Replay(session.game.to_dict())


def _load(value, base: str):
    from .inputs import load_input_image

    if not isinstance(value, str) or not value or "\0" in value:
        raise ValueError("frame must be a path to an image")
    path = value if os.path.isabs(value) else os.path.join(base, value)
    return load_input_image(path)  # UnreadableImage is a ValueError


def _score_frame(session: GameSession, value, base: str) -> None:
    """A frame without confirmed values: score what was read (the count must be due)."""
    session.game.expect_throw()
    read = session.read(_load(value, base))
    if len(read.values) != read.expected:
        raise ValueError(f"illegal throw: the photo {value} shows {len(read.values)} dice "
                         f"{sorted(read.values)}, but {read.expected} dice are due")
    session.throw(read.values)


def _judge_frame(session: GameSession, value, confirmed, base: str) -> str:
    """A frame with the values the players confirmed: ``"read"``, ``"asked"`` or
    ``"silent_errors"`` (what the app would have done), then score the confirmed values."""
    if not isinstance(confirmed, list) or not all(isinstance(v, int) for v in confirmed):
        raise ValueError("values must be a list of die values")
    session.game.expect_throw()
    read = session.read(_load(value, base))
    if not read.ok:
        verdict = "asked"
    elif sorted(read.values) == sorted(confirmed):
        verdict = "read"
    else:
        verdict = "silent_errors"
    session.throw(confirmed)
    return verdict


def _export_fenn(game) -> list[dict]:
    """A Fenn game as a script of whole turns (the steps between are not kept,
    F15); a turn not finished when the game was stored is left out."""
    from .fenn import BlackThrow, Fenn, Pass

    head: dict = {"game": "fenn", "players": list(game.players)}
    if game.options != Fenn(game.players).options:
        head["options"] = game.options
    lines: list[dict] = [head]
    g = Fenn(game.players, **game.options)
    for e in game.events:
        mover = g.position().to_move
        g.apply(e)
        if isinstance(e, BlackThrow):
            lines.append({"black": e.value})
        elif isinstance(e, Pass):
            lines.append({"turn": "pass"})
        elif g.is_over or g.prompt_state()["phase"] == "turn":  # the turn is over
            field, top = g.position().dice[mover]
            lines.append({"turn": {"field": field, "top": top, "black": g.position().black}})
    return lines


def export_game(store: Store, game_id: int, *, missing: list | None = None) -> list[dict]:
    """A stored game as replay script lines (dicts, one per line).

    The first line names the players in the order they threw (the stored
    first player first); a throw with a stored frame becomes
    ``{"frame": PATH, "values": [...]}`` (the values scored, as confirmed at
    the table), one without becomes ``{"roll": [...]}``; decisions stay
    ``{"decision": ...}``. A stored frame whose file is gone (removed by
    hand, or a card's damage) becomes a ``roll`` and its seq is added to
    ``missing`` (when given), so the script still replays. Raises
    :class:`companion.storage.StorageError` when there is no such game or it
    cannot be read.
    """
    saved = store.load(game_id)
    if saved.game.name == "fenn":
        return _export_fenn(saved.game)
    players = list(saved.game.players)
    first = saved.game.first
    order = players[first:] + players[:first]
    lines: list[dict] = [{"players": order}]
    for seq, data, frame in store.events(game_id):
        if "throw" in data:
            if frame and not os.path.isfile(frame) and missing is not None:
                missing.append(seq)
            if frame and os.path.isfile(frame):
                lines.append({"frame": frame, "values": list(data["throw"])})
            else:
                lines.append({"roll": list(data["throw"])})
        else:
            lines.append(dict(data))
    return lines
