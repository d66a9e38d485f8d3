"""Fenn (mgf. winkelmann): two players move Miwin's dice on a board of 9 fields.

The rules as this project implements them, with rulings F1–F15, are in the
shared rules file ``fenn.md``; every check below names the ruling it enforces.
A pure, event-driven engine behind :class:`companion.game.Game`: events are
checked (a :class:`FennError` naming the rule, the state unchanged), undone
through the event stack, and the game ends with an :class:`Outcome`.

Example (the third worked example: blue steps over red onto 9 and wins)::

    >>> g = Fenn(["Anna", "Ben"])
    >>> g.apply(BlackThrow(6))                       # F3: 6, blue begins
    >>> g.set_position(blue=(7, 2), red=(8, 1), black=3)
    >>> g.apply(Step(9, 1)); g.winner
    'Anna'

The solver is :mod:`companion.fenn_solver`, the hints :mod:`companion.fenn_hints`,
the words on the screen :mod:`companion.fenn_prompts`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from . import game as _game
from .game import Outcome, Termination

__all__ = ["Fenn", "BlackThrow", "Step", "SetBlack", "EndTurn", "Pass", "Turn", "FennError", "whole", "DICE", "BLACK_FACES",
           "Position", "COLOURS", "GOAL"]

#: The faces of Miwin's dice III and IV by colour (F1): "miwin" as on the author's site, "wikipedia" swapped.
DICE = {
    "miwin": {"blue": (1, 2, 5, 6, 7, 9), "red": (1, 3, 4, 5, 8, 9)},
    "wikipedia": {"blue": (1, 3, 4, 5, 8, 9), "red": (1, 2, 5, 6, 7, 9)},
}
#: The black die, V (F1).
BLACK_FACES = (2, 3, 4, 6, 7, 8)
#: Opposite faces of dice III and IV, for ``faces = "tip"`` (F7).
_OPPOSITE_BY_FACES = {
    (1, 2, 5, 6, 7, 9): {1: 9, 9: 1, 2: 7, 7: 2, 5: 6, 6: 5},
    (1, 3, 4, 5, 8, 9): {1: 9, 9: 1, 3: 8, 8: 3, 4: 5, 5: 4},
}
BLUE, RED = 0, 1
COLOURS = ("blue", "red")
GOAL = (9, 1)  # F4: blue wins on 9, red on 1
START = ((1, 5), (9, 5))  # F2


def whole(value, what: str) -> int:
    """``value`` when it is a whole number (a JSON integer, not ``true``, ``3.0``
    or ``"3"``); else ``ValueError`` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {str(value)[:20]!r}" if isinstance(value, str)
                         else f"{what} must be a whole number, not {str(value)[:20]}")
    return value


class FennError(_game.IllegalEvent, ValueError):
    """An event the rules of Fenn refuse; the message names the rule (F1–F15)."""


@dataclass(frozen=True)
class BlackThrow:
    """A start throw of the black die (F3), ``value`` its top face."""

    value: int


@dataclass(frozen=True)
class Step:
    """The player to move steps their die to ``field`` (1–9) with ``top`` up (F5–F7)."""

    field: int
    top: int


@dataclass(frozen=True)
class SetBlack:
    """After a Pasch, the black die set to ``top`` (F9); it ends the turn."""

    top: int


@dataclass(frozen=True)
class EndTurn:
    """The player declines a further extra step or Pasch (F11)."""


@dataclass(frozen=True)
class Pass:
    """No step is possible at the start of the turn (F12)."""


@dataclass(frozen=True)
class Turn:
    """A whole turn as the camera sees it (F15): the mover's die ends on ``field``
    with ``top`` up and the black die shows ``black`` (None: unchanged).
    Accepted when some legal turn reaches it; undone as one event."""

    field: int
    top: int
    black: int | None = None


@dataclass(frozen=True)
class Position:
    """Both dice (``(field, top)``), the black die's top and the player to move (0 blue, 1 red)."""

    dice: tuple[tuple[int, int], tuple[int, int]]
    black: int
    to_move: int


class Phase(enum.Enum):
    START = "start"      # the black die is thrown until 4 or 6 (F3)
    TURN = "turn"        # the first step of a turn is due
    OPTIONS = "options"  # after a step: an extra step (F8) or a Pasch (F9) may follow
    OVER = "over"


@_game.register
class Fenn:
    """A game of Fenn between ``players`` (two names; the first plays blue).

    Settings (``[fenn]`` in the config): ``faces`` ``"any"`` (F7) or ``"tip"``;
    ``stuck`` ``"pass"`` (F12) or ``"lose"``; ``dice`` ``"miwin"`` or
    ``"wikipedia"`` (F1). Raises ``ValueError`` for bad players or settings.
    """

    name = "fenn"

    def __init__(self, players, *, first: int = 0, faces: str = "any", stuck: str = "pass", dice: str = "miwin"):
        names = list(_game.seats(players))
        if len(names) != 2 or not all(names) or names[0] == names[1]:
            raise ValueError(f"Fenn is for two players with two names, got {names}")
        if faces not in ("any", "tip") or stuck not in ("pass", "lose") or dice not in DICE:
            raise ValueError(f"bad Fenn settings: faces={faces!r}, stuck={stuck!r}, dice={dice!r}")
        self._names = tuple(names)
        self.first = first
        self.settings = {"faces": faces, "stuck": stuck, "dice": dice}
        self._events: list = []
        self._reset()

    # -- state ----------------------------------------------------------------
    def _reset(self) -> None:
        self._dice = [list(START[BLUE]), list(START[RED])]
        self._black: int | None = None
        self._to_move = BLUE
        self._phase = Phase.START
        self._start_field: int | None = None
        self._extra = self._pasch = False
        self._outcome: Outcome | None = None
        self._seen: dict[Position, int] = {}

    @property
    def players(self) -> tuple[str, ...]:
        return self._names

    @property
    def options(self) -> dict:
        """The settings the game was made with (stored with it: ``faces``, ``stuck``, ``dice``)."""
        return dict(self.settings)

    @property
    def events(self) -> tuple:
        return tuple(self._events)

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def winner(self) -> str | None:
        o = self._outcome
        return None if o is None or o.winner is None else self._names[o.winner]

    @property
    def to_act(self) -> int | None:
        return None if self.is_over or self._phase is Phase.START else self._to_move

    def outcome(self) -> Outcome | None:
        return self._outcome

    def position(self) -> Position:
        """The position now (dice, black die, player to move)."""
        return Position((tuple(self._dice[BLUE]), tuple(self._dice[RED])), self._black or 0, self._to_move)

    @property
    def repetition(self) -> int:
        """How often the position at the start of this turn has stood so far (F13: the third time draws)."""
        return self._seen.get(Position((tuple(self._dice[BLUE]), tuple(self._dice[RED])), self._black or 0,
                                       self._to_move), 0) if self._phase is Phase.TURN else 0

    @property
    def turn_start(self) -> int | None:
        """The field the mover's turn started from (no step may end there: F10), None between turns."""
        return self._start_field if self._phase in (Phase.TURN, Phase.OPTIONS) and not self.is_over else None

    def set_position(self, *, blue, red, black: int, to_move: int = BLUE) -> None:
        """Set up a position at the start of a turn (for examples, hints and tests); clears the events."""
        self._events.clear()
        self._dice = [list(blue), list(red)]
        self._black, self._to_move, self._phase = black, to_move, Phase.TURN
        self._start_field = self._dice[to_move][0]
        self._extra = self._pasch = False
        self._outcome = None
        self._seen = {self.position(): 1}

    def faces(self, colour: int) -> tuple[int, ...]:
        """The faces of the blue (0) or red (1) die under the ``dice`` setting (F1)."""
        return DICE[self.settings["dice"]][COLOURS[colour]]

    # -- rules ----------------------------------------------------------------
    def _blocked(self, mover: int, field: int) -> str | None:
        """Why ``mover`` may not end a step on ``field`` (F6), or None."""
        other = self._dice[1 - mover]
        if field == other[0]:
            return f"field {field} is taken by the {COLOURS[1 - mover]} die (F6)"
        if field == self._black:
            return f"field {field} is blocked by the black die's {self._black} (F6)"
        if field == other[1]:
            return f"field {field} is blocked by the {COLOURS[1 - mover]} die's {other[1]} (F6)"
        return None

    def _step_error(self, step: Step) -> str | None:
        mover = self._to_move
        field, top = self._dice[mover]
        if self._phase is Phase.OPTIONS and not self._extra:
            return "no extra step now: the top does not equal the field (F8)"
        if not (1 <= step.field <= 9) or abs(step.field - field) not in (1, 2):
            return f"a step moves 1 or 2 fields on the board of 9, not from {field} to {step.field} (F5)"
        if step.field == self._start_field:
            return f"back to the field the turn started from, {step.field}, is a null move (F10)"
        why = self._blocked(mover, step.field)
        if why:
            return why
        faces = self.faces(mover)
        if step.top not in faces:
            return f"the {COLOURS[mover]} die has no face {step.top} (F1)"
        if step.top == top:
            return "a step must turn up a new face (F7)"
        if self.settings["faces"] == "tip" and _OPPOSITE_BY_FACES[faces][top] == step.top:
            return f"tipping the die cannot turn up the opposite face {step.top} (F7, faces = tip)"
        return None

    def legal_steps(self) -> list[Step]:
        """Every step the player to move may make now."""
        if self._phase not in (Phase.TURN, Phase.OPTIONS) or (self._phase is Phase.OPTIONS and not self._extra):
            return []
        field = self._dice[self._to_move][0]
        out = []
        for f in (field - 2, field - 1, field + 1, field + 2):
            for t in self.faces(self._to_move):
                s = Step(f, t)
                if 1 <= f <= 9 and self._step_error(s) is None:
                    out.append(s)
        return out

    def legal_events(self) -> list:
        if self.is_over:
            return []
        if self._phase is Phase.START:
            return [BlackThrow(v) for v in BLACK_FACES]
        if self._phase is Phase.TURN:
            return self.legal_steps() or [Pass()]
        out: list = list(self.legal_steps())
        if self._pasch:
            out += [SetBlack(v) for v in BLACK_FACES if v != self._black]
        return out + [EndTurn()]

    # -- events ---------------------------------------------------------------
    def apply(self, event) -> None:
        """Apply ``event``; raises :class:`FennError` naming the rule, the state unchanged."""
        if self.is_over:
            raise FennError("the game is over")
        if isinstance(event, BlackThrow):
            self._throw_black(event.value)
        elif isinstance(event, Step):
            self._step(event)
        elif isinstance(event, SetBlack):
            self._set_black(event.top)
        elif isinstance(event, EndTurn):
            if self._phase is not Phase.OPTIONS:
                raise FennError("a turn ends after a step (F11)")
            self._end_turn()
        elif isinstance(event, Turn):
            self._whole_turn(event)
        elif isinstance(event, Pass):
            if self._phase is not Phase.TURN or self.legal_steps():
                raise FennError("a player who can step must step (F11, F12)")
            if self.settings["stuck"] == "lose":
                self._outcome = Outcome(Termination.STUCK, 1 - self._to_move)
            else:
                self._end_turn()
        else:
            raise FennError(f"not a Fenn event: {event!r}")
        self._events.append(event)

    def _whole_turn(self, turn: Turn) -> None:
        if self._phase is not Phase.TURN:
            raise FennError("a whole turn is seen from the start of a turn, not in the middle of one (F15)")
        black = self._black if turn.black is None else turn.black
        path = self.turn_ends().get((turn.field, turn.top, black))
        if path is None:
            raise FennError(f"no legal turn of the {COLOURS[self._to_move]} die ends on field {turn.field} with "
                            f"{turn.top} on top and the black die on {black} (F15)")
        for e in path:  # legal by construction: turn_ends found them from this very state
            self.apply(e)
            self._events.pop()

    def _throw_black(self, value: int) -> None:
        if self._phase is not Phase.START:
            raise FennError("the black die is thrown only at the start (F3)")
        if value not in BLACK_FACES:
            raise FennError(f"the black die has no face {value} (F1)")
        if value in (4, 6):
            self._black = value
            self._to_move = BLUE if value == 6 else RED
            self._begin_turn()

    def _step(self, step: Step) -> None:
        if self._phase not in (Phase.TURN, Phase.OPTIONS):
            raise FennError("no step is due: the black die decides who begins (F3)")
        why = self._step_error(step)
        if why:
            raise FennError(why)
        mover = self._to_move
        self._dice[mover] = [step.field, step.top]
        if step.field == GOAL[mover]:
            self._outcome = Outcome(Termination.GOAL, mover)  # F4, also mid-chain
            return
        self._extra = step.top == step.field
        self._pasch = step.top == self._black
        if self._extra or self._pasch:
            self._phase = Phase.OPTIONS  # the player may go on (F8, F9) or end the turn
        else:
            self._end_turn()

    def _set_black(self, top: int) -> None:
        if self._phase is not Phase.OPTIONS or not self._pasch:
            raise FennError("the black die is set only after a Pasch (F9)")
        if top not in BLACK_FACES:
            raise FennError(f"the black die has no face {top} (F1)")
        self._black = top
        self._end_turn()

    def _end_turn(self) -> None:
        self._to_move = 1 - self._to_move
        self._begin_turn()

    def _begin_turn(self) -> None:
        self._phase = Phase.TURN
        self._extra = self._pasch = False
        self._start_field = self._dice[self._to_move][0]
        pos = self.position()
        self._seen[pos] = self._seen.get(pos, 0) + 1
        if self._seen[pos] >= 3:  # F13
            self._outcome = Outcome(Termination.REPETITION, None)

    def undo(self):
        """Take back the last event (replayed from the start); raises NothingToUndo."""
        if not self._events:
            raise _game.NothingToUndo("nothing to undo")
        last = self._events[-1]
        events = self._events[:-1]
        self._events = []
        self._reset()
        for e in events:
            self.apply(e)
        return last

    def copy(self) -> "Fenn":
        g = Fenn(self._names, first=self.first, **self.settings)
        g._dice = [list(d) for d in self._dice]
        g._black, g._to_move, g._phase = self._black, self._to_move, self._phase
        g._start_field, g._extra, g._pasch = self._start_field, self._extra, self._pasch
        g._outcome, g._seen, g._events = self._outcome, dict(self._seen), list(self._events)
        return g

    # -- whole turns (F15) ------------------------------------------------------
    def turn_ends(self) -> dict[tuple[int, int, int], list]:
        """Every end of the current turn the rules can reach: ``(field, top, black)``
        of the player to move → one sequence of events reaching it (F15). In the
        middle of a turn (after an extra step or a Pasch), the ends still open."""
        if self._phase not in (Phase.TURN, Phase.OPTIONS) or self.is_over:
            return {}
        out: dict[tuple[int, int, int], list] = {}
        seen: set = set()  # (field, top) reached mid-turn: extra steps may come back to one (F10 allows it)

        def walk(g: Fenn, path: list) -> None:
            for e in g.legal_events():
                if isinstance(e, Pass):
                    continue
                h = g.copy()
                h.apply(e)
                mover = g._to_move
                if h.is_over or h._to_move != mover or isinstance(e, (SetBlack, EndTurn)):
                    d = h._dice[mover]
                    out.setdefault((d[0], d[1], h._black), path + [e])
                elif tuple(h._dice[mover]) not in seen:
                    seen.add(tuple(h._dice[mover]))
                    walk(h, path + [e])

        walk(self, [])
        return out

    # -- records ------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The replay state (issue 31's ``companion replay --json`` line for Fenn)."""
        return {
            "players": [{"name": n, "colour": COLOURS[i], "field": self._dice[i][0], "top": self._dice[i][1]}
                        for i, n in enumerate(self._names)],
            "black": self._black,
            "to_move": None if self.is_over or self._phase is Phase.START else self._names[self._to_move],
            "winner": self.winner,
            "draw": self._outcome is not None and self._outcome.termination is Termination.REPETITION,
            "finished": self.is_over,
        }

    def prompt_state(self) -> dict:
        return {"phase": self._phase.value, "to_move": self.to_act, "extra": self._extra, "pasch": self._pasch}

    @staticmethod
    def event_to_json(event) -> dict:
        if isinstance(event, BlackThrow):
            return {"black": event.value}
        if isinstance(event, Step):
            return {"step": [event.field, event.top]}
        if isinstance(event, SetBlack):
            return {"set_black": event.top}
        if isinstance(event, EndTurn):
            return {"end_turn": True}
        if isinstance(event, Pass):
            return {"turn": "pass"}
        if isinstance(event, Turn):
            return {"turn": {"field": event.field, "top": event.top, "black": event.black}}
        raise TypeError(f"not a Fenn event: {event!r}")

    @staticmethod
    def event_from_json(data: dict):
        if not isinstance(data, dict):
            raise ValueError(f"a Fenn event is an object, not {type(data).__name__}")
        if "black" in data:
            return BlackThrow(whole(data["black"], "black"))
        if "step" in data:
            step = data["step"]
            if not isinstance(step, list) or len(step) != 2:
                raise ValueError(f"a step is [field, top], not {str(step)[:40]}")
            return Step(whole(step[0], "field"), whole(step[1], "top"))
        if "set_black" in data:
            return SetBlack(whole(data["set_black"], "set_black"))
        if "end_turn" in data:
            return EndTurn()
        if data.get("turn") == "pass":
            return Pass()
        if isinstance(data.get("turn"), dict):
            t = data["turn"]
            if not {"field", "top"} <= set(t) <= {"field", "top", "black"}:
                raise ValueError(f"a whole turn is {{\"field\": F, \"top\": T, \"black\": B}}, not {t!r}")
            return Turn(whole(t["field"], "field"), whole(t["top"], "top"),
                        None if t.get("black") is None else whole(t["black"], "black"))
        raise ValueError(f"not a Fenn event: {str(data)[:80]}")
