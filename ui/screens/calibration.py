"""The tray calibration screen: a still of the tray, touch its corners."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.i18n import _, ngettext

from ..widgets import (
    CornerPicker,
)
from .common import GREEN, GREY, backdrop, big_button, button_bar, pressed, small_button, wrapped

__all__ = ["CalibrationScreen"]


class CalibrationScreen(Screen):
    """The rolling area: a still picture of the tray on which the players touch
    its corners (or let the tray be found); Save stores the area and the dice
    size, and from then on only the area is read. Opened from the settings."""

    def __init__(self, app, **kw):
        super().__init__(name="calibrate", **kw)
        self.app = app
        root = BoxLayout(orientation="vertical", padding=6, spacing=6)
        backdrop(root)
        root.add_widget(wrapped(Label(
            text=_("Touch the corners of the dice tray (points around its rim for a round tray). "
                   "A few dice lying apart in the tray give their size."),
            font_size="16sp", halign="center", valign="middle", size_hint_y=None, height=dp(52))))
        middle = BoxLayout(spacing=8)
        self.picker = CornerPicker(size_hint_x=0.68)
        self.picker.on_change = lambda p: self._changed()
        middle.add_widget(self.picker)
        side = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.32)
        self.find_btn = pressed(small_button(_("Find the tray")), self.find)
        self.clear_btn = pressed(small_button(_("Clear the corners")), lambda: self.picker.set_corners(()))
        self.new_btn = pressed(small_button(_("New picture")), app.open_calibration)
        for b in (self.find_btn, self.clear_btn, self.new_btn):
            side.add_widget(b)
        self.status = wrapped(Label(text="", font_size="15sp", halign="center", valign="middle"))
        side.add_widget(self.status)
        middle.add_widget(side)
        root.add_widget(middle)
        cancel = pressed(big_button(_("Cancel"), GREY, font_size="18sp"), app.close_calibration)
        self.save_btn = pressed(big_button(_("Save"), GREEN, font_size="18sp"), self.save)
        root.add_widget(button_bar([cancel, self.save_btn], height=dp(56)))
        self.add_widget(root)

    def open(self, frame, corners=()):
        """Show ``frame`` (``H×W×3 uint8 BGR``) with the stored area's ``corners`` (frame pixels)."""
        self.status.text = ""
        self.picker.show_still(frame, corners)

    def _changed(self):
        n = len(self.picker.corners)
        self.save_btn.disabled = n < 3
        self.status.text = ngettext("{n} corner touched", "{n} corners touched", n).format(n=n) if n else ""

    def find(self):
        """Find the tray in the picture and show its outline as the corners."""
        from vision.calibrate import CalibrationError, find_tray

        try:
            area = find_tray(self.picker.frame)
        except CalibrationError:
            self.picker.set_corners(())
            self.status.text = _("No tray found: touch its corners.")
            return
        self.picker.set_corners(area.polygon)

    def save(self):
        """Store the area; the app says what was stored or what went wrong."""
        self.status.text = self.app.save_calibration(self.picker.frame, list(self.picker.corners))
