"""The start screen: the game (Durchmarsch or Fenn), language, names in seating order, who starts
(Fenn: who plays blue), Resume."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.vkeyboard import VKeyboard
from kivy.uix.widget import Widget

from companion.game import check_new_names
from companion.i18n import LANGUAGES, _

from ..widgets import (
    SYMBOL_FONT,
)
from .common import BLUE, GREEN, TOUCH, backdrop, big_button, button_bar, cut_name, hold, one_line, pressed

__all__ = ["StartScreen", "NameKeyboard"]


class NameKeyboard(VKeyboard):
    """Kivy's VKeyboard without key repeat: a key held types once (a held key
    typed 21 e's in 1.5 s)."""

    def _start_repeat_key(self, *args):
        self._start_repeat_key_ev = None


class StartScreen(Screen):
    """Language, 2-4 players in seating order (recent names offered), the first
    roller chosen or drawn, and Resume when an unfinished game exists."""

    def __init__(self, app, names=(), **kw):
        super().__init__(name="start", **kw)
        self.app = app
        kb = app.cfg["app"].get("keyboard", "auto")
        #: The screen's own keyboard for names (per language: ä ö ü ß é è à ç, ⇧, ⏎ next name).
        self.onscreen = kb == "onscreen" or (kb == "auto" and app.cfg["app"].get("fullscreen", False))
        self.keyboard = None
        self.typing = None
        #: The longest name taken (``app.name_length``): the fields cut what is typed beyond it.
        self.longest = int(app.cfg["app"].get("name_length", 20))
        root = BoxLayout(orientation="vertical", padding=8, spacing=6)
        self.root_box = root
        backdrop(root)
        top = self.top_bar = BoxLayout(size_hint_y=None, height=dp(52), spacing=6)
        #: The game chosen: "durchmarsch" (2-4 players) or "fenn" (two, the first plays blue).
        self.game = "durchmarsch"
        self.game_buttons = {}
        for name, title, width in (("durchmarsch", "Durchmarsch", 170), ("fenn", "Fenn", 80)):
            b = ToggleButton(text=title, group="game", allow_no_selection=False, font_size="19sp", bold=True,
                             state="down" if name == self.game else "normal", size_hint_x=None, width=dp(width))
            pressed(b, lambda n=name: self.choose_game(n), changes=False)  # the rows below change, not this bar
            self.game_buttons[name] = b
            top.add_widget(b)
        self.lang_buttons = {}
        for code, name in LANGUAGES.items():
            b = ToggleButton(text=name, group="lang", allow_no_selection=False, font_size="16sp",
                             state="down" if code == app.language else "normal")
            pressed(b, lambda c=code: app.set_language(c))
            self.lang_buttons[code] = b
            top.add_widget(b)
        self.settings_btn = pressed(Button(text="\u2699", font_name=SYMBOL_FONT, font_size="26sp",
                                           size_hint_x=None, width=dp(56)), app.open_settings)
        self.rules_btn = pressed(Button(text="?", font_size="24sp", bold=True, size_hint_x=None, width=dp(48)),
                                 app.open_rules)
        top.add_widget(self.rules_btn)
        top.add_widget(self.settings_btn)
        root.add_widget(top)
        self.recent_box = BoxLayout(size_hint_y=None, height=TOUCH, spacing=6)
        root.add_widget(self.recent_box)
        self.inputs, self.first_buttons, self.up_buttons = [], [], []
        for i in range(4):
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=6)
            row.add_widget(Label(text=f"{i + 1}.", font_size="20sp", size_hint_x=None, width=dp(30)))
            t = TextInput(hint_text=_("Player {n}").format(n=i + 1), multiline=False, font_size="22sp",
                          write_tab=False, text=names[i] if i < len(names) else "",
                          keyboard_mode="managed" if self.onscreen else "auto")
            if self.onscreen:
                t.bind(focus=lambda w, on: self.show_keyboard(w) if on else None)
            t.bind(text=self._typed)
            self.inputs.append(t)
            row.add_widget(t)
            up = Button(text="\u25b2", font_name=SYMBOL_FONT, font_size="20sp", size_hint_x=None, width=dp(56),
                        disabled=i == 0)
            pressed(up, lambda k=i: self.move_up(k), changes=False)  # names swap; no button moves
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
        self.spacer = Widget()
        root.add_widget(self.spacer)
        self.resume_btn = pressed(big_button(_("Resume game"), BLUE), app.resume)
        self.start_btn = pressed(big_button(_("Start"), GREEN), self.start)
        self.buttons = button_bar([self.resume_btn, self.start_btn])
        root.add_widget(self.buttons)
        self.add_widget(root)
        self.refresh()

    def _typed(self, field, text):
        cut = cut_name(text, self.longest)
        if cut != text:
            field.text = cut  # typed beyond the longest name (or pasted): cut at once
            return
        self.refresh_recent()

    # -- the on-screen keyboard ----------------------------------------------
    def show_keyboard(self, field):
        """Type into ``field`` with the language's keyboard, docked below the
        names (the field stays in sight; Start comes back after the last name)."""
        from ..keyboard_layouts import auto_shift, layout_path

        self.typing = field
        for other in self.inputs:  # one cursor at a time
            if other is not field:
                other.focus = False
        if self.keyboard is None:
            # Keys 10 mm high on a 7-inch 800×480 screen (5.2 px a mm): 5 rows of 52 px.
            self.keyboard = NameKeyboard(layout=layout_path(self.app.language), size_hint=(1, None), height=dp(268),
                                         margin_hint=[0.01, 0.01, 0.01, 0.01],
                                         do_translation=False, do_rotation=False, do_scale=False)
            self.keyboard.bind(on_key_down=lambda kb, keycode, internal, mods: self._key((keycode, internal)),
                               on_textinput=lambda kb, text: self._key(text))
        if self.keyboard.parent is None:
            hold()  # the keys come in where a finger may still be
            # Room for the keyboard: the names stay in sight, the rest folds away until it is put away.
            self._folded = [(w, w.height) for w in (self.top_bar, self.recent_box, self.first_label, self.error)]
            for w, _h in self._folded:
                w.opacity, w.disabled, w.height = 0, True, 0
            self._rows = [(t.parent, t.parent.height) for t in self.inputs]
            for row, _h in self._rows:
                row.height = dp(38)  # the names stay in sight above the larger keys
            self.root_box.remove_widget(self.spacer)
            self.root_box.remove_widget(self.buttons)
            self.root_box.add_widget(self.keyboard)
        self.keyboard.have_capslock = auto_shift(field.text)

    def hide_keyboard(self):
        """Put the keyboard away; Start and the recent names come back."""
        if self.keyboard is not None and self.keyboard.parent is not None:
            hold()  # Start comes back where the keys were: a double tap on ⏎ does not start the game
            self.root_box.remove_widget(self.keyboard)
            self.root_box.add_widget(self.spacer, index=0)
            self.root_box.add_widget(self.buttons, index=0)
            for w, h in getattr(self, "_folded", ()):
                w.opacity, w.disabled, w.height = 1, False, h
            for row, h in getattr(self, "_rows", ()):
                row.height = h
        if self.typing is not None:
            self.typing.focus = False
        self.typing = None

    def _key(self, key):
        from ..keyboard_layouts import apply_key, auto_shift

        field = self.typing
        if field is None:
            return
        field.text, action = apply_key(field.text, key, shift=self.keyboard.have_capslock, max_len=self.longest)
        if action == "next":
            i = self.inputs.index(field)
            if i + 1 < len(self.inputs) and field.text.strip() and not self.inputs[i + 1].disabled:
                field.focus = False  # one cursor at a time
                self.inputs[i + 1].focus = True
                self.show_keyboard(self.inputs[i + 1])
            else:
                self.hide_keyboard()
        elif action == "shift":
            self.keyboard.have_capslock = not self.keyboard.have_capslock
        elif action == "accents":
            self.keyboard.have_special = not self.keyboard.have_special
        else:
            self.keyboard.have_capslock = auto_shift(field.text)
            self.keyboard.have_special = False  # after an accented letter, the letters again

    def choose_game(self, name: str):
        """Durchmarsch (2-4 players, who rolls first) or Fenn (two players, who plays blue)."""
        self.game = name
        for n, b in self.game_buttons.items():
            b.state = "down" if n == name else "normal"
        fenn = name == "fenn"
        for i, (t, f) in enumerate(zip(self.inputs, self.first_buttons)):
            row = t.parent
            hide = fenn and i >= 2
            row.opacity, row.disabled = (0, True) if hide else (1, False)
            if hide:
                t.text = ""
            f.text = _("Blue") if fenn else _("Starts")
        self.refresh_first()

    def names(self) -> list[str]:
        """The names typed, in seating order (blank fields skipped)."""
        return [t.text.strip() for t in self.inputs if t.text.strip()]

    def refresh(self):
        """Offer Resume only when an unfinished game exists; offer recent names."""
        self.resume_btn.disabled = self.app.session.store.unfinished() is None
        self.refresh_recent()
        self.refresh_first()

    def refresh_recent(self):
        """Buttons for recent names not typed yet; a tap fills the first empty field."""
        self.recent_box.clear_widgets()
        typed = set(self.names())
        recent = [n for n in self.app.session.store.recent_players(10) if n not in typed][:4]
        if not recent:
            return
        self.recent_box.add_widget(Label(text=_("Recent:"), font_size="16sp", size_hint_x=None, width=dp(80)))
        for n in recent:
            self.recent_box.add_widget(pressed(one_line(Button(text=n, font_size="16sp")),
                                               lambda n=n: self.add_name(n)))

    def add_name(self, name: str):
        for t in self.inputs:
            if not t.text.strip():
                t.text = cut_name(name, self.longest)
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
        if self.game == "fenn":
            blue = names[k] if k is not None else (names[0] if names else _("Player {n}").format(n=1))
            self.first_label.text = _("{name} plays blue; the black die decides who begins.").format(name=blue)
            return
        self.first_label.text = (_("First roller: {name}").format(name=names[k]) if k is not None
                                 else _("First roller: drawn at random"))

    def start(self):
        try:
            check_new_names(self.names())
        except ValueError as e:
            self.error.text = (_("Two players have one name: tell them apart (Anna B., Anna K.).")
                               if "must differ" in str(e) else _("A name is 1 to 24 characters, none of them hidden."))
            return
        try:
            if self.game == "fenn":
                names, blue = self.names(), self.first_choice() or 0
                if len(names) != 2:
                    raise ValueError("Fenn is for two players")
                self.app.session.start([names[blue], names[1 - blue]], first=0, game="fenn",
                                       options=self.app.cfg.get("fenn"))
            else:
                self.app.session.start(self.names(), first=self.first_choice())
        except ValueError as e:
            if self.game == "fenn":
                self.error.text = _("Fenn is for two players.")
            else:
                self.error.text = _("Enter 2 to 4 players.") if "player" in str(e).lower() else str(e)
            return
        self.error.text = ""
