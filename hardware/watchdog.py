"""systemd's service notifications (``sd_notify``): READY once the app is up,
WATCHDOG from the UI loop, so systemd restarts a hung UI.

The protocol is a datagram on the Unix socket systemd names in
``$NOTIFY_SOCKET`` (``@`` starts an abstract name); ``$WATCHDOG_USEC`` is the
``WatchdogSec=`` of the unit in microseconds. Outside systemd both are unset
and :class:`Notifier` does nothing. No library is needed for one ``sendto``
(python-systemd is not on PyPI for Bookworm's Python in a venv).

    >>> n = Notifier(env={})          # not under systemd
    >>> n.enabled, n.ready(), n.interval()
    (False, False, None)
"""

from __future__ import annotations

import logging
import os
import socket

__all__ = ["Notifier"]

log = logging.getLogger(__name__)


class Notifier:
    """Sends ``READY=1``, ``WATCHDOG=1`` and ``STATUS=...`` to systemd.

    ``env``: the environment to read ``NOTIFY_SOCKET`` and ``WATCHDOG_USEC``
    from (``os.environ`` by default). Sending never raises: a notification
    that cannot be sent is logged once, and the app goes on.
    """

    def __init__(self, *, env=None):
        env = os.environ if env is None else env
        self.address = env.get("NOTIFY_SOCKET") or None
        usec = env.get("WATCHDOG_USEC", "")
        self.watchdog_usec = int(usec) if usec.isdigit() and int(usec) > 0 else None
        self._warned = False

    @property
    def enabled(self) -> bool:
        """True under systemd with notifications (``Type=notify``)."""
        return self.address is not None

    def interval(self) -> float | None:
        """Seconds between WATCHDOG pings: half of ``WatchdogSec`` (systemd's
        advice), or None when the unit has no watchdog."""
        return None if self.watchdog_usec is None or not self.enabled else self.watchdog_usec / 2e6

    def send(self, message: str) -> bool:
        """Send one notification (``"READY=1"``); False when not under systemd or it failed."""
        if not self.enabled:
            return False
        addr = self.address
        if addr.startswith("@"):
            addr = "\0" + addr[1:]
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
                s.sendto(message.encode(), addr)
            return True
        except OSError as e:
            if not self._warned:
                log.warning("cannot notify systemd at %s: %s", self.address, e)
                self._warned = True
            return False

    def ready(self, status: str = "") -> bool:
        """The app is up: systemd marks the unit started."""
        return self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def ping(self) -> bool:
        """The UI loop is alive (call it from the loop every :meth:`interval` seconds)."""
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        """The app is stopping on purpose."""
        return self.send("STOPPING=1")
