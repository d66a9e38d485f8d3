"""A kill at every write (issue 39): each kind of action is run in a child
process that is killed (``os._exit``, no clean-up, as ``kill -9`` or a power
cut) just before its first, second, ... store write in turn, the way SQLite's
own crash tests do; the data folder is then opened again and its record must be
exactly the one before the action or the one after it.

The writes: every SQLite statement that changes the database (INSERT, UPDATE,
DELETE, COMMIT, ...; seen through ``set_trace_callback`` as it starts) and
every file operation that changes the folder (``fsync`` of a file's data,
``replace``, ``rename``, ``remove``, ``unlink``, ``rmdir``).

Run alone it prints the count: ``pytest -s tests/test_kill_at_every_write.py``.
"""

import os
import random
import shutil
import sqlite3
import sys

import numpy as np
import pytest

from companion.fenn import BlackThrow, Pass, Turn
from companion.session import GameSession
from companion.settings import load_settings, save_settings
from companion.storage import Store

sys.path.insert(0, os.path.dirname(__file__))
from storage_damage import play_to_the_end  # noqa: E402

FRAME = np.full((48, 64, 3), 90, np.uint8)
WRITES = ("INSERT", "UPDATE", "DELETE", "COMMIT", "REPLACE", "CREATE", "ALTER", "DROP", "VACUUM", "PRAGMA")
FILE_OPS = ("fsync", "replace", "rename", "remove", "unlink", "rmdir")


def record(root: str) -> dict:
    """What the folder holds, as the players and the commands see it (times left out)."""
    store = Store(root)
    try:
        assert store.repair is None and not store.hidden
        stale = [n for _, _, names in os.walk(root) for n in names if n.endswith(".tmp")]
        assert not stale, f"temporary files of interrupted writes left: {stale}"
        games = store.games()
        out = {"games": [(g.id, g.game, g.players, g.finished is not None, g.winner, g.events) for g in games],
               "events": {}, "notes": {}, "settings": load_settings(root)}
        for g in games:
            evs = store.events(g.id)
            for _, _, frame in evs:
                assert frame is None or os.path.isfile(frame), f"a row names a missing picture {frame}"
            out["events"][g.id] = [(seq, data, frame is not None) for seq, data, frame in evs]
            out["notes"][g.id] = store.notes(g.id)
            if g.events:
                store.load(g.id)  # every stored game replays
        out["unfinished"] = store.unfinished()
        return out
    finally:
        store.close()


def session(root: str) -> GameSession:
    """The data folder opened as the app opens it, its unfinished game resumed."""
    s = GameSession(Store(root), keep_frame_games=1)
    s.resume()
    return s


def fenn_path(want) -> list:
    """The events of a seeded random Fenn game up to a position where
    ``want(game)`` holds (a Pass due, a winning step at hand)."""
    from companion.fenn import Fenn

    for seed in range(500):
        rng = random.Random(seed)
        g, path = Fenn(["Dora", "Emil"]), []
        for _ in range(200):
            if g.is_over:
                break
            if want(g):
                return path
            e = rng.choice(g.legal_events())
            g.apply(e)
            path.append(e)
    raise AssertionError("no such Fenn position in 500 games")


def winning_step(g):
    for e in g.legal_events():
        t = g.copy()
        t.apply(e)
        if t.is_over and t.winner:
            return e
    return None


def start_fenn(s, path):
    s.start(["Dora", "Emil"], first=0, game="fenn")
    for e in path:
        s.apply(e)


def durchmarsch(s, throws=1, frame=True):
    s.start(["Anna", "Ben", "Cleo"], first=0)
    for i in range(throws):
        if i:
            s.decide("stop")
        s.throw([6, 4, 1, 2, 3, 5, 5, 2], frame=FRAME if frame else None)


def near_win(s):
    """A Durchmarsch game one throw before its end (played as in play_to_the_end)."""
    s.start(["Anna", "Ben"], first=0)
    from ui.snapshot import winning_values
    trial = s.game.copy()
    n = 0
    while not trial.is_over:
        if trial.decision_due:
            trial.decide("continue")
        else:
            trial.throw(winning_values(trial.target, trial.dice_to_throw))
        n += 1
    for _ in range(n - 1):
        if s.game.decision_due:
            s.decide("continue")
        else:
            s.throw(winning_values(s.game.target, s.game.dice_to_throw), frame=FRAME)


def finished_games(s, n=3):
    for _ in range(n):
        s.start(["Anna", "Ben"], first=0)
        s.throw([6, 4, 1, 1, 1, 1, 1, 1], frame=FRAME)
        play_to_the_end(s)


def _win(s):
    from ui.snapshot import winning_values
    s.throw(winning_values(s.game.target, s.game.dice_to_throw), frame=FRAME)


#: action name → (setup(session), act(session)); each act is one user action on the
#: folder opened as the app opens it (:func:`session`: the opening's own writes are not counted).
ACTIONS = {
    "throw": (lambda s: durchmarsch(s, 0), lambda s: s.throw([6, 4, 1, 2, 3, 5, 5, 2], frame=FRAME)),
    "decide": (lambda s: durchmarsch(s, 1), lambda s: s.decide("continue")),
    "correct": (lambda s: durchmarsch(s, 1), lambda s: s.correct([6, 3, 1, 2, 3, 5, 5, 2], frame=FRAME)),
    "undo": (lambda s: durchmarsch(s, 1), lambda s: s.undo()),
    "finish (winning throw)": (near_win, lambda s: _win(s)),
    "Fenn start throw": (lambda s: start_fenn(s, []), lambda s: s.apply(BlackThrow(6))),
    "Fenn step": (lambda s: start_fenn(s, fenn_path(lambda g: bool(g.legal_steps()) and g.events)),
                  lambda s: s.apply(s.game.legal_steps()[0])),
    "Fenn turn": (lambda s: start_fenn(s, fenn_path(lambda g: len(g.events) >= 1 and g.turn_ends())),
                  lambda s: s.apply(Turn(*next(iter(s.game.turn_ends()))))),
    "Fenn pass": (lambda s: start_fenn(s, fenn_path(lambda g: Pass() in g.legal_events())),
                  lambda s: s.apply(Pass())),
    "Fenn finish (winning step)": (lambda s: start_fenn(s, fenn_path(winning_step)),
                                   lambda s: s.apply(winning_step(s.game))),
    "hint note": (lambda s: start_fenn(s, []), lambda s: s.store.note(s.game_id, "hint", {"move": [3, 2]})),
    "end an unfinished game": (lambda s: (durchmarsch(s, 2), s.start(["Dora", "Emil"], first=0)),
                               lambda s: s.end_unfinished(s.store.unfinished_games()[1].id)),
    "rematch": (lambda s: finished_games(s, 2), lambda s: _rematch(s)),
    "prune": (lambda s: (finished_games(s, 3), durchmarsch(s, 2)), lambda s: s.maintain()),
    "settings save": (lambda s: save_settings(s.store.root, {"app": {"odds": False}}),
                      lambda s: save_settings(s.store.root, {"app": {"odds": True, "language": "de"}})),
}

#: Actions that begin with the storage upkeep (its own transaction, before the
#: new game): a kill between them may also leave the record with the upkeep done.
UPKEEP_FIRST = {"rematch"}


def _rematch(s):
    last = s.store.games()[0]
    s.game = s.store.load(last.id).game  # the end screen shows the finished game
    s.start(list(last.players), first=0)


def run_child(folder: str, act, kill_at: int | None) -> int:
    """Run ``act(folder)`` in a child process killed just before write number
    ``kill_at`` (None: never); returns the number of writes it made (or -1
    when killed)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 3
        try:
            os.close(r)
            count = [0]

            def write_point():
                count[0] += 1
                if kill_at is not None and count[0] == kill_at:
                    os._exit(137)  # no clean-up at all, as kill -9

            real_connect = sqlite3.connect

            def connect(*a, **k):
                db = real_connect(*a, **k)
                db.set_trace_callback(lambda sql: write_point() if sql.lstrip().upper().startswith(WRITES) else None)
                return db

            s = session(folder)  # opened before the writes are counted
            sqlite3.connect = connect
            s.store._db.set_trace_callback(
                lambda sql: write_point() if sql.lstrip().upper().startswith(WRITES) else None)
            for name in FILE_OPS:
                real = getattr(os, name)

                def hooked(*a, _real=real, **k):
                    write_point()
                    return _real(*a, **k)

                setattr(os, name, hooked)
            act(s)
            os.write(w, str(count[0]).encode())
            code = 0
        except BaseException as e:  # pragma: no cover - reported by the parent
            os.write(w, f"error {type(e).__name__}: {e}".encode())
        finally:
            os._exit(code)
    os.close(w)
    _, status = os.waitpid(pid, 0)
    got = b""
    while chunk := os.read(r, 65536):
        got += chunk
    os.close(r)
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 137:
        return -1
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, got.decode()
    return int(got)


TOTAL = {"cases": 0, "wrong": 0}


@pytest.mark.parametrize("name", list(ACTIONS))
def test_a_kill_at_every_write_leaves_the_record_before_or_after(tmp_path, name):
    setup, act = ACTIONS[name]
    base = str(tmp_path / "base")
    s = GameSession(Store(base), keep_frame_games=None)
    setup(s)
    s.store.close()
    before = record(_copy(base, tmp_path / "before"))
    after_dir = _copy(base, tmp_path / "after")
    writes = run_child(after_dir, act, None)
    after = record(after_dir)
    assert writes >= 1 and after != before
    allowed = [before, after]
    if name in UPKEEP_FIRST:
        upkept = _copy(base, tmp_path / "upkept")
        run_child(upkept, lambda s: s.maintain(), None)
        allowed.append(record(upkept))
    wrong = []
    for k in range(1, writes + 1):
        folder = _copy(base, tmp_path / f"kill{k}")
        assert run_child(folder, act, k) == -1
        got = record(folder)
        if got not in allowed:
            wrong.append(k)
        shutil.rmtree(folder)
    TOTAL["cases"] += writes
    TOTAL["wrong"] += len(wrong)
    print(f"\n{name}: {writes} writes, each killed: {writes - len(wrong)} before-or-after, {len(wrong)} wrong")
    assert not wrong, f"{name}: a kill before write {wrong} left a record neither before nor after"


def test_zz_count(capsys):
    """Print the total (the figure in docs/robustness.md)."""
    with capsys.disabled():
        print(f"\nkill at every write: {len(ACTIONS)} actions, {TOTAL['cases']} kills, {TOTAL['wrong']} records wrong")
    assert TOTAL["wrong"] == 0


def _copy(src, dst) -> str:
    shutil.copytree(src, str(dst), symlinks=True)
    return str(dst)
