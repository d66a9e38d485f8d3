"""What the screen says in a game of Fenn, in the players' language.

Pure functions of a :class:`~companion.fenn.Fenn` game (no Kivy): what to do
now, why a field cannot be entered, a hint's value, the moves of the game,
how it ended, and the question before an undo. The terms are those of the
German rule page (``../shared/seeds/fenn-de.txt``: Feld, Pasch, Null-Zug,
remis) and of ``fenn.md``; translations come from the catalogs
(:mod:`companion.i18n`).

Example::

    >>> from companion.fenn import BlackThrow, Fenn, Step
    >>> from companion.i18n import set_language
    >>> set_language("en")
    >>> g = Fenn(["Anna", "Ben"])
    >>> prompt(g)
    'Throw the black die: 6, blue begins; 4, red begins.'
    >>> g.apply(BlackThrow(6)); prompt(g)
    'Anna: move blue 1 or 2 fields.'
    >>> g.apply(Step(2, 2)); prompt(g)
    'Field 2 shows 2: move again or end your turn.'
    >>> blocked_text(g, 1)
    'Field 1 is where the turn started: going back is a null move.'
"""

from __future__ import annotations

from vision.reasons import FennReason

from .fenn import COLOURS, BlackThrow, EndTurn, Fenn, Pass, SetBlack, Step, Turn
from .game import Termination
from .i18n import _
from .prompts import reason_text

__all__ = ["verdict_text", "hints_text",
           "colour_name", "prompt", "blocked_text", "hint_text", "outcome_text", "undo_text", "turn_log",
           "repetition_text", "stuck"]


def colour_name(colour: int | str) -> str:
    """"blue", "red" or "black" (a seat 0/1 or the word) in the language in use."""
    word = COLOURS[colour] if isinstance(colour, int) else colour
    return {"blue": _("blue"), "red": _("red"), "black": _("black")}[word]


def stuck(game: Fenn) -> bool:
    """True when the player to move cannot step at the start of the turn (F12)."""
    return not game.is_over and game.prompt_state()["phase"] == "turn" and not game.legal_steps()


def prompt(game: Fenn) -> str:
    """What the players do now: throw the black die, move, go on or end the turn, set the black die, pass."""
    if game.is_over:
        return outcome_text(game)
    st = game.prompt_state()
    if st["phase"] == "start":
        if game.events:
            return _("The black die shows {n}: throw it again (6, blue begins; 4, red begins).").format(
                n=game.events[-1].value)
        return _("Throw the black die: 6, blue begins; 4, red begins.")
    mover = st["to_move"]
    name, field = game.players[mover], game.position().dice[mover][0]
    if st["phase"] == "turn":
        if stuck(game):
            if game.settings["stuck"] == "lose":
                return _("{name} cannot step and loses.").format(name=name)
            return _("{name} cannot step: pass.").format(name=name)
        return _("{name}: move {colour} 1 or 2 fields.").format(name=name, colour=colour_name(mover))
    if st["pasch"]:
        return _("Pasch: set the black die, or end your turn.")
    return _("Field {field} shows {field}: move again or end your turn.").format(field=field)


def repetition_text(game: Fenn) -> str:
    """"This position stands for the second time: …" when it repeats (F13), else ""."""
    if game.is_over or game.repetition < 2:
        return ""
    return _("This position stands for the second time: the third time is a draw.")


def blocked_text(game: Fenn, field: int) -> str:
    """Why the player to move cannot step to ``field`` now (F5, F6, F10), or "" when they can."""
    st = game.prompt_state()
    if game.is_over or st["phase"] == "start":
        return ""
    if any(s.field == field for s in game.legal_steps()):
        return ""
    mover = st["to_move"]
    pos = game.position()
    here, other = pos.dice[mover], pos.dice[1 - mover]
    if st["phase"] == "options" and not st["extra"]:
        return _("After a Pasch the turn goes on only with the black die.")
    if field == here[0]:
        return _("The die stands on field {field}.").format(field=field)
    if field == game.turn_start:
        return _("Field {field} is where the turn started: going back is a null move.").format(field=field)
    if abs(field - here[0]) > 2:
        return _("A step goes 1 or 2 fields.")
    if field == other[0]:
        return _("Field {field} is taken by the {colour} die.").format(field=field, colour=colour_name(1 - mover))
    if field == pos.black:
        return _("Field {field} is blocked by the black die's {n}.").format(field=field, n=pos.black)
    if field == other[1]:
        return _("Field {field} is blocked by the {colour} die's {n}.").format(
            field=field, colour=colour_name(1 - mover), n=other[1])
    return ""


def hint_text(value: str, plies: int | None) -> str:
    """A turn's value for the player: "wins in 3", "keeps the draw", "loses in 5" (plies of both players)."""
    if value == "win":
        return _("wins in {n}").format(n=plies) if plies > 1 else _("wins now")
    if value == "loss":
        return _("loses in {n}").format(n=plies)
    return _("keeps the draw")


def outcome_text(game: Fenn) -> str:
    """How the game ended: the winner and why, or the draw."""
    o = game.outcome()
    if o is None:
        return ""
    if o.termination is Termination.REPETITION:
        return _("Draw: the same position for the third time.")
    name = game.players[o.winner]
    if o.termination is Termination.STUCK:
        return _("{name} wins: {other} could not step.").format(name=name, other=game.players[1 - o.winner])
    goal = (9, 1)[o.winner]
    return _("{name} wins: {colour} reached field {field}.").format(name=name, colour=colour_name(o.winner),
                                                                     field=goal)


def undo_text(game: Fenn) -> str | None:
    """The question before an undo ("Undo Anna's step to field 4?"), or None when there is nothing to undo."""
    if not game.events:
        return None
    before = game.copy()
    last = before.undo()
    mover = before.position().to_move
    name = before.players[mover]
    if isinstance(last, BlackThrow):
        return _("Undo the black die's throw {n}?").format(n=last.value)
    if isinstance(last, (Step, Turn)):
        return _("Undo {name}'s move to field {field}?").format(name=name, field=last.field)
    if isinstance(last, SetBlack):
        return _("Undo setting the black die to {n}?").format(n=last.top)
    if isinstance(last, EndTurn):
        return _("Undo the end of {name}'s turn?").format(name=name)
    return _("Undo {name}'s pass?").format(name=name)


def turn_log(game: Fenn) -> list[str]:
    """The moves of the game, one line per turn: "3. Anna (blue): 1 → 2 → 4, top 7; black 6 → 2"."""
    g = Fenn(game.players, first=game.first, **game.settings)
    lines: list[str] = []
    cur: list[str] = []
    mover = None
    n = 0

    def close():
        nonlocal cur, n
        if cur:
            n += 1
            # TRANSLATORS: one line of the moves: turn number, player, colour, the steps ("1 → 2 → 4, top 7").
            lines.append(_("{n}. {name} ({colour}): {moves}").format(
                n=n, name=game.players[mover], colour=colour_name(mover), moves="".join(cur)))
        cur = []

    for e in game.events:
        before = g.position()
        if g.prompt_state()["phase"] == "turn":
            close()
            mover = before.to_move
        g.apply(e)
        after = g.position()
        if isinstance(e, BlackThrow):
            lines.append(_("Black die thrown: {n}").format(n=e.value))
        elif isinstance(e, (Step, Turn)):
            if not cur:
                cur.append(str(before.dice[mover][0]))
            cur.append(f" \u2192 {after.dice[mover][0]}")
            if g.is_over or g.prompt_state()["phase"] == "turn" or isinstance(e, Turn):
                cur.append(", " + _("top {n}").format(n=after.dice[mover][1]))
            if after.black != before.black:  # turned in a whole turn (the camera's, the demo's): a Pasch (F9)
                cur.append("; " + _("Pasch: black {a} \u2192 {b}").format(a=before.black, b=after.black))
        elif isinstance(e, SetBlack):
            cur.append(", " + _("top {n}").format(n=after.dice[mover][1]))
            cur.append("; " + _("Pasch: black {a} \u2192 {b}").format(a=before.black, b=e.top))
        elif isinstance(e, EndTurn):
            cur.append(", " + _("top {n}").format(n=after.dice[mover][1]))
        elif isinstance(e, Pass):
            cur.append(_("pass"))
    close()
    return lines


def hints_text(used: dict[str, int]) -> str:
    """"Hints: Anna 2, Ben 0" (``used``: hints asked for by player)."""
    return _("Hints: {used}").format(used=", ".join(f"{n} {k}" for n, k in used.items()))


def verdict_text(game: Fenn, verdict) -> str:
    """What the players are told when the camera's read of the board is not taken
    (a :class:`companion.fenn_referee.Verdict` of kind ``"ask"``)."""
    if FennReason.OTHER_SET in {FennReason(r) for r in verdict.reasons}:
        # F1: every die shows a face of the set with blue and red swapped; the screen offers the switch.
        return _("Blue and red seem the other way round: is the set the other kind?")
    if verdict.reasons:
        return _("Could not read the board: {why}. Put the dice straight.").format(
            why="; ".join(reason_text(FennReason(r)) for r in verdict.reasons))
    seen = verdict.seen or {}
    pos = game.position()
    mover = pos.to_move
    if verdict.rule == "start":
        return _("Before the start the blue die stands on field 1 and the red one on field 9, both showing 5.")
    if verdict.rule == "mid_turn":
        return _("This turn began on the screen: finish it there (End turn).")
    if verdict.rule == "other_moved":
        return _("The {other} die moved, but {colour} is to move: put it back.").format(
            other=colour_name(1 - mover), colour=colour_name(mover))
    field, top = seen.get(COLOURS[mover], (None, None))
    black = seen.get("black")
    words = dict(colour=colour_name(mover), other=colour_name(1 - mover), field=field, top=top, black=black,
                 was=pos.black)
    why = {
        "no_face": _("The {colour} die has no face {top}."),
        "taken": _("{colour} may not stand on field {field}: the {other} die stands there."),
        "null_move": _("{colour} may not end the turn on field {field}, where it began (null move)."),
        "blocked_other": _("{colour} may not stand on field {field}: the {other} die shows {field}."),
        "blocked_black": _("{colour} may not stand on field {field}: the black die shows {was}."),
        "no_pasch": _("The black die is turned only after a Pasch: {colour} shows {top}, the black die showed {was}."),
    }.get(verdict.rule)
    if why is None:
        return _("No legal turn leads to field {field} with {top} on top (black die {black}): put the dice back "
                 "or correct on the screen.").format(field=field, top=top, black=black)
    why = why.format(**words)
    return _("{rule} Put the dice back or correct on the screen.").format(rule=why[:1].upper() + why[1:])
