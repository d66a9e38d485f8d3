"""A game of Fenn at the table, by touch, in plain Python (no Kivy).

:class:`FennTable` keeps what the board screen shows (the field tapped, the
faces offered, the hint shown, the message) and turns taps and the GPIO
buttons into the session's events: tap the die's new field (only legal fields
respond; another says why it is blocked), then its new top face (only legal
faces are offered), then an extra step, the black die after a Pasch, or "End
turn". Each step is saved as it is made, so a power cut mid-turn loses
nothing. :class:`ui.controller.TableController` hands a Fenn game's presses
here.

Example::

    >>> import tempfile
    >>> from companion.session import GameSession
    >>> from companion.storage import Store
    >>> s = GameSession(Store(tempfile.mkdtemp())); s.start(["Anna", "Ben"], first=0, game="fenn")
    >>> t = FennTable(s, refresh=lambda: None, hints=False)
    >>> t.tap_black(6); sorted(t.targets())
    [2, 3]
    >>> t.tap_field(2); t.faces()
    [1, 2, 6, 7, 9]
    >>> t.tap_face(2); t.can_end_turn(), sorted(t.targets())
    (True, [3, 4])
"""

from __future__ import annotations

import logging
from typing import Callable

from companion import i18n
from companion.fenn import BLACK_FACES, GOAL, BlackThrow, EndTurn, Pass, SetBlack, Step
from companion.fenn_prompts import blocked_text, colour_name, hint_text, prompt, repetition_text, stuck
from companion.game import IllegalEvent

from .tap_guard import TapGuard

__all__ = ["FennTable", "MARKS", "route"]

log = logging.getLogger(__name__)

#: The marks on a field the player to move may not enter, by why (drawn as shapes, not colour alone).
MARKS = ("taken", "black", "top", "start")


def route(path) -> list[int]:
    """The fields a turn's ``path`` (the engine's events) steps on, in order: ``[5, 6, 7, 9]``."""
    return [e.field for e in path if isinstance(e, Step)]


class FennTable:
    """The Fenn board's flow. ``session``: the :class:`GameSession` playing a
    Fenn game; ``refresh()``: redraw the screen; ``hints``: True to solve the
    game in the background for hints (:class:`companion.fenn_hints.HintBook`,
    cached in the data folder), False for none. ``guard``: the
    :class:`ui.tap_guard.TapGuard` every tap asks (none by default): a tap
    within its quiet time after a step, a face or the black die is dropped."""

    def __init__(self, session, *, refresh: Callable[[], None], hints: bool = True, guard: TapGuard | None = None):
        self.session = session
        self.guard = guard or TapGuard(0.0)
        self.refresh = refresh
        self.use_hints = hints
        self.selected: int | None = None
        self.shown_hints: list = []
        self.message = ""
        #: The camera's frame of the last read not taken (shown with the question), or None.
        self.last_frame = None
        #: What the camera read last, in words (the screen always shows it).
        self.seen = ""
        #: The camera saw the other kind of set (F1): the screen offers to switch.
        self.other_set = False
        #: The demo's board set-up (a :class:`hardware.fenn_scene.FennScene`) and its board found once.
        self._scene = None
        self.demo_board = None
        self._book = None

    @property
    def game(self):
        return self.session.game

    def prepare(self, settings: dict) -> None:
        """Start solving (or loading) the table for ``settings`` in the background
        now, so hints are ready before the first turn is over (the app calls it at start)."""
        if self.use_hints and (self._book is None or self._book.settings != {**self._book.settings, **settings}):
            from companion.fenn_hints import HintBook

            self._book = HintBook(settings, cache_dir=self.session.store.root)

    def reset(self) -> None:
        """A new or resumed game: nothing tapped, no hint shown; the solver started for its settings."""
        self.selected, self.shown_hints, self.message, self.seen = None, [], "", ""
        if self.game is not None:
            self.prepare(self.game.settings)

    # -- what the board shows ------------------------------------------------
    def phase(self) -> str:
        """``"start"`` (the black die is thrown), ``"turn"``, ``"options"`` or ``"over"``."""
        g = self.game
        return "over" if g.is_over else g.prompt_state()["phase"]

    def targets(self) -> set[int]:
        """The fields the die to move may step to now."""
        return {s.field for s in self.game.legal_steps()}

    def faces(self) -> list[int]:
        """The top faces the die may show on the field tapped (empty when none is tapped)."""
        if self.selected is None:
            return []
        return sorted({s.top for s in self.game.legal_steps() if s.field == self.selected})

    def black_choices(self) -> list[int]:
        """The black die's values to tap: its throw at the start, its new top after a Pasch; else none."""
        ph, g = self.phase(), self.game
        if ph == "start":
            return list(BLACK_FACES)
        if ph == "options" and g.prompt_state()["pasch"]:
            return [e.top for e in g.legal_events() if isinstance(e, SetBlack)]
        return []

    def can_end_turn(self) -> bool:
        return self.phase() == "options"

    def can_pass(self) -> bool:
        return stuck(self.game)

    def marks(self) -> dict[int, str]:
        """Per field the player to move may not enter, why (one of :data:`MARKS`), while a turn is on."""
        g = self.game
        if self.phase() not in ("turn", "options"):
            return {}
        pos = g.position()
        mover = pos.to_move
        other = pos.dice[1 - mover]
        out = {}
        if g.turn_start is not None and g.turn_start != pos.dice[mover][0]:
            out[g.turn_start] = "start"
        out[other[1]] = "top"
        out[pos.black] = "black"
        out[other[0]] = "taken"
        out.pop(pos.dice[mover][0], None)
        return {f: m for f, m in out.items() if 1 <= f <= 9}

    def text(self) -> str:
        """The prompt, the repetition warning and the last message, one per line."""
        lines = [prompt(self.game), repetition_text(self.game), self.message, self.seen]
        return "\n".join(x for x in lines if x)

    def hint_lines(self) -> list[str]:
        """The hint shown, best first, one line per end field and value, every
        one (the screen scrolls): "field 9 (over 5 → 7), top 1 / 4 — wins now";
        the route's fields when extra steps lead there, the tops (and black
        die's numbers, after a Pasch) of equal turns merged into one line."""
        groups: dict = {}
        for h in self.shown_hints:
            g = groups.setdefault((h.field, h.value, h.plies), {"tops": set(), "blacks": set(), "route": None})
            g["tops"].add(h.top)
            g["blacks"].add(h.black)
            g["route"] = g["route"] or route(h.path)
        out = []
        black_now = self.game.position().black
        for (field, value, plies), g in groups.items():
            where = i18n._("field {field}").format(field=field)
            if len(g["route"]) > 1:
                where += " (" + i18n._("over {fields}").format(
                    fields=" \u2192 ".join(map(str, g["route"][:-1]))) + ")"
            where += ", " + i18n._("top {top}").format(top=" / ".join(map(str, sorted(g["tops"]))))
            if g["blacks"] != {black_now}:
                where += ", " + i18n._("black {n}").format(n=" / ".join(map(str, sorted(g["blacks"]))))
            out.append(f"{where} \u2014 {hint_text(value, plies)}")
        return out

    def first_step_to(self, field: int) -> Step | None:
        """For an end field of the hint shown that extra steps reach (not a step
        now), the first step of its best turn; else None."""
        for h in self.shown_hints:
            steps = [e for e in h.path if isinstance(e, Step)]
            if h.field == field and len(steps) > 1:
                return steps[0]
        return None

    def best(self):
        """The best turn of the hint shown (its ``field`` is marked on the board), or None."""
        return self.shown_hints[0] if self.shown_hints else None

    # -- taps --------------------------------------------------------------------
    def _apply(self, event) -> bool:
        """Apply ``event`` (saved); after a step that allows no extra step and
        no Pasch is offered, the turn ends by itself ("No extra step possible")."""
        try:
            self.session.apply(event)
        except IllegalEvent as e:  # the screen offers only legal events: a race with the camera
            self.message = str(e)
            self.refresh()
            return False
        self.guard.hold()
        self.selected, self.shown_hints, self.message, self.seen = None, [], "", ""
        g = self.game
        if not g.is_over and self.phase() == "options" and not g.legal_steps() and not g.prompt_state()["pasch"]:
            self.session.apply(EndTurn())  # F8: an extra step was earned but none is legal
            self.message = i18n._("No extra step possible: the turn ends.")
        self.refresh()
        return True

    def tap_field(self, field: int) -> None:
        """A field tapped: choose it (then its face) when legal, else say why it is
        blocked. The camera's "Read: …" line goes: it told of an earlier move."""
        if self.phase() not in ("turn", "options") or not self.guard.ready():
            return
        self.seen = ""  # the camera's last read is of a move made before: the players move by touch now
        goal = GOAL[self.game.position().to_move]
        if field == goal and field in self.targets():  # F4: the goal wins whatever face is on top
            self.selected = field
            self._apply(Step(field, self.faces()[0]))
            return
        first = self.first_step_to(field) if field not in self.targets() else None
        if field in self.targets():
            self.selected, self.message = field, ""
        elif first is not None:  # a starred end of the hint, reached by extra steps
            self.selected = None
            self.message = i18n._("Field {field} is reached by extra steps: first to field {first} "
                                  "with {top} on top.").format(field=field, first=first.field, top=first.top)
        else:
            self.selected, self.message = None, blocked_text(self.game, field)
        self.refresh()

    def tap_face(self, top: int) -> None:
        """A top face tapped for the chosen field: the step is made (and saved)."""
        if self.selected is not None and top in self.faces() and self.guard.ready():
            self._apply(Step(self.selected, top))

    def tap_black(self, value: int) -> None:
        """The black die's value tapped: its start throw, or its new top after a Pasch."""
        if value in self.black_choices() and self.guard.ready():
            self._apply(BlackThrow(value) if self.phase() == "start" else SetBlack(value))

    def end_turn(self) -> None:
        """"End turn" (or CONTINUE): decline the extra step or the Pasch."""
        if self.can_end_turn() and self.guard.ready():
            self._apply(EndTurn())

    def pass_turn(self) -> None:
        """"Pass" when no step is possible (F12)."""
        if self.can_pass() and self.guard.ready():
            self._apply(Pass())

    def show_hint(self) -> None:
        """Show the turns with their values (noted in the game's history); says so while still solving."""
        if self.phase() not in ("turn", "options"):
            return
        book = self._book
        if book is None or not book.ready:
            self.message = i18n._("The hints are still being worked out: ask again in a moment.")
            self.refresh()
            return
        self.shown_hints = book.hints(self.game)
        try:
            self.session.store.note(self.session.game_id, "hint",
                                    {"player": self.game.players[self.game.position().to_move]})
        except Exception:  # the note is a record, not the game
            log.exception("hint not noted")
        self.refresh()

    def hints_used(self) -> dict[str, int]:
        """How many hints each player asked for in this game."""
        from companion.fenn_hints import hints_used

        return hints_used(self.session.store, self.session.game_id, self.game.players)

    # -- the camera ------------------------------------------------------------
    def can_switch_dice(self) -> bool:
        """True when the camera saw the other kind of set (blue and red swapped, F1)
        in a game not over whose moves so far are legal with the dice switched:
        the players may switch the game's dice."""
        return self._switched() is not None

    def _switched(self):
        """The game replayed with blue and red switched (F1), or None when the
        switch is not offered: the camera saw no other kind of set, the game is
        over, or a move so far is not legal so (a face the switched die lacks)."""
        from companion.fenn import Fenn, FennError

        if not self.other_set or self.phase() == "over":
            return None
        g = self.game
        dice = "miwin" if g.settings["dice"] == "wikipedia" else "wikipedia"
        trial = Fenn(list(g.players), first=g.first, **{**g.settings, "dice": dice})
        try:
            for e in g.events:
                trial.apply(e)
        except FennError:
            return None
        return trial

    def switch_dice(self) -> bool:
        """F1: the set on the table has blue and red the other way round. The game
        goes on with the dice switched (the players asked for it): a new stored
        game with the same players, settings but the dice, and the moves so far;
        the old one is ended. New games keep it (``settings``). False when not
        offered (:meth:`can_switch_dice`)."""
        trial = self._switched()
        if trial is None:
            return False
        g = self.game
        old_id = self.session.game_id
        with self.session.transaction():  # the new game, its moves and the old one's end: one transaction
            self.session.start(list(g.players), first=g.first, game="fenn", options=dict(trial.settings))
            for e in g.events:
                self.session.apply(e)
            self.session.store.abandon(old_id)  # its moves go on in the new game; the players chose to switch
        self.other_set = False
        try:
            from companion.settings import remember

            remember(self.session.store.root, "fenn", "dice", trial.settings["dice"])
        except Exception:  # the switch holds for this game; the next start may ask again
            log.exception("the dice setting was not kept")
        return True

    def seen_text(self, read) -> str:
        """What the camera read, in words: "Read: blue 7 on field 3 · red 1 on field 8 · black 6"."""
        parts = []
        for d in getattr(read, "dice", ()):
            name = colour_name(d.colour) if d.colour else "?"
            where = i18n._("on field {field}").format(field=d.field) if d.field else i18n._("beside the board")
            parts.append(f"{name} {d.value} {where}")
        return i18n._("Read: {dice}").format(dice=" \u00b7 ".join(parts)) if parts else ""

    def demo_move(self, camera, rng) -> bool:
        """The demo (no camera): show on the mock ``camera`` the board after a random
        legal move, as players would leave it: a start throw of the black die, or
        a whole turn. The watcher reads it at rest like a real board. False when
        there is nothing to show (the game over, a pass to tap, a turn begun on the screen)."""
        from companion.fenn import Turn

        g = self.game
        if g.is_over or self.phase() == "options" or self.can_pass():
            return False
        if self._scene is None:
            from hardware.fenn_scene import FennScene

            self._scene = FennScene(seed=rng.randrange(1 << 30))
            self.demo_board = self._find_demo_board()
        pos = g.position()
        if self.phase() == "start":
            black, dice = rng.choice(list(BLACK_FACES)), pos.dice
        else:
            (field, top, black), = [rng.choice(sorted(g.turn_ends()))]
            trial = g.copy()
            trial.apply(Turn(field, top, black))
            dice = trial.position().dice
        frame, truth = self._scene.frame(blue=dice[0], red=dice[1], black=black, seed=rng.randrange(1 << 30))
        camera.show(frame, truth)
        self.message = i18n._("Demo: the dice were moved; reading the board when it is still…")
        self.refresh()
        return True

    def _find_demo_board(self):
        from vision.fenn import BoardError, find_board, measure_tilt

        try:
            # calibrated as the players do: the dice set up for the start (F2: field 1 where blue stands)
            start = self._scene.frame(blue=(1, 5), red=(9, 5), black=6, seed=1, stray=False)[0]
            return measure_tilt(start, find_board(start))
        except BoardError:
            return None

    def lights(self) -> tuple[bool, bool]:
        """GPIO lights ``(stop, continue)``: CONTINUE lit when it ends the turn (or passes)."""
        go = self.can_end_turn() or self.can_pass()
        return False, go

    def action(self, action: str) -> None:
        """A GPIO or key press on the board: CONTINUE ends the turn (or passes); STOP clears the field tapped."""
        if action == "continue":
            if self.can_end_turn():
                self.end_turn()
            elif self.can_pass():
                self.pass_turn()
        elif action == "stop":
            self.selected = None
            self.refresh()
