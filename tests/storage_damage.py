"""Damaged data folders, as a careless café or a power cut leaves them (issue 39).

Each maker takes a data folder holding :func:`make_games`' games (closed) and
damages it one way; ``DAMAGES`` names them. Used by ``tests/test_robustness.py``
and ``benchmarks/damaged_storage.py`` (the app started on each).
"""

from __future__ import annotations

import json
import os
import sqlite3

from companion.fenn import BlackThrow, Turn
from companion.session import GameSession
from companion.storage import Store

__all__ = ["make_games", "play_to_the_end", "DAMAGES", "damaged"]


def play_to_the_end(s: GameSession) -> None:
    """Play the session's Durchmarsch game until the roller wins (every throw
    forms its target, every decision is continue)."""
    from ui.snapshot import winning_values

    while not s.game.is_over:
        if s.game.decision_due:
            s.decide("continue")
        else:
            s.throw(winning_values(s.game.target, s.game.dice_to_throw))


def make_games(root: str, *, n: int = 24) -> None:
    """``n`` Durchmarsch games of three players (in turn won, ended by the
    players after a few throws, unfinished) and one unfinished Fenn game with a
    hint note, then closed."""
    store = Store(root)
    s = GameSession(store)
    for i in range(n):
        s.start([f"Anna{i}", "Ben", "Cleo"], first=0)
        if i % 3 == 0:
            play_to_the_end(s)
            continue
        for _ in range(6 + i % 5):
            s.throw([6, 4, 1, 2, 3, 5, 5, 2])
            s.decide("stop")
        if i % 3 == 1:
            store.abandon(s.game_id)
    s.start(["Dora", "Emil"], first=0, game="fenn")
    s.apply(BlackThrow(6))
    s.apply(Turn(3, 2, None))
    store.note(s.game_id, "hint", {"move": [3, 2]})
    store.close()


def _db(root):
    return sqlite3.connect(os.path.join(root, "companion.db"), isolation_level=None)


def zeroed_page(root):
    """One page in the middle of the file zeroed (a page of events; quick_check reports it)."""
    path = os.path.join(root, "companion.db")
    db = _db(root)
    page = db.execute("PRAGMA page_size").fetchone()[0]
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.close()
    with open(path, "r+b") as f:
        f.seek(page * (pages // 2))
        f.write(bytes(page))


def _set(sql, *args):
    def damage(root):
        db = _db(root)
        db.execute(sql, args)
        db.close()
    damage.__doc__ = sql
    return damage


def another_layout(root):
    """A games table of another layout (no players column)."""
    db = _db(root)
    db.executescript("DROP TABLE games; CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT);"
                     "INSERT INTO games(name) VALUES ('chess');")
    db.close()


def looping_link(root):
    """The database is a symbolic link to itself."""
    path = os.path.join(root, "companion.db")
    os.replace(path, path + ".real")
    os.symlink("companion.db", path)


def damaged_wal(root):
    """A write-ahead log of garbage beside the database (a half-written card)."""
    with open(os.path.join(root, "companion.db-wal"), "wb") as f:
        f.write(b"\x37\x7f\x06\x82" + os.urandom(8188))


def not_a_database(root):
    """The database file holds text."""
    with open(os.path.join(root, "companion.db"), "wb") as f:
        f.write(b"these are not the games you are looking for\n" * 100)


#: name → damage(root): each of issue 39's damaged stores.
DAMAGES = {
    "zeroed page": zeroed_page,
    "players not JSON": _set("UPDATE games SET players='[\"Anna1\", ' WHERE id=2"),
    "players a number": _set("UPDATE games SET players='5' WHERE id=3"),
    "players null": _set("UPDATE games SET players='null' WHERE id=4"),
    "text in a time column": _set("UPDATE games SET started='yesterday' WHERE id=5"),
    "Fenn event stored as a list": _set("UPDATE events SET event='[6]' WHERE game_id=25 AND seq=1"),
    "hint note not JSON": _set("UPDATE notes SET data='{hint' WHERE game_id=25"),
    "games table of another layout": another_layout,
    "looping symlink as the database": looping_link,
    "damaged -wal": damaged_wal,
    "not a database": not_a_database,
}


_TEMPLATE: list[str] = []


def damaged(root: str, name: str) -> str:
    """A data folder at ``root`` with :func:`make_games`' games (made once per
    process, then copied), damaged by ``name``."""
    import shutil
    import tempfile

    if not _TEMPLATE:
        _TEMPLATE.append(tempfile.mkdtemp(prefix="companion-games-"))
        make_games(_TEMPLATE[0])
    shutil.copytree(_TEMPLATE[0], root, dirs_exist_ok=True)
    DAMAGES[name](root)
    return root


if __name__ == "__main__":  # pragma: no cover - a look at one
    import sys
    import tempfile

    for name in DAMAGES:
        d = damaged(tempfile.mkdtemp(), name)
        store = Store(d)
        print(json.dumps({"damage": name, "games": len(store.games()), "hidden": sorted(store.hidden),
                          "repair": None if store.repair is None else store.repair.__dict__}), file=sys.stdout)
