"""The dialogs: the undo question, the settings PIN pad and the game menu."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.i18n import _

from ..widgets import (
    SYMBOL_FONT,
)
from .common import BLUE, GREY, RED, TOUCH, big_button, button_bar, pressed, small_button, wrapped

__all__ = ["UndoDialog", "PinDialog", "MenuDialog", "ResumeDialog"]


class UndoDialog(ModalView):
    """"Undo Tim's throw 6 4 2 1 1?" with Cancel (STOP) and Undo (CONTINUE)."""

    def __init__(self, app, question: str, **kw):
        super().__init__(size_hint=(0.8, None), height=dp(220), auto_dismiss=False, **kw)
        self.app = app
        box = BoxLayout(orientation="vertical", padding=12, spacing=10)
        self.question = wrapped(Label(text=question, font_size="20sp", halign="center", valign="middle"))
        box.add_widget(self.question)
        self.cancel_btn = pressed(big_button(_("Keep it") + " (" + _("STOP") + ")", GREY, font_size="18sp"), self.dismiss)
        self.confirm_btn = pressed(big_button(_("Undo") + " (" + _("CONTINUE") + ")", RED, font_size="18sp"), app.confirm_undo)
        box.add_widget(button_bar([self.cancel_btn, self.confirm_btn], height=dp(60)))
        self.add_widget(box)


class PinDialog(ModalView):
    """A PIN pad; ``on_ok(pin)`` returns True when the PIN opens the settings;
    ``wait()`` the seconds before the next try is taken (after wrong PINs)."""

    def __init__(self, on_ok, wait=lambda: 0.0, **kw):
        super().__init__(size_hint=(None, 0.96), width=dp(340), auto_dismiss=False, **kw)
        self.on_ok = on_ok
        self.wait = wait
        box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        self.label = Label(text=_("Settings PIN"), font_size="18sp", size_hint_y=None, height=dp(30))
        self.shown = Label(text="", font_size="26sp", size_hint_y=None, height=dp(36), font_name=SYMBOL_FONT)
        box.add_widget(self.label)
        box.add_widget(self.shown)
        pad = GridLayout(cols=3, spacing=6)
        self.entered = ""
        keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "\u232b", "0", "OK"]
        self.keys = {}
        for k in keys:
            b = Button(text=k, font_size="24sp", font_name=SYMBOL_FONT)
            pressed(b, lambda k=k: self.key(k))
            self.keys[k] = b
            pad.add_widget(b)
        box.add_widget(pad)
        box.add_widget(pressed(small_button(_("Cancel")), self.dismiss))
        self.add_widget(box)

    def key(self, k: str):
        if k == "OK":
            if self.on_ok(self.entered):
                self.dismiss(animation=False)
                return
            self.entered = ""
            wait = self.wait()
            if wait > 0:
                self.label.text = _("Too many wrong PINs: wait {seconds} s.").format(seconds=round(wait))
            else:
                self.label.text = _("Wrong PIN. Try again.")
        elif k == "\u232b":
            self.entered = self.entered[:-1]
        elif len(self.entered) < 8:
            self.entered += k
        self.shown.text = "\u25cf " * len(self.entered)


class MenuDialog(ModalView):
    """The game menu: new game, settings, back."""

    def __init__(self, app, **kw):
        super().__init__(size_hint=(0.5, None), height=dp(3) * (TOUCH + 16) + 24, **kw)
        box = BoxLayout(orientation="vertical", padding=8, spacing=8)
        for text, cb in ((_("New game"), app.show_start), (_("Settings"), app.open_settings),
                         (_("Back to the game"), lambda: None)):
            box.add_widget(pressed(small_button(text, height=TOUCH + dp(8), font_size="18sp"),
                                   lambda cb=cb: (self.dismiss(), cb())))
        self.add_widget(box)


class ResumeDialog(ModalView):
    """The unfinished games, newest first: Resume one, or End one (asked first).

    ``games``: :class:`companion.storage.StoredGame` rows; ``on_resume(id)``
    and ``on_end(id)`` do it. Offered at once after a restart, and by the
    start screen's Resume when more than one game is unfinished.
    """

    def __init__(self, games, on_resume, on_end, **kw):
        super().__init__(size_hint=(0.94, 0.94), **kw)
        self.on_resume, self.on_end = on_resume, on_end
        box = BoxLayout(orientation="vertical", padding=10, spacing=8)
        box.add_widget(Label(text=_("Unfinished games"), font_size="22sp", bold=True, size_hint_y=None,
                             height=dp(36)))
        self.rows = BoxLayout(orientation="vertical", spacing=6)
        box.add_widget(self.rows)
        self.games = list(games)[:4]
        self._fill()
        box.add_widget(pressed(small_button(_("New game"), height=TOUCH + dp(8), font_size="18sp"), self.dismiss))
        self.add_widget(box)

    def _fill(self, asking: int | None = None):
        import time

        self.rows.clear_widgets()
        for g in self.games:
            row = BoxLayout(spacing=6, size_hint_y=None, height=TOUCH + dp(8))
            when = time.strftime("%d.%m. %H:%M", time.localtime(g.started))
            if g.id == asking:
                text = _("End the game of {names} without a winner?").format(names=", ".join(g.players))
                row.add_widget(wrapped(Label(text=text, font_size="16sp", halign="left", valign="middle")))
                row.add_widget(pressed(big_button(_("End it"), RED, font_size="17sp", size_hint_x=0.25),
                                       lambda gid=g.id: self._end(gid)))
                row.add_widget(pressed(big_button(_("Keep it"), GREY, font_size="17sp", size_hint_x=0.25),
                                       self._fill))
            else:
                text = f"{', '.join(g.players)}  ·  {when}"
                row.add_widget(wrapped(Label(text=text, font_size="17sp", halign="left", valign="middle",
                                             shorten=True)))
                row.add_widget(pressed(big_button(_("Resume"), BLUE, font_size="17sp", size_hint_x=0.25),
                                       lambda gid=g.id: self._resume(gid)))
                row.add_widget(pressed(small_button(_("End…"), size_hint_x=0.18, size_hint_y=1),
                                       lambda gid=g.id: self._fill(gid)))
            self.rows.add_widget(row)
        self.rows.add_widget(Label())

    def _resume(self, gid: int):
        self.dismiss()
        self.on_resume(gid)

    def _end(self, gid: int):
        self.on_end(gid)
        self.games = [g for g in self.games if g.id != gid]
        if self.games:
            self._fill()
        else:
            self.dismiss()
