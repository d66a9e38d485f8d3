"""The app's heartbeat for the table's page: a small JSON file in the data dir.

The app (``ui/app.py``) keeps one :class:`AppStatus`: it counts the throws
scored and asked today (from the session's changes), remembers the last error
line logged, and every few seconds writes ``<data_dir>/status.json``
atomically (:func:`companion.files.write_atomically`, without ``fsync``)::

    {"pid": 812, "started": 1764000000.0, "updated": 1764000123.4,
     "camera": {"source": "pi", "demo": false, "reading": true, "last_frame": 1764000123.3},
     "today": {"date": "2025-11-25", "scored": 41, "asked": 3},
     "last_error": "2025-11-25 18:02:11 companion.storage: the card is full (...)"}

The page's server (:mod:`companion.web`) only reads it. A restart on the same
day continues the day's counts.

    >>> import tempfile
    >>> s = AppStatus(tempfile.mkdtemp(), source="mock", demo=True)
    >>> s.count("scored"); s.count("asked"); s.write(frame_seen=True)
    >>> read_status(s.data_dir)["today"]["asked"]
    1
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time

from .files import write_atomically

__all__ = ["AppStatus", "read_status", "STATUS_FILE"]

STATUS_FILE = "status.json"
#: Seconds between heartbeats (the page calls the app stopped after three missed).
EVERY = 5.0


class _LastError(logging.Handler):
    """Keeps the first line of the last record at ERROR or above."""

    def __init__(self, status: "AppStatus"):
        super().__init__(level=logging.ERROR)
        self.status = status

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = record.getMessage().splitlines()[0] if record.getMessage() else record.levelname
        except Exception:  # a record that cannot be formatted still counts as an error
            line = str(record.msg)
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.created))
        self.status.last_error = f"{stamp} {record.name}: {line}"[:300]


class AppStatus:
    """What the app says about itself: ``data_dir`` where ``status.json`` goes,
    the camera's ``source`` name and whether it is the ``demo``.

    :attr:`handler` is a :class:`logging.Handler` to add to the root logger
    (the last error line); :meth:`on_change` takes the session's
    :class:`companion.session.Change`; :meth:`write` writes the file (errors
    are logged at WARNING, never raised: a full card must not stop the app).
    """

    def __init__(self, data_dir: str, *, source: str = "", demo: bool = False):
        self.data_dir = data_dir
        self.source = source
        self.demo = demo
        self.started = time.time()
        self.last_error: str | None = None
        self.last_frame: float | None = None
        self.handler = _LastError(self)
        old = read_status(data_dir) or {}
        today = old.get("today") or {}
        self.today = {"date": _today(), "scored": 0, "asked": 0}
        if today.get("date") == self.today["date"]:
            self.today.update(scored=int(today.get("scored", 0)), asked=int(today.get("asked", 0)))
        self.last_error = old.get("last_error")

    def count(self, what: str) -> None:
        """Count a throw ``"scored"`` or ``"asked"`` today."""
        if self.today["date"] != _today():
            self.today = {"date": _today(), "scored": 0, "asked": 0}
        self.today[what] += 1

    def on_change(self, change) -> None:
        """A session change: a scored throw (``"throw"``) or a read asked about (``"read"``)."""
        if change.kind == "throw":
            self.count("scored")
        elif change.kind == "read":
            self.count("asked")

    def write(self, *, frame_seen: bool) -> None:
        """Write ``status.json`` now; ``frame_seen``: a new camera frame came since the last heartbeat."""
        now = time.time()
        if frame_seen:
            self.last_frame = now
        if self.today["date"] != _today():
            self.today = {"date": _today(), "scored": 0, "asked": 0}
        data = {"pid": os.getpid(), "started": self.started, "updated": now,
                "camera": {"source": self.source, "demo": self.demo, "reading": frame_seen,
                           "last_frame": self.last_frame},
                "today": self.today, "last_error": self.last_error}
        try:
            # Not flushed to the card every 5 s (wear); a heartbeat lost in a power cut is harmless.
            write_atomically(os.path.join(self.data_dir, STATUS_FILE), json.dumps(data).encode("utf-8"), sync=False)
        except OSError as e:
            logging.getLogger(__name__).warning("status not written: %s", e)


    def start(self, latest_frame) -> threading.Event:
        """Write the heartbeat every :data:`EVERY` seconds from a daemon thread;
        ``latest_frame()`` gives the camera's latest frame object (a new object:
        the camera is delivering). Returns the event that stops the thread."""
        stop = threading.Event()

        def beat():
            seen = None
            while True:
                frame = latest_frame()
                self.write(frame_seen=frame is not None and id(frame) != seen)
                seen = id(frame) if frame is not None else None
                if stop.wait(EVERY):
                    return

        threading.Thread(target=beat, name="status", daemon=True).start()
        return stop


def read_status(data_dir: str) -> dict | None:
    """The last ``status.json`` the app wrote in ``data_dir``, or None (none, or unreadable)."""
    try:
        with open(os.path.join(data_dir, STATUS_FILE), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _today() -> str:
    return time.strftime("%Y-%m-%d")
