"""The STOP and CONTINUE buttons: gpiozero on real or mock pins, and the keyboard.

gpiozero's ``MockFactory`` ignores ``bounce_time``, so debouncing is done here,
in software, where tests can reach it: a press within ``debounce`` seconds of
the last accepted press of the same button is ignored.

Example (on mock pins, as the tests do)::

    >>> from gpiozero import Device
    >>> from gpiozero.pins.mock import MockFactory
    >>> presses = []
    >>> buttons = DecisionButtons(presses.append, pin_factory=MockFactory())
    >>> buttons.stop.pin.drive_low(); buttons.stop.pin.drive_high()
    >>> presses
    ['stop']
    >>> buttons.close()
"""

from __future__ import annotations

import threading
import time
from typing import Callable

__all__ = ["DecisionButtons", "KEYS", "key_to_action", "Debouncer"]

#: Keyboard shortcuts on a desktop: key name -> action.
KEYS = {
    "s": "stop",
    "c": "continue",
    "enter": "continue",
    "spacebar": "throw",
    "space": "throw",
    "u": "undo",
    "backspace": "undo",
    "w": "wrong",
}


def key_to_action(key: str) -> str | None:
    """The action for a key name (Kivy's names: 's', 'spacebar', 'enter' ...), or None."""
    return KEYS.get(key.lower())


class Debouncer:
    """Accept an event only if ``debounce`` seconds passed since the last accepted one.

    ``clock``: a function returning seconds (``time.monotonic`` by default;
    tests pass a fake clock).
    """

    def __init__(self, debounce: float, *, clock: Callable[[], float] = time.monotonic):
        if debounce < 0:
            raise ValueError(f"debounce must be >= 0 seconds, got {debounce}")
        self.debounce = debounce
        self._clock = clock
        self._last: float | None = None
        self._lock = threading.Lock()

    def accept(self) -> bool:
        """True if this event counts (and starts a new quiet period)."""
        now = self._clock()
        with self._lock:
            if self._last is not None and now - self._last < self.debounce:
                return False
            self._last = now
            return True


class DecisionButtons:
    """Two gpiozero buttons, STOP and CONTINUE, wired from a BCM pin to ground.

    ``on_action``: called with ``"stop"``, ``"continue"`` or ``"undo"`` (STOP
    held for ``hold_undo`` seconds) from gpiozero's thread. ``stop_pin`` /
    ``continue_pin``: BCM numbers. ``debounce``: seconds during which a second
    press of the same button is ignored. ``pin_factory``: gpiozero pin factory
    (``MockFactory()`` in tests; None for the default real one). Raises
    ``gpiozero.GPIOZeroError`` subclasses when the pins cannot be claimed.
    """

    def __init__(
        self,
        on_action: Callable[[str], None],
        *,
        stop_pin: int = 5,
        continue_pin: int = 6,
        debounce: float = 0.05,
        hold_undo: float = 3.0,
        pin_factory=None,
        clock: Callable[[], float] = time.monotonic,
    ):
        from gpiozero import Button

        if stop_pin == continue_pin:
            raise ValueError(f"STOP and CONTINUE need different pins, both are {stop_pin}")
        self._on_action = on_action
        self.stop = Button(stop_pin, pull_up=True, hold_time=hold_undo, pin_factory=pin_factory)
        try:
            self.continue_ = Button(continue_pin, pull_up=True, pin_factory=pin_factory)
        except Exception:
            self.stop.close()
            raise
        self._deb = {"stop": Debouncer(debounce, clock=clock), "continue": Debouncer(debounce, clock=clock)}
        self._held = False
        self.stop.when_pressed = self._stop_pressed
        self.stop.when_released = self._stop_released
        self.stop.when_held = self._stop_held
        self.continue_.when_pressed = lambda: self._fire("continue")

    def _fire(self, action: str) -> None:
        if self._deb[action].accept():
            self._on_action(action)

    def _stop_pressed(self) -> None:
        self._held = False

    def _stop_released(self) -> None:
        # STOP acts on release, so a long hold means undo and not stop.
        if not self._held:
            self._fire("stop")
        self._held = False

    def _stop_held(self) -> None:
        self._held = True
        self._on_action("undo")

    def close(self) -> None:
        """Release both pins."""
        self.stop.close()
        self.continue_.close()
