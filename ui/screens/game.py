"""The game screen: every sheet, the live picture, the risk meter, the prompt, STOP/CONTINUE."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.i18n import _
from companion.odds import chance
from companion.prompts import prompt

from ..widgets import (
    CameraView,
    DieButton,
    RiskMeter,
    SheetView,
)
from .common import (
    BLUE,
    GREEN,
    RED,
    TOUCH,
    FittedLabel,
    backdrop,
    big_button,
    button_bar,
    no_lone_word,
    pressed,
    small_button,
    wrapped,
)

__all__ = ["GameScreen"]


class GameScreen(Screen):
    """Every sheet at once (the roller's emphasised), the live picture with the
    dice read, the risk meter, what to do now, and the buttons."""

    def __init__(self, app, **kw):
        super().__init__(name="game", **kw)
        self.app = app
        root = BoxLayout(orientation="horizontal", padding=6, spacing=6)
        backdrop(root)
        left = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.38)
        picture = FloatLayout()
        self.camera_view = CameraView(size_hint=(1, 1), pos_hint={"x": 0, "y": 0})
        picture.add_widget(self.camera_view)
        if app.demo:  # say so: the dice on the screen are drawn, no camera is attached
            badge = Label(text=_("DEMO: no camera; THROW rolls random dice"), font_size="16sp", bold=True,
                          color=(1, 0.85, 0.3, 1), size_hint=(1, None), height=dp(42), pos_hint={"x": 0, "top": 1},
                          halign="center", valign="middle")
            wrapped(badge)
            backdrop(badge, (0, 0, 0, 0.55))
            picture.add_widget(badge)
        left.add_widget(picture)
        # What the reader read, as large die faces (the dice that formed the target raised).
        self.dice_row = BoxLayout(size_hint_y=None, height=dp(40), spacing=2)
        left.add_widget(self.dice_row)
        self._shown_dice = None
        self.meter = RiskMeter(size_hint_y=None, height=dp(40))
        left.add_widget(self.meter)
        self.prompt = FittedLabel(sizes=(17, 16), text="", bold=True, halign="center", size_hint_y=None,
                                  height=dp(84), grow=True)  # a message above a long prompt: the picture gives room
        left.add_widget(self.prompt)
        self.throw_btn = pressed(big_button(_("THROW") if app.demo else _("READ"), BLUE), app.request_throw)
        self.stop_btn = pressed(big_button(_("STOP"), RED), lambda: app.action("stop"))
        self.continue_btn = pressed(big_button(_("CONTINUE"), GREEN), lambda: app.action("continue"))
        self.bar = button_bar([], height=dp(64), spacing=6)
        left.add_widget(self.bar)
        self.wrong_btn = pressed(small_button(_("Wrong?")), lambda: app.action("wrong"))
        self.undo_btn = pressed(small_button(_("Undo"), size_hint_x=1.35), lambda: app.action("undo"))  # Zurücknehmen
        self.menu_btn = pressed(small_button(_("Menu")), app.open_menu)
        left.add_widget(button_bar([self.wrong_btn, self.undo_btn, self.menu_btn], height=TOUCH, spacing=6))
        root.add_widget(left)
        self.sheets_box = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.62)
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
        self.prompt.text = no_lone_word((message + "\n" if message else "") + prompt(game, aside_done=self.app.table.aside_done))
        self.show_odds(game)
        self.show_dice()

    def show_dice(self):
        """The values last read, left to right in the picture, as die faces; those that formed the target raised."""
        table = self.app.table
        dice = sorted(table.last_dice, key=lambda d: (d.center[0], d.center[1]))
        order = sorted(range(len(table.last_dice)), key=lambda i: (table.last_dice[i].center[0],
                                                                    table.last_dice[i].center[1]))
        formed = {order.index(i) for i in table.highlight if i < len(order)}
        shown = ([d.value for d in dice], sorted(formed))
        game = self.app.session.game
        if not dice and game is not None and game.last_result is not None and self.app.can_correct():
            # After a correction, an undo or a resume no picture's reads match: the values scored.
            r = game.last_result
            shown = (list(r.values), sorted(r.formed_by or ()))
        if shown == self._shown_dice:
            return
        self._shown_dice = shown
        self.dice_row.clear_widgets()
        for k, v in enumerate(shown[0]):
            self.dice_row.add_widget(DieButton(value=v, selected=k in shown[1], disabled=True))

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
