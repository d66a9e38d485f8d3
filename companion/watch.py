"""Watch the live stream and score each throw once, when the dice have come to rest.

:class:`ThrowWatcher` joins the at-rest detector (:mod:`vision.rest`), the
reader and a :class:`companion.session.GameSession`. For every settled
scene it decides, and says why:

- ``"scored"``: the game waits for a throw, the reader is sure and the dice
  count is the count due: the throw is scored.
- ``"asked"``: the reader is not sure or the count is wrong: the session asks
  the players (a ``"read"`` change); nothing is scored.
- ``"ignored"``: no game, a decision is due, the tray is empty, or the dice
  are the last scored throw's dice lying where they lay (most of them unmoved,
  for example after one die was taken out to set aside). A new throw that
  shows the same values lies elsewhere and is scored.

Example::

    >>> import tempfile
    >>> from companion.session import GameSession
    >>> from companion.storage import Store
    >>> from hardware.render import TrayScene
    >>> scene = TrayScene(seed=3)
    >>> s = GameSession(Store(tempfile.mkdtemp())); s.start(["Sarah", "Tim"], first=0)
    >>> w = ThrowWatcher(s)
    >>> w.feed(scene.frame([]), 0.0) is None
    True
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .durchmarsch import DurchmarschError, Phase
from .session import SAME, SCORED

__all__ = ["ThrowWatcher", "Seen", "Why"]


class Why(str, enum.Enum):
    """Why the watcher scored, asked about or ignored a settled scene (words:
    :func:`companion.prompts.seen_text`)."""

    NO_GAME = "no_game"
    DECISION_DUE = "decision_due"
    GAME_OVER = "game_over"
    MOVED_ON = "moved_on"
    EMPTY = "empty"
    NOT_MOVED = "not_moved"
    NOT_SURE = "not_sure"
    REFUSED = "refused"
    SCORED = "scored"


@dataclass(frozen=True)
class Seen:
    """What the watcher did with a settled scene: ``outcome`` (``"scored"``,
    ``"asked"`` or ``"ignored"``), ``why`` (a :class:`Why` code), the session's
    ``read`` (a :class:`companion.session.ReadResult`, None when not read),
    and ``latency``: seconds from the last moving frame to the read being
    available (by the clock given to :meth:`ThrowWatcher.feed`)."""

    outcome: str
    why: Why
    read: object = None
    latency: float | None = None


class ThrowWatcher:
    """Feed it every camera frame; it scores throws when the dice come to rest.

    ``session``: the :class:`GameSession`; ``detector``: a
    :class:`vision.rest.RestDetector` (one over the session's tray area by
    default); ``clock``: the time source for :meth:`feed` calls without a time.
    """

    def __init__(self, session, *, detector=None, clock=None):
        import time

        from vision.rest import RestDetector

        self.session = session
        area = getattr(session, "area", None)
        self.detector = detector or RestDetector(area=None if area is None else area.polygon)
        self._clock = clock or time.monotonic
        self._last_scored: tuple = ()
        self.last: Seen | None = None
        #: The frame of the last throw this watcher scored (``H×W×3 uint8 BGR``), or None.
        self.last_frame: np.ndarray | None = None

    def feed(self, frame: np.ndarray, t: float | None = None, *,
             act_on: Callable[[Callable[[], Seen]], None] | None = None) -> Seen | None:
        """Take one frame (``H×W×3 uint8 BGR``) at time ``t`` (seconds).

        When the frame completes a settled scene, it is read here (the slow
        part) and then scored, asked about or ignored (:meth:`act`); returns
        the :class:`Seen`, else None. ``act_on``: where the acting runs, for a
        caller that reads on a worker thread but owns the session on another
        (the app passes a function that schedules the call on Kivy's clock);
        :meth:`feed` then returns None and the scheduled call returns the
        :class:`Seen`. Errors of the rules engine never escape: a throw the
        rules refuse is reported as ``"ignored"``.
        """
        t = self._clock() if t is None else t
        settled = self.detector.update(frame, t)
        if settled is None:
            return None
        r = self.read_if_due(settled.frame)
        latency = t - settled.last_motion

        def act() -> Seen:
            seen = self.act(settled.frame, r)
            self.last = Seen(seen.outcome, seen.why, seen.read, latency)
            return self.last

        if act_on is None:
            return act()
        act_on(act)
        return None

    def consider(self, frame: np.ndarray) -> Seen:
        """Decide what a settled scene is (see the module text) and act on it."""
        return self.act(frame, self.read_if_due(frame))

    def read_if_due(self, frame: np.ndarray):
        """The session's read of ``frame`` when the game waits for a throw, else None.

        Safe to call on a worker thread (it reads the game, it changes nothing);
        pass the result to :meth:`act` on the thread that owns the session.
        """
        game = self.session.game
        if game is not None and game.name == "fenn":  # the board is read at every rest (F15: whole turns)
            return None if game.is_over else self.session.read(frame)
        if game is None or game.phase is not Phase.ROLL:
            return None
        return self.session.read(frame)

    def act(self, frame: np.ndarray, r) -> Seen:
        """Score, ask or ignore a settled scene given its read ``r`` (from
        :meth:`read_if_due`, None when no throw was due). Scoring or asking is
        the session's decision (:meth:`companion.session.GameSession.take`)."""
        s = self.session
        game = s.game
        if game is None:
            return Seen("ignored", Why.NO_GAME)
        if game.name == "fenn":
            if r is None:
                return Seen("ignored", Why.GAME_OVER)
            taken = s.take(r, frame)
            if taken == SCORED:
                self.last_frame = frame
            return Seen("ignored" if taken == SAME else taken, Why.NOT_MOVED if taken == SAME else
                        Why.SCORED if taken == SCORED else Why.NOT_SURE if r.reasons else Why.REFUSED, r)
        if game.phase is not Phase.ROLL or r is None or r.expected != game.dice_to_throw:
            return Seen("ignored", Why.DECISION_DUE if game.phase is Phase.DECIDE else
                        Why.GAME_OVER if game.phase is Phase.OVER else Why.MOVED_ON)
        if not r.dice:
            return Seen("ignored", Why.EMPTY, r)
        if self._unmoved(r.dice):
            return Seen("ignored", Why.NOT_MOVED, r)
        try:
            taken = s.take(r, frame)
        except DurchmarschError:
            return Seen("ignored", Why.REFUSED, r)
        if taken != SCORED:
            return Seen("asked", Why.NOT_SURE, r)
        self._last_scored = tuple(r.dice)
        self.last_frame = frame
        return Seen("scored", Why.SCORED, r)

    def scored(self, dice) -> None:
        """Tell the watcher which dice lie in the tray after a throw scored another
        way (a correction on the screen), so they are not read again."""
        self._last_scored = tuple(dice)

    def _unmoved(self, dice) -> bool:
        """True when most of ``dice`` lie where the last scored throw's dice lay,
        showing the same values."""
        if not self._last_scored:
            return False
        same = 0
        for d in dice:
            for o in self._last_scored:
                apart = math.hypot(d.center[0] - o.center[0], d.center[1] - o.center[1])
                if d.value == o.value and apart < 0.35 * max(d.size, o.size):
                    same += 1
                    break
        return same * 2 > len(dice)
