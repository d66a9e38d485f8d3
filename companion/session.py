"""The game at the table: frames → reads → throws, presses → decisions, all saved.

A :class:`GameSession` joins the rules engine, the dice reader and the store.
It never talks to Kivy or GPIO itself: the UI and the buttons call its methods,
and it tells listeners what changed with a :class:`Change`.

Example::

    >>> import tempfile
    >>> from companion.storage import Store
    >>> s = GameSession(Store(tempfile.mkdtemp()))
    >>> s.start(["Sarah", "Tim"], first=0)
    >>> s.throw([6, 4, 1, 1, 1, 1, 1, 1]).success
    True
    >>> s.decide("stop"); s.game.players[s.game.current_player]
    'Tim'

Every frame reaches the score the same way: :meth:`GameSession.read` reads
it with the count of dice due, and :meth:`GameSession.take` alone decides
"score or ask" (a read that is sure and has the count due is scored;
anything else is asked). The app's THROW button (:meth:`throw_frame`), the
watcher at rest (:class:`companion.watch.ThrowWatcher`) and ``companion
replay`` all go through it.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import os
import random
import sqlite3
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from vision.reasons import Reason

from .durchmarsch import NothingToUndo as DurchmarschNothingToUndo
from .durchmarsch import Throw, ThrowResult
from .game import Game, check_new_names, game_class
from .storage import StorageError, Store

__all__ = ["GameSession", "Change", "ReadResult", "NoGame", "SCORED", "ASKED", "SAME"]

#: What :meth:`GameSession.take` did with a read (SAME: Fenn, nothing moved on the board).
SCORED, ASKED, SAME = "scored", "asked", "same"

log = logging.getLogger(__name__)


def _ends(game: Game) -> tuple[str | None] | None:
    """``(winner,)`` when ``game`` (a trial copy after an event) is over, for
    the store to end it in the event's own transaction; else None."""
    return (game.winner,) if game.is_over else None


def _takes_throw_args(reader: Callable) -> bool:
    """True when ``reader`` accepts ``expect=`` and ``area=`` (like ``read_throw``)."""
    try:
        params = inspect.signature(reader).parameters.values()
    except (TypeError, ValueError):
        return True
    names = {p.name for p in params}
    return {"expect", "area"} <= names or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


class NoGame(RuntimeError):
    """An event before a game was started or resumed."""


@dataclass(frozen=True)
class ReadResult:
    """A frame read for a throw.

    ``dice``: the dice read (``vision.reader.Die``). ``values``: their values.
    ``expected``: the number of dice due. ``reasons``: why the read cannot be
    scored as it is, as :class:`vision.reasons.Reason` codes (empty when the
    reader is sure and the count matches); :func:`companion.prompts.ask_text`
    puts them into words.
    """

    dice: tuple
    values: tuple[int, ...]
    expected: int
    reasons: tuple[Reason, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the read can be scored: the reader is sure and the count is the count due."""
        return not self.reasons


@dataclass(frozen=True)
class Change:
    """What changed: ``kind`` is ``"start"``, ``"resume"`` (a stored game loaded), ``"throw"``, ``"decision"``, ``"event"``
    (any other event, :meth:`GameSession.apply`), ``"undo"``, ``"read"`` (a frame
    read that was not scored), ``"card_full"`` (a throw saved without its
    picture: the card is full) or ``"over"``; ``result`` the
    :class:`ThrowResult` of a throw; ``read`` the :class:`ReadResult` of a frame."""

    kind: str
    result: ThrowResult | None = None
    read: ReadResult | None = None
    frame: np.ndarray | None = field(default=None, repr=False)
    #: Fenn: what the read of the board meant (:class:`companion.fenn_referee.Verdict`) on a ``"read"`` change.
    verdict: object = None


class GameSession:
    """One companion's game, kept in a :class:`Store`.

    ``reader``: a function ``(image, expect=N, area=A) → vision.reader.Read``
    (``vision.reader.read_throw`` by default, imported on first use so the
    rules stay free of OpenCV in tests that do not read frames); a function
    returning a plain list of dice is taken as sure of them. ``area``: the
    calibrated :class:`vision.calibrate.TrayArea`, or None. ``recorder``: a
    :class:`companion.recording.ThrowRecorder` that keeps every scored throw's
    frame with its final values, or None.
    """

    def __init__(self, store: Store, *, reader: Callable | None = None, rng: random.Random | None = None,
                 area=None, recorder=None, keep_frame_games: int | None = None, keep_recorded: int | None = None,
                 board=None):
        self.store = store
        #: Fenn: the calibrated board (:class:`vision.fenn.BoardArea`), or None to find it in each frame.
        self.board = board
        self.keep_frame_games = keep_frame_games
        self.keep_recorded = keep_recorded
        self._reader = reader
        self.area = area
        self.recorder = recorder
        self._rng = rng or random.Random()
        self.game: Game | None = None
        self.game_id: int | None = None
        self._listeners: list[Callable[[Change], None]] = []

    # -- listeners --------------------------------------------------------
    def subscribe(self, listener: Callable[[Change], None]) -> None:
        """Call ``listener(change)`` after every change."""
        self._listeners.append(listener)

    def _emit(self, change: Change) -> None:
        for f in list(self._listeners):
            try:
                f(change)
            except Exception:  # a broken screen must not stop the game
                log.exception("listener failed on %s", change.kind)

    # -- game lifecycle -----------------------------------------------------
    def start(self, players: list[str], *, first: int | None = None, game: str = "durchmarsch",
              options: dict | None = None) -> None:
        """Start a new game of ``game`` (a name of :data:`companion.game.GAMES`) with
        ``options`` (the game's keyword settings, e.g. Fenn's ``faces``); the
        first player is drawn at random unless given (Durchmarsch: ruling R5).

        An unfinished game stays unfinished in the store, resumable, until the
        players end it (:meth:`end_unfinished`): nothing ends a game without
        asking. Raises ``ValueError`` for a bad player list (see the game's
        class) and ``KeyError`` for an unknown game.
        """
        cls = game_class(game)
        players = check_new_names(players)
        if first is None:
            first = self._rng.randrange(len(players)) if players else 0
        new = cls(players, first=first, **(options or {}))
        if not self.store.in_transaction:  # upkeep removes files: never inside an action's transaction
            self.maintain()
        self.game_id = self.store.new_game(list(new.players), first=first, game=cls.name, options=new.options)
        self._frames = {}
        game = new
        self.game = game
        self._emit(Change("start"))

    def maintain(self) -> dict:
        """Keep storage bounded (the app calls it at start, the session before
        each new game): the pictures of the last ``keep_frame_games`` games,
        the last ``keep_recorded`` recorded throws, the database vacuumed now
        and then. Never fails the game: a problem is logged."""
        done: dict = {}
        try:
            done = self.store.maintain(keep_games=self.keep_frame_games)
            if self.recorder is not None and self.keep_recorded is not None:
                done["recorded_removed"] = self.recorder.prune(keep=self.keep_recorded)
        except (OSError, sqlite3.Error) as e:
            log.warning("storage upkeep failed: %s", e)
        return done

    def resume(self, game_id: int | None = None) -> bool:
        """Load unfinished game ``game_id`` (the most recent unfinished one when
        None); False when there is none, or when it cannot be read (it is then
        hidden from the lists: :meth:`companion.storage.Store.hide`)."""
        gid = self.store.unfinished() if game_id is None else game_id
        if gid is None:
            return False
        try:
            saved = self.store.load(gid)
        except StorageError as e:  # an event that cannot be read: the game is hidden, the kiosk goes on
            self.store.hide(gid, str(e))
            return False
        self.game, self.game_id = saved.game, saved.id
        self._frames = dict(saved.frames)
        self._emit(Change("resume"))
        return True

    def last_throw_frame(self) -> np.ndarray | None:
        """The stored picture of the last event when it is a throw
        (``H×W×3 uint8 BGR``), or None (no throw last, no picture kept, or
        an unreadable file)."""
        game = self.game
        if game is None or not game.events or "throw" not in game.event_to_json(game.events[-1]):
            return None
        seq = len(game.events)
        path = getattr(self, "_frames", {}).get(seq)
        if path is None:
            path = next((fr for s, _, fr in self.store.events(self.game_id) if s == seq), None)
        if not path or not os.path.exists(path):
            return None
        import cv2

        return cv2.imread(path, cv2.IMREAD_COLOR)

    def end_unfinished(self, game_id: int) -> None:
        """End an unfinished game without a winner, because the players said so
        (the screen asks first). The game being played cannot be ended here."""
        if game_id == self.game_id and self.game is not None and not self.game.is_over:
            raise ValueError("the game being played is ended by playing it, or by starting another")
        self.store.abandon(game_id)

    def _need_game(self) -> Game:
        if self.game is None:
            raise NoGame("no game: start or resume one first")
        return self.game

    # -- events -------------------------------------------------------------
    def read(self, frame: np.ndarray) -> ReadResult:
        """Read a frame of the roller's throw without scoring it.

        ``frame``: ``H×W×3 uint8 BGR``. The read is ``ok`` only when the reader
        is sure and found the count of dice due (8, 7, 6 or 5).
        """
        game = self._need_game()
        if game.name == "fenn":
            return self._read_board(frame)
        due = game.dice_to_throw or 0
        if self._reader is None:
            from vision.reader import read_throw

            self._reader = read_throw
        if _takes_throw_args(self._reader):
            got = self._reader(frame, expect=due, area=self.area)
        else:
            got = self._reader(frame)  # a plain image → dice function
        if hasattr(got, "sure"):
            dice, reasons = tuple(got.dice), tuple(Reason(r) for r in got.reasons)
        else:
            dice, reasons = tuple(got), ()
        values = tuple(d.value for d in dice)
        if len(values) != due and Reason.WRONG_COUNT not in reasons:
            reasons += (Reason.WRONG_COUNT,)
        return ReadResult(dice, values, due, reasons)

    def take(self, read: ReadResult, frame: np.ndarray | None = None) -> str:
        """Score a read or ask the players about it: the one place that decides.

        A read that is sure and has the count due (``read.ok``) is scored as the
        throw (:meth:`throw`, which raises the engine's error for a throw the
        rules refuse; nothing is saved then); anything else is asked
        (:meth:`ask`: listeners get a ``"read"`` change, nothing is scored).
        Returns :data:`SCORED` or :data:`ASKED`.
        """
        if self.game is not None and self.game.name == "fenn":
            return self._take_board(read, frame)
        if read.ok:
            self.throw(read.values, frame=frame)
            return SCORED
        self.ask(read, frame)
        return ASKED

    # -- Fenn on the camera ---------------------------------------------------
    def _read_board(self, frame: np.ndarray):
        """Fenn: the board read by the reader with the game's dice set
        (:meth:`vision.reader.Reader.read_board`, the ``[fenn] dice`` setting);
        the board found in the frame when none is calibrated. Raises
        :class:`vision.fenn.BoardError` when there is none to find."""
        from vision.diceset import DICE_SETS
        from vision.fenn import find_board
        from vision.reader import Reader

        board = self.board if self.board is not None else find_board(frame)
        return Reader(dice=DICE_SETS[self.game.settings["dice"]]).read_board(frame, board)

    def _take_board(self, read, frame) -> str:
        """Fenn: apply what a sure read shows when the rules reach it (a start
        throw, a whole turn: F3, F15); :data:`SAME` when nothing moved; else ask
        (a ``"read"`` change with the :class:`companion.fenn_referee.Verdict`)."""
        from .fenn_referee import judge

        verdict = judge(self.game, read)
        if verdict.kind == "event":
            self.apply(verdict.event)
            return SCORED
        if verdict.kind == "same":
            return SAME
        self._emit(Change("read", frame=frame, verdict=verdict))
        return ASKED

    def throw_frame(self, frame: np.ndarray) -> ReadResult:
        """Read a frame and score it or ask about it (:meth:`take`).

        A read the reader is not sure of, or whose dice count is not the count
        due, is never scored: listeners get a ``"read"`` change to ask the
        players (nudge the dice and read again, or correct on the screen).
        """
        self._need_game().expect_throw()
        r = self.read(frame)
        self.take(r, frame)
        return r

    def ask(self, read: ReadResult, frame: np.ndarray | None = None) -> None:
        """Ask the players about a read that cannot be scored as it is: listeners
        get a ``"read"`` change with it (the screen offers to read again or to
        correct the dice); nothing is scored or saved."""
        self._emit(Change("read", read=read, frame=frame))

    def throw(self, values, *, frame: np.ndarray | None = None) -> ThrowResult:
        """Score a throw (saved with its frame before listeners hear of it).

        ``values``: the dice values, as read or as corrected on the screen;
        they are what the rules use, what is stored and what the recorder
        labels the frame with. Raises the engine's :class:`DurchmarschError`
        for an illegal throw; nothing is saved then.
        """
        game = self._need_game()
        trial = game.copy()
        result = trial.throw(values)  # checks the throw; raises before anything is saved
        seq = self.store.append(self.game_id, game.event_to_json(Throw(result.values)), frame=frame,
                                ends=_ends(trial))
        game.throw(result.values)
        card_full = frame is not None and self.store.frame_error is not None
        if frame is not None and self.recorder is not None:
            try:
                self.recorder.record(frame, result.values, game=self.game_id, seq=seq)
            except OSError:  # a full card must not stop the game
                log.exception("could not record the throw's frame")
        self._after(Change("throw", result=result, frame=frame))
        if card_full:
            self._emit(Change("card_full"))  # the throw is saved; its picture is not
        return result

    def correct(self, values, *, frame: np.ndarray | None = None) -> ThrowResult:
        """Replace the last throw's values with corrected ones (a player tapped
        "wrong" and fixed the dice on the screen).

        The last event must be a throw: it is taken back (in the store and the
        recorder) and ``values`` are scored in its place, with ``frame``. If
        the corrected throw is illegal the original stays. Raises
        :class:`NothingToUndo` when the last event is not a throw, and the
        engine's :class:`DurchmarschError` for illegal values.
        """
        game = self._need_game()
        if not game.events or not isinstance(game.events[-1], Throw):
            raise DurchmarschNothingToUndo("only a throw can be corrected, and the last event is not one")
        trial = game.copy()
        trial.undo()
        result = trial.throw(values)  # raises before anything changes
        old = game.events[-1]
        seq = self.store.replace_last(self.game_id, game.event_to_json(Throw(result.values)), frame=frame,
                                      ends=_ends(trial))  # the old throw out, the new one in: one transaction
        game.undo()
        game.throw(result.values)
        if self.recorder is not None:
            try:
                self.recorder.forget(game=self.game_id, seq=seq)
                if frame is not None:
                    self.recorder.record(frame, result.values, game=self.game_id, seq=seq)
            except OSError:
                log.exception("could not record the corrected throw %s", old)
        self._after(Change("throw", result=result, frame=frame))
        return result

    def decide(self, decision: str) -> None:
        """Apply stop/continue (saved first). Raises the engine's errors when not due."""
        game = self._need_game()
        trial = game.copy()
        trial.decide(decision)
        self.store.append(self.game_id, game.event_to_json(trial.events[-1]), ends=_ends(trial))
        game.decide(decision)
        self._after(Change("decision"))

    def undo(self) -> None:
        """Take back the last event, in the store and in the game."""
        game = self._need_game()
        if not game.events:
            game.undo()  # raises the game's own NothingToUndo
        last = game.events[-1]
        seq = len(game.events)  # the store numbers events from 1
        self.store.pop(self.game_id)
        game.undo()
        if self.recorder is not None and isinstance(last, Throw):
            try:
                self.recorder.forget(game=self.game_id, seq=seq)
            except OSError:
                log.exception("could not drop the undone throw's record")
        self._emit(Change("undo"))

    def apply(self, event) -> object:
        """Apply any event of the game (checked on a copy first, saved, then applied);
        returns what the game's ``apply`` returns. Raises the game's
        :class:`companion.game.IllegalEvent` subclass; nothing is saved then."""
        game = self._need_game()
        trial = game.copy()
        trial.apply(event)
        self.store.append(self.game_id, game.event_to_json(event), ends=_ends(trial))
        result = game.apply(event)
        self._after(Change("event"))
        return result

    @contextlib.contextmanager
    def transaction(self):
        """Everything the session stores inside commits together or not at all
        (:meth:`companion.storage.Store.transaction`): a game's end and the start
        of the one that replaces it. When it fails, the session's game is the
        one it had before, as the store is."""
        game, game_id, frames = self.game, self.game_id, dict(getattr(self, "_frames", {}))
        try:
            with self.store.transaction():
                yield
        except BaseException:
            self.game, self.game_id, self._frames = game, game_id, frames
            raise

    def _after(self, change: Change) -> None:
        game = self.game
        self._emit(change)
        if game.is_over:
            self._emit(Change("over"))
