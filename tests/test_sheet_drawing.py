"""A struck row's bar lies on its row, also when the sheet was shown before it was laid out (Resume)."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_struck_rows_bar_lies_on_its_row_after_resume(tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", PYTHONPATH=ROOT, KIVY_HOME=str(tmp_path / "kivy"))
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "sheet_check.py"), str(tmp_path / "kivy")],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    (bar,) = got["bars"]
    x0, y_low, y_high, x1 = got["row"]
    assert y_low <= bar[1] <= y_high, (bar, got["row"])
    assert abs(bar[0] - x0) < 1 and abs(bar[2] - x1) < 1
    assert x0 > 200, "the sheet is beside the THROW button, not on it"
