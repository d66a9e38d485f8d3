"""What the table's page shows, read from the data dir without ever writing to it.

:class:`ReadOnlyStore` is :class:`companion.storage.Store` opened with SQLite's
``file:...?mode=ro`` URI and ``PRAGMA query_only``: the same ``games``,
``events``, ``load`` and ``notes``, so the statistics
(:mod:`companion.stats`) and the export (:func:`companion.replay.export_game`)
run on it unchanged, and any write raises ``sqlite3.OperationalError``. A
missing database is :class:`NoDatabase` (the page says "no games yet"; it
never creates one). :class:`Watch` tells when the database changed (SQLite's
``data_version``, and the file's inode for a database replaced after damage).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
import urllib.parse
from dataclasses import dataclass

from ..status import read_status
from ..storage import Store, StoredGame

__all__ = ["NoDatabase", "ReadOnlyStore", "Watch", "live_game_id", "last_throw", "health", "period_start",
           "PERIODS", "folder_size"]

#: The leaderboard's periods: name → seconds back from now (None: all time).
PERIODS = {"week": 7 * 86400, "month": 30 * 86400, "all": None}


class NoDatabase(LookupError):
    """The data dir has no database yet (no game was ever played)."""


def _connect(path: str) -> sqlite3.Connection:
    if not os.path.exists(path):
        raise NoDatabase(path)
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
    db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=5)
    db.execute("PRAGMA query_only=1")
    return db


class ReadOnlyStore(Store):
    """The store of ``root`` (a data dir), read-only; ``since`` (seconds since
    the epoch, or None): :meth:`games` lists only games started since then.

    Raises :class:`NoDatabase` when ``root`` has no ``companion.db``, and
    ``sqlite3.DatabaseError`` when it cannot be read. Writing methods raise
    ``sqlite3.OperationalError`` (attempt to write a readonly database).
    """

    def __init__(self, root: str, *, since: float | None = None):
        self._start_state(root)
        self.since = since
        self._db = _connect(self.path)

    def games(self, limit: int | None = None) -> list[StoredGame]:
        """The stored games, newest first (as :meth:`Store.games`), started since :attr:`since`."""
        out = super().games(limit)
        return out if self.since is None else [g for g in out if g.started >= self.since]

    def notes(self, game_id: int, kind: str | None = None) -> list[tuple[int, str, dict]]:
        """As :meth:`Store.notes`; a database from before notes were kept has none."""
        try:
            return super().notes(game_id, kind)
        except sqlite3.OperationalError as e:
            if "no such table" in str(e):
                return []
            raise

    def games_page(self, offset: int, limit: int) -> tuple[list[StoredGame], int]:
        """``(games, total)``: ``limit`` games from ``offset`` (newest first) and how many there are."""
        total = self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        rows = self._db.execute(
            "SELECT g.id, g.game, g.players, g.started, g.finished, g.winner, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) FROM games g ORDER BY g.id DESC LIMIT ? OFFSET ?",
            (int(limit), int(offset)))
        return [StoredGame(int(i), g, tuple(json.loads(p)), float(st), fin, w, int(n))
                for i, g, p, st, fin, w, n in rows], int(total)

    def summary(self, game_id: int) -> StoredGame | None:
        """One game's line of :meth:`games`, or None when there is no such game."""
        row = self._db.execute("SELECT id, game, players, started, finished, winner, "
                               "(SELECT COUNT(*) FROM events WHERE game_id = ?) FROM games WHERE id = ?",
                               (game_id, game_id)).fetchone()
        if row is None:
            return None
        i, g, p, st, fin, w, n = row
        return StoredGame(int(i), g, tuple(json.loads(p)), float(st), fin, w, int(n))

    def finished_version(self) -> tuple:
        """A value that changes only when a game is finished or reopened (an undo after its end):
        what the leaderboards depend on."""
        return tuple(self._db.execute("SELECT COUNT(*), MAX(finished), SUM(id) FROM games WHERE finished IS NOT NULL")
                     .fetchone())

    def last_event(self, game_id: int) -> tuple[int, float] | None:
        """``(seq, time)`` of a game's last event, or None."""
        row = self._db.execute("SELECT seq, ts FROM events WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                               (game_id,)).fetchone()
        return None if row is None else (int(row[0]), float(row[1]))


class Watch:
    """Tells when the database of ``root`` changed: :meth:`version` is a value
    that differs after every commit by the app (and after the file is replaced). One connection, kept open, read-only."""

    def __init__(self, root: str):
        self.path = os.path.join(root, "companion.db")
        self._db: sqlite3.Connection | None = None
        self._ino: int | None = None

    def version(self) -> tuple:
        """The database's version now (cheap: one ``PRAGMA data_version``); ``(None,)`` while there is none."""
        try:
            st = os.stat(self.path)
        except OSError:
            self.close()
            return (None,)
        try:
            if self._db is None or st.st_ino != self._ino:
                self.close()
                self._db, self._ino = _connect(self.path), st.st_ino
            return (st.st_ino, self._db.execute("PRAGMA data_version").fetchone()[0], _mtime(self.path + "-wal"))
        except (sqlite3.Error, NoDatabase):
            self.close()
            return ("unreadable", st.st_ino, st.st_mtime_ns)

    def close(self) -> None:
        """Close the watching connection."""
        if self._db is not None:
            self._db.close()
        self._db = self._ino = None


def _mtime(path: str) -> float | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def live_game_id(store: ReadOnlyStore) -> int | None:
    """The game being played: the one whose event was stored last, or a newer
    game with no event yet; None when there are no games."""
    row = store._db.execute("SELECT game_id, ts FROM events WHERE rowid = (SELECT MAX(rowid) FROM events)").fetchone()
    newest = store._db.execute("SELECT id, started FROM games ORDER BY id DESC LIMIT 1").fetchone()
    if newest is None:
        return None
    if row is None or (int(newest[0]) != int(row[0]) and float(newest[1]) >= float(row[1])):
        return int(newest[0])
    return int(row[0])


@dataclass(frozen=True)
class LastThrow:
    """The last throw of a Durchmarsch game: its :class:`companion.durchmarsch.ThrowResult`
    and the seq of its stored event (the picture's key), or None."""

    result: object
    seq: int | None
    frame: str | None


def last_throw(store: ReadOnlyStore, game_id: int, game) -> LastThrow | None:
    """The last throw of ``game`` (a loaded Durchmarsch) stored as game ``game_id``, or None before the first."""
    from ..stats import throw_history

    history = throw_history(game)
    if not history:
        return None
    for seq, data, frame in reversed(store.events(game_id)):
        if "throw" in data:
            return LastThrow(history[-1], seq, frame if frame and os.path.exists(frame) else None)
    return LastThrow(history[-1], None, None)


def period_start(period: str, now: float | None = None) -> float | None:
    """The start (seconds since the epoch) of a leaderboard period of :data:`PERIODS`;
    raises ``KeyError`` for an unknown one."""
    back = PERIODS[period]
    return None if back is None else (now or time.time()) - back


def folder_size(root: str) -> int:
    """Bytes of the files under ``root`` (files that vanish meanwhile are skipped)."""
    total = 0
    for folder, _dirs, files in os.walk(root):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                pass
    return total


def health(data_dir: str, *, now: float | None = None, used: int | None = None) -> dict:
    """What the owner sees on ``/health``: from the app's heartbeat
    (:mod:`companion.status`) and the disk.

    ``app_running`` (a heartbeat in the last 15 s), ``uptime`` (seconds, or
    None), ``camera`` (``"reading"``, ``"not reading"``, ``"demo"`` or None
    when the app is not running), ``scored`` and ``asked`` today and
    ``asked_share`` (0-1 or None), ``used`` (bytes in the data dir), ``free``
    (bytes left on its disk), ``last_error`` (a line, or None).
    """
    now = now or time.time()
    st = read_status(data_dir) or {}
    running = isinstance(st.get("updated"), (int, float)) and now - st["updated"] < 15
    cam = st.get("camera") or {}
    camera = None
    if running:
        camera = "demo" if cam.get("demo") else "reading" if cam.get("reading") else "not reading"
    today = st.get("today") or {}
    same_day = today.get("date") == time.strftime("%Y-%m-%d", time.localtime(now))
    scored = int(today.get("scored", 0)) if same_day else 0
    asked = int(today.get("asked", 0)) if same_day else 0
    try:
        free = shutil.disk_usage(data_dir).free
    except OSError:
        free = None
    return {"app_running": running, "uptime": now - st["started"] if running and "started" in st else None,
            "camera": camera, "source": cam.get("source"), "scored": scored, "asked": asked,
            "asked_share": asked / (asked + scored) if asked + scored else None,
            "used": folder_size(data_dir) if used is None else used, "free": free, "last_error": st.get("last_error")}
