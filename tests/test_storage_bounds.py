"""Storage that lasts a year: pictures and recorded throws bounded (oldest first, never an
unfinished game's), a full card gives a clear message and the game goes on without pictures."""

import errno
import os

import numpy as np
import pytest

from companion import storage as storage_module
from companion.recording import ThrowRecorder
from companion.session import GameSession
from companion.storage import Store

FRAME = np.full((120, 160, 3), 90, np.uint8)
GAME = [[6, 4, 1, 1, 1, 1, 1, 1], "stop", [6, 4, 1, 1, 1, 1, 1, 1], "stop"]


def _play(s, names, *, finish=True):
    s.start(names, first=0)
    for ev in GAME:
        if isinstance(ev, list):
            s.throw(ev, frame=FRAME)
        else:
            s.decide(ev)
    if finish:
        s.store.finish(s.game_id, names[0])  # as if played to the end
    return s.game_id


def _frames(root, gid):
    folder = os.path.join(root, "frames", str(gid))
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def test_old_games_pictures_go_first_never_an_unfinished_games(tmp_path):
    root = str(tmp_path)
    s = GameSession(Store(root), keep_frame_games=2)
    unfinished = _play(s, ["U", "V"], finish=False)
    done = [_play(s, [f"A{i}", f"B{i}"]) for i in range(4)]
    s.maintain()
    kept = {gid for gid in [unfinished, *done] if _frames(root, gid)}
    assert kept == {unfinished, done[-1], done[-2]}
    # The events stay, without their frames; the games still load.
    events = s.store.events(done[0])
    assert len(events) == 4 and all(frame is None for _, _, frame in events)
    assert s.store.load(done[0]).game.players == ("A0", "B0")


def test_recorded_throws_keep_the_most_recent(tmp_path):
    rec = ThrowRecorder(str(tmp_path / "rec"))
    for seq in range(1, 8):
        rec.record(FRAME, [1, 2, 3], game=1, seq=seq)
    assert rec.prune(keep=3) == 4
    assert [e["file"] for e in rec.labels()] == [f"game00001-{k:04d}.jpg" for k in (5, 6, 7)]
    assert sorted(os.listdir(tmp_path / "rec")) == sorted(["labels.json"] + [e["file"] for e in rec.labels()])


def test_a_full_card_keeps_the_game_going_without_pictures(tmp_path, monkeypatch):
    s = GameSession(Store(str(tmp_path)))
    heard = []
    s.subscribe(lambda ch: heard.append(ch.kind))
    s.start(["A", "B"], first=0)

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device", path)

    monkeypatch.setattr(storage_module, "write_atomically", full)
    s.throw([6, 4, 1, 1, 1, 1, 1, 1], frame=FRAME)
    assert heard[-2:] == ["throw", "card_full"] and "No space" in s.store.frame_error
    assert [frame for _, _, frame in s.store.events(s.game_id)] == [None]
    monkeypatch.undo()
    s.decide("stop")
    s.throw([6, 4, 1, 1, 1, 1, 1, 1], frame=FRAME)
    assert s.store.frame_error is None and heard[-1] == "throw"
    again = GameSession(Store(str(tmp_path)))
    assert again.resume() and len(again.game.events) == 3


def test_a_full_database_frees_old_pictures_and_tries_again(tmp_path, monkeypatch):
    store = Store(str(tmp_path))
    s = GameSession(store)
    old = _play(s, ["A", "B"])
    gid = store.new_game(["C", "D"], first=0)
    real, calls = store._insert, []

    def insert(*a):
        calls.append(a)
        if len(calls) == 1:
            import sqlite3

            raise sqlite3.OperationalError("database or disk is full")
        return real(*a)

    monkeypatch.setattr(store, "_insert", insert)
    assert store.append(gid, {"throw": [6, 4, 1, 1, 1, 1, 1, 1]}) == 1
    assert len(calls) == 2 and _frames(str(tmp_path), old) == []


def test_the_bounds_are_settings_with_defaults():
    from companion.config import DEFAULTS

    assert DEFAULTS["app"]["keep_frame_games"] > 0 and DEFAULTS["app"]["keep_recorded"] > 0


@pytest.mark.parametrize("bad", [{"app": {"keep_recorded": "many"}}])
def test_a_bad_bound_is_refused(bad):
    import copy

    from companion.config import DEFAULTS, ConfigError, merge

    with pytest.raises(ConfigError, match="keep_recorded"):
        merge(copy.deepcopy(DEFAULTS), bad, "test")
