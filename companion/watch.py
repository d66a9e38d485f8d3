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

import math
from dataclasses import dataclass

import numpy as np

from .durchmarsch import DurchmarschError, Phase

__all__ = ["ThrowWatcher", "Seen"]


@dataclass(frozen=True)
class Seen:
    """What the watcher did with a settled scene: ``outcome`` (``"scored"``,
    ``"asked"`` or ``"ignored"``), ``why`` in words, the session's
    ``read`` (a :class:`companion.session.ReadResult`, None when not read),
    and ``latency``: seconds from the last moving frame to the read being
    available (by the clock given to :meth:`ThrowWatcher.feed`)."""

    outcome: str
    why: str
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

    def feed(self, frame: np.ndarray, t: float | None = None) -> Seen | None:
        """Take one frame (``H×W×3 uint8 BGR``) at time ``t`` (seconds).

        Returns a :class:`Seen` when the frame completed a settled scene,
        else None. Errors of the rules engine never escape: a throw the rules
        refuse is reported as ``"ignored"`` with the reason.
        """
        t = self._clock() if t is None else t
        settled = self.detector.update(frame, t)
        if settled is None:
            return None
        seen = self.consider(settled.frame)
        self.last = Seen(seen.outcome, seen.why, seen.read, t - settled.last_motion)
        return self.last

    def consider(self, frame: np.ndarray) -> Seen:
        """Decide what a settled scene is (see the module text) and act on it."""
        return self.act(frame, self.read_if_due(frame))

    def read_if_due(self, frame: np.ndarray):
        """The session's read of ``frame`` when the game waits for a throw, else None.

        Safe to call on a worker thread (it reads the game, it changes nothing);
        pass the result to :meth:`act` on the thread that owns the session.
        """
        game = self.session.game
        if game is None or game.phase is not Phase.ROLL:
            return None
        return self.session.read(frame)

    def act(self, frame: np.ndarray, r) -> Seen:
        """Score, ask or ignore a settled scene given its read ``r`` (from
        :meth:`read_if_due`, None when no throw was due)."""
        s = self.session
        game = s.game
        if game is None:
            return Seen("ignored", "no game")
        if game.phase is not Phase.ROLL or r is None or r.expected != game.dice_to_throw:
            return Seen("ignored", "a decision is due" if game.phase is Phase.DECIDE else
                        "the game is over" if game.phase is Phase.OVER else "the game moved on")
        if not r.dice:
            return Seen("ignored", "the tray is empty", r)
        if self._unmoved(r.dice):
            return Seen("ignored", "the dice of the last throw, not moved", r)
        if not r.ok:
            s.ask(r, frame)
            return Seen("asked", r.problem, r)
        try:
            s.throw(r.values, frame=frame)
        except DurchmarschError as e:
            return Seen("ignored", str(e), r)
        self._last_scored = tuple(r.dice)
        return Seen("scored", "read sure, count right", r)

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
                if d.value == o.value and math.hypot(d.center[0] - o.center[0], d.center[1] - o.center[1]) < 0.35 * max(d.size, o.size):
                    same += 1
                    break
        return same * 2 > len(dice)
