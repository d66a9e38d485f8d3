"""The Fenn board calibration screen: a still of the board, found or touched at its two ends."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.i18n import _

from ..widgets import CornerPicker
from .common import GREEN, GREY, backdrop, big_button, button_bar, pressed, small_button, wrapped

__all__ = ["BoardScreen"]


class BoardScreen(Screen):
    """Fenn's board for the camera: a still picture on which the players touch
    the middles of fields 1 and 9 (or let the board be found: its outline is
    shown); Save stores it (``board.json``) and the camera reads fields from it."""

    def __init__(self, app, **kw):
        super().__init__(name="board", **kw)
        self.app = app
        root = BoxLayout(orientation="vertical", padding=6, spacing=6)
        backdrop(root)
        root.add_widget(wrapped(Label(
            text=_("Touch the middle of field 1, then the middle of field 9, or let the board be found."),
            font_size="16sp", halign="center", valign="middle", size_hint_y=None, height=dp(52))))
        middle = BoxLayout(spacing=8)
        self.picker = CornerPicker(size_hint_x=0.68)
        self.picker.on_change = lambda p: self._changed()
        middle.add_widget(self.picker)
        side = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.32)
        side.add_widget(pressed(small_button(_("Find the board")), self.find))
        side.add_widget(pressed(small_button(_("Clear the points")), lambda: self.picker.set_corners(())))
        self.status = wrapped(Label(text="", font_size="15sp", halign="center", valign="middle"))
        side.add_widget(self.status)
        middle.add_widget(side)
        root.add_widget(middle)
        cancel = pressed(big_button(_("Cancel"), GREY, font_size="18sp"), app.close_calibration)
        self.save_btn = pressed(big_button(_("Save"), GREEN, font_size="18sp"), self.save)
        root.add_widget(button_bar([cancel, self.save_btn], height=dp(56)))
        self.add_widget(root)

    def open(self, frame, corners=()):
        """Show ``frame`` (``H×W×3 uint8 BGR``) with the stored board's ``corners`` (frame pixels)."""
        self.status.text = ""
        self.picker.show_still(frame, corners)
        self._changed()

    def _changed(self):
        n = len(self.picker.corners)
        self.save_btn.disabled = n not in (2, 4)

    def find(self):
        """Find the board in the picture and show its outline."""
        from vision.fenn import BoardError, find_board

        try:
            board = find_board(self.picker.frame)
        except BoardError:
            self.picker.set_corners(())
            self.status.text = _("No board found: touch the middles of fields 1 and 9.")
            return
        self.picker.set_corners(board.corners)

    def save(self):
        """Store the board (two points: the ends touched; four: the outline found)."""
        self.status.text = self.app.save_board(self.picker.frame, list(self.picker.corners))
