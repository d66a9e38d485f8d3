"""The Fenn board screen: whose turn, the board, the faces to choose, hints, End turn."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.fenn import COLOURS
from companion.fenn_prompts import colour_name
from companion.i18n import _

from ..fenn_widgets import PIP_COLOURS, BoardView, FaceButton
from ..widgets import SYMBOL_FONT
from .common import GREEN, GREY, FittedLabel, backdrop, big_button, button_bar, no_lone_word, pressed, small_button, wrapped

__all__ = ["FennScreen"]


class FennScreen(Screen):
    """A game of Fenn by touch: tap the die's new field (legal fields are
    outlined), then its new top face; the black die's value at the start and
    after a Pasch; End turn (or CONTINUE) to decline an extra step or a Pasch.
    Reads the flow from ``app.table.fenn`` (:class:`ui.fenn_flow.FennTable`)."""

    def __init__(self, app, **kw):
        super().__init__(name="fenn", **kw)
        self.app = app
        self.flow = app.table.fenn
        root = BoxLayout(orientation="vertical", padding=8, spacing=6)
        backdrop(root)
        top = BoxLayout(size_hint_y=None, height=dp(40), spacing=8)
        top.add_widget(Label(text="Fenn", font_size="24sp", bold=True, size_hint_x=None, width=dp(80)))
        self.players = Label(text="", markup=True, font_size="18sp", halign="left", valign="middle",
                             font_name=SYMBOL_FONT)
        wrapped(self.players)
        top.add_widget(self.players)
        root.add_widget(top)
        # The prompt, and after a read the camera's words and what it read: up to four lines.
        self.prompt = FittedLabel(sizes=(18, 17, 16), text="", bold=True, halign="center", size_hint_y=None,
                                  height=dp(84))
        root.add_widget(self.prompt)
        self.board = BoardView(on_field=self.flow.tap_field, size_hint_y=None, height=dp(104))
        root.add_widget(self.board)
        self.legend = Label(text="", font_name=SYMBOL_FONT, font_size="16sp", size_hint_y=None, height=dp(22),
                            color=(0.8, 0.82, 0.88, 1))
        root.add_widget(self.legend)
        self.choice_title = Label(text="", font_size="16sp", size_hint_y=None, height=dp(22))
        root.add_widget(self.choice_title)
        self.choices = BoxLayout(spacing=8, padding=(8, 0))
        root.add_widget(self.choices)
        self.undo_btn = pressed(small_button(_("Undo"), size_hint_x=1.25), lambda: app.action("undo"))  # Zurücknehmen
        self.hint_btn = pressed(small_button(_("Hint")), self.flow.show_hint)
        self.menu_btn = pressed(small_button(_("Menu")), app.open_menu)
        self.end_btn = big_button(_("End turn"), GREEN, size_hint_x=1.6)
        pressed(self.end_btn, self._go)
        bar = [self.undo_btn, self.hint_btn, self.menu_btn, self.end_btn]
        if app.demo:  # no camera: the mock camera shows the board after a random legal move, read like a real one
            self.demo_btn = pressed(small_button(_("Demo: move")), app.request_throw)
            bar.insert(2, self.demo_btn)
        root.add_widget(button_bar(bar, height=dp(60)))
        self.add_widget(root)

    def _go(self):
        if self.flow.can_pass():
            self.flow.pass_turn()
        else:
            self.flow.end_turn()

    def refresh(self, game):
        f = self.flow
        pos = game.position()
        mover = None if game.is_over or f.phase() == "start" else pos.to_move
        names = []
        for i, n in enumerate(game.players):
            c = "%02x%02x%02x" % tuple(int(255 * min(1, v * 1.4 + 0.15)) for v in PIP_COLOURS[COLOURS[i]][:3])
            who = f"[color={c}]\u25a0[/color] {n} ({colour_name(i)})"
            names.append(f"[b]\u25b6 {who}[/b]" if i == mover else who)
        self.players.text = "    ".join(names)
        self.prompt.text = no_lone_word(f.text())
        best = f.best()
        self.board.show(dice={"blue": pos.dice[0], "red": pos.dice[1]}, black=pos.black or None,
                        targets=f.targets() if f.selected is None else (), selected=f.selected, marks=f.marks(),
                        best=best.field if best else None)
        marks = set(f.marks().values())
        keys = [("black", _("\u2715 black die's number")), ("top", _("\u2298 other die's number")),
                ("start", _("\u2014 start of the turn (null move)"))]
        self.legend.text = "     ".join(t for k, t in keys if k in marks)
        self._choices(game)
        self.hint_btn.disabled = f.phase() not in ("turn", "options") or bool(f.shown_hints)
        self.undo_btn.disabled = not game.events
        self.end_btn.disabled = not (f.can_end_turn() or f.can_pass())
        self.end_btn.text = _("Pass") if f.can_pass() else _("End turn")
        self.end_btn.background_color = GREEN if not self.end_btn.disabled else GREY

    def _choices(self, game):
        f = self.flow
        self.choices.clear_widgets()
        self.choices.add_widget(Widget())  # the faces centred under the board
        size = dp(64)
        if f.selected is not None:
            self.choice_title.text = _("Field {field}: which face on top?").format(field=f.selected)
            colour = COLOURS[game.position().to_move]
            for v in f.faces():
                self.choices.add_widget(pressed(FaceButton(value=v, colour=colour, size_hint=(None, None),
                                                           size=(size, size)), lambda v=v: f.tap_face(v)))
        elif f.black_choices():
            self._switch_button()
            start = f.phase() == "start"
            self.choice_title.text = _("The black die shows:") if start else _("Pasch: set the black die to")
            for v in f.black_choices():
                self.choices.add_widget(pressed(FaceButton(value=v, colour="black", size_hint=(None, None),
                                                           size=(size, size)), lambda v=v: f.tap_black(v)))
        elif f.shown_hints:
            self.choice_title.text = _("Hint: the turns, best first")
            self.choices.clear_widgets()  # the lines across the whole width
            from kivy.uix.scrollview import ScrollView

            scroll = ScrollView(do_scroll_x=False, bar_width=dp(8), scroll_type=["bars", "content"])
            col = GridLayout(cols=1, size_hint_y=None, row_default_height=dp(24), row_force_default=True)
            col.bind(minimum_height=col.setter("height"))
            for line in f.hint_lines():  # every line; the list scrolls
                col.add_widget(Label(text=line, font_size="16sp", font_name=SYMBOL_FONT))
            scroll.add_widget(col)
            self.choices.add_widget(scroll)
            return
        else:
            self.choice_title.text = ""
            self._switch_button()
        self.choices.add_widget(Widget())

    def _switch_button(self):
        """F1: the camera saw blue and red the other way round; the players may switch the game's dice."""
        if self.flow.can_switch_dice():
            self.choices.add_widget(pressed(small_button(_("Switch blue and red"), size_hint_x=None,
                                                         width=dp(230)), self.flow.switch_dice))
