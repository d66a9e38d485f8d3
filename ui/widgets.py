"""Kivy widgets of the companion: a player's score sheet, the live camera
picture, the risk meter and a tappable die face.

Marks are told apart by shape as well as colour: a crossed-off number gets
an X, a ticked misthrow box a filled disc, a struck row a bar through it,
the target a thick outline.
"""

from __future__ import annotations

import numpy as np
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.graphics.texture import Texture
from kivy.metrics import sp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.widget import Widget

__all__ = ["SheetView", "CameraView", "CornerPicker", "Cell", "RiskMeter", "DieButton", "SYMBOL_FONT",
           "picture_to_frame"]

#: A font with the arrows and symbols Roboto lacks (ships with Kivy).
SYMBOL_FONT = "DejaVuSans"

INK = (0.1, 0.1, 0.12, 1)
PAPER = (0.97, 0.96, 0.92, 1)
ROLLER = (1.0, 0.93, 0.7, 1)
CROSS = (0.15, 0.35, 0.85, 1)
MISS = (0.85, 0.15, 0.1, 1)


class Cell(Label):
    """One box on the sheet: a number or a misthrow box.

    ``crossed``: draw an X through it (a mark, or a ticked misthrow box).
    ``current``: outline it (the target). ``kind``: ``"number"`` or ``"miss"``.
    """

    crossed = BooleanProperty(False)
    current = BooleanProperty(False)
    kind = StringProperty("number")

    def __init__(self, **kw):
        super().__init__(color=INK, bold=True, **kw)
        self.bind(pos=self._redraw, size=self._redraw, crossed=self._redraw, current=self._redraw)

    def _redraw(self, *_):
        # Numbers as large as the box allows, so they read from a metre away.
        # Never under 16 px at 800×480 (read at arm's length), even with four sheets on the screen.
        self.font_size = max(sp(16), min(self.height * 0.78, self.width * 0.55))
        self.canvas.after.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        with self.canvas.after:
            Color(*((0.55, 0.55, 0.55, 1) if self.kind == "miss" else (0.7, 0.7, 0.7, 1)))
            Line(rectangle=(x + 1, y + 1, w - 2, h - 2), width=1)
            if self.current:
                Color(0.9, 0.45, 0.0, 1)
                Line(rectangle=(x + 2, y + 2, w - 4, h - 4), width=2.2)
            if self.crossed and self.kind == "miss":
                Color(*MISS)  # a filled disc: a misthrow, told from a mark by shape
                r = min(w, h) * 0.32
                Ellipse(pos=(x + w / 2 - r, y + h / 2 - r), size=(2 * r, 2 * r))
        # A mark's X lies under the number (drawn before the text), so a crossed-off
        # number stays readable.
        self.canvas.before.clear()
        if self.crossed and self.kind != "miss":
            with self.canvas.before:
                Color(*CROSS[:3], 0.75)
                m = min(w, h) * 0.12
                Line(points=[x + m, y + m, x + w - m, y + h - m], width=2.2)
                Line(points=[x + m, y + h - m, x + w - m, y + m], width=2.2)


class SheetView(BoxLayout):
    """A player's sheet: name, four rows 10…1 with two misthrow boxes each.

    Call :meth:`show` with a ``Sheet`` from the rules engine. Struck rows get a
    line through them; the row the player plays now or next gets a ▶ marker;
    the roller's sheet is tinted.
    """

    roller = BooleanProperty(False)

    def __init__(self, **kw):
        super().__init__(orientation="vertical", padding=2, spacing=1, **kw)
        self.title = Label(color=INK, bold=True, size_hint_y=0.2, font_size="18sp", halign="left",
                           valign="middle", shorten=True, shorten_from="right")
        self.title.bind(size=self._title_size)
        self.add_widget(self.title)
        self.grid = GridLayout(cols=13, spacing=1)
        self.add_widget(self.grid)
        self.pointers: list[Label] = []
        self.cells: list[list[Cell]] = []
        for _r in range(4):
            p = Label(text="", color=(0.9, 0.45, 0.0, 1), bold=True, font_size="16sp", size_hint_x=0.6,
                      font_name=SYMBOL_FONT)
            self.pointers.append(p)
            self.grid.add_widget(p)
            row = []
            for n in range(10, 0, -1):
                c = Cell(text=str(n), font_size="17sp")
                row.append(c)
                self.grid.add_widget(c)
            for _ in range(2):
                c = Cell(text="", kind="miss")
                row.append(c)
                self.grid.add_widget(c)
            self.cells.append(row)
        self._strikes = []
        self.bind(pos=self._redraw, size=self._redraw, roller=self._redraw)
        self.grid.bind(pos=self._redraw, size=self._redraw)
        # A struck row's bar is drawn from its cells, which the grid places after
        # it moves: redraw when they move (after Resume or a language change).
        for row in self.cells:
            for c in (row[0], row[-1]):
                c.bind(pos=self._redraw, size=self._redraw)
        self._sheet = None
        self._current = False

    @staticmethod
    def _title_size(w, s):
        w.text_size = s
        w.font_size = max(sp(16), min(s[1] * 0.8, sp(28)))

    def show(self, sheet, *, roller: bool = False, playing: bool = False, out_word: str = "OUT") -> None:
        """Draw ``sheet`` (``companion.durchmarsch.Sheet``); ``playing``: outline its target;
        ``out_word``: the word shown after an eliminated player's name."""
        self._sheet = sheet
        self.roller = roller
        flag = "  — " + out_word if sheet.eliminated else ""
        self.title.text = ("\u25b6 " if roller else "") + sheet.name + flag
        self.title.font_name = SYMBOL_FONT if roller else "Roboto"
        for r, row in enumerate(sheet.rows):
            self.pointers[r].text = "\u25b6" if (r == sheet.row and not sheet.eliminated) else ""
            for i, c in enumerate(self.cells[r][:10]):
                c.crossed = i < row.marked
                c.current = playing and r == sheet.row and i == row.marked
            for k, c in enumerate(self.cells[r][10:]):
                c.crossed = k < row.misthrows
        self._redraw()

    def _redraw(self, *_):
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*(ROLLER if self.roller else PAPER))
            Rectangle(pos=self.pos, size=self.size)
            if self.roller:
                Color(0.9, 0.45, 0.0, 1)
                Line(rectangle=(self.x + 1, self.y + 1, self.width - 2, self.height - 2), width=2.5)
        self.canvas.after.clear()
        if self._sheet is None:
            return
        with self.canvas.after:
            for r, row in enumerate(self._sheet.rows):
                if row.struck:
                    first, last = self.cells[r][0], self.cells[r][-1]
                    Color(*MISS)
                    yy = first.center_y
                    Line(points=[first.x, yy, last.right, yy], width=3.5)


class CameraView(Image):
    """Shows ``H×W×3 uint8 BGR`` frames; call :meth:`show_frame` on Kivy's main thread."""

    frames_shown = NumericProperty(0)

    def __init__(self, **kw):
        super().__init__(fit_mode="contain", **kw)
        self._tex = None

    def show_frame(self, frame: np.ndarray) -> None:
        """Upload a frame to the texture (flipped for OpenGL's bottom-up rows)."""
        h, w = frame.shape[:2]
        if self._tex is None or self._tex.size != (w, h):
            self._tex = Texture.create(size=(w, h), colorfmt="bgr")
            self._tex.flip_vertical()
        self._tex.blit_buffer(np.ascontiguousarray(frame).tobytes(), colorfmt="bgr", bufferfmt="ubyte")
        self.texture = self._tex
        self.canvas.ask_update()
        self.frames_shown += 1

    def picture_rect(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """Where the frame is drawn: its lower-left corner and ``(width, height)``,
        window pixels (the frame is fitted inside the widget and centred)."""
        nw, nh = self.norm_image_size
        return (self.center_x - nw / 2, self.center_y - nh / 2), (nw, nh)


def picture_to_frame(touch, picture_pos, picture_size, frame_size):
    """Where a touch falls in the frame a picture shows, or None when it misses the picture.

    ``touch``: ``(x, y)`` window pixels (Kivy's, y up). ``picture_pos`` and
    ``picture_size``: the drawn picture's lower-left corner and ``(width,
    height)`` in window pixels. ``frame_size``: the frame's ``(width,
    height)`` pixels. Returns ``(x, y)`` frame pixels (y down).

    >>> picture_to_frame((150, 125), (100, 50), (200, 150), (1640, 1232))
    (410.0, 616.0)
    >>> picture_to_frame((90, 100), (100, 50), (200, 150), (1640, 1232)) is None
    True
    """
    (tx, ty), (px, py), (pw, ph), (fw, fh) = touch, picture_pos, picture_size, frame_size
    if pw <= 0 or ph <= 0 or not (px <= tx <= px + pw and py <= ty <= py + ph):
        return None
    return (tx - px) / pw * fw, (py + ph - ty) / ph * fh


class CornerPicker(CameraView):
    """A still frame on which the players touch the corners of the dice tray.

    ``corners``: the points touched, ``(x, y)`` pixels of the frame, in the
    order touched (a round tray: touch points around its rim). Each touch adds
    one (at most :attr:`MAX`); the outline through them is drawn once there
    are three. Call :meth:`show_still` with the frame first.
    """

    MAX = 12

    def __init__(self, **kw):
        super().__init__(**kw)
        self.frame = None
        self.corners: list[tuple[float, float]] = []
        self.on_change = None

    def show_still(self, frame: np.ndarray, corners=()) -> None:
        """Show ``frame`` (``H×W×3 uint8 BGR``) with ``corners`` marked."""
        self.frame = frame
        self.set_corners(corners)

    def set_corners(self, corners) -> None:
        """Replace the points (frame pixels) and redraw."""
        self.corners = [(float(x), float(y)) for x, y in corners][: self.MAX]
        self._redraw()

    def on_touch_down(self, touch):
        if self.frame is None or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        pos, size = self.picture_rect()
        pt = picture_to_frame(touch.pos, pos, size, (self.frame.shape[1], self.frame.shape[0]))
        if pt is None or len(self.corners) >= self.MAX:
            return True
        self.corners.append(pt)
        self._redraw()
        return True

    def _redraw(self):
        import cv2

        if self.frame is None:
            return
        img = self.frame.copy()
        r = max(4, round(max(img.shape[:2]) / 100))
        pts = np.round(np.array(self.corners, np.float32)).astype(np.int32).reshape(-1, 1, 2)
        if len(self.corners) >= 3:
            hull = cv2.convexHull(pts)
            cv2.polylines(img, [hull], True, (255, 0, 255), max(2, r // 2), cv2.LINE_AA)
        for x, y in self.corners:
            cv2.circle(img, (round(x), round(y)), r, (0, 220, 255), -1, cv2.LINE_AA)
            cv2.circle(img, (round(x), round(y)), r, (0, 0, 0), max(1, r // 4), cv2.LINE_AA)
        self.show_frame(img)
        if self.on_change:
            self.on_change(self)


class RiskMeter(BoxLayout):
    """The chance of forming the target, as a bar and a percentage.

    Call :meth:`show` with ``chance`` in 0…1 and the words to go with it;
    ``None`` empties it. The bar's length carries the chance (readable
    without colour); its colour goes from red (< 1/3) over amber to green
    (≥ 2/3).
    """

    chance = NumericProperty(-1.0)

    def __init__(self, **kw):
        super().__init__(orientation="horizontal", spacing=6, **kw)
        self.label = Label(text="", font_size="16sp", bold=True, halign="left", valign="middle",
                           size_hint_x=0.62)
        self.label.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.bar = Label(text="", font_size="20sp", bold=True, size_hint_x=0.38)
        self.add_widget(self.label)
        self.add_widget(self.bar)
        self.bar.bind(pos=self._redraw, size=self._redraw)
        self.bind(chance=self._redraw)

    def show(self, chance: float | None, words: str = "") -> None:
        """Show ``chance`` (0…1, or None for nothing) with ``words`` beside it."""
        self.chance = -1.0 if chance is None else float(chance)
        self.label.text = words if chance is not None else ""
        self.bar.text = "" if chance is None else f"{round(100 * chance)} %"

    def _redraw(self, *_):
        b = self.bar
        self.bar.canvas.before.clear()
        if self.chance < 0:
            return
        c = self.chance
        rgb = (0.8, 0.2, 0.15) if c < 1 / 3 else (0.85, 0.6, 0.1) if c < 2 / 3 else (0.2, 0.6, 0.3)
        with b.canvas.before:
            Color(0.25, 0.27, 0.3, 1)
            Rectangle(pos=b.pos, size=b.size)
            Color(*rgb, 1)
            Rectangle(pos=b.pos, size=(b.width * c, b.height))
            Color(0.9, 0.9, 0.9, 1)
            Line(rectangle=(b.x, b.y, b.width, b.height), width=1.2)


class DieButton(ButtonBehavior, Widget):
    """A die face with its pips, tappable (the correction screen's dice).

    ``value``: 1-6 pips; ``selected``: drawn with a thick outline and
    raised; ``number``: small index shown in the corner (matches the
    numbers drawn on the picture), 0 for none.
    """

    value = NumericProperty(1)
    selected = BooleanProperty(False)
    number = NumericProperty(0)

    def __init__(self, **kw):
        super().__init__(**kw)
        self.bind(pos=self._redraw, size=self._redraw, value=self._redraw, selected=self._redraw,
                  number=self._redraw)
        self.tag = Label(text="", font_size="16sp", bold=True, color=(0.25, 0.25, 0.25, 1))
        self.add_widget(self.tag)

    def _redraw(self, *_):
        from vision.diceset import PIP_LAYOUT

        s = min(self.width, self.height) * (0.92 if self.selected else 0.8)
        x0, y0 = self.center_x - s / 2, self.center_y - s / 2
        self.canvas.before.clear()
        with self.canvas.before:
            if self.selected:
                Color(0.95, 0.6, 0.1, 1)
                RoundedRectangle(pos=(x0 - 4, y0 - 4), size=(s + 8, s + 8), radius=[s * 0.18])
            Color(0.97, 0.96, 0.92, 1)
            RoundedRectangle(pos=(x0, y0), size=(s, s), radius=[s * 0.15])
            Color(0.1, 0.1, 0.12, 1)
            r = s * 0.09
            for px, py in PIP_LAYOUT[int(self.value)]:
                cx, cy = x0 + s * (0.5 + px * 0.27), y0 + s * (0.5 - py * 0.27)
                Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
        self.tag.text = str(self.number) if self.number else ""
        self.tag.pos = (self.x, self.y)
        self.tag.size = (sp(22), sp(22))
