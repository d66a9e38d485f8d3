"""A QR code that opens a game's page on the table's web page (``companion web``),
with the address beside it, for the end screen and the history.

The code is made by segno (a well-kept QR library) and drawn as a Kivy
texture, one texel per module and scaled without smoothing, so it stays sharp
at any size. Shown only when ``[web] enabled`` is on; otherwise the widget
takes no room.

    >>> m = qr_matrix("http://192.168.1.20:8080/games/7")
    >>> m.shape[0] == m.shape[1], m.dtype.name, int(m[0, 0])   # square, the quiet zone is light
    (True, 'uint8', 255)
"""

from __future__ import annotations

import logging

import numpy as np
from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

__all__ = ["qr_matrix", "qr_texture", "QRView", "GameQR", "row_with"]

log = logging.getLogger(__name__)


def qr_matrix(text: str, *, border: int = 4) -> np.ndarray:
    """The QR code of ``text`` as an ``N×N uint8`` image, 0 dark and 255 light,
    one pixel per module with a ``border`` of light modules (the quiet zone).
    Error correction M (segno chooses the smallest version that holds it)."""
    import segno

    code = segno.make(text, error="m", boost_error=False, micro=False)
    rows = list(code.matrix_iter(scale=1, border=border))
    return np.where(np.array(rows, dtype=bool), 0, 255).astype(np.uint8)


def qr_texture(text: str) -> Texture:
    """A Kivy texture of :func:`qr_matrix` (grey, nearest-neighbour scaling)."""
    m = qr_matrix(text)
    rgb = np.ascontiguousarray(np.repeat(m[::-1, :, None], 3, axis=2))  # Kivy's rows run bottom-up
    tex = Texture.create(size=(m.shape[1], m.shape[0]), colorfmt="rgb")
    tex.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    tex.mag_filter = tex.min_filter = "nearest"
    return tex


class QRView(Widget):
    """Draws a texture square, as large as fits, centred."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.texture = None
        self.bind(pos=self._draw, size=self._draw)

    def show(self, texture) -> None:
        """Draw ``texture`` (or nothing for None)."""
        self.texture = texture
        self._draw()

    def _draw(self, *_):
        self.canvas.clear()
        if self.texture is None:
            return
        side = min(self.width, self.height)
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=self.texture, size=(side, side),
                      pos=(self.x + (self.width - side) / 2, self.y + (self.height - side) / 2))


class GameQR(BoxLayout):
    """The QR code of a game's page with its address under it; ``app.cfg`` gives
    ``[web]`` (hidden, taking no room, while ``enabled`` is off)."""

    def __init__(self, app, *, width: float = 150, **kw):
        super().__init__(orientation="vertical", size_hint_x=None, width=dp(width), spacing=dp(4),
                         padding=(dp(8), 0, 0, 0), **kw)
        self.app = app
        self._width = dp(width)
        self.url: str | None = None
        self.view = QRView(size_hint_y=None, height=dp(width) - dp(8))
        self.address = Label(text="", font_size="12sp", size_hint_y=None, height=dp(34), halign="center",
                             valign="top")
        self.address.bind(size=lambda w, s: setattr(w, "text_size", (s[0], None)))
        for w in (Widget(), self.view, self.address, Widget()):
            self.add_widget(w)
        self.show(None)

    def show(self, game_id: int | None) -> None:
        """Show the code of game ``game_id``'s page (None, or the page off: hidden)."""
        from companion.web.address import game_url

        cfg = getattr(self.app, "cfg", None) or {}
        web = cfg.get("web") or {}
        self.url = None
        if game_id is not None and web.get("enabled"):
            try:
                self.url = game_url(cfg, game_id)
            except ValueError as e:  # a bad [web] listen: no code rather than a wrong one
                log.warning("no QR code: %s", e)
        self.width = self._width if self.url else 0
        self.opacity = 1 if self.url else 0
        self.view.show(qr_texture(self.url) if self.url else None)
        # The address under the code: the host on one line, the game's path on the next.
        self.address.text = self.url.split("://", 1)[-1].replace("/games/", "\n/games/") if self.url else ""


def row_with(*widgets) -> BoxLayout:
    """The widgets side by side (a screen's middle and its :class:`GameQR`)."""
    row = BoxLayout()
    for w in widgets:
        row.add_widget(w)
    return row
