"""Durchmarsch (Reinhard Staupe, KENDi 2023): a pure rules engine.

The engine knows nothing of cameras, buttons or screens. It is driven by two
kinds of event, a :class:`Throw` (the pip values of the dice thrown) and a
:class:`Decision` (stop / continue), and answers every question the table asks:
whose turn it is, which row, the target, how many dice to throw, whether a
decision is due, every sheet, the winner, and which dice formed the target.

Example::

    >>> game = Durchmarsch(["Sarah", "Tim", "Maria"])
    >>> game.target, game.dice_to_throw
    (10, 8)
    >>> result = game.throw([6, 4, 1, 2, 3, 5, 5, 2])
    >>> result.success, result.formed_by
    (True, (0, 1))
    >>> game.phase
    <Phase.DECIDE: 'decide'>
    >>> game.decide("continue")
    >>> game.target, game.dice_to_throw
    (9, 7)

Source of every rule: ``shared/rules/durchmarsch.md`` (the rulebook as this
project implements it, with rulings R1-R8); the rulebook itself is kept in four
languages in ``shared/seeds/durchmarsch-{de,en,fr,it}.txt``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable, Sequence

from . import game as _game
from .game import Outcome, Termination
from .sheet import MISTHROWS_TO_STRIKE, NUMBERS, ROWS, Row, Sheet  # noqa: F401  (public here too)

__all__ = [
    "ROWS",
    "NUMBERS",
    "MISTHROWS_TO_STRIKE",
    "FULL_DICE",
    "MIN_DICE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "Phase",
    "Decision",
    "Throw",
    "DecisionEvent",
    "Row",
    "Sheet",
    "ThrowResult",
    "Outcome",
    "Termination",
    "ThrowDue",
    "DurchmarschError",
    "IllegalThrow",
    "WrongDiceCount",
    "BadDieValue",
    "DecisionDue",
    "DecisionNotDue",
    "GameOver",
    "NothingToUndo",
    "Durchmarsch",
    "form_target",
    "uses_pair",
]

#: Every turn starts with all 8 dice.
FULL_DICE = 8
#: "You never roll less than 5 dice" (rulebook, "Gameplay").
MIN_DICE = 5
#: Durchmarsch is for 2-4 players (ruling R8).
MIN_PLAYERS = 2
MAX_PLAYERS = 4


class Phase(str, enum.Enum):
    """What the game waits for: a throw, a stop/continue decision, or nothing."""

    ROLL = "roll"
    DECIDE = "decide"
    OVER = "over"


class Decision(str, enum.Enum):
    """The roller's choice after a success (rulebook, "Gameplay")."""

    STOP = "stop"
    CONTINUE = "continue"


@dataclass(frozen=True)
class Throw:
    """A throw: the pip values (1-6) of the dice thrown, in any order."""

    values: tuple[int, ...]


@dataclass(frozen=True)
class DecisionEvent:
    """A stop/continue decision, as recorded on the event stack."""

    decision: Decision


Event = Throw | DecisionEvent


@dataclass(frozen=True)
class ThrowResult:
    """What one throw did.

    ``formed_by`` holds the indices (into the thrown values) of the dice that
    formed the target: two for targets 10-7, one for 6-1, empty on a misthrow.
    """

    player: int
    row: int
    target: int
    values: tuple[int, ...]
    formed_by: tuple[int, ...]
    row_completed: bool = False
    row_struck: bool = False
    eliminated: bool = False

    @property
    def success(self) -> bool:
        """True when the target was formed."""
        return bool(self.formed_by)

    @property
    def misthrow(self) -> bool:
        """True when the target could not be formed."""
        return not self.formed_by


@dataclass(frozen=True)
class ThrowDue:
    """What :meth:`Durchmarsch.legal_events` lists while a throw is due: a
    :class:`Throw` of ``dice`` values, each 1-6 (any values are legal)."""

    dice: int


class DurchmarschError(_game.IllegalEvent):
    """Base class of every illegal event. The game state is left unchanged."""


class IllegalThrow(DurchmarschError, ValueError):
    """A throw that cannot be scored."""


class WrongDiceCount(IllegalThrow):
    """A throw with a number of dice other than the number due (8, 7, 6 or 5)."""

    def __init__(self, got: int, due: int):
        self.got = got
        self.due = due
        super().__init__(f"threw {got} dice, but {due} dice are due")


class BadDieValue(IllegalThrow):
    """A die value that is not a whole number 1-6."""


class DecisionDue(DurchmarschError):
    """A throw came while a stop/continue decision is due (ruling R6)."""


class DecisionNotDue(DurchmarschError):
    """A stop/continue decision came while none is due."""


class GameOver(DurchmarschError):
    """Any event after the game ended."""


class NothingToUndo(DurchmarschError, _game.NothingToUndo):
    """Undo with no event on the stack."""


def uses_pair(target: int) -> bool:
    """True when ``target`` is formed by the sum of exactly two dice (10-7), else one die (6-1)."""
    return target >= 7


def form_target(values: Sequence[int], target: int) -> tuple[int, ...]:
    """Find dice that form ``target`` (ruling R4).

    Targets 10-7 need the sum of exactly two different dice; targets 6-1 need one
    die showing the value. Returns the indices into ``values`` of the first dice
    found (lowest indices first), or ``()`` when the target cannot be formed.

    >>> form_target([1, 6, 3, 4], 10)
    (1, 3)
    >>> form_target([5, 5], 5)
    (0,)
    >>> form_target([5], 10)
    ()
    """
    if uses_pair(target):
        for i in range(len(values)):
            for j in range(i + 1, len(values)):
                if values[i] + values[j] == target:
                    return (i, j)
        return ()
    for i, v in enumerate(values):
        if v == target:
            return (i,)
    return ()


def _check_values(values: Iterable[int]) -> tuple[int, ...]:
    try:
        vals = tuple(values)
    except TypeError:
        raise BadDieValue(f"a throw must be a list of die values, not {values!r}") from None
    for v in vals:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise BadDieValue(f"die value {v!r} is not a whole number 1-6")
    return vals


@_game.register
class Durchmarsch:
    """A game of Durchmarsch for 2-4 players, driven by events.

    ``players`` are the names in seating order (ruling R5); ``first`` is the
    seat index of the first roller (the app draws it at random).

    Every event is checked before it changes anything: an illegal one raises a
    :class:`DurchmarschError` subclass with a clear message and leaves the state
    exactly as it was. :meth:`undo` takes back the last event (the event stack
    is :attr:`events`).

    >>> g = Durchmarsch(["Sarah", "Tim"])
    >>> g.throw([1, 1, 1, 1, 1, 1, 1, 2]).misthrow
    True
    >>> g.current_player, g.sheets[0].row
    (1, 1)

    Raises ``ValueError`` for fewer than 2 or more than 4 players (ruling R8),
    an empty or repeated name, or a bad ``first``.
    """

    #: The name stored with a game and named in scripts (:mod:`companion.game`).
    name = "durchmarsch"

    def __init__(self, players: Sequence[str], *, first: int = 0):
        names = list(_game.seats(players))
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise ValueError(
                f"Durchmarsch is for {MIN_PLAYERS}-{MAX_PLAYERS} players, got {len(names)}"
            )
        if any(not n for n in names):
            raise ValueError("every player needs a name")
        if len(set(names)) != len(names):
            raise ValueError(f"player names must differ: {names}")
        if not isinstance(first, int) or not 0 <= first < len(names):
            raise ValueError(f"first roller must be a seat index 0-{len(names) - 1}, got {first!r}")
        self._names = tuple(names)
        self._first = first
        self._events: list[Event] = []
        self._reset()

    # -- state ------------------------------------------------------------
    def _reset(self) -> None:
        self._sheets = [Sheet(n) for n in self._names]
        self._player = self._first
        self._dice = FULL_DICE
        self._phase = Phase.ROLL
        self._outcome: Outcome | None = None
        self._last: ThrowResult | None = None
        self._turns = 1

    @property
    def players(self) -> tuple[str, ...]:
        """The player names in seating order."""
        return self._names

    @property
    def options(self) -> dict:
        """The settings the game was made with: Durchmarsch has none."""
        return {}

    @property
    def first(self) -> int:
        """Seat index of the first roller."""
        return self._first

    @property
    def events(self) -> tuple[Event, ...]:
        """Every accepted event, oldest first (the move stack)."""
        return tuple(self._events)

    @property
    def sheets(self) -> tuple[Sheet, ...]:
        """Every player's sheet, in seating order."""
        return tuple(self._sheets)

    @property
    def phase(self) -> Phase:
        """What the game waits for now."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """True once somebody has won."""
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        """How the game ended (:class:`companion.game.Outcome`: the winner's seat and a
        :class:`~companion.game.Termination`, ``ROW_COMPLETED`` or ``LAST_PLAYER``),
        or None while the game goes on."""
        return self._outcome

    @property
    def to_act(self) -> int | None:
        """Seat index of the player to act (the roller), or None once over."""
        return self.current_player

    def legal_events(self) -> list:
        """The events legal now: ``[ThrowDue(n)]`` while a throw of ``n`` dice is
        due (any values 1-6), both decisions (:class:`DecisionEvent`) while one
        is due, ``[]`` once over."""
        if self.is_over:
            return []
        if self._phase is Phase.DECIDE:
            return [DecisionEvent(Decision.STOP), DecisionEvent(Decision.CONTINUE)]
        return [ThrowDue(self._dice)]

    def prompt_state(self) -> dict:
        """A short state for the screen: ``phase`` ("roll", "decide", "over"),
        ``player`` (the roller's name, None once over), ``target``, ``dice`` due
        and, once over, ``winner``."""
        return {
            "phase": self._phase.value,
            "player": None if self.is_over else self._names[self._player],
            "target": self.target,
            "dice": self.dice_to_throw,
            "winner": self.winner,
        }

    @staticmethod
    def event_to_json(event) -> dict:
        """``Throw``/``DecisionEvent`` → ``{"throw": [...]}`` / ``{"decision": "stop"}``
        (a dict in that form is returned as it is). Raises ``TypeError`` for anything else."""
        if isinstance(event, Throw):
            return {"throw": list(event.values)}
        if isinstance(event, DecisionEvent):
            return {"decision": event.decision.value}
        if isinstance(event, dict) and ("throw" in event or "decision" in event):
            return event
        raise TypeError(f"not a Durchmarsch event: {event!r}")

    @staticmethod
    def event_from_json(data: dict):
        """The inverse of :meth:`event_to_json`. Raises ``ValueError`` for anything else."""
        if isinstance(data, dict) and "throw" in data:
            return Throw(tuple(data["throw"]))
        if isinstance(data, dict) and "decision" in data:
            return DecisionEvent(Decision(data["decision"]))
        raise ValueError(f"not a Durchmarsch event: {data!r}")

    @property
    def winner(self) -> str | None:
        """The winner's name, or None while the game goes on."""
        return None if self._outcome is None else self._names[self._outcome.winner]

    @property
    def current_player(self) -> int | None:
        """Seat index of the roller, or None once the game is over."""
        return None if self.is_over else self._player

    @property
    def current_row(self) -> int | None:
        """Row index (0 = top) the roller plays, or None once the game is over."""
        return None if self.is_over else self._sheets[self._player].row

    @property
    def target(self) -> int | None:
        """The number the roller must form next (10...1), or None once over."""
        if self.is_over:
            return None
        sheet = self._sheets[self._player]
        return sheet.rows[sheet.row].target

    @property
    def dice_to_throw(self) -> int | None:
        """How many dice the roller throws next (8, 7, 6 or 5), or None once over.

        While a decision is due, this is the count for the next throw should the
        roller continue.
        """
        if self.is_over:
            return None
        if self._phase is Phase.DECIDE:
            return max(MIN_DICE, self._dice - 1)
        return self._dice

    @property
    def decision_due(self) -> bool:
        """True when the roller must say stop or continue."""
        return self._phase is Phase.DECIDE

    @property
    def last_result(self) -> ThrowResult | None:
        """The result of the most recent throw (None before the first)."""
        return self._last

    @property
    def turn_number(self) -> int:
        """How many turns have begun (1 at the start)."""
        return self._turns

    # -- events -----------------------------------------------------------
    def throw(self, values: Iterable[int]) -> ThrowResult:
        """Score a throw of the roller's dice.

        ``values``: pip values 1-6, one per die thrown, in any order.

        Raises :class:`GameOver` after the end, :class:`DecisionDue` while a
        stop/continue decision is due, :class:`BadDieValue` for a value that is
        not 1-6 and :class:`WrongDiceCount` when the count is not
        :attr:`dice_to_throw`. The state is unchanged when it raises.
        """
        self.expect_throw()
        vals = _check_values(values)
        if len(vals) != self._dice:
            raise WrongDiceCount(len(vals), self._dice)
        result = self._apply_throw(vals)
        self._events.append(Throw(vals))
        return result

    def expect_throw(self) -> int:
        """The number of dice due for a throw now.

        Raises :class:`GameOver` after the end and :class:`DecisionDue` while a
        stop/continue decision is due.
        """
        if self.is_over:
            raise GameOver(f"the game is over: {self.winner} won")
        if self._phase is Phase.DECIDE:
            raise DecisionDue(
                f"{self._names[self._player]} must decide stop or continue before throwing again"
            )
        return self._dice

    def decide(self, decision: Decision | str) -> None:
        """Apply the roller's stop/continue decision after a success.

        Raises :class:`GameOver` after the end, :class:`DecisionNotDue` when no
        decision is due, ``ValueError`` for anything but stop/continue.
        """
        if self.is_over:
            raise GameOver(f"the game is over: {self.winner} won")
        try:
            d = Decision(decision)
        except ValueError:
            raise ValueError(f"a decision is 'stop' or 'continue', not {decision!r}") from None
        if self._phase is not Phase.DECIDE:
            raise DecisionNotDue(
                f"no decision is due: {self._names[self._player]} must throw {self._dice} dice"
            )
        self._apply_decision(d)
        self._events.append(DecisionEvent(d))

    def apply(self, event: Event) -> ThrowResult | None:
        """Apply a recorded :class:`Throw` or :class:`DecisionEvent`."""
        if isinstance(event, Throw):
            return self.throw(event.values)
        if isinstance(event, DecisionEvent):
            self.decide(event.decision)
            return None
        raise TypeError(f"not a Durchmarsch event: {event!r}")

    def undo(self) -> Event:
        """Take back the last event and return it.

        Raises :class:`NothingToUndo` when no event has been played.
        """
        if not self._events:
            raise NothingToUndo("nothing to undo: no event has been played")
        last = self._events.pop()
        events = self._events
        self._events = []
        self._reset()
        for e in events:
            self.apply(e)
        return last

    def copy(self) -> "Durchmarsch":
        """An independent game in the same state (events replayed)."""
        g = Durchmarsch(self._names, first=self._first)
        for e in self._events:
            g.apply(e)
        return g

    # -- internals --------------------------------------------------------
    def _apply_throw(self, vals: tuple[int, ...]) -> ThrowResult:
        p = self._player
        sheet = self._sheets[p]
        row_idx = sheet.row
        row = sheet.rows[row_idx]
        target = row.target
        assert target is not None  # a complete row ends the game at once
        used = form_target(vals, target)
        if used:
            new_row = Row(row.marked + 1, row.misthrows)
            self._set_row(p, row_idx, new_row)
            if new_row.complete:
                self._outcome = Outcome(Termination.ROW_COMPLETED, p)
                self._phase = Phase.OVER
                result = ThrowResult(p, row_idx, target, vals, used, row_completed=True)
            else:
                self._phase = Phase.DECIDE
                result = ThrowResult(p, row_idx, target, vals, used)
        else:
            new_row = Row(row.marked, row.misthrows + 1)
            self._set_row(p, row_idx, new_row)
            sheet = self._sheets[p]
            nxt = self._next_row(sheet, row_idx)
            self._sheets[p] = Sheet(sheet.name, sheet.rows, nxt if nxt is not None else row_idx)
            eliminated = self._sheets[p].eliminated
            result = ThrowResult(
                p, row_idx, target, vals, (), row_struck=new_row.struck, eliminated=eliminated
            )
            self._end_turn()
        self._last = result
        return result

    def _apply_decision(self, d: Decision) -> None:
        if d is Decision.STOP:
            self._end_turn()
        else:
            self._dice = max(MIN_DICE, self._dice - 1)
            self._phase = Phase.ROLL

    def _set_row(self, p: int, idx: int, row: Row) -> None:
        s = self._sheets[p]
        rows = list(s.rows)
        rows[idx] = row
        self._sheets[p] = Sheet(s.name, tuple(rows), s.row)

    @staticmethod
    def _next_row(sheet: Sheet, idx: int) -> int | None:
        """The next row below ``idx`` that is not struck, cyclically (rulings R1, R2).

        If every other row is struck, the current row is kept while it still
        lives; None when all four rows are struck.
        """
        for k in range(1, ROWS + 1):
            j = (idx + k) % ROWS
            if not sheet.rows[j].struck:
                return j
        return None

    def _end_turn(self) -> None:
        alive = [i for i, s in enumerate(self._sheets) if not s.eliminated]
        if len(alive) == 1:
            self._outcome = Outcome(Termination.LAST_PLAYER, alive[0])
            self._phase = Phase.OVER
            return
        n = len(self._sheets)
        for k in range(1, n + 1):
            j = (self._player + k) % n
            if not self._sheets[j].eliminated:
                self._player = j
                break
        self._dice = FULL_DICE
        self._phase = Phase.ROLL
        self._turns += 1

    # -- views ------------------------------------------------------------
    def to_dict(self) -> dict:
        """The state as plain JSON-ready data, in the replay output format of issue 2."""
        players = [s.to_dict() for s in self._sheets]
        turn = None
        if not self.is_over:
            turn = {
                "player": self._names[self._player],
                "row": self.current_row,
                "target": self.target,
                "dice": self.dice_to_throw,
                "phase": self._phase.value,
            }
        return {
            "players": players,
            "winner": self.winner,
            "finished": self.is_over,
            "turn": turn,
        }

    def __repr__(self) -> str:
        if self.is_over:
            return f"<Durchmarsch over, winner={self.winner!r}>"
        return (
            f"<Durchmarsch roller={self._names[self._player]!r} row={self.current_row} "
            f"target={self.target} dice={self._dice} phase={self._phase.value}>"
        )
