"""Stray taps never act: presses are ignored for a moment after the buttons changed meaning.

A double tap on STOP must not land on the THROW that takes its place; a double
tap on a top face must not land on the Pasch picker opened in the same place.
After any press (or read) that changes what the buttons mean, :meth:`TapGuard.hold`
starts a quiet time (``app.guard`` seconds, 0.6 by default); a press during it
is dropped (:meth:`TapGuard.ready` is False). Touch, keys and the GPIO
buttons all reach the table through :class:`ui.controller.TableController`,
which asks the one guard, so they are treated alike.

Example (a clock that the example moves by hand)::

    >>> now = [0.0]
    >>> g = TapGuard(0.6, clock=lambda: now[0])
    >>> g.ready()
    True
    >>> g.hold(); now[0] = 0.2; g.ready()
    False
    >>> round(g.left(), 2)
    0.4
    >>> now[0] = 0.61; g.ready()
    True

Pure: no Kivy import.
"""

from __future__ import annotations

import time
from typing import Callable

__all__ = ["TapGuard", "DEFAULT_GUARD"]

#: Seconds a new screen is shown before a press acts (a double tap is 50-400 ms apart;
#: Microsoft's default double-click time is 500 ms).
DEFAULT_GUARD = 0.6


class TapGuard:
    """The quiet time after a change of what the buttons mean.

    ``seconds``: its length (0: no guard); ``clock``: seconds, monotonic
    (``time.monotonic`` by default; tests pass their own).
    """

    def __init__(self, seconds: float = DEFAULT_GUARD, *, clock: Callable[[], float] | None = None):
        self.seconds = float(seconds)
        self.clock = clock or time.monotonic
        self._until = float("-inf")
        #: Presses dropped so far (for the log and the tests).
        self.dropped = 0

    def hold(self) -> None:
        """The buttons changed meaning now: presses wait :attr:`seconds` from now."""
        self._until = max(self._until, self.clock() + self.seconds)

    def left(self) -> float:
        """Seconds of the quiet time still to run (0.0 when a press would act); counts nothing."""
        return max(0.0, self._until - self.clock())

    def ready(self) -> bool:
        """True when a press may act now; False (and counted) while the quiet time runs."""
        if self.clock() >= self._until:
            return True
        self.dropped += 1
        return False
