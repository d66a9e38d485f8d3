"""The lights in the STOP and CONTINUE buttons, and the buzzer.

gpiozero devices on real or mock pins, like :mod:`hardware.buttons`. A pin
number of 0 means the part is not fitted; its methods then do nothing.

Example (on mock pins, as the tests do)::

    >>> from gpiozero.pins.mock import MockFactory
    >>> f = MockFactory()
    >>> lights = DecisionLights(stop_pin=17, continue_pin=27, pin_factory=f)
    >>> lights.show(stop=True, cont=False)
    >>> f.pin(17).state, f.pin(27).state
    (True, False)
    >>> lights.close()
"""

from __future__ import annotations

__all__ = ["DecisionLights", "Beeper", "PATTERNS"]

#: Buzzer patterns per game event: (seconds on, seconds off, beeps).
PATTERNS = {
    "success": (0.08, 0.05, 1),
    "misthrow": (0.35, 0.15, 2),
    "win": (0.12, 0.08, 4),
    "ask": (0.05, 0.05, 2),
}


class DecisionLights:
    """Two LEDs: lit while STOP (or CONTINUE) can be pressed.

    ``stop_pin`` / ``continue_pin``: BCM numbers, 0 for none fitted.
    ``pin_factory``: gpiozero pin factory (``MockFactory()`` in tests).
    Raises gpiozero's errors when a pin cannot be claimed.
    """

    def __init__(self, *, stop_pin: int = 17, continue_pin: int = 27, pin_factory=None):
        from gpiozero import LED

        self.stop = LED(stop_pin, pin_factory=pin_factory) if stop_pin else None
        try:
            self.continue_ = LED(continue_pin, pin_factory=pin_factory) if continue_pin else None
        except Exception:
            if self.stop is not None:
                self.stop.close()
            raise

    def show(self, *, stop: bool, cont: bool) -> None:
        """Light STOP when ``stop``, CONTINUE when ``cont``; the others off."""
        for led, on in ((self.stop, stop), (self.continue_, cont)):
            if led is not None:
                led.value = bool(on)

    def close(self) -> None:
        """Turn both off and release the pins."""
        for led in (self.stop, self.continue_):
            if led is not None and not led.closed:
                led.off()
                led.close()


class Beeper:
    """A piezo buzzer that beeps a pattern per game event (see :data:`PATTERNS`).

    ``pin``: BCM number, 0 for none fitted. ``enabled``: False keeps it quiet
    (the "sound" setting). Beeps play in gpiozero's background thread, so
    :meth:`play` returns at once.
    """

    def __init__(self, pin: int = 22, *, enabled: bool = True, pin_factory=None):
        from gpiozero import Buzzer

        self.enabled = enabled
        self.buzzer = Buzzer(pin, pin_factory=pin_factory) if pin else None
        self.played: list[str] = []

    def play(self, event: str) -> None:
        """Beep the pattern of ``event`` (a key of :data:`PATTERNS`; ``KeyError`` otherwise)."""
        on, off, n = PATTERNS[event]
        if not self.enabled or self.buzzer is None:
            return
        self.played.append(event)
        self.buzzer.beep(on_time=on, off_time=off, n=n, background=True)

    def close(self) -> None:
        """Silence and release the pin."""
        if self.buzzer is not None and not self.buzzer.closed:
            self.buzzer.off()
            self.buzzer.close()
