"""Draws a sheet with a struck row offscreen, as after Resume, and prints where its bar lies;
run by tests/test_sheet_drawing.py in a subprocess (Kivy stays out of pytest).

Usage: python sheet_check.py KIVY_HOME → one JSON line
{"bars": [[x0, y, x1]], "row": [x0, y_low, y_high, x1]}
"""

import json
import os
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ["KIVY_NO_ARGS"] = "1"
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", sys.argv[1] if len(sys.argv) > 1 else "/tmp/kivy-sheet-check")

from kivy.base import EventLoop  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.graphics import Line  # noqa: E402
from kivy.uix.boxlayout import BoxLayout  # noqa: E402
from kivy.uix.button import Button  # noqa: E402

from companion.sheet import Row, Sheet  # noqa: E402
from ui.widgets import SheetView  # noqa: E402

Window.size = (800, 480)
root = BoxLayout()
root.add_widget(Button(text="THROW"))
view = SheetView()
# As after Resume: the sheet is shown before the view has been laid out.
view.show(Sheet("Anna", rows=(Row(3, 2), Row(1, 0), Row(), Row()), row=1))
root.add_widget(view)
Window.add_widget(root)
for _ in range(6):
    EventLoop.idle()
bars = [list(i.points) for i in view.canvas.after.children if isinstance(i, Line)]
first, last = view.cells[0][0], view.cells[0][-1]
print(json.dumps({"bars": [[p[0], p[1], p[2]] for p in bars], "row": [first.x, first.y, first.top, last.right]}))
