"""Know when the dice have come to rest, from the live camera stream.

A throw is read once, when the dice have stopped: the detector compares each
frame, shrunk to a small grey picture, with the one before. Pixels that change
by more than a grey-level step count as motion. After motion, a still scene
for ``still_time`` seconds is a *settled* scene, reported once. A settled
scene that looks like the last one reported (a hand passed over the tray and
left, nothing moved) is not reported again; a new throw changes the picture,
even when it shows the same values, and is reported.

Example::

    >>> import numpy as np
    >>> d = RestDetector(RestConfig(still_time=0.3))
    >>> empty = np.zeros((480, 640, 3), np.uint8)
    >>> dice = empty.copy(); dice[200:260, 300:360] = 255
    >>> [d.update(f, t) is not None for f, t in [(empty, 0.0), (dice, 0.1), (dice, 0.2), (dice, 0.45)]]
    [False, False, False, True]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

__all__ = ["RestConfig", "RestDetector", "Settled"]


@dataclass(frozen=True)
class RestConfig:
    """Numbers of the at-rest detector (plain data).

    ``width``: the width, pixels, of the small grey picture motion is measured
    on. ``pixel_step``: grey levels (0-255) a pixel must change by to count as
    motion. ``motion_fraction``: the fraction of pixels (within the area) that
    must change between two frames for the scene to be moving.
    ``still_time``: seconds the scene must stay still after motion to be
    settled. ``change_fraction``: the fraction of pixels that must differ from
    the last settled scene for a new settled scene to be reported.
    """

    width: int = 160
    pixel_step: int = 20
    motion_fraction: float = 0.002
    still_time: float = 0.3
    change_fraction: float = 0.002


@dataclass(frozen=True)
class Settled:
    """A scene come to rest: ``frame`` (the full ``H×W×3 uint8 BGR`` frame),
    ``time`` (seconds, the clock given to :meth:`RestDetector.update`) and
    ``last_motion`` (seconds, the time of the last moving frame)."""

    frame: np.ndarray = field(repr=False)
    time: float
    last_motion: float


class RestDetector:
    """Turn a stream of frames into settled scenes.

    ``config``: a :class:`RestConfig`. ``area``: optional polygon, ``(x, y)``
    pixels of the full frame; motion outside it (a die set aside, a hand
    reaching for the score pad) is ignored.

    Call :meth:`update` with every frame and its time in seconds; it returns a
    :class:`Settled` the first time a scene comes to rest after motion, else
    None. The first frame is the starting scene and is never reported (dice
    lying in the tray when the app starts are not a throw).
    """

    def __init__(self, config: RestConfig = RestConfig(), *, area=None):
        self.config = config
        self._area = None if area is None else np.asarray(area, np.float32).reshape(-1, 2)
        self._mask: np.ndarray | None = None  # bool, True inside the area
        self._mask_count = 1
        self._prev: np.ndarray | None = None
        self._settled: np.ndarray | None = None
        self._last_motion: float | None = None
        self._armed = False
        self.moving = False

    def small(self, frame: np.ndarray) -> np.ndarray:
        """The small blurred grey picture of ``frame`` (``h×width uint8``).

        Pixels are sampled with a stride (no full-size resize), so this costs
        well under a millisecond on a 1640×1232 frame.
        """
        h, w = frame.shape[:2]
        step = max(1, w // self.config.width)
        sub = frame[::step, ::step]
        grey = cv2.cvtColor(np.ascontiguousarray(sub), cv2.COLOR_BGR2GRAY) if sub.ndim == 3 else np.ascontiguousarray(sub)
        if self._mask is None or self._mask.shape != grey.shape:
            self._mask = self._make_mask(grey.shape, step)
        return cv2.GaussianBlur(grey, (5, 5), 0)

    def _make_mask(self, shape, step) -> np.ndarray | None:
        if self._area is None:
            return None
        m = np.zeros(shape, np.uint8)
        cv2.fillPoly(m, [np.round(self._area / step).astype(np.int32)], 255)
        inside = m > 0
        self._mask_count = max(1, int(np.count_nonzero(inside)))
        return inside

    def _changed(self, a: np.ndarray, b: np.ndarray) -> float:
        diff = cv2.absdiff(a, b) > self.config.pixel_step
        if self._mask is not None:
            return float(np.count_nonzero(diff & self._mask)) / self._mask_count
        return float(np.count_nonzero(diff)) / diff.size

    def update(self, frame: np.ndarray, t: float) -> Settled | None:
        """Take one frame (``H×W×3 uint8 BGR``) at time ``t`` (seconds).

        Returns a :class:`Settled` when the scene has just come to rest after
        motion and differs from the last settled scene; else None.
        """
        small = self.small(frame)
        prev, self._prev = self._prev, small
        if prev is None or prev.shape != small.shape:
            self._settled = small
            return None
        if self._changed(small, prev) > self.config.motion_fraction:
            self.moving = True
            self._armed = True
            self._last_motion = t
            return None
        self.moving = False
        if not self._armed or t - self._last_motion < self.config.still_time:
            return None
        self._armed = False
        if self._settled is not None and self._changed(small, self._settled) <= self.config.change_fraction:
            return None  # the same scene as before: nothing was thrown
        self._settled = small
        return Settled(frame, t, self._last_motion)

    def reset(self, frame: np.ndarray | None = None) -> None:
        """Forget the past; ``frame`` (if given) becomes the starting scene."""
        self._prev = self._settled = None
        self._armed = False
        self.moving = False
        if frame is not None:
            self._prev = self._settled = self.small(frame)
