"""The Kivy app, offscreen: a game played through the mock camera, screen, GPIO and keys."""

import json
import os
import subprocess
import sys

import cv2

from companion.session import GameSession
from companion.storage import Store

DRIVER = os.path.join(os.path.dirname(__file__), "ui_driver.py")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def drive(data, out, env_extra=None):
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", PYTHONPATH=ROOT, **(env_extra or {}))
    p = subprocess.run([sys.executable, DRIVER, str(data), str(out)], capture_output=True, text=True, env=env, timeout=240)
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    assert p.returncode == 0 and lines, p.stderr[-3000:]
    return json.loads(lines[-1])


def test_game_through_the_app(tmp_path):
    data, out = tmp_path / "data", tmp_path / "out"
    out.mkdir()
    rep = drive(data, out, {"THROWS": "12"})
    assert "error" not in rep, rep
    assert rep["screens"][:2] == ["start", "game"]
    assert rep["throws"], rep
    # Every throw read exactly as rendered was scored as an event.
    exact = [t for t in rep["throws"] if t["read"] == t["truth"]]
    assert exact, rep["throws"]
    # The app's state is what the store replays to (nothing lost, nothing invented).
    store = Store(str(data))
    saved = store.load(store.unfinished() or 1)
    assert saved.game.to_dict() == rep["state"]
    assert len(saved.game.events) == rep["events"] > 0
    assert rep["frames_shown"] >= 10  # the live picture kept refreshing
    # A screenshot of the game screen exists and is a real picture.
    shots = sorted(p for p in os.listdir(out) if p.startswith("game") and p.endswith(".png"))
    assert shots
    img = cv2.imread(str(out / shots[0]))
    assert img.shape[:2] == (480, 800) and img.std() > 20


def test_resume_after_kill(tmp_path):
    data, out = tmp_path / "data", tmp_path / "out"
    out.mkdir()
    s = GameSession(Store(str(data)))
    s.start(["Sarah", "Tim"], first=0)
    s.throw([6, 4, 1, 1, 1, 1, 1, 1])
    expected = s.game.to_dict()
    del s  # like a process that died without closing anything
    rep = drive(data, out, {"RESUME": "1"})
    assert rep["resumed"] == expected
    assert rep["screens"][-1] == "game"
