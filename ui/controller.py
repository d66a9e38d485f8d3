"""What the table shows and what a press does, in plain Python (no Kivy).

A :class:`TableController` sits between the :class:`companion.session.GameSession`
and a *view* (the Kivy app, or a test's recorder): it keeps what the screen
shows (the message, the dice last read, the pending question, the frame of
the last throw) and turns presses into session calls. The view draws and
runs threads; it never decides.

Example (a view that only records)::

    >>> import tempfile
    >>> from companion.session import GameSession
    >>> from companion.storage import Store
    >>> class Shown:
    ...     screen = "start"
    ...     def __getattr__(self, name):
    ...         return lambda *a, **k: None
    ...     def show(self, name):
    ...         self.screen = name
    ...     def current(self):
    ...         return self.screen
    >>> view = Shown()
    >>> c = TableController(GameSession(Store(tempfile.mkdtemp())), view)
    >>> c.session.start(["Sarah", "Tim"], first=0)
    >>> view.screen
    'game'
    >>> c.session.throw([6, 4, 1, 1, 1, 1, 1, 1]).success
    True
    >>> c.action("stop"); c.session.game.players[c.session.game.current_player]
    'Tim'
"""

from __future__ import annotations

import logging
import random
from typing import Protocol

from companion import i18n
from companion.game import IllegalEvent
from companion.prompts import ask_text, result_text, undo_text
from companion.session import SCORED, Change, GameSession

from .fenn_flow import FennTable
from .tap_guard import TapGuard

__all__ = ["TableController", "View"]

log = logging.getLogger(__name__)


class View(Protocol):
    """What the controller asks of the screen (the Kivy app implements it)."""

    def show(self, name: str) -> None: ...  # "start", "game", "correction", "end"
    def current(self) -> str: ...
    def refresh(self) -> None: ...
    def setup_game(self, game) -> None: ...
    def show_end(self, game) -> None: ...
    def open_correction(self, values, frame, *, mode: str, due: int, dice, why) -> None: ...
    def correction_error(self, text: str) -> None: ...
    def open_undo(self, question: str) -> None: ...
    def close_undo(self) -> None: ...
    def undo_open(self) -> bool: ...
    def beep(self, event: str) -> None: ...
    def update_lights(self) -> None: ...
    def start_read(self) -> None: ...
    def correction_values(self) -> tuple[list[int], int, str]: ...  # (values shown, dice due, mode)


class TableController:
    """The table's flow: presses → session, session changes → what to show.

    ``session``: the :class:`GameSession` (it alone scores or asks).
    ``view``: a :class:`View`. ``camera``: the camera, for the demo's throws
    (a :class:`hardware.camera.MockCamera` when ``demo``). ``watcher``: the
    :class:`companion.watch.ThrowWatcher` told of dice scored after a
    question (so it does not read them again), or None. The controller
    subscribes to the session; the view must call :meth:`on_change` on its
    own thread (Kivy's main thread) — pass ``subscribe=False`` and do so.
    """

    def __init__(self, session: GameSession, view: View, *, camera=None, demo: bool = False, watcher=None,
                 rng: random.Random | None = None, subscribe: bool = True, hints: bool = True,
                 guard: TapGuard | None = None):
        self.session = session
        #: Stray taps never act (:class:`ui.tap_guard.TapGuard`): every press asks it; none by default.
        self.guard = guard or TapGuard(0.0)
        self.view = view
        self.camera = camera
        self.demo = demo
        self.watcher = watcher
        self.rng = rng or random.Random()
        self.message = ""
        self.reading = False
        self.waiting_for_rest = False
        self.last_dice: list = []
        self.last_frame = None  # the frame of the last scored throw (for "wrong?")
        self.pending = None  # (ReadResult, frame) of a read the players were asked about
        self.highlight: tuple = ()
        #: A throw after "continue" was undone: the die is already set aside (the prompt asks only the throw).
        self.aside_done = False
        #: A Fenn game's board flow (taps, hints); the presses of a Fenn game go there.
        self.fenn = FennTable(session, refresh=lambda: self.view.refresh(), hints=hints, guard=self.guard)
        if subscribe:
            session.subscribe(self.on_change)

    # -- what the screen shows ----------------------------------------------
    def is_fenn(self) -> bool:
        """True when the game at the table is Fenn (its screens: ``fenn`` and ``fenn_end``)."""
        return self.session.game is not None and self.session.game.name == "fenn"

    def play_screens(self) -> tuple[str, str]:
        """The game's screens: ``(play, end)``: ``("game", "end")`` or ``("fenn", "fenn_end")``."""
        return ("fenn", "fenn_end") if self.is_fenn() else ("game", "end")

    def lights(self) -> tuple[bool, bool]:
        """Which button lights are on: ``(stop, continue)``. Both while the undo
        question is open (CONTINUE confirms, STOP cancels); both while a
        decision is due on the game screen; else none."""
        if self.view.undo_open():
            return True, True
        if self.is_fenn():
            return self.fenn.lights() if self.view.current() == "fenn" else (False, False)
        game = self.session.game
        due = game is not None and game.decision_due and self.view.current() == "game"
        return due, due

    def can_correct(self) -> bool:
        """True when the last event is a throw (its dice can be corrected)."""
        game = self.session.game
        return game is not None and bool(game.events) and "throw" in game.event_to_json(game.events[-1])

    def _say(self, text: str) -> None:
        self.message = text
        self.view.refresh()

    # -- presses ----------------------------------------------------------------
    def action(self, action: str) -> None:
        """A table action: ``stop``, ``continue``, ``throw``, ``undo`` (asks
        first) or ``wrong`` (opens the correction of the last throw). While
        the undo question is open, CONTINUE confirms and STOP cancels. A
        press the rules refuse says why on the screen; nothing changes.
        A press within the guard's quiet time after the buttons changed
        meaning (:attr:`guard`) is dropped: a double tap acts once."""
        game = self.session.game
        if game is None or not self.guard.ready():
            return
        if self.view.undo_open():
            if action == "continue":
                self.confirm_undo()
            elif action == "stop":
                self.view.close_undo()
            return
        screen = self.view.current()
        if self.is_fenn():
            if action == "undo" and screen in ("fenn", "fenn_end"):
                self.ask_undo()
            elif action == "throw" and screen == "fenn":
                self.request_throw()
            elif screen == "fenn":
                self.fenn.action(action)
            return
        if screen == "correction":
            # CONTINUE confirms the dice shown once their count is the count thrown; STOP goes back.
            values, due, mode = self.view.correction_values()
            if action == "continue" and len(values) == due:
                self.confirm_correction(values, mode)
            elif action == "stop":
                self.guard.hold()  # the game screen's buttons come back
                self.view.show("game")
                self.view.refresh()
            return
        if screen not in ("game", "end"):
            return
        try:
            if action in ("stop", "continue") and screen == "game":
                self.session.decide(action)
            elif action == "throw":
                self.request_throw()
            elif action == "undo":
                self.ask_undo()
            elif action == "wrong" and self.can_correct():
                self.open_correction("wrong")
        except IllegalEvent as e:
            if action in ("stop", "continue") and not game.decision_due:  # not the engine's raw words
                self._say(i18n._("STOP and CONTINUE count after a throw that formed the target: throw first."))
            else:
                self._say(str(e))

    def request_throw(self) -> None:
        """THROW: in the demo, new dice on the mock camera (the watcher reads
        them at rest); with a real camera, read the latest frame now (the view
        runs the read off the main thread and calls :meth:`read_done`).
        Dropped within the guard's quiet time (:attr:`guard`)."""
        if not self.guard.ready():
            return
        game = self.session.game
        if self.is_fenn():
            if self.demo and self.camera is not None and self.fenn.demo_move(self.camera, self.rng):
                if self.session.board is None:
                    self.session.board = self.fenn.demo_board
                self.waiting_for_rest = True
            return
        if game is None or self.reading or game.is_over or game.decision_due:
            return
        if self.demo:
            self.camera.throw([self.rng.randint(1, 6) for _ in range(game.dice_to_throw)])
            self.waiting_for_rest = True
            self._say(i18n._("Dice thrown: reading them when they are at rest…"))
            return
        self.reading = True
        self._say(i18n._("Reading the dice…"))
        self.view.start_read()

    def read_done(self, frame, read, err: Exception | None = None) -> None:
        """A read of ``frame`` finished (``read``: a :class:`ReadResult`, or
        ``err``): the session scores it or asks (:meth:`GameSession.take`)."""
        self.reading = False
        if err is not None:
            self._say(i18n._("Could not read the dice: {error}").format(error=err))
            return
        self.last_dice = list(read.dice)
        self.highlight = ()
        try:
            taken = self.session.take(read, frame)  # the session alone decides: score or ask
        except IllegalEvent as e:
            self._say(str(e))
            return
        if taken == SCORED:
            self.last_frame = frame
            if self.watcher is not None:
                self.watcher.scored(read.dice)

    def seen(self, seen) -> None:
        """The watcher read a settled scene (:class:`companion.watch.Seen`)."""
        if seen.read is None:
            return
        self.waiting_for_rest = False
        if self.is_fenn():
            self.fenn.seen = self.fenn.seen_text(seen.read)
            if seen.outcome != "asked":
                self.fenn.message = ""
            self.view.refresh()
            return
        self.last_dice = list(seen.read.dice)
        if seen.outcome == "scored" and self.watcher is not None:
            self.last_frame = self.watcher.last_frame

    # -- undo -------------------------------------------------------------------
    def ask_undo(self) -> None:
        """Ask before undoing the last event (screen, key U, STOP held 3 s)."""
        game = self.session.game
        if self.is_fenn():
            from companion.fenn_prompts import undo_text as fenn_undo_text

            question = fenn_undo_text(game)
        else:
            question = undo_text(game) if game is not None else None
        if question is None or self.view.undo_open():
            return
        self.guard.hold()  # the dialog's buttons sit where the finger was
        self.view.open_undo(question)

    def confirm_undo(self) -> None:
        """The players confirmed: take back the last event (dropped within the guard's quiet time)."""
        if not self.guard.ready():
            return
        self.view.close_undo()
        try:
            self.session.undo()
        except IllegalEvent as e:
            self._say(str(e))

    # -- correction -------------------------------------------------------------
    def open_correction(self, mode: str) -> None:
        """Show the correction screen: ``"ask"`` for the pending unsure read,
        ``"wrong"`` for the last scored throw (its dice in picture order when
        the picture's reads match the values scored)."""
        game = self.session.game
        if mode == "ask":
            r, frame = self.pending
            dice = sorted(r.dice, key=lambda d: (d.center[0], d.center[1]))
            values, due = [d.value for d in dice], r.expected
        else:
            result = game.last_result
            dice = sorted(self.last_dice, key=lambda d: (d.center[0], d.center[1]))
            values, due, frame = list(result.values), len(result.values), self.last_frame
            if sorted(d.value for d in dice) == sorted(values):
                values = [d.value for d in dice]  # picture order, so the numbers match
            else:
                dice = []
        why = self.message if mode == "ask" else None
        self.guard.hold()  # the correction screen's buttons open where the finger was
        self.view.open_correction(values, frame, mode=mode, due=due, dice=dice, why=why)
        self.view.update_lights()

    def read_again(self) -> None:
        """The players nudged the dice: read the picture again. In the demo (no
        camera) the dice are nudged for them: the same values lie anew and are
        read at rest. Dropped within the guard's quiet time."""
        if not self.guard.ready():
            return
        self.guard.hold()
        self.pending = None
        self.view.show("game")
        if self.demo and self.camera is not None and getattr(self.camera, "truth", None):
            self.camera.throw([d.value for d in self.camera.truth])
            self.waiting_for_rest = True
            self._say(i18n._("Demo: the dice were nudged; reading them again when they are at rest…"))
            return
        self.reading = True
        self._say(i18n._("Reading the dice…"))
        self.view.start_read()

    def confirm_correction(self, values, mode: str) -> bool:
        """Score the corrected ``values`` (what the rules use, store and
        recorder keep with the frame). ``mode``: ``"ask"`` or ``"wrong"``.
        Returns False (and says why on the correction screen) when the rules
        refuse them; nothing changes then. Dropped (False) within the guard's
        quiet time: a double tap on Confirm scores once."""
        if not self.guard.ready():
            return False
        try:
            if mode == "ask":
                r, frame = self.pending
                self.session.throw(values, frame=frame)  # raises before anything changes
                self.pending = None
                self.last_frame = frame
                if self.watcher is not None:
                    self.watcher.scored(r.dice)
            else:
                self.session.correct(values, frame=self.last_frame)
        except IllegalEvent as e:
            self.view.correction_error(str(e))
            return False
        self.last_dice = []  # the picture's reads no longer match the values scored
        if self.view.current() == "correction":
            self.view.show("game")
        self.view.refresh()
        return True

    # -- games ------------------------------------------------------------------
    def rematch(self) -> None:
        """Revanche: the same players in the same seats, a new game (Fenn: the colours swapped).
        Dropped within the guard's quiet time: a double tap starts one game."""
        game = self.session.game
        if game is None or not self.guard.ready():
            return
        if game.name == "fenn":  # Revanche: the colours swap (the first name plays blue)
            self.session.start(list(reversed(game.players)), first=0, game="fenn", options=game.options)
        else:
            self.session.start(list(game.players))

    def resume(self, game_id: int | None = None) -> bool:
        """Resume unfinished game ``game_id`` (the most recent when None), if any."""
        return self.session.resume(game_id)

    def on_change(self, change: Change) -> None:
        """The session changed: update what is shown (call on the UI thread).
        What the buttons mean changes with it: the guard's quiet time starts."""
        game = self.session.game
        self.guard.hold()
        if not self.is_fenn() and change.kind != "read":
            from companion.prompts import must_set_aside

            # Undone to just after "continue": that throw's die was already put aside.
            self.aside_done = change.kind == "undo" and must_set_aside(game)
        play, end = self.play_screens()
        if self.is_fenn() and change.kind == "read":  # the camera's read of the board is not taken: say why
            from companion.fenn_prompts import verdict_text

            self.fenn.message = verdict_text(game, change.verdict)
            self.fenn.last_frame = change.frame
            self.fenn.other_set = "other_set" in {str(r) for r in change.verdict.reasons}
            self.view.beep("ask")
            self.view.refresh()
            return
        if self.is_fenn() and change.kind in ("start", "resume", "undo", "event", "over"):
            if change.kind in ("start", "resume"):
                self.fenn.reset()
                self.message = ""
            elif change.kind == "undo":
                self.fenn.selected, self.fenn.shown_hints = None, []
                self.fenn.message = i18n._("Undone.")
            self.view.setup_game(game)
            if game.is_over:
                self.view.show_end(game)
                if change.kind == "over":
                    self.view.beep("win")
            self.view.show(end if game.is_over else play)
            self.view.refresh()
            return
        if change.kind in ("start", "resume"):
            self.last_dice, self.last_frame, self.pending, self.message = [], None, None, ""
            if self.demo and hasattr(self.camera, "clear"):
                self.camera.clear()  # an empty tray, not the Fenn board of a game before
            if change.kind == "resume" and game.last_result is not None and self.can_correct():
                # As it was before the restart: the last throw's result and picture ("Wrong?").
                self.last_frame = self.session.last_throw_frame()
                self.message = result_text(game.last_result, game.players)
            self.view.setup_game(game)
            self.view.show("end" if game.is_over else "game")
            if game.is_over:
                self.view.show_end(game)
        elif change.kind == "throw":
            self.highlight = change.result.formed_by
            self.message = result_text(change.result, game.players)
            self.view.beep("success" if change.result.success else "misthrow")
            if self.view.current() == "correction" and self.pending is not None:
                self.pending = None  # the asked read's dice, nudged, were read sure after all
                self.view.show("game")  # (a "Wrong?" correction opened meanwhile stays open)
        elif change.kind == "read":
            self.pending = (change.read, change.frame)
            self.message = ask_text(change.read.values, change.read.expected, change.read.reasons)
            self.view.beep("ask")
            self.open_correction("ask")
        elif change.kind == "decision":
            self.message = ""
        elif change.kind == "card_full":
            notice = i18n._("The memory card is full: the game goes on without pictures.")
            self.message = f"{self.message}\n{notice}" if self.message else notice
        elif change.kind == "undo":
            self.message = i18n._("Undone.")
            self.last_dice = []
            self.pending = None
            if self.view.current() in ("end", "correction"):
                self.view.show("game")
        elif change.kind == "over":
            self.view.show_end(game)
            self.view.show("end")
            self.view.beep("win")
        self.view.refresh()
