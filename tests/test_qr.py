"""The QR code on the end screen opens that game's page: the app is run
offscreen (a subprocess) with ``[web] enabled``, a game played to its end,
the end screen's picture decoded with OpenCV's QR detector, and the address
asked of the page's server."""

import json
import os
import subprocess
import sys

import cv2
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
URL = "http://table.test:8080"

DRIVER = r'''
import json, os, sys
os.environ["KIVY_NO_ARGS"] = "1"
from gpiozero.pins.mock import MockFactory
from companion.config import DEFAULTS
from ui.app import run_app
from ui.snapshot import drive, winning_values

data, out, url, web = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "on"
cfg = json.loads(json.dumps(DEFAULTS))
cfg["app"]["data_dir"] = data
cfg["camera"] = {"source": "mock", "seed": 1}
cfg["web"].update(enabled=web, url=url)
cfg["_pin_factory"] = MockFactory()
report = {}

def script(app):
    from kivy.core.window import Window
    yield 0.2
    s = app.session
    s.start(["Sarah", "Tim"], first=0)
    yield 0.2
    while not s.game.is_over:
        if s.game.decision_due:
            s.decide("continue")
        else:
            s.throw(winning_values(s.game.target, s.game.dice_to_throw))
        yield 0.02
    yield 0.5
    report.update(screen=app.sm.current, game_id=s.game_id, winner=s.game.winner,
                  shot=Window.screenshot(name=os.path.join(out, "end.png")), qr_width=app.end_screen.qr.width)

run_app(cfg, driver=lambda app: drive(app, script(app), report), size=(800, 480))
print(json.dumps(report))
'''


def _run(tmp_path, web: str) -> dict:
    data, out = tmp_path / "data", tmp_path / "out"
    out.mkdir()
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", PYTHONPATH=ROOT, KIVY_HOME=str(tmp_path / "kivy"),
               KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1")
    p = subprocess.run([sys.executable, "-c", DRIVER, str(data), str(out), URL, web], capture_output=True, text=True,
                       env=env, timeout=240)
    lines = [line for line in p.stdout.splitlines() if line.startswith("{")]
    assert p.returncode == 0 and lines, p.stderr[-3000:]
    rep = json.loads(lines[-1])
    assert rep.get("screen") == "end", rep
    rep["data"] = str(data)
    return rep


def test_the_end_screens_qr_code_opens_that_games_page(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from companion.web.server import make_app

    rep = _run(tmp_path, "on")
    img = cv2.imread(rep["shot"])
    text, points, _ = cv2.QRCodeDetector().detectAndDecode(img)
    assert text == f"{URL}/games/{rep['game_id']}"
    c = TestClient(make_app({"app": {"data_dir": rep["data"], "language": "en"}, "web": {}}))
    page = c.get(text.removeprefix(URL) + "?lang=en")
    assert page.status_code == 200 and f"{rep['winner']} wins!" in page.text


def test_no_qr_code_while_the_page_is_off(tmp_path):
    rep = _run(tmp_path, "off")
    assert rep["qr_width"] == 0
    text, _points, _ = cv2.QRCodeDetector().detectAndDecode(cv2.imread(rep["shot"]))
    assert text == ""
