"""The "Table check" screen (behind the PIN, from the settings): the checks of
``companion doctor`` (:mod:`companion.doctor`), one line each, ✔ fine, ✖ with
what to do, ○ a part this table does not have."""

from __future__ import annotations

import threading

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from companion.i18n import _

from ..widgets import SYMBOL_FONT
from .common import BLUE, GREY, backdrop, big_button, button_bar, pressed

__all__ = ["TableCheckScreen"]

#: Each mark's colour (RGBA): green, red, grey.
COLOURS = {"ok": (0.45, 0.85, 0.5, 1), "fail": (1, 0.5, 0.42, 1), "absent": (0.7, 0.72, 0.75, 1)}


class TableCheckScreen(Screen):
    """The checks, run on a background thread with the app's own camera, pins and
    window (so nothing the game holds is claimed twice); "Run again" and "Test
    lights and sound" (the LEDs, the buzzer and the speaker pulsed once)."""

    def __init__(self, app, **kw):
        super().__init__(name="table_check", **kw)
        self.app = app
        self.checks = []
        root = BoxLayout(orientation="vertical", padding=8, spacing=6)
        backdrop(root)
        root.add_widget(Label(text=_("Table check"), font_size="24sp", bold=True, size_hint_y=None, height=dp(40)))
        self.lines = BoxLayout(orientation="vertical", spacing=4, size_hint_y=None)
        self.lines.bind(minimum_height=self.lines.setter("height"))
        scroll = ScrollView(do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"])
        scroll.add_widget(self.lines)
        root.add_widget(scroll)
        self.status = Label(text="", font_size="16sp", size_hint_y=None, height=dp(26))
        root.add_widget(self.status)
        back = pressed(big_button(_("Back"), GREY, font_size="18sp"), app.close_calibration)
        again = pressed(big_button(_("Run again"), BLUE, font_size="18sp"), lambda: self.run())
        pulse = pressed(big_button(_("Test lights and sound"), BLUE, font_size="18sp"), lambda: self.run(pulse=True))
        root.add_widget(button_bar([back, again, pulse], height=dp(56)))
        self.add_widget(root)

    def run(self, *, pulse: bool = False) -> None:
        """Run the checks on a background thread; the lines appear when done."""
        from kivy.core.window import Window

        from companion.doctor import run_checks

        self.status.text = _("Checking…")
        app = self.app

        def work():
            try:
                checks = run_checks(app.cfg, pulse=pulse, camera=app.camera, devices=app.devices, window=Window)
            except Exception as e:  # a check that breaks must not take the app with it
                checks, error = [], str(e)
            else:
                error = ""
            Clock.schedule_once(lambda dt: self.show(checks, error))

        threading.Thread(target=work, name="table-check", daemon=True).start()

    def show(self, checks, error: str = "") -> None:
        """Show ``checks`` (:class:`companion.doctor.Check`), one line each."""
        from companion.doctor import exit_code

        self.checks = list(checks)
        self.lines.clear_widgets()
        for c in self.checks:
            text = f"{c.mark.symbol}  [b]{c.title}[/b]: {c.said}" + (f"\n     → {c.todo}" if c.todo else "")
            line = Label(text=text, markup=True, font_size="15sp", halign="left", valign="top",
                         font_name=SYMBOL_FONT, color=COLOURS[c.mark.value], size_hint_y=None)
            line.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                      texture_size=lambda w, s: setattr(w, "height", s[1] + dp(4)))
            self.lines.add_widget(line)
        failed = sum(c.mark.value == "fail" for c in self.checks)
        if error:
            self.status.text = _("The check stopped: {error}").format(error=error)
        elif exit_code(self.checks):
            self.status.text = _("{n} to put right").format(n=failed)
        else:
            self.status.text = _("All is well.")
