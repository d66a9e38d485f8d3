"""Games on disk: every event in SQLite (WAL, synchronous=FULL), each throw's frame as JPEG.

An event is committed before the screen shows its effect, so a ``kill -9`` or a
power cut loses at most the event being written; on restart
:meth:`Store.unfinished` finds the game and :meth:`Store.load` replays it to
exactly where it was.

Layout of a data folder::

    companion.db            games and events
    frames/<game>/<seq>.jpg the frame of each throw (written before its event)

Example::

    >>> import tempfile
    >>> store = Store(tempfile.mkdtemp())
    >>> gid = store.new_game(["Sarah", "Tim"], first=0)
    >>> store.append(gid, {"throw": [6, 4, 1, 1, 1, 1, 1, 1]})
    1
    >>> store.load(gid).game.target
    9
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from dataclasses import dataclass

import numpy as np

from .files import short_path, write_atomically
from .game import Game, IllegalEvent, game_class
from .names import clean_name

__all__ = ["Store", "StorageError", "SavedGame", "StoredGame"]

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL DEFAULT 'durchmarsch',
    players TEXT NOT NULL,
    first INTEGER NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    winner TEXT,
    options TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    frame TEXT,
    ts REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class StorageError(RuntimeError):
    """A save that cannot be read or written; the message says which file and why."""


@dataclass
class SavedGame:
    """A game loaded from the store: its id, the replayed engine (a
    :class:`companion.game.Game`) and the frame paths by event seq."""

    id: int
    game: Game
    frames: dict[int, str]


@dataclass(frozen=True)
class StoredGame:
    """One line of :meth:`Store.games`: ``id``, ``game`` (its name), ``players``,
    ``started``/``finished`` (seconds since the epoch; ``finished`` None while
    unfinished), ``winner`` (None: unfinished, abandoned or a draw) and
    ``events`` (how many)."""

    id: int
    game: str
    players: tuple[str, ...]
    started: float
    finished: float | None
    winner: str | None
    events: int


class Store:
    """The data folder of one companion: games, events and frames.

    ``root``: the folder (created if missing). At start, temporary files left
    by an interrupted write are removed, and a ``-wal`` file is copied aside
    (``companion.db-wal.at-start``) before SQLite opens it. A database that
    fails ``quick_check``, or is not one, is copied aside to
    ``companion.db.damaged-<time>`` with its ``-wal``/``-shm`` (nothing is
    deleted) and its readable games are carried into a fresh one
    (:mod:`companion.storage_repair`); ``recovered_from`` names the copy and
    ``repair`` says what was done. A database locked by another process is
    waited for (``busy``, seconds), never moved aside. ``tidy`` False (a
    command that only reads, while the app may be writing): temporary files
    and the ``-wal`` are left alone. Raises :class:`StorageError` when the
    folder cannot be written or the database stays locked.
    """

    def __init__(self, root: str, *, busy: float = 10.0, tidy: bool = True):
        from .files import remove_stale_temp
        from .storage_repair import OpenError, keep_wal, open_checked

        self._start_state(root)
        if "\0" in root or not root:
            raise StorageError(f"not a data folder: {root!r}")
        try:
            os.makedirs(os.path.join(root, "frames"), exist_ok=True)
        except OSError as e:
            raise StorageError(f"cannot create the data folder {short_path(root)}: {e}") from e
        if tidy:  # the app's start: nothing else writes here now
            remove_stale_temp(root)
            keep_wal(self.path)
        try:
            self._db, self.repair = open_checked(self.path, SCHEMA, busy)
        except OpenError as e:
            raise StorageError(str(e)) from e
        if self.repair is not None:
            self.recovered_from = self.repair.kept

    def _start_state(self, root: str) -> None:
        """The state every store starts with (this one and read-only ones), before its database is opened."""
        self.root = root
        self.path = os.path.join(root, "companion.db")
        self.recovered_from: str | None = None
        #: What the start did to a damaged database (:class:`companion.storage_repair.Repair`), or None.
        self.repair = None
        #: Games whose stored row cannot be read, as ``(id, why)``: hidden from every list.
        self.hidden: dict[int, str] = {}
        #: Why the last throw's frame could not be written (a full card), or None.
        self.frame_error: str | None = None
        self._depth = 0

    def close(self) -> None:
        """Close the database (a checkpoint folds the WAL back into the file)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    @property
    def in_transaction(self) -> bool:
        """True inside :meth:`transaction`."""
        return self._depth > 0

    @contextlib.contextmanager
    def transaction(self):
        """Everything written inside commits together or not at all (one user
        action, one transaction); nested uses join the outer one."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._db.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            self._db.execute("ROLLBACK")
            raise
        self._depth = 0
        self._db.execute("COMMIT")

    # -- games ------------------------------------------------------------
    def new_game(self, players: list[str], *, first: int, game: str = "durchmarsch", options: dict | None = None) -> int:
        """Record a new game of ``game`` (a name of :data:`companion.game.GAMES`)
        made with ``options`` (the game's keyword settings); returns its id."""
        with self.transaction():
            cur = self._db.execute(
                "INSERT INTO games(game, players, first, started, options) VALUES (?, ?, ?, ?, ?)",
                (game, json.dumps(list(players)), int(first), time.time(), json.dumps(options or {})),
            )
        return int(cur.lastrowid)

    def note(self, game_id: int, kind: str, data: dict | None = None) -> None:
        """Keep a note beside a game's events (``kind`` e.g. ``"hint"``: a hint
        was shown), at its current event count; notes never change the game."""
        with self.transaction():
            self._db.execute("INSERT INTO notes(game_id, seq, kind, data, ts) VALUES (?, ?, ?, ?, ?)",
                             (game_id, self._next_seq(game_id) - 1, kind, json.dumps(data or {}), time.time()))

    def notes(self, game_id: int, kind: str | None = None) -> list[tuple[int, str, dict]]:
        """A game's notes as ``(event count then, kind, data)``, oldest first; a
        note that cannot be read is left out with a warning in the log."""
        out = []
        for q, k, d in self._db.execute("SELECT seq, kind, data FROM notes WHERE game_id=? ORDER BY rowid",
                                        (game_id,)):
            if kind is not None and k != kind:
                continue
            try:
                data = json.loads(d or "{}")
                if not isinstance(data, dict) or not isinstance(q, int) or not isinstance(k, str):
                    raise ValueError("not a note")
            except (ValueError, TypeError, RecursionError) as e:
                log.warning("game %s: a %s note cannot be read (%s); left out", game_id, k, e)
                continue
            out.append((q, k, data))
        return out

    def append(self, game_id: int, event: dict, *, frame: np.ndarray | None = None,
               ends: tuple[str | None] | None = None) -> int:
        """Record the next event of a game (and the frame of a throw, as JPEG); returns its seq.

        ``event``: the event as JSON-ready data (the game's ``event_to_json``).
        ``ends``: ``(winner,)`` when this event ends the game (winner None: a
        draw); the event and the game's end commit together.
        The frame file is written and synced before the event row is committed,
        so a committed throw always has its frame.
        """
        if not isinstance(event, dict):
            raise TypeError(f"an event is stored as JSON-ready data (a dict), not {event!r}")
        event_json = json.dumps(event)
        seq = self._next_seq(game_id)
        frame_path = None
        if frame is not None:
            try:
                frame_path = self._write_frame(game_id, seq, frame)
                self.frame_error = None
            except OSError as e:  # a full card: the game goes on without the picture
                log.error("frame of game %s, event %s not kept: %s", game_id, seq, e)
                self.frame_error = str(e)
        try:
            self._insert(game_id, seq, event_json, frame_path, ends)
        except sqlite3.OperationalError as e:
            if "full" not in str(e).lower() or self.in_transaction:  # inside an action: pictures stay until it ends
                raise StorageError(f"{short_path(self.path)}: cannot save event {seq} of game {game_id}: {e}") from e
            # The card is full: free the oldest games' pictures and try once more.
            freed = self.prune_frames(keep_games=1)
            log.error("the card is full (%s); %d bytes of old pictures freed", e, freed[1])
            try:
                self._insert(game_id, seq, event_json, frame_path, ends)
            except sqlite3.OperationalError as e2:
                raise StorageError(f"the card is full: event {seq} of game {game_id} cannot be saved ({e2})") from e2
        return seq

    def _insert(self, game_id: int, seq: int, event_json: str, frame_path: str | None, ends=None) -> None:
        with self.transaction():
            self._db.execute(
                "INSERT INTO events(game_id, seq, event, frame, ts) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, event_json, frame_path, time.time()),
            )
            if ends is not None:
                self.finish(game_id, ends[0])

    def replace_last(self, game_id: int, event: dict, *, frame: np.ndarray | None = None,
                     ends: tuple[str | None] | None = None) -> int:
        """Put ``event`` in place of a game's last event (a correction): the old
        one's removal, the new one and (``ends``) the game's end commit together.
        The old frame file is kept (renamed ``*.undone-<ms>.jpg``) once the new
        row is committed. Returns the seq. Raises :class:`StorageError` when the
        game has no event."""
        old = self._last(game_id)
        if old is None:
            raise StorageError(f"game {game_id} has no event to correct")
        seq, _ev, old_frame = old
        with self.transaction():
            self._db.execute("DELETE FROM events WHERE game_id=? AND seq=?", (game_id, seq))
            self._db.execute("UPDATE games SET finished=NULL, winner=NULL WHERE id=?", (game_id,))
            new = self.append(game_id, event, frame=frame, ends=ends)
        self._keep_undone(old_frame)
        return new

    def _last(self, game_id: int):
        return self._db.execute(
            "SELECT seq, event, frame FROM events WHERE game_id=? ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone()

    def _keep_undone(self, frame: str | None) -> None:
        """Rename an undone event's frame (once its row is gone) so nothing is lost."""
        if frame and os.path.exists(os.path.join(self.root, frame)):
            base = os.path.join(self.root, frame)
            try:
                os.replace(base, base[:-4] + f".undone-{int(time.time() * 1000)}.jpg")
            except OSError as e:
                log.warning("undone frame %s not renamed: %s", short_path(base), e)

    def prune_frames(self, *, keep_games: int) -> tuple[int, int]:
        """Remove the pictures of all but the ``keep_games`` most recent games,
        oldest first, never those of an unfinished game; their events stay
        (without a frame). Returns ``(files removed, bytes freed)``."""
        ids = [int(i) for (i,) in self._db.execute("SELECT id FROM games ORDER BY id DESC")]
        unfinished = {int(i) for (i,) in self._db.execute("SELECT id FROM games WHERE finished IS NULL")}
        old = [i for i in ids[max(0, keep_games):] if i not in unfinished]
        files = freed = 0
        with self.transaction():  # the rows stop naming the pictures first: then the files go
            for gid in old:
                self._db.execute("UPDATE events SET frame=NULL WHERE game_id=? AND frame IS NOT NULL", (gid,))
        for gid in reversed(old):  # oldest first
            folder = os.path.join(self.root, "frames", str(gid))
            if os.path.isdir(folder):
                for name in os.listdir(folder):
                    path = os.path.join(folder, name)
                    try:
                        size = os.path.getsize(path)
                        os.remove(path)
                    except OSError:
                        continue
                    files, freed = files + 1, freed + size
                try:
                    os.rmdir(folder)
                except OSError:
                    pass
        return files, freed

    def maintain(self, *, keep_games: int | None) -> dict:
        """Now and then (the app calls it at start): prune old games' pictures
        (:meth:`prune_frames`, ``keep_games`` None: keep all) and vacuum the
        database when a quarter of it or more is free pages. Returns what was done."""
        done = {"files": 0, "bytes": 0, "vacuumed": False}
        if keep_games is not None:
            done["files"], done["bytes"] = self.prune_frames(keep_games=keep_games)
        pages = self._db.execute("PRAGMA page_count").fetchone()[0]
        free = self._db.execute("PRAGMA freelist_count").fetchone()[0]
        if pages and free * 4 >= pages and free > 64:
            try:
                self._db.execute("VACUUM")
                done["vacuumed"] = True
            except sqlite3.OperationalError as e:  # no room for the copy: next time
                log.warning("vacuum skipped: %s", e)
        return done

    def _next_seq(self, game_id: int) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id=?", (game_id,)).fetchone()
        return int(row[0]) + 1

    def _write_frame(self, game_id: int, seq: int, frame: np.ndarray) -> str:
        import cv2

        folder = os.path.join(self.root, "frames", str(game_id))
        os.makedirs(folder, exist_ok=True)
        rel = os.path.join("frames", str(game_id), f"{seq:04d}.jpg")
        n = 1
        while os.path.exists(os.path.join(self.root, rel)):  # a corrected throw's: the old one stays until committed
            n += 1
            rel = os.path.join("frames", str(game_id), f"{seq:04d}-{n}.jpg")
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
        if not ok:
            raise StorageError(f"cannot encode the frame of event {seq} as JPEG")
        write_atomically(os.path.join(self.root, rel), buf.tobytes())
        return rel

    def pop(self, game_id: int) -> dict | None:
        """Delete a game's last event (undo); returns it as JSON data, or None if none.

        Its frame file is kept (renamed ``*.undone.jpg``) so nothing is lost.
        """
        row = self._last(game_id)
        if row is None:
            return None
        seq, ev, frame = row
        with self.transaction():
            self._db.execute("DELETE FROM events WHERE game_id=? AND seq=?", (game_id, seq))
            self._db.execute("UPDATE games SET finished=NULL, winner=NULL WHERE id=?", (game_id,))
        self._keep_undone(frame)
        return json.loads(ev)

    def finish(self, game_id: int, winner: str) -> None:
        """Mark a game finished with its winner (None: a draw)."""
        with self.transaction():
            self._db.execute("UPDATE games SET finished=?, winner=? WHERE id=?", (time.time(), winner, game_id))

    def unfinished(self) -> int | None:
        """The id of the most recent unfinished game that can be read, or None."""
        games = self.unfinished_games()
        return games[0].id if games else None

    def unfinished_games(self) -> list[StoredGame]:
        """Every unfinished game, most recent first (a game left for a new one
        stays here until the players end it: :meth:`abandon`); hidden games
        (:meth:`hide`) are left out, and so is one whose events cannot be
        replayed (it is hidden then: Resume never offers what it cannot load)."""
        out = []
        for g in self.games():
            if g.finished is not None or g.id in self.hidden:
                continue
            try:
                self.load(g.id)
            except StorageError as e:
                self.hide(g.id, str(e))
                continue
            out.append(g)
        return out

    def hide(self, game_id: int, why: str) -> None:
        """Leave a game that cannot be read out of the lists (:attr:`hidden`),
        with a warning in the log; its rows stay in the database as they are."""
        if game_id not in self.hidden:
            log.warning("game %s hidden: %s", game_id, why)
        self.hidden[game_id] = why

    def abandon(self, game_id: int) -> None:
        """Mark a game as ended without a winner: only when the players said so."""
        with self.transaction():
            self._db.execute("UPDATE games SET finished=? WHERE id=? AND finished IS NULL", (time.time(), game_id))

    def load(self, game_id: int) -> SavedGame:
        """Replay a stored game.

        Raises :class:`StorageError` when the game is missing, hidden (its row
        cannot be read) or an event in it is unreadable or illegal (the
        message names the event).
        """
        row = self._db.execute("SELECT players, first, game, options FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise StorageError(f"no game {game_id} in {short_path(self.path)}")
        try:
            cls = game_class(row[2])
        except (KeyError, TypeError) as e:
            raise StorageError(f"game {game_id}: {e.args[0]}") from e
        try:
            players = _players(row[0])
            options = _json(row[3] or "{}")
            if not isinstance(options, dict) or not isinstance(row[1], int):
                raise ValueError("its options or first player are not readable")
            game = cls(players, first=row[1], **options)
        except (ValueError, TypeError, IllegalEvent) as e:
            raise StorageError(f"game {game_id}: bad player list: {e}") from e
        frames = {}
        for seq, ev, frame in self._db.execute(
            "SELECT seq, event, frame FROM events WHERE game_id=? ORDER BY seq", (game_id,)
        ):
            try:
                data = _json(ev)
                if not isinstance(data, dict):
                    raise ValueError(f"an event is stored as an object, not {type(data).__name__}")
                game.apply(game.event_from_json(data))
            except (ValueError, TypeError, KeyError, AttributeError, IllegalEvent) as e:
                raise StorageError(f"game {game_id}, event {seq}: {e}") from e
            if isinstance(frame, str) and frame:
                frames[seq] = os.path.join(self.root, frame)
        return SavedGame(game_id, game, frames)

    def games(self, limit: int | None = None) -> list[StoredGame]:
        """The stored games, newest first (at most ``limit``). A game whose row
        cannot be read (a bad cell) is left out with a warning in the log and
        kept in :attr:`hidden`; the others still list."""
        sql = ("SELECT g.id, g.game, g.players, g.started, g.finished, g.winner, COUNT(e.seq) FROM games g "
               "LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id DESC")
        out = []
        for i, g, p, st, fin, w, n in self._db.execute(sql):
            try:
                if not isinstance(g, str) or not _when(st) or not (fin is None or _when(fin)) \
                        or not (w is None or isinstance(w, str)):
                    raise ValueError("a cell of another type (text in a time column?) or a time out of range")
                out.append(StoredGame(int(i), g, tuple(_players(p)), float(st), fin, w, int(n)))
            except (ValueError, TypeError) as e:
                if i not in self.hidden:
                    log.warning("game %s in %s cannot be read (%s); hidden", i, short_path(self.path), e)
                self.hidden[i] = str(e)
                continue
            if limit is not None and len(out) >= limit:
                break
        return out

    def events(self, game_id: int) -> list[tuple[int, dict, str | None]]:
        """A game's events as ``(seq, event data, frame path or None)``, oldest first.

        Raises :class:`StorageError` when there is no such game or an event
        cannot be read."""
        if self._db.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone() is None:
            raise StorageError(f"no game {game_id} in {short_path(self.path)}")
        out = []
        for seq, ev, fr in self._db.execute(
                "SELECT seq, event, frame FROM events WHERE game_id=? ORDER BY seq", (game_id,)):
            try:
                data = _json(ev)
                if not isinstance(data, dict):
                    raise ValueError("not an object")
            except ValueError as e:
                raise StorageError(f"game {game_id}, event {seq}: {e}") from e
            out.append((int(seq), data, os.path.join(self.root, fr) if isinstance(fr, str) and fr else None))
        return out

    def recent_players(self, limit: int = 12) -> list[str]:
        """Names from recent games, most recent first, without repeats."""
        names: list[str] = []
        for g in self.games(limit=50):
            for n in g.players:
                if n not in names:
                    names.append(n)
        return names[:limit]


def _when(value) -> bool:
    """True for a stored time: seconds since the epoch, from 1970 to the year 3000."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 32_503_680_000


def _json(text):
    """A stored JSON cell; ``ValueError`` for one that is not (or nests too deep)."""
    if not isinstance(text, str):
        raise ValueError(f"a JSON cell holds {type(text).__name__}")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deep") from None


def _players(cell) -> list[str]:
    """A stored player list: a JSON list of names (:func:`companion.names.clean_name`)."""
    players = _json(cell)
    if not isinstance(players, list) or not players:
        raise ValueError(f"players are a list of names, not {type(players).__name__}")
    return [clean_name(p) for p in players]
