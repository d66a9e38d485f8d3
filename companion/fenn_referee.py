"""Refereeing Fenn from the camera: what a sure read of the board means for the game.

Pure (no camera, no I/O): :func:`judge` compares a read of the board (a
:class:`vision.fenn.FennRead`, or anything with ``sure``, ``reasons`` and
``die(colour)``) with the game and says what to do:

- ``"event"``: the read shows a new position the rules reach: the black die's
  start throw (F3), or the mover's whole turn (F15). The session applies it.
- ``"same"``: nothing moved (the position the game already has).
- ``"ask"``: the read is not sure, or it shows what the rules refuse (the
  other die moved, a turn no legal turn reaches); ``rule`` says which rule in
  the engine's words, ``reasons`` the reader's codes. Nothing is applied: the
  players put the dice right or correct on the screen.

Only a sure read is ever applied without asking (a wrong but legal read is the
dangerous case), and the screen always shows what was read.

Example::

    >>> from types import SimpleNamespace as NS
    >>> from companion.fenn import Fenn, BlackThrow
    >>> g = Fenn(["Anna", "Ben"]); g.apply(BlackThrow(6))
    >>> dice = {"blue": NS(field=3, value=1), "red": NS(field=9, value=5), "black": NS(field=None, value=6)}
    >>> judge(g, NS(sure=True, reasons=(), die=dice.get)).event
    Turn(field=3, top=1, black=6)
"""

from __future__ import annotations

from dataclasses import dataclass

from .fenn import START, BlackThrow, Fenn, FennError, Turn

__all__ = ["Verdict", "judge", "why_unreachable"]


@dataclass(frozen=True)
class Verdict:
    """What a read means: ``kind`` ``"event"``, ``"same"`` or ``"ask"``; ``event``
    the engine event to apply; ``rule`` the code of the rule refused
    (``"start"`` F2, ``"mid_turn"``, ``"other_moved"`` F11, or for a position no
    legal turn reaches (F15) the rule it breaks, see :func:`why_unreachable`),
    or ""; ``seen`` what was read (``{"blue": (field, top), "red": ...,
    "black": top}``); ``reasons`` the reader's codes when it was not sure.
    :func:`companion.fenn_prompts.verdict_text` puts it into words."""

    kind: str
    event: object = None
    rule: str = ""
    reasons: tuple = ()
    seen: dict | None = None


def judge(game: Fenn, read) -> Verdict:
    """What the read of the board means for ``game`` (see the module text)."""
    if game.is_over:
        return Verdict("same")
    if not read.sure:
        return Verdict("ask", reasons=tuple(read.reasons))
    blue, red, black = read.die("blue"), read.die("red"), read.die("black")
    seen = ((blue.field, blue.value), (red.field, red.value))
    said = {"blue": seen[0], "red": seen[1], "black": black.value}
    phase = game.prompt_state()["phase"]
    pos = game.position()
    if phase == "start":
        if seen != START:
            return Verdict("ask", rule="start", seen=said)
        return Verdict("event", BlackThrow(black.value), seen=said)
    if (seen, black.value) == (pos.dice, pos.black):
        return Verdict("same", seen=said)
    if phase == "options":  # a turn begun by touch is finished by touch
        return Verdict("ask", rule="mid_turn", seen=said)
    mover = pos.to_move
    if seen[1 - mover] != pos.dice[1 - mover]:
        return Verdict("ask", rule="other_moved", seen=said)
    field, top = seen[mover]
    turn = Turn(field, top, black.value)
    trial = game.copy()
    try:
        trial.apply(turn)
    except FennError:
        return Verdict("ask", rule=why_unreachable(game, field, top, black.value), seen=said)
    return Verdict("event", turn, seen=said)


def why_unreachable(game: Fenn, field: int, top: int, black: int) -> str:
    """The rule broken by a turn's end that no legal turn reaches, for the player
    to move at the start of a turn: the mover's die on ``field`` (1–9) showing
    ``top``, the black die showing ``black``. The first that holds of:

    - ``"no_face"``: the die has no face ``top`` (F1);
    - ``"taken"``: the other die stands on ``field`` (F6);
    - ``"null_move"``: ``field`` is where the turn began (F10);
    - ``"blocked_other"``: the other die shows ``field`` (F6);
    - ``"blocked_black"``: the black die showed ``field`` at the turn's start (F6);
    - ``"no_pasch"``: the black die was turned, but the last top is not the
      black die's number (F9: only a Pasch turns it);
    - ``"unreachable"``: none of these; no chain of steps leads there (F5, F7, F8).

    Each is a true reason whenever it is given: the other die stands still in a
    turn, and the black die is turned only as a turn's last act (F9)."""
    pos = game.position()
    mover = pos.to_move
    other = pos.dice[1 - mover]
    if top not in game.faces(mover):
        return "no_face"
    if field == other[0]:
        return "taken"
    if field == pos.dice[mover][0]:
        return "null_move"
    if field == other[1]:
        return "blocked_other"
    if field == pos.black:
        return "blocked_black"
    if black != pos.black and top != pos.black:
        return "no_pasch"
    return "unreachable"
