"""The prompts' label (ui.screens.common.FittedLabel): every line of a long
prompt is drawn, in the largest type that fits, measured on the drawn texture."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = r"""
import json, sys
from kivy.core.window import Window
from ui.screens.common import FittedLabel
import numpy as np

def bands(label):
    label.texture_update()
    t = label.texture
    a = np.frombuffer(t.pixels, np.uint8).reshape(t.height, t.width, 4)[:, :, 3]
    rows = (a > 0).any(axis=1)
    return int(np.count_nonzero(rows[1:] & ~rows[:-1]) + rows[0])

text = sys.argv[1]
out = {}
for name, label in (("fitted", FittedLabel(sizes=(16, 14, 12), bold=True, halign="center")),):
    label.size_hint = (None, None)
    label.size = (500, 84)
    label.text = text
    out[name] = {"lines": bands(label), "font_size": float(label.font_size)}
long = FittedLabel(sizes=(16, 14, 12), bold=True, halign="center", size_hint=(None, None), size=(500, 84))
long.text = text + "\n" + text
out["long"] = {"font_size": float(long.font_size)}
short = FittedLabel(sizes=(16, 14, 12), bold=True, halign="center", size_hint=(None, None), size=(500, 84))
short.text = "Undone."
out["short"] = {"lines": bands(short), "font_size": float(short.font_size)}
grow = FittedLabel(sizes=(16, 14, 12), grow=True, bold=True, halign="center", size_hint=(None, None), size=(500, 84))
grow.text = text + "\n" + text
out["grown"] = {"lines": bands(grow), "height": grow.height, "font_size": float(grow.font_size)}
grow.text = "Undone."
out["back"] = {"height": grow.height, "font_size": float(grow.font_size)}
print(json.dumps(out))
"""


TEXT = ("Undone.\nThe memory card is full: the game goes on without pictures.\n"
        "6 + 2 makes the 8!\nSarah: stop or continue?")


def _labels_drawn(tmp_path) -> dict:
    """SCRIPT's labels drawn offscreen with ``TEXT``: its JSON report."""
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", PYTHONPATH=ROOT, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
               KIVY_NO_FILELOG="1", KIVY_HOME=str(tmp_path / "kivy"))
    p = subprocess.run([sys.executable, "-c", SCRIPT, TEXT], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_a_four_line_prompt_is_drawn_whole_in_the_largest_type_that_fits(tmp_path):
    out = _labels_drawn(tmp_path)
    # All four lines at full size (Kivy 2.3's label of a fixed text height, centred, drew three: why FittedLabel exists).
    assert out["fitted"]["lines"] == 4 and out["fitted"]["font_size"] == 16
    assert out["long"]["font_size"] == 12  # eight lines: the smallest size
    assert out["short"] == {"lines": 1, "font_size": 16}


def test_a_prompt_that_fits_in_no_size_makes_its_growing_label_taller_and_then_its_own_height_again(tmp_path):
    """The game screen's prompt at 800x480 in French, a message above a long name's prompt (``grow``): eight
    lines fit in no size at 84 px, so the label takes the room they need in the smallest size, every line
    drawn inside it; a short text again gives it its own 84 px and the largest size."""
    out = _labels_drawn(tmp_path)
    assert out["grown"]["font_size"] == 12 and out["grown"]["lines"] == 8 and out["grown"]["height"] > 84
    assert out["back"] == {"height": 84, "font_size": 16}
