"""The app's screens and dialogs (Kivy): start, game, correction, end, settings,
the undo question, the settings PIN pad and the game menu.

Each screen gets the app and reads the game through ``app.session``; every
word on it goes through :func:`companion.i18n._`, so rebuilding the screens
after a language change translates them. Touch targets are at least 48 px
high at 800×480 (the official 7" display); layouts stretch to 1024×600 and
1280×720.
"""

from __future__ import annotations

from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.spinner import Spinner
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from companion.durchmarsch import form_target
from companion.i18n import LANGUAGES, _, ngettext
from companion.odds import chance
from companion.prompts import outcome_text, prompt
from companion.stats import game_stats

from .widgets import (
    SYMBOL_FONT,
    CameraView,
    CornerPicker,
    DieButton,
    RiskMeter,
    SheetView,
)

__all__ = ["StartScreen", "GameScreen", "CorrectionScreen", "EndScreen", "SettingsScreen", "CalibrationScreen",
           "UndoDialog", "PinDialog", "MenuDialog", "TOUCH", "BG"]

#: Minimum height of anything a finger presses, px at 800×480.
TOUCH = dp(48)
BG = (0.13, 0.16, 0.2, 1)
GREEN, BLUE, RED, GREY = (0.2, 0.6, 0.3, 1), (0.3, 0.45, 0.7, 1), (0.75, 0.2, 0.15, 1), (0.35, 0.38, 0.42, 1)
RESOLUTIONS = ("640x480", "1280x720", "1640x1232", "1920x1080", "2304x1296")
BCM_PINS = tuple(str(p) for p in range(0, 28))


def big_button(text, colour, **kw):
    """A large flat button (bold, 22sp)."""
    kw.setdefault("font_size", "22sp")
    return Button(text=text, bold=True, background_normal="", background_color=colour, **kw)


def small_button(text, **kw):
    """A plain button at least :data:`TOUCH` px high."""
    kw.setdefault("font_size", "16sp")
    kw.setdefault("size_hint_y", None)
    kw.setdefault("height", TOUCH)
    return Button(text=text, halign="center", **kw)


def backdrop(widget, rgba=BG):
    """Paint ``widget``'s background."""
    with widget.canvas.before:
        Color(*rgba)
        rect = Rectangle(pos=widget.pos, size=widget.size)
    widget.bind(pos=lambda w, p: setattr(rect, "pos", p), size=lambda w, s: setattr(rect, "size", s))


def wrapped(label):
    """Let ``label`` wrap its text inside its own size."""
    label.bind(size=lambda w, s: setattr(w, "text_size", s))
    return label


def button_bar(buttons, height=None, spacing=8):
    """A row of buttons of one height."""
    bar = BoxLayout(size_hint_y=None, height=TOUCH + dp(12) if height is None else height, spacing=spacing)
    for b in buttons:
        bar.add_widget(b)
    return bar


def pressed(button, callback):
    """Call ``callback()`` when ``button`` is released; returns the button."""
    button.bind(on_release=lambda *_: callback())
    return button


class StartScreen(Screen):
    """Language, 2-4 players in seating order (recent names offered), the first
    roller chosen or drawn, and Resume when an unfinished game exists."""

    def __init__(self, app, names=(), **kw):
        super().__init__(name="start", **kw)
        self.app = app
        root = BoxLayout(orientation="vertical", padding=8, spacing=6)
        backdrop(root)
        top = BoxLayout(size_hint_y=None, height=dp(52), spacing=6)
        top.add_widget(Label(text="Durchmarsch", font_size="28sp", bold=True, size_hint_x=None, width=dp(210)))
        self.lang_buttons = {}
        for code, name in LANGUAGES.items():
            b = ToggleButton(text=name, group="lang", allow_no_selection=False, font_size="15sp",
                             state="down" if code == app.language else "normal")
            pressed(b, lambda c=code: app.set_language(c))
            self.lang_buttons[code] = b
            top.add_widget(b)
        self.settings_btn = pressed(Button(text="\u2699", font_name=SYMBOL_FONT, font_size="26sp",
                                           size_hint_x=None, width=dp(56)), app.open_settings)
        top.add_widget(self.settings_btn)
        root.add_widget(top)
        self.recent_box = BoxLayout(size_hint_y=None, height=TOUCH, spacing=6)
        root.add_widget(self.recent_box)
        self.inputs, self.first_buttons, self.up_buttons = [], [], []
        for i in range(4):
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=6)
            row.add_widget(Label(text=f"{i + 1}.", font_size="20sp", size_hint_x=None, width=dp(30)))
            t = TextInput(hint_text=_("Player {n}").format(n=i + 1), multiline=False, font_size="22sp",
                          write_tab=False, text=names[i] if i < len(names) else "")
            t.bind(text=lambda *_: self.refresh_recent())
            self.inputs.append(t)
            row.add_widget(t)
            up = Button(text="\u25b2", font_name=SYMBOL_FONT, font_size="20sp", size_hint_x=None, width=dp(56),
                        disabled=i == 0)
            pressed(up, lambda k=i: self.move_up(k))
            self.up_buttons.append(up)
            row.add_widget(up)
            f = ToggleButton(text=_("Starts"), group="first", font_size="16sp", size_hint_x=None, width=dp(120))
            f.bind(state=lambda *_: self.refresh_first())
            self.first_buttons.append(f)
            row.add_widget(f)
            root.add_widget(row)
        self.first_label = Label(text="", font_size="16sp", size_hint_y=None, height=dp(26))
        root.add_widget(self.first_label)
        self.error = Label(text="", color=(1, 0.55, 0.45, 1), font_size="16sp", size_hint_y=None, height=dp(26))
        root.add_widget(self.error)
        root.add_widget(Widget())
        self.resume_btn = pressed(big_button(_("Resume game"), BLUE), app.resume)
        self.start_btn = pressed(big_button(_("Start"), GREEN), self.start)
        root.add_widget(button_bar([self.resume_btn, self.start_btn]))
        self.add_widget(root)
        self.refresh()

    def names(self) -> list[str]:
        """The names typed, in seating order (blank fields skipped)."""
        return [t.text.strip() for t in self.inputs if t.text.strip()]

    def refresh(self):
        """Offer Resume only when an unfinished game exists; offer recent names."""
        self.resume_btn.disabled = self.app.session.store.unfinished() is None
        if not any(t.text.strip() for t in self.inputs):
            for t, n in zip(self.inputs, self.app.session.store.recent_players(4)):
                t.text = n
        self.refresh_recent()
        self.refresh_first()

    def refresh_recent(self):
        """Buttons for recent names not typed yet; a tap fills the first empty field."""
        self.recent_box.clear_widgets()
        typed = set(self.names())
        recent = [n for n in self.app.session.store.recent_players(10) if n not in typed][:4]
        if not recent:
            return
        self.recent_box.add_widget(Label(text=_("Recent:"), font_size="15sp", size_hint_x=None, width=dp(80)))
        for n in recent:
            self.recent_box.add_widget(pressed(Button(text=n, font_size="16sp", shorten=True),
                                               lambda n=n: self.add_name(n)))

    def add_name(self, name: str):
        for t in self.inputs:
            if not t.text.strip():
                t.text = name
                return
        self.error.text = _("Four players at most.")

    def move_up(self, i: int):
        """Swap seat ``i`` with the seat before it (and who starts with it)."""
        a, b = self.inputs[i - 1], self.inputs[i]
        a.text, b.text = b.text, a.text
        fa, fb = self.first_buttons[i - 1], self.first_buttons[i]
        fa.state, fb.state = fb.state, fa.state

    def first_choice(self) -> int | None:
        """The seat (index among the names typed) chosen to start, or None to draw."""
        seat = 0
        for t, f in zip(self.inputs, self.first_buttons):
            if not t.text.strip():
                continue
            if f.state == "down":
                return seat
            seat += 1
        return None

    def refresh_first(self):
        k = self.first_choice()
        names = self.names()
        self.first_label.text = (_("First roller: {name}").format(name=names[k]) if k is not None
                                 else _("First roller: drawn at random"))

    def start(self):
        try:
            self.app.session.start(self.names(), first=self.first_choice())
        except ValueError as e:
            self.error.text = _("Enter 2 to 4 players.") if "player" in str(e).lower() else str(e)
            return
        self.error.text = ""


class GameScreen(Screen):
    """Every sheet at once (the roller's emphasised), the live picture with the
    dice read, the risk meter, what to do now, and the buttons."""

    def __init__(self, app, **kw):
        super().__init__(name="game", **kw)
        self.app = app
        root = BoxLayout(orientation="horizontal", padding=6, spacing=6)
        backdrop(root)
        left = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.42)
        self.camera_view = CameraView()
        left.add_widget(self.camera_view)
        self.meter = RiskMeter(size_hint_y=None, height=dp(40))
        left.add_widget(self.meter)
        self.prompt = wrapped(Label(text="", font_size="16sp", bold=True, halign="center", valign="middle",
                                    size_hint_y=None, height=dp(84)))
        left.add_widget(self.prompt)
        self.throw_btn = pressed(big_button(_("THROW") if app.demo else _("READ"), BLUE), app.request_throw)
        self.stop_btn = pressed(big_button(_("STOP"), RED), lambda: app.action("stop"))
        self.continue_btn = pressed(big_button(_("CONTINUE"), GREEN), lambda: app.action("continue"))
        self.bar = button_bar([], height=dp(64), spacing=6)
        left.add_widget(self.bar)
        self.wrong_btn = pressed(small_button(_("Wrong?")), lambda: app.action("wrong"))
        self.undo_btn = pressed(small_button(_("Undo")), lambda: app.action("undo"))
        self.menu_btn = pressed(small_button(_("Menu")), app.open_menu)
        left.add_widget(button_bar([self.wrong_btn, self.undo_btn, self.menu_btn], height=TOUCH, spacing=6))
        root.add_widget(left)
        self.sheets_box = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.58)
        root.add_widget(self.sheets_box)
        self.add_widget(root)
        self.sheet_views: list[SheetView] = []
        self._bar_mode = None

    def setup(self, game):
        self.sheets_box.clear_widgets()
        self.sheet_views = [SheetView() for _p in game.players]
        for v in self.sheet_views:
            self.sheets_box.add_widget(v)

    def _set_bar(self, decision: bool):
        if self._bar_mode == decision:
            return
        self._bar_mode = decision
        self.bar.clear_widgets()
        for b in ((self.stop_btn, self.continue_btn) if decision else (self.throw_btn,)):
            self.bar.add_widget(b)

    def refresh(self, game, message: str = ""):
        if len(self.sheet_views) != len(game.players):
            self.setup(game)
        for i, (v, s) in enumerate(zip(self.sheet_views, game.sheets)):
            v.show(s, roller=i == game.current_player, playing=i == game.current_player, out_word=_("OUT"))
        due = game.decision_due
        self._set_bar(due)
        self.stop_btn.disabled = self.continue_btn.disabled = not due
        self.throw_btn.disabled = due or game.is_over or self.app.reading
        self.undo_btn.disabled = not game.events
        self.wrong_btn.disabled = not self.app.can_correct()
        self.prompt.text = (message + "\n" if message else "") + prompt(game)
        self.show_odds(game)

    def show_odds(self, game):
        """The risk meter: the chance of the throw due, or while a decision is
        due, of the throw that continuing would bring."""
        if not self.app.cfg["app"]["odds"] or game.is_over:
            self.meter.show(None)
            return
        n, t = game.dice_to_throw, game.target
        p = float(chance(t, n))
        if game.decision_due:
            words = _("If you continue: {target} with {n} dice").format(target=t, n=n)
        else:
            words = _("Chance of {target} with {n} dice").format(target=t, n=n)
        self.meter.show(p, words)


class CorrectionScreen(Screen):
    """The throw with its dice: tap a die, then its value; add a missed die,
    remove a phantom one; confirm. Opened when the reader is unsure (the throw
    is not scored yet) or when a player taps "Wrong?" (the last throw is
    replaced by the corrected one)."""

    def __init__(self, app, **kw):
        super().__init__(name="correction", **kw)
        self.app = app
        self.values: list[int] = []
        self.selected: int | None = None
        self.mode = "ask"
        root = BoxLayout(orientation="vertical", padding=6, spacing=6)
        backdrop(root)
        self.title = wrapped(Label(text="", font_size="17sp", bold=True, halign="center", valign="middle",
                                   size_hint_y=None, height=dp(52)))
        root.add_widget(self.title)
        middle = BoxLayout(spacing=8)
        self.picture = CameraView(size_hint_x=0.42)
        middle.add_widget(self.picture)
        right = BoxLayout(orientation="vertical", spacing=6)
        self.dice_grid = GridLayout(cols=5, spacing=4, size_hint_y=0.5)
        right.add_widget(self.dice_grid)
        right.add_widget(Label(text=_("Value of the die:"), font_size="15sp", size_hint_y=None, height=dp(22)))
        pad = GridLayout(cols=6, spacing=4, size_hint_y=None, height=dp(56))
        self.value_buttons = []
        for v in range(1, 7):
            b = DieButton(value=v)
            pressed(b, lambda v=v: self.set_value(v))
            self.value_buttons.append(b)
            pad.add_widget(b)
        right.add_widget(pad)
        self.add_btn = pressed(small_button(_("Add a die")), self.add_die)
        self.remove_btn = pressed(small_button(_("Remove die")), self.remove_die)
        right.add_widget(button_bar([self.add_btn, self.remove_btn], height=TOUCH, spacing=6))
        self.preview = wrapped(Label(text="", font_size="16sp", halign="center", valign="middle",
                                     size_hint_y=None, height=dp(44)))
        right.add_widget(self.preview)
        middle.add_widget(right)
        root.add_widget(middle)
        self.cancel_btn = pressed(big_button(_("Cancel"), GREY, font_size="18sp"), app.close_correction)
        self.again_btn = pressed(big_button(_("Read again"), BLUE, font_size="18sp"), app.read_again)
        self.confirm_btn = pressed(big_button(_("Confirm"), GREEN, font_size="18sp"), self.confirm)
        root.add_widget(button_bar([self.cancel_btn, self.again_btn, self.confirm_btn], height=dp(56)))
        self.add_widget(root)

    def open(self, values, frame, *, mode: str, due: int, dice=(), why: str | None = None):
        """Show ``values`` (the dice read, in picture order) over ``frame``
        (``H×W×3 uint8 BGR`` or None); ``mode`` is ``"ask"`` or ``"wrong"``;
        ``due``: the dice count thrown; ``why``: what the reader was unsure of."""
        from vision.reader import annotate

        self.mode, self.due = mode, due
        self.values = [int(v) for v in values]
        self.selected = None
        self.again_btn.disabled = mode != "ask"
        if frame is not None:
            self.picture.show_frame(annotate(frame, list(dice), confidence=False) if dice else frame)
        self.title.text = (why or _("Not sure of this throw.")) if mode == "ask" else \
            _("Correct the throw. Tap a die, then its value.")
        self.redraw()

    def redraw(self):
        self.dice_grid.clear_widgets()
        for i, v in enumerate(self.values):
            d = DieButton(value=v, selected=i == self.selected)
            pressed(d, lambda i=i: self.select(i))
            self.dice_grid.add_widget(d)
        self.remove_btn.disabled = self.selected is None
        self.add_btn.disabled = len(self.values) >= 8
        for b in self.value_buttons:
            b.disabled = self.selected is None
        game = self.app.session.game
        n = len(self.values)
        if n != self.due:
            self.preview.text = _("{due} dice were thrown; {n} are shown.").format(due=self.due, n=n)
            self.confirm_btn.disabled = True
            return
        self.confirm_btn.disabled = False
        target = game.target if self.mode == "ask" else game.last_result.target
        self.preview.text = outcome_text(self.values, form_target(self.values, target), target)

    def select(self, i: int):
        self.selected = None if self.selected == i else i
        self.redraw()

    def set_value(self, v: int):
        if self.selected is not None:
            self.values[self.selected] = v
            self.redraw()

    def add_die(self):
        self.values.append(1)
        self.selected = len(self.values) - 1
        self.redraw()

    def remove_die(self):
        if self.selected is not None:
            del self.values[self.selected]
            self.selected = None
            self.redraw()

    def confirm(self):
        self.app.confirm_correction(list(self.values))


class EndScreen(Screen):
    """The winner, how the game went per player, and Revanche."""

    def __init__(self, app, **kw):
        super().__init__(name="end", **kw)
        self.app = app
        root = BoxLayout(orientation="vertical", padding=12, spacing=8)
        backdrop(root)
        self.title = Label(text="", font_size="36sp", bold=True, size_hint_y=None, height=dp(56))
        self.detail = wrapped(Label(text="", font_size="18sp", halign="center", valign="middle",
                                    size_hint_y=None, height=dp(36)))
        root.add_widget(self.title)
        root.add_widget(self.detail)
        self.table = GridLayout(cols=6, spacing=2)
        root.add_widget(self.table)
        undo = pressed(small_button(_("Undo last throw"), size_hint_y=1, font_size="17sp"),
                       lambda: app.action("undo"))
        new = pressed(big_button(_("New players"), BLUE, font_size="20sp"), app.show_start)
        again = pressed(big_button(_("Revanche"), GREEN), app.rematch)
        root.add_widget(button_bar([undo, new, again], height=dp(60)))
        self.add_widget(root)

    def show(self, game):
        self.title.text = _("{name} wins!").format(name=game.winner)
        n = game.turn_number
        if game.outcome().reason == "row":
            how = ngettext("{name} completed a row in the first turn.",
                           "{name} completed a row after {turns} turns.", n)
        else:
            how = ngettext("{name} is the last player left after {turns} turn.",
                           "{name} is the last player left after {turns} turns.", n)
        self.detail.text = how.format(name=game.winner, turns=n)
        self.table.clear_widgets()
        heads = (_("Player"), _("Turns"), _("Marks"), _("Misthrows"), _("Rows struck"), _("Best turn"))
        for h in heads:
            self.table.add_widget(wrapped(Label(text=h, bold=True, font_size="15sp", halign="center",
                                                valign="middle", color=(0.75, 0.8, 0.9, 1))))
        for s in game_stats(game):
            win = s.name == game.winner
            name = ("\u2605 " if win else "") + s.name + ("  \u2715" if s.eliminated else "")
            cells = (name, s.turns, s.marks, s.misthrows, s.rows_struck, s.best_turn)
            for c in cells:
                self.table.add_widget(Label(text=str(c), font_size="20sp", bold=win, font_name=SYMBOL_FONT,
                                            shorten=True, color=(1, 0.85, 0.4, 1) if win else (1, 1, 1, 1)))


class SettingsScreen(Screen):
    """Camera, GPIO pins, language, sound, odds and the PIN (behind the PIN)."""

    def __init__(self, app, **kw):
        super().__init__(name="settings", **kw)
        self.app = app
        root = BoxLayout(orientation="vertical", padding=8, spacing=6)
        backdrop(root)
        root.add_widget(Label(text=_("Settings"), font_size="24sp", bold=True, size_hint_y=None, height=dp(40)))
        scroll = ScrollView(do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"])
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
            return Spinner(text=str(value), values=list(values), font_size="18sp")

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
        row(_("New PIN (4-8 digits)"), TextInput(password=True, input_filter="int", multiline=False,
                                                 font_size="20sp", hint_text=_("unchanged")), "pin")
        scroll.add_widget(grid)
        root.add_widget(scroll)
        self.error = Label(text="", color=(1, 0.55, 0.45, 1), font_size="16sp", size_hint_y=None, height=dp(26))
        root.add_widget(self.error)
        cancel = pressed(big_button(_("Cancel"), GREY, font_size="18sp"), app.close_settings)
        calibrate = pressed(big_button(_("Dice tray…"), BLUE, font_size="18sp"), app.open_calibration)
        save = pressed(big_button(_("Save"), GREEN, font_size="18sp"), self.save)
        root.add_widget(button_bar([cancel, calibrate, save], height=dp(56)))
        self.add_widget(root)

    def values(self) -> dict:
        """The settings as entered: ``{"camera": …, "gpio": …, "app": …}`` plus ``"pin"`` ('' = unchanged)."""
        f = self.fields
        w, h = (int(v) for v in f["res"].text.split("x"))
        lang = next(c for c, n in LANGUAGES.items() if n == f["language"].text)
        return {
            "camera": {"source": f["source"].text, "width": w, "height": h},
            "gpio": {k: int(f[k].text) for k in ("stop_pin", "continue_pin", "stop_led", "continue_led", "buzzer")},
            "app": {"language": lang, "sound": f["sound"].state == "down", "odds": f["odds"].state == "down"},
            "pin": f["pin"].text.strip(),
        }

    def save(self):
        err = self.app.save_settings(self.values())
        self.error.text = err or ""


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


class UndoDialog(ModalView):
    """"Undo Tim's throw 6 4 2 1 1?" with Cancel (STOP) and Undo (CONTINUE)."""

    def __init__(self, app, question: str, **kw):
        super().__init__(size_hint=(0.8, None), height=dp(220), auto_dismiss=False, **kw)
        self.app = app
        box = BoxLayout(orientation="vertical", padding=12, spacing=10)
        self.question = wrapped(Label(text=question, font_size="20sp", halign="center", valign="middle"))
        box.add_widget(self.question)
        self.cancel_btn = pressed(big_button(_("Cancel") + " (" + _("STOP") + ")", GREY, font_size="18sp"), self.dismiss)
        self.confirm_btn = pressed(big_button(_("Undo") + " (" + _("CONTINUE") + ")", RED, font_size="18sp"), app.confirm_undo)
        box.add_widget(button_bar([self.cancel_btn, self.confirm_btn], height=dp(60)))
        self.add_widget(box)


class PinDialog(ModalView):
    """A PIN pad; ``on_ok(pin)`` returns True when the PIN opens the settings."""

    def __init__(self, on_ok, **kw):
        super().__init__(size_hint=(None, 0.96), width=dp(340), auto_dismiss=False, **kw)
        self.on_ok = on_ok
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
