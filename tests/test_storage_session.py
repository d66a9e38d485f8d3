"""Storage and game session: events saved as they happen, frames beside them, resume after kill -9."""

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from companion.durchmarsch import DecisionDue, NothingToUndo, WrongDiceCount
from companion.session import GameSession
from companion.storage import StorageError, Store
from vision.reasons import Reason

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_events_and_frames_are_saved_and_reloaded(tmp_path):
    store = Store(str(tmp_path))
    s = GameSession(store)
    s.start(["Sarah", "Tim"], first=1)
    frame = np.full((60, 80, 3), 127, np.uint8)
    r = s.throw([6, 4, 1, 1, 1, 1, 1, 1], frame=frame)
    assert r.success
    s.decide("continue")
    s.throw([1, 1, 1, 1, 1, 1, 1])  # misthrow for 9
    store.close()
    saved = Store(str(tmp_path)).load(s.game_id)
    assert saved.game.to_dict() == s.game.to_dict()
    assert saved.game.current_player == 0 and saved.game.sheets[1].rows[0].marked == 1
    (seq, path), = saved.frames.items()
    assert seq == 1 and os.path.exists(path)
    import cv2

    img = cv2.imread(path)
    assert img.shape == (60, 80, 3) and abs(int(img.mean()) - 127) <= 2


def test_illegal_events_are_not_saved(tmp_path):
    store = Store(str(tmp_path))
    s = GameSession(store)
    s.start(["A", "B"], first=0)
    with pytest.raises(WrongDiceCount):
        s.throw([1, 2, 3])
    s.throw([6, 4, 1, 1, 1, 1, 1, 1])
    with pytest.raises(DecisionDue):
        s.throw([6, 3, 1, 1, 1, 1, 1])
    assert len(store.load(s.game_id).game.events) == 1


def test_undo_removes_the_saved_event(tmp_path):
    store = Store(str(tmp_path))
    s = GameSession(store)
    s.start(["A", "B"], first=0)
    s.throw([6, 4, 1, 1, 1, 1, 1, 1], frame=np.zeros((20, 20, 3), np.uint8))
    s.undo()
    assert s.game.target == 10 and s.game.phase.value == "roll"
    assert store.load(s.game_id).game.events == ()
    # The frame is kept, renamed, not deleted.
    files = os.listdir(tmp_path / "frames" / str(s.game_id))
    assert any("undone" in f for f in files)
    with pytest.raises(NothingToUndo):
        s.undo()


def test_finished_game_is_not_resumed_and_listeners_hear_the_end(tmp_path):
    s = GameSession(Store(str(tmp_path)))
    heard = []
    s.subscribe(lambda ch: heard.append(ch.kind))
    s.start(["A", "B"], first=0)
    for target in range(10, 0, -1):
        n = s.game.dice_to_throw
        vals = ([min(6, target - 1), target - min(6, target - 1)] if target >= 7 else [target])
        s.throw(vals + [1 if target != 1 else 6] * (n - len(vals)))
        if target > 1:
            s.decide("continue")
    assert s.game.winner == "A"
    assert heard[0] == "start" and heard[-1] == "over"
    assert GameSession(Store(str(tmp_path))).resume() is False


def test_a_new_game_keeps_the_unfinished_one_resumable_until_the_players_end_it(tmp_path):
    store = Store(str(tmp_path))
    s = GameSession(store)
    s.start(["A", "B"], first=0)
    s.throw([6, 4, 1, 1, 1, 1, 1, 1])
    old = s.game_id
    s.start(["C", "D"], first=0)
    assert [g.id for g in store.unfinished_games()] == [s.game_id, old]
    again = GameSession(Store(str(tmp_path)))
    assert again.resume(old) and again.game.players == ("A", "B") and len(again.game.events) == 1
    with pytest.raises(ValueError):
        again.end_unfinished(old)  # the game on the table
    s.end_unfinished(old)
    assert [g.id for g in store.unfinished_games()] == [s.game_id]
    assert store.games()[-1].finished is not None and store.games()[-1].winner is None


def test_random_first_roller(tmp_path):
    import random

    firsts = set()
    for seed in range(20):
        s = GameSession(Store(str(tmp_path / str(seed))), rng=random.Random(seed))
        s.start(["A", "B", "C"])
        firsts.add(s.game.first)
    assert firsts == {0, 1, 2}


def test_corrupt_database_is_kept_aside(tmp_path):
    db = tmp_path / "companion.db"
    db.write_bytes(b"this is not a database" * 100)
    store = Store(str(tmp_path))
    assert store.recovered_from and os.path.exists(store.recovered_from)
    assert open(store.recovered_from, "rb").read().startswith(b"this is not")
    assert store.unfinished() is None  # a fresh, working save


def test_corrupt_event_is_reported(tmp_path):
    store = Store(str(tmp_path))
    gid = store.new_game(["A", "B"], first=0)
    store.append(gid, {"throw": [6, 4, 1, 1, 1, 1, 1, 1]})
    con = sqlite3.connect(str(tmp_path / "companion.db"))
    con.execute("UPDATE events SET event='{\"throw\": [9]}'")
    con.commit()
    con.close()
    with pytest.raises(StorageError, match="event 1"):
        Store(str(tmp_path)).load(gid)


def test_session_reads_a_mock_frame_and_refuses_a_wrong_count(tmp_path):
    from hardware.camera import MockCamera

    class FakeDie:
        def __init__(self, v):
            self.value = v

    s = GameSession(Store(str(tmp_path)), reader=lambda img: [FakeDie(v) for v in (6, 4, 1)])
    s.start(["A", "B"], first=0)
    heard = []
    s.subscribe(lambda ch: heard.append(ch))
    cam = MockCamera(seed=1)
    r = s.throw_frame(cam.read())
    assert not r.ok and r.reasons == (Reason.WRONG_COUNT,) and r.values == (6, 4, 1) and r.expected == 8
    assert heard[-1].kind == "read" and s.game.events == ()


KILL_SCRIPT = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, {root!r})
    from companion.session import GameSession
    from companion.storage import Store
    s = GameSession(Store({data!r}))
    s.start(["Sarah", "Tim", "Maria"], first=0)
    s.throw([6, 4, 1, 1, 1, 1, 1, 1])
    s.decide("continue")
    s.throw([5, 4, 1, 1, 1, 1, 1])
    print("ready", flush=True)
    time.sleep(60)
    """
)


def test_game_killed_mid_turn_resumes_exactly(tmp_path):
    data = str(tmp_path / "data")
    proc = subprocess.Popen(
        [sys.executable, "-c", KILL_SCRIPT.format(root=ROOT, data=data)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "ready"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    s = GameSession(Store(data))
    assert s.resume()
    g = s.game
    assert g.players[g.current_player] == "Sarah"
    assert g.decision_due and g.sheets[0].rows[0].marked == 2
    s.decide("continue")
    assert g.dice_to_throw == 6 and g.target == 8


@pytest.mark.parametrize("names", [["Anna", "anna"], ["Zoë", "ZOË "], ["Jean Luc", "jean  luc"]])
def test_one_name_in_other_letters_is_one_player(tmp_path, names):
    s = GameSession(Store(str(tmp_path)))
    with pytest.raises(ValueError, match="one name"):
        s.start(names, first=0)
    assert s.game is None and s.store.games() == []
