"""The end screen: the winner and each player's figures; Revanche."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.i18n import _, ngettext
from companion.stats import game_stats

from ..widgets import (
    SYMBOL_FONT,
)
from .common import BLUE, GREEN, backdrop, big_button, button_bar, pressed, small_button, wrapped

__all__ = ["EndScreen"]


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
