"""Kivy widgets of a game of Fenn: Miwin's dice with their coloured pips, and the board.

The board is nine numbered fields in a row with the black die in its place
beside it (F14). Fields the player to move may not enter carry a shape, not
colour alone: an X for the black die's number, a circle with a bar for the
other die's number, a bar for the field the turn started from (a null move);
the fields a step may reach are outlined, the one tapped filled, and the best
turn of a hint starred.
"""

from __future__ import annotations

from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.widget import Widget

__all__ = ["MiwinDie", "FaceButton", "BoardView", "PIPS", "PIP_COLOURS"]

#: Pip colours (RGBA) of Miwin's dice by the die's colour (fenn.md, F1).
PIP_COLOURS = {"blue": (0.12, 0.32, 0.85, 1), "red": (0.85, 0.13, 0.1, 1), "black": (0.05, 0.05, 0.05, 1)}
WOOD = (0.93, 0.84, 0.66, 1)
FIELD = (0.45, 0.29, 0.17, 1)
FIELD_GOAL = (0.36, 0.23, 0.13, 1)
LIGHT = (0.98, 0.95, 0.85, 1)
LEGAL = (0.35, 0.9, 0.45, 1)
MARK = (1.0, 0.85, 0.35, 1)

#: Pip places on a 3×3 grid (column, row from the top), 1 to 9; 7, 8 and 9 as the mock camera draws them (fenn.md).
PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)],
    7: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2), (1, 1)],
    8: [(c, r) for r in range(3) for c in range(3) if (c, r) != (1, 1)],
    9: [(c, r) for r in range(3) for c in range(3)],
}


def draw_die(canvas, x: float, y: float, size: float, value: int, colour: str) -> None:
    """Draw a Miwin die's top face at ``(x, y)`` (bottom left, px), ``size`` px wide, ``value`` pips in ``colour``."""
    with canvas:
        Color(0, 0, 0, 0.35)
        RoundedRectangle(pos=(x + size * 0.04, y - size * 0.04), size=(size, size), radius=[size * 0.16])
        Color(*WOOD)
        RoundedRectangle(pos=(x, y), size=(size, size), radius=[size * 0.16])
        Color(*PIP_COLOURS[colour])
        r = size * (0.085 if value >= 7 else 0.1)
        for c, row in PIPS.get(value, []):
            cx = x + size * (0.22 + 0.28 * c)
            cy = y + size * (0.78 - 0.28 * row)
            Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))


class MiwinDie(Widget):
    """A die face: ``value`` (1-9) pips in ``colour`` (``"blue"``, ``"red"``, ``"black"``) on a wooden body."""

    value = NumericProperty(5)
    colour = StringProperty("blue")

    def __init__(self, **kw):
        super().__init__(**kw)
        self.bind(pos=self._redraw, size=self._redraw, value=self._redraw, colour=self._redraw)

    def _redraw(self, *_):
        self.canvas.clear()
        s = min(self.width, self.height) * 0.9
        draw_die(self.canvas, self.center_x - s / 2, self.center_y - s / 2, s, int(self.value), self.colour)


class FaceButton(ButtonBehavior, MiwinDie):
    """A die face to tap (a new top face, or the black die's value)."""


class BoardView(Widget):
    """The board: nine fields, both dice on theirs, the black die beside it.

    :meth:`show` takes the state as plain data; ``on_field(n)`` is called when
    field ``n`` (1-9) is touched.
    """

    def __init__(self, on_field=None, **kw):
        super().__init__(**kw)
        self.on_field = on_field
        self.state: dict = {}
        self._labels = [Label(font_size="18sp", bold=True, color=LIGHT) for _ in range(9)]
        for lb in self._labels:
            self.add_widget(lb)
        self.bind(pos=self._redraw, size=self._redraw)

    def show(self, *, dice, black, targets=(), selected=None, marks=None, best=None, blue_goal=9):
        """``dice``: ``{"blue": (field, top), "red": (field, top)}``; ``black``: its top (None before
        the start throws); ``targets``: fields a step may reach; ``selected``: the field tapped;
        ``marks``: ``{field: "black" | "top" | "taken" | "start"}``; ``best``: the hint's field."""
        self.state = dict(dice=dice, black=black, targets=set(targets), selected=selected, marks=marks or {},
                          best=best)
        self._redraw()

    def geometry(self) -> tuple[float, float, float]:
        """``(x0, y0, size)``: where field 1 starts and the size of a field, px."""
        size = min(self.width / 10.3, self.height * 0.82)
        x0 = self.x + (self.width - size * 10.3) / 2
        return x0, self.center_y - size / 2, size

    def field_at(self, pos) -> int | None:
        """The field (1-9) under ``pos`` (px), or None."""
        x0, y0, s = self.geometry()
        if not (y0 <= pos[1] <= y0 + s):
            return None
        i = int((pos[0] - x0) // s)
        return i + 1 if 0 <= i < 9 else None

    def on_touch_down(self, touch):
        f = self.field_at(touch.pos) if self.collide_point(*touch.pos) else None
        if f is not None and self.on_field is not None:
            self.on_field(f)
            return True
        return super().on_touch_down(touch)

    def _redraw(self, *_):
        st = self.state
        self.canvas.before.clear()
        self.canvas.after.clear()
        if not st:
            return
        x0, y0, s = self.geometry()
        with self.canvas.before:
            for i in range(9):
                f = i + 1
                x = x0 + i * s
                Color(*(FIELD_GOAL if f in (1, 9) else FIELD))
                Rectangle(pos=(x + 1, y0), size=(s - 2, s))
                if f == st["selected"]:
                    Color(*LEGAL[:3], 0.45)
                    Rectangle(pos=(x + 1, y0), size=(s - 2, s))
        for i, lb in enumerate(self._labels):
            lb.text = str(i + 1)
            lb.size = (s * 0.4, s * 0.3)
            lb.pos = (x0 + i * s + 2, y0 + s - s * 0.3)
            lb.font_size = s * 0.22
        with self.canvas.after:
            for f, why in st["marks"].items():
                self._mark(x0 + (f - 1) * s, y0, s, why)
            for f in st["targets"]:
                Color(*LEGAL)
                Line(rectangle=(x0 + (f - 1) * s + 4, y0 + 3, s - 8, s - 6), width=2.4)
        for colour in ("blue", "red"):
            f, top = st["dice"][colour]
            ds = s * 0.62
            draw_die(self.canvas.after, x0 + (f - 1) * s + (s - ds) / 2, y0 + s * 0.1, ds, top, colour)
        # The black die's place beside the board (F14).
        bx = x0 + 9 * s + s * 0.3
        with self.canvas.after:
            Color(0.8, 0.8, 0.8, 1)
            Line(rectangle=(bx - 3, y0 + s * 0.08 - 3, s * 0.84 + 6, s * 0.84 + 6), width=1.2, dash_length=4,
                 dash_offset=3)
        if st["black"]:
            draw_die(self.canvas.after, bx, y0 + s * 0.08, s * 0.84, st["black"], "black")
        if st["best"] is not None:
            with self.canvas.after:
                Color(*MARK)
                cx, cy, r = x0 + (st["best"] - 0.5) * s, y0 + s * 0.93, s * 0.11
                Line(points=_star(cx, cy, r), close=True, width=2)

    def _mark(self, x, y, s, why):
        """The shape of a field the mover may not enter: X (black die), ⊘ (other die's number), — (null move)."""
        m = s * 0.26  # the shapes keep clear of the field's number in its corner
        y -= s * 0.05
        if why == "black":
            Color(0.05, 0.05, 0.05, 0.85)
            Line(points=[x + m, y + m, x + s - m, y + s - m], width=3.5)
            Line(points=[x + m, y + s - m, x + s - m, y + m], width=3.5)
        elif why == "top":
            Color(0.95, 0.95, 0.95, 0.9)
            Line(circle=(x + s / 2, y + s / 2, s * 0.25), width=3)
            Line(points=[x + s * 0.33, y + s * 0.33, x + s * 0.67, y + s * 0.67], width=3)
        elif why == "start":
            Color(0.95, 0.95, 0.95, 0.9)
            Line(points=[x + m, y + s / 2, x + s - m, y + s / 2], width=4)


def _star(cx, cy, r):
    import math

    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = math.pi / 2 + k * math.pi / 5
        pts += [cx + rr * math.cos(a), cy + rr * math.sin(a)]
    return pts
