"""What the screen says at the table, in the players' language.

Pure functions of a :class:`~companion.durchmarsch.Durchmarsch` game (no Kivy):
the prompt for what to do now, the words for a throw's result, the question
for a read that cannot be scored, and the description of the event an undo
would take back. Wording follows the English rulebook (throw, target, set
aside, stop/continue, misthrow, row); translations come from the catalogs
(:mod:`companion.i18n`).

Example::

    >>> from companion.durchmarsch import Durchmarsch
    >>> from companion.i18n import set_language
    >>> set_language("en")
    >>> g = Durchmarsch(["Sarah", "Tim"])
    >>> prompt(g)
    'Sarah: throw 8 dice for 10, two dice that add up to 10'
    >>> result_text(g.throw([6, 4, 1, 1, 1, 1, 1, 1]))
    '6 + 4 forms 10!'
    >>> prompt(g)
    'Sarah: stop or continue?'
    >>> g.decide("continue"); print(prompt(g))
    Sarah: put one die aside.
    Then throw 7 dice for 9, two dice that add up to 9
"""

from __future__ import annotations

from vision.reasons import Doubt, FennReason, Reason

from .durchmarsch import (
    MIN_DICE,
    DecisionEvent,
    Durchmarsch,
    Throw,
    ThrowResult,
    uses_pair,
)
from .i18n import _

__all__ = ["prompt", "throw_text", "outcome_text", "result_text", "ask_text", "undo_text", "must_set_aside",
           "reason_text", "doubt_text", "seen_text"]


def must_set_aside(game: Durchmarsch) -> bool:
    """True when the roller has just continued and must put one die aside
    (the last throw had more than 5 dice; rulebook: "put any die aside")."""
    ev = game.events
    if game.is_over or game.decision_due or len(ev) < 2 or not isinstance(ev[-1], DecisionEvent):
        return False
    if ev[-1].decision.value != "continue":
        return False
    return isinstance(ev[-2], Throw) and len(ev[-2].values) > MIN_DICE


def throw_text(name: str, n: int, target: int) -> str:
    """"Sarah: throw 7 dice for 9, two dice that add up to 9" (or "one die showing 4")."""
    if uses_pair(target):
        return _("{name}: throw {n} dice for {target}, two dice that add up to {target}").format(
            name=name, n=n, target=target)
    return _("{name}: throw {n} dice for {target}, one die showing {target}").format(name=name, n=n, target=target)


def prompt(game: Durchmarsch, *, aside_done: bool = False) -> str:
    """What the players do now: throw (with the dice count and target), put a
    die aside first, decide stop or continue, or who won. ``aside_done``: the
    die was put aside already (a throw after it was undone: the roller holds
    the dice due), so only the throw is asked."""
    if game.is_over:
        return _("{name} wins!").format(name=game.winner)
    name = game.players[game.current_player]
    if game.decision_due:
        return _("{name}: stop or continue?").format(name=name)
    n, t = game.dice_to_throw, game.target
    if must_set_aside(game) and not aside_done:
        then = _("Then throw {n} dice for {target}, two dice that add up to {target}") if uses_pair(t) else \
            _("Then throw {n} dice for {target}, one die showing {target}")
        return _("{name}: put one die aside.").format(name=name) + "\n" + then.format(n=n, target=t)
    return throw_text(name, n, t)


def outcome_text(values, formed, target: int) -> str:
    """"6 + 4 forms 10!" for the dice at indices ``formed`` of ``values`` (the
    larger first, as the rulebook writes them), or "Misthrow: no 10." when
    ``formed`` is empty."""
    if formed:
        dice = " + ".join(str(v) for v in sorted((values[i] for i in formed), reverse=True))
        return _("{dice} forms {target}!").format(dice=dice, target=target)
    return _("Misthrow: no {target}.").format(target=target)


def result_text(result: ThrowResult, players: tuple[str, ...] | None = None) -> str:
    """The words for a scored throw: "6 + 4 forms 10!" or "Misthrow: no 4." with
    "Row struck out." and "Tim is out of the game." when those happened."""
    text = outcome_text(result.values, result.formed_by, result.target)
    if result.success:
        return text
    if result.row_struck:
        text += " " + _("Row struck out.")
    if result.eliminated and players is not None:
        text += " " + _("{name} is out of the game.").format(name=players[result.player])
    return text


def reason_text(reason: Reason | FennReason) -> str:
    """The words for one of the reader's codes: a :class:`vision.reasons.Reason`
    (a throw in the tray) or a :class:`vision.reasons.FennReason` (the Fenn
    board); the one place they are put into words. Raises ``KeyError`` for an
    unknown code."""
    if isinstance(reason, FennReason):
        board = {
            FennReason.MISSING_DIE: _("not all three dice are seen"),
            FennReason.COLOURS: _("the dice's colours are unclear"),
            FennReason.NOT_A_FACE: _("a die shows a number it does not have"),
            FennReason.OTHER_SET: _("blue and red seem the other way round: is the set the other kind? (settings)"),
            FennReason.BETWEEN_FIELDS: _("a die stands between two fields"),
            FennReason.OFF_BOARD: _("a die lies off its place"),
            FennReason.HARD_TO_READ: _("a die is hard to read"),
            FennReason.FOREIGN: _("something is over the board"),
            FennReason.STRAY_DIE: _("a die that is not one of the game's lies on the table (left out)"),
        }
        return board[reason]
    words = {
        Reason.VETOED: _("dice read surely were doubted by the learned face classifier"),
        Reason.REREAD: _("dice were read again by the learned face classifier"),
        Reason.NO_DIE: _("readings were taken for no die by the learned face classifier"),
        Reason.LEARNED_ONLY: _("dice were found only by the learned face classifier"),
        Reason.NO_PIPS: _("readings showed no pips (a hole, a counter) and were left out"),
        Reason.HARD_TO_READ: _("dice are hard to read"),
        Reason.MIXED_SIZES: _("the dice read are not all of one size"),
        Reason.UNEXPLAINED: _("something die-sized could not be read"),
        Reason.FOREIGN: _("something else is in the tray"),
        Reason.WRONG_COUNT: _("not the number of dice thrown"),
        Reason.NO_DICE: _("no dice"),
    }
    return words[Reason(reason)]


def doubt_text(doubt: Doubt) -> str:
    """The words for why one die is never sure (a :class:`vision.reasons.Doubt`)."""
    words = {
        Doubt.BY_COLOUR: _("its pips differ from the face in colour only"),
        Doubt.FRONT_FACE: _("it may be another die's front face"),
        Doubt.OFF_CENTRE: _("a lone pip off its face's middle"),
        Doubt.RIVAL_READ: _("another reading of its place saw other pips"),
        Doubt.LOOSE_FIT: _("its pips fit its face only loosely"),
        Doubt.SIDE_FACE: _("it may be a side face, seen at a slant"),
        Doubt.PIPS_ONLY: _("found from its pips alone"),
        Doubt.LEARNED: _("found or read by the learned classifier alone"),
        Doubt.VETOED: _("the learned classifier doubts its value"),
    }
    return words[Doubt(doubt)]


def seen_text(why) -> str:
    """The words for why the watcher at rest scored, asked about or ignored a
    settled scene (a :class:`companion.watch.Why` code)."""
    from .watch import Why

    words = {
        Why.NO_GAME: _("no game"),
        Why.DECISION_DUE: _("a decision is due"),
        Why.GAME_OVER: _("the game is over"),
        Why.MOVED_ON: _("the game moved on"),
        Why.EMPTY: _("the tray is empty"),
        Why.NOT_MOVED: _("the dice of the last throw, not moved"),
        Why.NOT_SURE: _("not sure of the read"),
        Why.REFUSED: _("the rules refuse the throw"),
        Why.SCORED: _("read sure, count right"),
    }
    return words[Why(why)]


def ask_text(values, expected: int, reasons=()) -> str:
    """The question for a read that cannot be scored as it is.

    ``values``: the dice values read; ``expected``: the dice count due;
    ``reasons``: the reader's :class:`vision.reasons.Reason` codes.
    Short enough for the 800×480 prompt.
    """
    if len(values) != expected:
        return _("Read {got} dice, but {due} were thrown. Nudge the dice, or correct them.").format(
            got=len(values), due=expected)
    if Reason.FOREIGN in reasons:
        return _("Something else is in the tray. Clear it, or correct the dice.")
    return _("Not sure of every die. Nudge the dice, or correct them.")


def undo_text(game: Durchmarsch) -> str | None:
    """The question before an undo ("Undo Tim's throw 6 4 2 1 1?"), or None
    when there is nothing to undo."""
    if not game.events:
        return None
    before = game.copy()
    last = before.undo()
    name = before.players[before.current_player]
    if isinstance(last, Throw):
        return _("Undo {name}'s throw {values}?").format(name=name, values=" ".join(map(str, last.values)))
    if last.decision.value == "stop":
        return _("Undo {name}'s stop?").format(name=name)
    return _("Undo {name}'s continue?").format(name=name)


def storage_text(repair, hidden: int = 0) -> str | None:
    """What the start screen says about damaged storage, or None when there is
    nothing to say. ``repair``: the store's :class:`companion.storage_repair.Repair`
    (None: the database opened as it was); ``hidden``: how many games are not
    shown because their stored row cannot be read."""
    import os

    parts = []
    if repair is not None:
        parts.append(_("The saved games were damaged. A copy is kept as {file}. "
                       "Games carried over: {carried}; games that could not be read: {lost}.").format(
            file=os.path.basename(repair.kept), carried=repair.carried, lost=repair.lost))
    if hidden:
        parts.append(_("Saved games that cannot be read: {n}. They are not shown; the others are.").format(n=hidden))
    return " ".join(parts) or None
