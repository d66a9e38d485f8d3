"""Opening the games database so that damage never stops the kiosk.

At start (:func:`open_checked`): a database that is not a regular file, is
not a database, fails ``PRAGMA quick_check`` or holds tables of another
layout is *copied* aside (``companion.db.damaged-<time>`` with its
``-wal``/``-shm``; a link or special file is renamed, never deleted), the
games that can still be read are carried into a fresh database, and a
:class:`Repair` says what was done. A database locked by another process
is waited for (SQLite's ``busy_timeout``) and never moved aside.
:func:`keep_wal` copies a ``-wal`` left by a crash before SQLite opens (and
folds) it.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import stat
import tempfile
import time
from dataclasses import dataclass

from .files import short_path

__all__ = ["Repair", "OpenError", "open_checked", "keep_wal"]

log = logging.getLogger(__name__)

#: The columns this version reads; a table lacking one is of another layout.
_COLUMNS = {"games": {"id", "game", "players", "first", "started", "finished", "winner"},
            "events": {"game_id", "seq", "event", "frame", "ts"}}


class OpenError(RuntimeError):
    """The database stays locked, or a damaged one cannot be replaced (the
    message says which file and why); the store raises it as its StorageError."""


@dataclass(frozen=True)
class Repair:
    """What the start did to a damaged database: ``kept`` the path of the copy
    kept aside, ``why`` SQLite's words for the damage, ``carried`` how many
    games were carried into the fresh database, ``lost`` how many could not be."""

    kept: str
    why: str
    carried: int
    lost: int


def keep_wal(path: str) -> str | None:
    """Copy ``path``'s ``-wal`` (a write-ahead log left by a crash) to
    ``<path>-wal.at-start`` before SQLite opens it, so a log that SQLite's
    recovery drops is still kept; returns the copy's path or None."""
    wal = path + "-wal"
    try:
        if not os.path.isfile(wal) or os.path.getsize(wal) == 0:
            return None
        shutil.copyfile(wal, wal + ".at-start")
    except OSError as e:
        log.warning("the write-ahead log %s could not be copied aside: %s", short_path(wal), e)
        return None
    return wal + ".at-start"


def _locked(e: Exception) -> bool:
    text = str(e).lower()
    return "locked" in text or "busy" in text


def _connect(path: str, busy: float) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=busy)
    db.execute(f"PRAGMA busy_timeout={int(busy * 1000)}")
    return db


def _problem(db: sqlite3.Connection) -> str | None:
    """Why the open database cannot be used as it is, or None."""
    rows = db.execute("PRAGMA quick_check").fetchall()
    if rows != [("ok",)]:
        return "quick_check: " + "; ".join(str(r[0]) for r in rows[:3])
    for table, want in _COLUMNS.items():
        have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
        if have and not want <= have:
            return f"the {table} table is of another layout (no {', '.join(sorted(want - have))})"
    return None


def _prepare(db: sqlite3.Connection, schema: str) -> None:
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.executescript(schema)
    if "options" not in {r[1] for r in db.execute("PRAGMA table_info(games)")}:
        db.execute("ALTER TABLE games ADD COLUMN options TEXT")  # a save from before the game settings
    db.execute("CREATE TABLE IF NOT EXISTS notes (game_id INTEGER NOT NULL REFERENCES games(id), "
               "seq INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT, ts REAL NOT NULL)")


def open_checked(path: str, schema: str, busy: float) -> tuple[sqlite3.Connection, Repair | None]:
    """The database at ``path``, checked and with ``schema``; a damaged one is
    repaired (see the module doc) and the :class:`Repair` returned beside it.

    Raises :class:`OpenError` when the database stays locked for ``busy``
    seconds or the folder cannot be written.
    """
    problem = None
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            problem = "not a regular file"
    except FileNotFoundError:
        pass
    except OSError as e:
        problem = str(e)
    if problem is None:
        db = None
        try:
            db = _connect(path, busy)
            problem = _problem(db)
            if problem is None:
                _prepare(db, schema)
                return db, None
        except sqlite3.DatabaseError as e:
            if isinstance(e, sqlite3.OperationalError) and _locked(e):
                if db is not None:
                    db.close()
                raise OpenError(f"{short_path(path)} is locked by another program (waited {busy:g} s)") from e
            problem = str(e)
        if db is not None:
            db.close()
    try:
        repair = _repair(path, schema, problem)
        db = _connect(path, busy)
        _prepare(db, schema)
    except (OSError, sqlite3.Error) as e:
        raise OpenError(f"{short_path(path)} is damaged ({problem}) and cannot be replaced: {e}") from e
    log.error("the saved games %s were damaged (%s); kept as %s; %d games carried over, %d lost",
              short_path(path), problem, short_path(repair.kept), repair.carried, repair.lost)
    return db, repair


def _repair(path: str, schema: str, why: str) -> Repair:
    kept = f"{path}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
    n = 1
    while os.path.lexists(kept):
        n += 1
        kept = f"{path}.damaged-{time.strftime('%Y%m%d-%H%M%S')}-{n}"
    regular = os.path.isfile(path) and not os.path.islink(path)
    if regular:
        for suffix in ("", "-wal", "-shm"):
            if os.path.isfile(path + suffix):
                shutil.copyfile(path + suffix, kept + suffix)
    else:
        os.replace(path, kept)  # a link or a special file: renamed, never followed or deleted
    games = _salvage(kept) if regular else []
    new = path + ".new"
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.lexists(new + suffix):
            os.unlink(new + suffix)
    db = sqlite3.connect(new, isolation_level=None)
    try:
        db.executescript(schema)
        _prepare(db, schema)
        db.execute("BEGIN")
        for game, events, notes in games:
            db.execute(f"INSERT INTO games({', '.join(game)}) VALUES ({', '.join('?' * len(game))})",
                       tuple(game.values()))
            db.executemany("INSERT INTO events(game_id, seq, event, frame, ts) VALUES (?, ?, ?, ?, ?)", events)
            db.executemany("INSERT INTO notes(game_id, seq, kind, data, ts) VALUES (?, ?, ?, ?, ?)", notes)
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode=DELETE")
    finally:
        db.close()
    for suffix in ("-wal", "-shm"):  # copied aside above: they belong to the damaged file, not the fresh one
        if os.path.lexists(path + suffix):
            os.unlink(path + suffix)
    os.replace(new, path)
    lost = _count_games(kept) - len(games) if regular else 0
    return Repair(kept, why, len(games), max(0, lost))


def _count_games(path: str) -> int:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            db.close()
    except (sqlite3.Error, TypeError, ValueError):
        return 0


def _either(db: sqlite3.Connection, sql: str, gid: int) -> list:
    """Rows of ``sql`` (``{}`` where the index choice goes) through the index,
    or, when a damaged index page stops that, by a scan of the table."""
    try:
        return db.execute(sql.format(""), (gid,)).fetchall()
    except sqlite3.DatabaseError:
        return db.execute(sql.format("NOT INDEXED"), (gid,)).fetchall()


def _salvage(kept: str) -> list[tuple[dict, list, list]]:
    """The games of the damaged copy ``kept`` that can be read whole: each as
    ``(games row by column, event rows, note rows)``. Read from a scratch copy,
    so ``kept`` stays as it was."""
    out = []
    with tempfile.TemporaryDirectory(prefix="companion-salvage-") as tmp:
        scratch = os.path.join(tmp, "copy.db")
        for suffix in ("", "-wal"):
            if os.path.isfile(kept + suffix):
                shutil.copyfile(kept + suffix, scratch + suffix)
        try:
            db = sqlite3.connect(scratch)
        except sqlite3.Error:
            return []
        try:
            cols = [r[1] for r in db.execute("PRAGMA table_info(games)") if r[1] in _COLUMNS["games"] | {"options"}]
            if not _COLUMNS["games"] <= set(cols):
                return []
            try:
                ids = [r[0] for r in db.execute("SELECT id FROM games ORDER BY id")]
            except sqlite3.DatabaseError:
                top = db.execute("SELECT MAX(rowid) FROM games").fetchone()[0] or 0
                ids = list(range(1, int(top) + 1))
            has_notes = bool(db.execute("PRAGMA table_info(notes)").fetchall())
            for gid in ids:
                try:
                    row = _either(db, f"SELECT {', '.join(cols)} FROM games {{}} WHERE id=?", gid)
                    if not row:
                        continue
                    events = _either(db, "SELECT game_id, seq, event, frame, ts FROM events {} WHERE game_id=? "
                                     "ORDER BY seq", gid)
                except sqlite3.DatabaseError as e:
                    log.warning("game %s of the damaged save cannot be read: %s", gid, e)
                    continue
                try:  # notes (hints shown) never change a game: it is carried without them if need be
                    notes = _either(db, "SELECT game_id, seq, kind, data, ts FROM notes {} WHERE game_id=?",
                                    gid) if has_notes else []
                except sqlite3.DatabaseError:
                    notes = []
                row = row[0]
                out.append((dict(zip(cols, row)), events, notes))
        except sqlite3.DatabaseError as e:
            log.warning("the damaged save %s cannot be read: %s", short_path(kept), e)
        finally:
            db.close()
    return out
