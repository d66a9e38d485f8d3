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

import json
import logging
import os
import sqlite3
import time
from dataclasses import dataclass

import numpy as np

from .files import write_atomically
from .game import Game, IllegalEvent, game_class

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

    ``root``: the folder (created if missing). A database file that SQLite
    cannot read is moved aside to ``companion.db.corrupt-<time>`` (nothing is
    deleted) and a fresh one is started; ``recovered_from`` names the moved file.
    Raises :class:`StorageError` when the folder cannot be written.
    """

    def __init__(self, root: str):
        self.root = root
        self.recovered_from: str | None = None
        #: Why the last throw's frame could not be written (a full card), or None.
        self.frame_error: str | None = None
        try:
            os.makedirs(os.path.join(root, "frames"), exist_ok=True)
        except OSError as e:
            raise StorageError(f"cannot create the data folder {root}: {e}") from e
        self.path = os.path.join(root, "companion.db")
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as e:
            self.recovered_from = self._move_aside(e)
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)
        if "options" not in {r[1] for r in db.execute("PRAGMA table_info(games)")}:
            db.execute("ALTER TABLE games ADD COLUMN options TEXT")  # a save from before the game settings
        db.execute("CREATE TABLE IF NOT EXISTS notes (game_id INTEGER NOT NULL REFERENCES games(id), "
                   "seq INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT, ts REAL NOT NULL)")
        db.execute("PRAGMA quick_check").fetchone()
        return db

    def _move_aside(self, err: Exception) -> str:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        dest = f"{self.path}.corrupt-{stamp}"
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(self.path + suffix):
                os.replace(self.path + suffix, dest + suffix)
        log.error("save %s is unreadable (%s); kept as %s, starting a fresh one", self.path, err, dest)
        return dest

    def close(self) -> None:
        """Close the database (a checkpoint folds the WAL back into the file)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    # -- games ------------------------------------------------------------
    def new_game(self, players: list[str], *, first: int, game: str = "durchmarsch", options: dict | None = None) -> int:
        """Record a new game of ``game`` (a name of :data:`companion.game.GAMES`)
        made with ``options`` (the game's keyword settings); returns its id."""
        cur = self._db.execute(
            "INSERT INTO games(game, players, first, started, options) VALUES (?, ?, ?, ?, ?)",
            (game, json.dumps(list(players)), int(first), time.time(), json.dumps(options or {})),
        )
        return int(cur.lastrowid)

    def note(self, game_id: int, kind: str, data: dict | None = None) -> None:
        """Keep a note beside a game's events (``kind`` e.g. ``"hint"``: a hint
        was shown), at its current event count; notes never change the game."""
        self._db.execute("INSERT INTO notes(game_id, seq, kind, data, ts) VALUES (?, ?, ?, ?, ?)",
                         (game_id, self._next_seq(game_id) - 1, kind, json.dumps(data or {}), time.time()))

    def notes(self, game_id: int, kind: str | None = None) -> list[tuple[int, str, dict]]:
        """A game's notes as ``(event count then, kind, data)``, oldest first."""
        rows = self._db.execute("SELECT seq, kind, data FROM notes WHERE game_id=? ORDER BY rowid", (game_id,))
        return [(int(q), k, json.loads(d or "{}")) for q, k, d in rows if kind is None or k == kind]

    def append(self, game_id: int, event: dict, *, frame: np.ndarray | None = None) -> int:
        """Record the next event of a game (and the frame of a throw, as JPEG); returns its seq.

        ``event``: the event as JSON-ready data (the game's ``event_to_json``).
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
            self._insert(game_id, seq, event_json, frame_path)
        except sqlite3.OperationalError as e:
            if "full" not in str(e).lower():
                raise StorageError(f"{self.path}: cannot save event {seq} of game {game_id}: {e}") from e
            # The card is full: free the oldest games' pictures and try once more.
            freed = self.prune_frames(keep_games=1)
            log.error("the card is full (%s); %d bytes of old pictures freed", e, freed[1])
            try:
                self._insert(game_id, seq, event_json, frame_path)
            except sqlite3.OperationalError as e2:
                raise StorageError(f"the card is full: event {seq} of game {game_id} cannot be saved ({e2})") from e2
        return seq

    def _insert(self, game_id: int, seq: int, event_json: str, frame_path: str | None) -> None:
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO events(game_id, seq, event, frame, ts) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, event_json, frame_path, time.time()),
            )

    def prune_frames(self, *, keep_games: int) -> tuple[int, int]:
        """Remove the pictures of all but the ``keep_games`` most recent games,
        oldest first, never those of an unfinished game; their events stay
        (without a frame). Returns ``(files removed, bytes freed)``."""
        ids = [int(i) for (i,) in self._db.execute("SELECT id FROM games ORDER BY id DESC")]
        unfinished = {int(i) for (i,) in self._db.execute("SELECT id FROM games WHERE finished IS NULL")}
        old = [i for i in ids[max(0, keep_games):] if i not in unfinished]
        files = freed = 0
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
            self._db.execute("UPDATE events SET frame=NULL WHERE game_id=? AND frame IS NOT NULL", (gid,))
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
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
        if not ok:
            raise StorageError(f"cannot encode the frame of event {seq} as JPEG")
        write_atomically(os.path.join(self.root, rel), buf.tobytes())
        return rel

    def pop(self, game_id: int) -> dict | None:
        """Delete a game's last event (undo); returns it as JSON data, or None if none.

        Its frame file is kept (renamed ``*.undone.jpg``) so nothing is lost.
        """
        row = self._db.execute(
            "SELECT seq, event, frame FROM events WHERE game_id=? ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone()
        if row is None:
            return None
        seq, ev, frame = row
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM events WHERE game_id=? AND seq=?", (game_id, seq))
            self._db.execute("UPDATE games SET finished=NULL, winner=NULL WHERE id=?", (game_id,))
        if frame and os.path.exists(os.path.join(self.root, frame)):
            base = os.path.join(self.root, frame)
            os.replace(base, base[:-4] + f".undone-{int(time.time() * 1000)}.jpg")
        return json.loads(ev)

    def finish(self, game_id: int, winner: str) -> None:
        """Mark a game finished with its winner."""
        self._db.execute("UPDATE games SET finished=?, winner=? WHERE id=?", (time.time(), winner, game_id))

    def unfinished(self) -> int | None:
        """The id of the most recent unfinished game, or None."""
        row = self._db.execute("SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else int(row[0])

    def unfinished_games(self) -> list[StoredGame]:
        """Every unfinished game, most recent first (a game left for a new one
        stays here until the players end it: :meth:`abandon`)."""
        return [g for g in self.games() if g.finished is None]

    def abandon(self, game_id: int) -> None:
        """Mark a game as ended without a winner: only when the players said so."""
        self._db.execute("UPDATE games SET finished=? WHERE id=? AND finished IS NULL", (time.time(), game_id))

    def load(self, game_id: int) -> SavedGame:
        """Replay a stored game.

        Raises :class:`StorageError` when the game is missing or an event in it
        is unreadable or illegal (the message names the event).
        """
        row = self._db.execute("SELECT players, first, game, options FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise StorageError(f"no game {game_id} in {self.path}")
        try:
            cls = game_class(row[2])
        except KeyError as e:
            raise StorageError(f"game {game_id}: {e.args[0]}") from e
        try:
            game = cls(json.loads(row[0]), first=int(row[1]), **json.loads(row[3] or "{}"))
        except (ValueError, TypeError) as e:
            raise StorageError(f"game {game_id}: bad player list: {e}") from e
        frames = {}
        for seq, ev, frame in self._db.execute(
            "SELECT seq, event, frame FROM events WHERE game_id=? ORDER BY seq", (game_id,)
        ):
            try:
                game.apply(game.event_from_json(json.loads(ev)))
            except (ValueError, TypeError, IllegalEvent) as e:
                raise StorageError(f"game {game_id}, event {seq}: {e}") from e
            if frame:
                frames[seq] = os.path.join(self.root, frame)
        return SavedGame(game_id, game, frames)

    def games(self, limit: int | None = None) -> list[StoredGame]:
        """The stored games, newest first (at most ``limit``)."""
        sql = ("SELECT g.id, g.game, g.players, g.started, g.finished, g.winner, COUNT(e.seq) FROM games g "
               "LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id DESC")
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [StoredGame(int(i), g, tuple(json.loads(p)), float(st), fin, w, int(n))
                for i, g, p, st, fin, w, n in self._db.execute(sql)]

    def events(self, game_id: int) -> list[tuple[int, dict, str | None]]:
        """A game's events as ``(seq, event data, frame path or None)``, oldest first.

        Raises :class:`StorageError` when there is no such game."""
        if self._db.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone() is None:
            raise StorageError(f"no game {game_id} in {self.path}")
        return [(int(seq), json.loads(ev), os.path.join(self.root, fr) if fr else None)
                for seq, ev, fr in self._db.execute(
                    "SELECT seq, event, frame FROM events WHERE game_id=? ORDER BY seq", (game_id,))]

    def recent_players(self, limit: int = 12) -> list[str]:
        """Names from recent games, most recent first, without repeats."""
        names: list[str] = []
        for (players,) in self._db.execute("SELECT players FROM games ORDER BY id DESC LIMIT 50"):
            for n in json.loads(players):
                if n not in names:
                    names.append(n)
        return names[:limit]
