"""The end screen: the winner and each player's figures; Rematch."""

from __future__ import annotations

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.i18n import _, ngettext
from companion.stats import game_stats

from ..qr import GameQR, row_with
from ..widgets import SYMBOL_FONT, SheetView
from .common import (
    BLUE,
    GREEN,
    backdrop,
    big_button,
    button_bar,
    one_line,
    pressed,
    small_button,
    widest_word,
    wrapped,
)

__all__ = ["EndScreen"]


class EndScreen(Screen):
    """The winner, how the game went per player, and Rematch."""

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
        self.table = GridLayout(cols=6, spacing=2)  # its columns' least widths: set with its heads (show)
        self.sheets = GridLayout(cols=1, spacing=4)  # two columns for 3-4 players: digits stay 16 px
        self.middle = BoxLayout()
        self.middle.add_widget(self.table)
        self.qr = GameQR(app)  # this game's page on the table's web page, when it is on
        root.add_widget(row_with(self.middle, self.qr))
        undo = pressed(small_button(_("Undo last throw"), size_hint_y=1, font_size="17sp"),
                       lambda: app.action("undo"))
        self.sheets_btn = pressed(small_button(_("Sheets"), size_hint_y=1, font_size="17sp"), self.toggle_sheets)
        new = pressed(big_button(_("New players"), BLUE, font_size="20sp"), app.show_start)
        again = pressed(big_button(_("Rematch"), GREEN), app.rematch)
        root.add_widget(button_bar([undo, self.sheets_btn, new, again], height=dp(60)))
        self.add_widget(root)

    def toggle_sheets(self):
        """Show the final sheets in place of the figures, or the figures again."""
        showing = self.sheets.parent is not None
        self.middle.clear_widgets()
        self.middle.add_widget(self.table if showing else self.sheets)
        self.sheets_btn.text = _("Sheets") if showing else _("Figures")

    def show(self, game):
        self.title.text = _("{name} wins!").format(name=game.winner)
        stats = game_stats(game)
        self.qr.show(self.app.session.game_id)
        # The winner's own turns, not every player's.
        n = next(s.turns for s in stats if s.name == game.winner)
        self.sheets.clear_widgets()
        self.sheets.cols = 2 if len(game.sheets) > 2 else 1
        for sheet in game.sheets:
            v = SheetView()
            v.show(sheet, out_word=_("OUT"))
            self.sheets.add_widget(v)
        if self.sheets.parent is not None:
            self.toggle_sheets()
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
            self.table.add_widget(wrapped(Label(text=h, bold=True, font_size="16sp", halign="center",
                                                valign="middle", color=(0.75, 0.8, 0.9, 1))))
        # Every head's longest word whole ("Gestrichene"), the rest for a name of 20 letters (an ellipsis past it).
        self.table.cols_minimum = {0: dp(230), **{i: widest_word(h, sp(16), bold=True) + dp(8)
                                                  for i, h in enumerate(heads) if i}}
        for s in stats:
            win = s.name == game.winner
            name = ("\u2605 " if win else "") + s.name + ("  \u2715" if s.eliminated else "")
            cells = (name, s.turns, s.marks, s.misthrows, s.rows_struck, s.best_turn)
            for c in cells:  # a long name ends in an ellipsis inside its column
                self.table.add_widget(one_line(Label(text=str(c), font_size="20sp", bold=win, font_name=SYMBOL_FONT,
                                                     halign="center", color=(1, 0.85, 0.4, 1) if win else (1, 1, 1, 1))))
