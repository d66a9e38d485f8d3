"""The correction screen: the dice read, tap one and its value, add or remove dice, confirm."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.durchmarsch import form_target
from companion.i18n import _
from companion.prompts import outcome_text

from ..widgets import (
    CameraView,
    DieButton,
)
from .common import BLUE, GREEN, GREY, TOUCH, backdrop, big_button, button_bar, hold, pressed, small_button, wrapped

__all__ = ["CorrectionScreen"]


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
        self.picture = CameraView(size_hint_x=0.5)  # a tap shows it over the whole screen
        self.picture.bind(on_touch_down=lambda w, t: self.zoom() if w.collide_point(*t.pos) else None)
        middle.add_widget(self.picture)
        right = BoxLayout(orientation="vertical", spacing=6)
        self.dice_grid = GridLayout(cols=5, spacing=4, size_hint_y=0.5)
        right.add_widget(self.dice_grid)
        right.add_widget(Label(text=_("Value of the die:"), font_size="16sp", size_hint_y=None, height=dp(22)))
        pad = GridLayout(cols=6, spacing=4, size_hint_y=None, height=dp(56))
        self.value_buttons = []
        for v in range(1, 7):
            b = DieButton(value=v)
            pressed(b, lambda v=v: self.set_value(v), changes=False)  # a die's value: no button moves
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
        self.frame, self.dice = frame, list(dice)
        self.again_btn.disabled = mode != "ask"
        if frame is not None:
            self.picture.show_frame(annotate(frame, list(dice), confidence=False) if dice else frame)
        words = (why or _("Not sure of this throw.")) if mode == "ask" else \
            _("Correct the throw. Tap a die, then its value.")
        self.title.text = self._whose(mode) + words
        self.redraw()

    def _whose(self, mode: str) -> str:
        """"Tim's throw: " — the roller of the throw asked about, or of the last
        throw scored (after a misthrow the next player is already on)."""
        from companion.stats import throw_history

        game = self.app.session.game
        if game is None:
            return ""
        if mode == "ask":
            name = game.players[game.current_player]
        else:
            done = throw_history(game)
            if not done:
                return ""
            name = game.players[done[-1].player]
        return _("{name}'s throw:").format(name=name) + " "

    def zoom(self):
        """The photo over the whole screen (a tap closes it)."""
        from kivy.uix.image import Image
        from kivy.uix.modalview import ModalView

        if self.picture.texture is None:
            return
        view = ModalView(size_hint=(1, 1), auto_dismiss=True, background_color=(0, 0, 0, 0.9))
        view.add_widget(Image(texture=self.picture.texture, fit_mode="contain"))
        view.bind(on_touch_down=lambda v, t: v.dismiss(), on_dismiss=lambda *_: hold())  # Confirm lies under it
        self.zoomed = view
        view.open()
        hold()  # a double tap on the photo does not close it at once

    def redraw(self):
        self.dice_grid.clear_widgets()
        for i, v in enumerate(self.values):
            d = DieButton(value=v, selected=i == self.selected)
            pressed(d, lambda i=i: self.select(i), changes=False)
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
        """Select die ``i`` (tap again: none); the photo highlights it where it was read."""
        from vision.reader import annotate

        self.selected = None if self.selected == i else i
        self.redraw()
        if self.frame is not None and self.dice:
            marked = (self.selected,) if self.selected is not None and self.selected < len(self.dice) else ()
            self.picture.show_frame(annotate(self.frame, self.dice, highlight=marked, confidence=False))

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
