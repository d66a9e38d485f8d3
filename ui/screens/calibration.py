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

__all__ = ["CalibrationScreen", "StillScreen"]


class StillScreen(Screen):
    """A still picture from the camera on which the players touch points, with
    a line of ``instruction``, ``side`` buttons ``[(text, callback), ...]`` and
    a status line; Cancel and Save (:meth:`save`). The tray and Fenn's board
    calibrations are two of these."""

    def __init__(self, app, *, name: str, instruction: str, side, **kw):
        super().__init__(name=name, **kw)
        self.app = app
        root = BoxLayout(orientation="vertical", padding=6, spacing=6)
        backdrop(root)
        root.add_widget(wrapped(Label(text=instruction, font_size="16sp", halign="center", valign="middle",
                                      size_hint_y=None, height=dp(52))))
        middle = BoxLayout(spacing=8)
        self.picker = CornerPicker(size_hint_x=0.68)
        self.picker.on_change = lambda p: self._changed()
        middle.add_widget(self.picker)
        column = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.32)
        self.side_buttons = [pressed(small_button(text), cb) for text, cb in side]
        for b in self.side_buttons:
            column.add_widget(b)
        self.status = wrapped(Label(text="", font_size="16sp", halign="center", valign="middle"))
        column.add_widget(self.status)
        middle.add_widget(column)
        root.add_widget(middle)
        cancel = pressed(big_button(_("Cancel"), GREY, font_size="18sp"), app.close_calibration)
        self.save_btn = pressed(big_button(_("Save"), GREEN, font_size="18sp"), self.save)
        root.add_widget(button_bar([cancel, self.save_btn], height=dp(56)))
        self.add_widget(root)

    def open(self, frame, corners=()):
        """Show ``frame`` (``H×W×3 uint8 BGR``) with the stored ``corners`` (frame pixels)."""
        self.status.text = ""
        self.picker.show_still(frame, corners)

    def _changed(self):
        pass

    def save(self):
        raise NotImplementedError


class CalibrationScreen(StillScreen):
    """The rolling area: a still picture of the tray on which the players touch
    its corners (or let the tray be found); Save stores the area and the dice
    size, and from then on only the area is read. Opened from the settings."""

    def __init__(self, app, **kw):
        super().__init__(app, name="calibrate", instruction=_(
            "Touch the corners of the dice tray (points around its rim for a round tray). "
            "A few dice lying apart in the tray give their size."),
            side=[(_("Find the tray"), lambda: self.find()),
                  (_("Clear the corners"), lambda: self.picker.set_corners(())),
                  (_("New picture"), app.open_calibration)], **kw)
        self.find_btn, self.clear_btn, self.new_btn = self.side_buttons

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
