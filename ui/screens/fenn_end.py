"""The Fenn end screen: the winner or the draw, the moves of the game, Revanche."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from companion.fenn_prompts import hints_text, outcome_text, turn_log
from companion.i18n import _

from ..qr import GameQR, row_with
from ..widgets import SYMBOL_FONT
from .common import BLUE, GREEN, backdrop, big_button, button_bar, pressed, small_button, wrapped

__all__ = ["FennEndScreen"]


class FennEndScreen(Screen):
    """Who won (or the draw) and why, the moves turn by turn, the hints each
    player asked for, and Revanche (the colours swap)."""

    def __init__(self, app, **kw):
        super().__init__(name="fenn_end", **kw)
        self.app = app
        root = BoxLayout(orientation="vertical", padding=12, spacing=8)
        backdrop(root)
        self.title = Label(text="", font_size="32sp", bold=True, size_hint_y=None, height=dp(50))
        self.detail = wrapped(Label(text="", font_size="17sp", halign="center", valign="middle",
                                    size_hint_y=None, height=dp(48)))  # two lines with long names
        root.add_widget(self.title)
        root.add_widget(self.detail)
        scroll = ScrollView(do_scroll_x=False, bar_width=10)
        self.moves = GridLayout(cols=1, size_hint_y=None, row_default_height=dp(26), row_force_default=True)
        self.moves.bind(minimum_height=self.moves.setter("height"))
        scroll.add_widget(self.moves)
        self.qr = GameQR(app)  # this game's page on the table's web page, when it is on
        root.add_widget(row_with(scroll, self.qr))
        undo = pressed(small_button(_("Undo last move"), size_hint_y=1, font_size="17sp"),
                       lambda: app.action("undo"))
        new = pressed(big_button(_("New players"), BLUE, font_size="20sp"), app.show_start)
        again = pressed(big_button(_("Rematch"), GREEN), app.rematch)
        root.add_widget(button_bar([undo, new, again], height=dp(60)))
        self.add_widget(root)

    def show(self, game, hints_used: dict | None = None):
        o = game.outcome()
        self.qr.show(self.app.session.game_id)
        self.title.text = _("Draw") if o.winner is None else _("{name} wins!").format(name=game.winner)
        self.detail.text = outcome_text(game) + ("   " + hints_text(hints_used) if hints_used else "")
        self.moves.clear_widgets()
        for line in turn_log(game):
            self.moves.add_widget(wrapped(Label(text=line, font_size="16sp", font_name=SYMBOL_FONT, halign="left",
                                                valign="middle", shorten=True)))
