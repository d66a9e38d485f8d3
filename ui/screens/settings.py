"""The settings screen (behind the PIN): camera, pins, language, sound, odds, PIN."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.spinner import Spinner, SpinnerOption
from kivy.uix.togglebutton import ToggleButton

from companion.i18n import LANGUAGES, _
from companion.settings import uses_default_pin
from companion.stats import stale_games

from .common import BCM_PINS, BLUE, GREEN, GREY, RED, RESOLUTIONS, backdrop, big_button, button_bar, hold, pressed, wrapped

__all__ = ["SettingsScreen", "NumberField"]


class _Option(SpinnerOption):
    """A drop-down's choice, opaque (the settings behind do not show through)."""

    def __init__(self, **kw):
        super().__init__(background_normal="", background_color=(0.24, 0.28, 0.34, 1), font_size="18sp", **kw)


class NumberField(Button):
    """A number in the settings, typed on the screen's own digits
    (:class:`ui.screens.dialogs.NumberPad`): a tap opens the pad; no keyboard
    needed. ``secret``: shows dots (the PIN); ``empty``: the words while blank."""

    def __init__(self, title, value="", *, secret=False, decimal=False, longest=8, empty="", **kw):
        super().__init__(font_size="20sp", **kw)
        self.title, self.secret, self.decimal, self.longest, self.empty = title, secret, decimal, longest, empty
        self.value = str(value)
        self._show()
        pressed(self, self.open_pad)

    def _show(self):
        self.text = ("\u25cf" * len(self.value) if self.secret else self.value) or self.empty

    def open_pad(self):
        from .dialogs import NumberPad

        self.pad = NumberPad(self.title, self._take, secret=self.secret, decimal=self.decimal,
                             longest=self.longest, text="" if self.secret else self.value)
        self.pad.open()

    def _take(self, text: str) -> bool:
        self.value = text
        self._show()
        return True


class SettingsScreen(Screen):
    """Camera, GPIO pins, language, sound, odds, Fenn's rulings (F7, F12, F1) and the PIN (behind the PIN)."""

    def __init__(self, app, **kw):
        super().__init__(name="settings", **kw)
        self.app = app
        root = BoxLayout(orientation="vertical", padding=8, spacing=6)
        backdrop(root)
        root.add_widget(Label(text=_("Settings"), font_size="24sp", bold=True, size_hint_y=None, height=dp(40)))
        scroll = self.scroll = ScrollView(do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"])
        grid = GridLayout(cols=2, spacing=6, size_hint_y=None, row_default_height=dp(52), row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        cfg = app.cfg
        self.fields = {}

        def row(label, widget, key=None):
            grid.add_widget(wrapped(Label(text=label, font_size="17sp", halign="right", valign="middle")))
            grid.add_widget(widget)
            if key:
                self.fields[key] = widget

        def spinner(value, values):
            sp = Spinner(text=str(value), values=list(values), font_size="18sp", option_cls=_Option)
            sp.bind(is_open=lambda *_: hold())  # its choices open under the finger: a double tap picks none
            return sp

        row(_("Camera"), spinner(cfg["camera"]["source"], ("auto", "pi", "usb", "replay", "mock")), "source")
        res = f'{cfg["camera"].get("width", 1640)}x{cfg["camera"].get("height", 1232)}'
        row(_("Resolution"), spinner(res, RESOLUTIONS if res in RESOLUTIONS else RESOLUTIONS + (res,)), "res")
        g = cfg["gpio"]
        row(_("STOP button pin (BCM)"), spinner(g["stop_pin"], BCM_PINS[1:]), "stop_pin")
        row(_("CONTINUE button pin (BCM)"), spinner(g["continue_pin"], BCM_PINS[1:]), "continue_pin")
        row(_("STOP light pin (0: none)"), spinner(g["stop_led"], BCM_PINS), "stop_led")
        row(_("CONTINUE light pin (0: none)"), spinner(g["continue_led"], BCM_PINS), "continue_led")
        row(_("Buzzer pin (0: none)"), spinner(g["buzzer"], BCM_PINS), "buzzer")
        row(_("Language"), spinner(LANGUAGES[cfg["app"]["language"]], LANGUAGES.values()), "language")
        for key, label in (("sound", _("Sound")), ("odds", _("Show the odds"))):
            t = ToggleButton(font_size="18sp", state="down" if cfg["app"][key] else "normal")
            t.bind(state=lambda w, s: setattr(w, "text", _("On") if s == "down" else _("Off")))
            t.text = _("On") if t.state == "down" else _("Off")
            row(label, t, key)
        fenn = cfg.get("fenn", {"faces": "any", "stuck": "pass", "dice": "miwin"})
        self.fenn_choices = {
            "faces": {"any": _("any other face"), "tip": _("tipped over an edge")},
            "stuck": {"pass": _("passes"), "lose": _("loses")},
            "dice": {"miwin": _("blue III: 1 2 5 6 7 9"), "wikipedia": _("blue IV: 1 3 4 5 8 9")},
        }
        for key, label in (("faces", _("Fenn: a step turns up")), ("stuck", _("Fenn: a player who cannot step")),
                           ("dice", _("Fenn: the dice"))):
            words = self.fenn_choices[key]
            row(label, spinner(words[fenn[key]], words.values()), "fenn_" + key)
        a = cfg["app"]
        row(_("Wait after a press (s)"), NumberField(_("Wait after a press (s)"), a["guard"], decimal=True,
                                                       longest=4), "guard")
        row(_("Longest name (1-24)"), NumberField(_("Longest name (1-24)"), a["name_length"], longest=2),
            "name_length")
        row(_("Offer to end games older than (days)"),
            NumberField(_("Offer to end games older than (days)"), f"{a['stale_days']:g}", decimal=True, longest=5),
            "stale_days")
        row(_("New PIN (4-8 digits)"), NumberField(_("New PIN (4-8 digits)"), secret=True, empty=_("unchanged")), "pin")
        self._stale_row(row, app)
        scroll.add_widget(grid)
        root.add_widget(scroll)
        self.error = Label(text="", color=(1, 0.55, 0.45, 1), font_size="16sp", size_hint_y=None, height=dp(26))
        if uses_default_pin(cfg):
            self.error.text = _("The PIN is still 1234: set a new one below.")
        root.add_widget(self.error)
        cancel = pressed(big_button(_("Cancel"), GREY, font_size="18sp"), app.close_settings)
        calibrate = pressed(big_button(_("Dice tray…"), BLUE, font_size="18sp"), app.open_calibration)
        board = pressed(big_button(_("Fenn board…"), BLUE, font_size="18sp"), lambda: app.open_calibration("board"))
        check = pressed(big_button(_("Table check…"), BLUE, font_size="18sp"), app.open_table_check)
        save = pressed(big_button(_("Save"), GREEN, font_size="18sp"), self.save)
        root.add_widget(button_bar([cancel, calibrate, board, check, save], height=dp(56)))
        self.add_widget(root)

    def _stale_row(self, row, app):
        """Games unfinished for longer than ``app.stale_days``: offered for ending in one tap (never silently)."""
        old = stale_games(app.session.store, app.cfg["app"]["stale_days"])
        old = [g for g in old if g.id != app.session.game_id]  # the game at the table is ended by playing it
        self.stale = old
        if not old:
            return
        from companion.i18n import ngettext

        # (right below the row of the days: "longer" is longer than those)
        words = ngettext("{n} game left unfinished for longer", "{n} games left unfinished for longer",
                         len(old)).format(n=len(old))
        self.stale_btn = pressed(big_button(_("End them"), RED, font_size="18sp"), self.end_stale)
        row(words, self.stale_btn)

    def end_stale(self):
        """End the stale games offered (without a winner), at the tap on "End them"."""
        for g in self.stale:
            self.app.session.end_unfinished(g.id)
        self.error.text = _ended_text(len(self.stale))
        self.stale = []
        self.stale_btn.disabled = True
        self.app.start_screen.refresh()

    def values(self) -> dict:
        """The settings as entered: ``{"camera": …, "gpio": …, "app": …, "fenn": …}`` plus ``"pin"`` ('' = unchanged)."""
        f = self.fields
        w, h = (int(v) for v in f["res"].text.split("x"))
        lang = next(c for c, n in LANGUAGES.items() if n == f["language"].text)
        return {
            "camera": {"source": f["source"].text, "width": w, "height": h},
            "gpio": {k: int(f[k].text) for k in ("stop_pin", "continue_pin", "stop_led", "continue_led", "buzzer")},
            "app": {"language": lang, "sound": f["sound"].state == "down", "odds": f["odds"].state == "down",
                    **_numbers(f)},
            "fenn": {k: next(c for c, word in words.items() if word == f["fenn_" + k].text)
                     for k, words in self.fenn_choices.items()},
            "pin": f["pin"].value.strip(),
        }

    def save(self):
        err = self.app.save_settings(self.values())
        self.error.text = err or ""


def _numbers(f) -> dict:
    """The number fields as numbers; a field left blank or unreadable keeps its value out (unchanged)."""
    out = {}
    for key, kind in (("guard", float), ("name_length", int), ("stale_days", float)):
        try:
            out[key] = kind(f[key].value)
        except ValueError:
            pass
    return out


def _ended_text(n: int) -> str:
    from companion.i18n import ngettext

    return ngettext("{n} old game ended.", "{n} old games ended.", n).format(n=n)
