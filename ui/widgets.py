"""Kivy widgets of the companion: a player's score sheet and the live camera picture."""

from __future__ import annotations

import numpy as np
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label

__all__ = ["SheetView", "CameraView", "Cell"]

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
        self.canvas.after.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        with self.canvas.after:
            Color(*((0.55, 0.55, 0.55, 1) if self.kind == "miss" else (0.7, 0.7, 0.7, 1)))
            Line(rectangle=(x + 1, y + 1, w - 2, h - 2), width=1)
            if self.current:
                Color(0.9, 0.45, 0.0, 1)
                Line(rectangle=(x + 2, y + 2, w - 4, h - 4), width=2.2)
            if self.crossed:
                Color(*(MISS if self.kind == "miss" else CROSS))
                m = min(w, h) * 0.15
                Line(points=[x + m, y + m, x + w - m, y + h - m], width=2.4)
                Line(points=[x + m, y + h - m, x + w - m, y + m], width=2.4)


class SheetView(BoxLayout):
    """A player's sheet: name, four rows 10…1 with two misthrow boxes each.

    Call :meth:`show` with a ``Sheet`` from the rules engine. Struck rows get a
    line through them; the row the player plays now or next gets a ▶ marker;
    the roller's sheet is tinted.
    """

    roller = BooleanProperty(False)

    def __init__(self, **kw):
        super().__init__(orientation="vertical", padding=4, spacing=2, **kw)
        self.title = Label(color=INK, bold=True, size_hint_y=None, height=30, font_size="18sp", halign="left")
        self.title.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.add_widget(self.title)
        self.grid = GridLayout(cols=13, spacing=1)
        self.add_widget(self.grid)
        self.pointers: list[Label] = []
        self.cells: list[list[Cell]] = []
        for r in range(4):
            p = Label(text="", color=(0.9, 0.45, 0.0, 1), bold=True, font_size="16sp", size_hint_x=0.6)
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
        self._sheet = None
        self._current = False

    def show(self, sheet, *, roller: bool = False, playing: bool = False) -> None:
        """Draw ``sheet`` (``companion.durchmarsch.Sheet``); ``playing``: outline its target."""
        self._sheet = sheet
        self.roller = roller
        flag = "  — OUT" if sheet.eliminated else ""
        self.title.text = ("> " if roller else "") + sheet.name + flag
        for r, row in enumerate(sheet.rows):
            self.pointers[r].text = ">" if (r == sheet.row and not sheet.eliminated) else ""
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
                    Line(points=[first.x, yy, last.right, yy], width=3)


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
