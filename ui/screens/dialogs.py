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
from .common import BLUE, GREEN, GREY, RED, TOUCH, big_button, button_bar, one_line, pressed, small_button, wrapped

__all__ = ["UndoDialog", "NumberPad", "PinDialog", "MenuDialog", "ResumeDialog", "HistoryDialog", "RulesDialog", "NoticeDialog"]


class NoticeDialog(ModalView):
    """A notice with one OK button (the saved games were damaged and repaired)."""

    def __init__(self, text: str, **kw):
        super().__init__(size_hint=(0.86, None), height=dp(260), auto_dismiss=False, **kw)
        box = BoxLayout(orientation="vertical", padding=12, spacing=10)
        self.label = wrapped(Label(text=text, font_size="19sp", halign="center", valign="middle"))
        box.add_widget(self.label)
        box.add_widget(button_bar([pressed(big_button(_("OK"), BLUE, font_size="18sp"), self.dismiss)],
                                  height=dp(60)))
        self.add_widget(box)


class UndoDialog(ModalView):
    """"Undo Tim's throw 6 4 2 1 1?" with Cancel (STOP) and Undo (CONTINUE)."""

    def __init__(self, app, question: str, **kw):
        super().__init__(size_hint=(0.8, None), height=dp(220), auto_dismiss=False, **kw)
        self.app = app
        box = BoxLayout(orientation="vertical", padding=12, spacing=10)
        self.question = wrapped(Label(text=question, font_size="20sp", halign="center", valign="middle"))
        box.add_widget(self.question)
        # The colours of the physical buttons: STOP red, CONTINUE green.
        self.cancel_btn = pressed(big_button(_("Keep it") + " (" + _("STOP") + ")", RED, font_size="18sp"), self.dismiss)
        self.confirm_btn = pressed(big_button(_("Undo") + " (" + _("CONTINUE") + ")", GREEN, font_size="18sp"),
                                   app.confirm_undo)
        box.add_widget(button_bar([self.cancel_btn, self.confirm_btn], height=dp(60)))
        self.add_widget(box)


class NumberPad(ModalView):
    """Digits on the screen for a number field (the kiosk has no keyboard).

    ``title``: what is asked; ``on_ok(text)`` gets the digits typed and
    returns True to close the pad (False: it stays, e.g. a wrong PIN);
    ``secret``: show dots, not the digits; ``decimal``: offer a point;
    ``longest``: the most characters taken; ``text``: what is shown first.
    """

    def __init__(self, title, on_ok, *, secret=False, decimal=False, longest=8, text="", **kw):
        super().__init__(size_hint=(None, 0.96), width=dp(340), auto_dismiss=False, **kw)
        self.on_ok, self.secret, self.longest = on_ok, secret, longest
        box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        self.label = wrapped(Label(text=title, font_size="18sp", size_hint_y=None, height=dp(44), halign="center",
                                   valign="middle"))
        self.shown = Label(text="", font_size="26sp", size_hint_y=None, height=dp(36), font_name=SYMBOL_FONT)
        box.add_widget(self.label)
        box.add_widget(self.shown)
        pad = GridLayout(cols=3, spacing=6)
        self.entered = text
        keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "\u232b", "0", "OK"] + (["."] if decimal else [])
        self.keys = {}
        for k in keys:
            b = Button(text=k, font_size="24sp", font_name=SYMBOL_FONT)
            pressed(b, lambda k=k: self.key(k), changes=k == "OK")  # digits leave every key where it was
            self.keys[k] = b
            pad.add_widget(b)
        box.add_widget(pad)
        box.add_widget(pressed(small_button(_("Cancel")), self.dismiss))
        self.add_widget(box)
        self._show()

    def _show(self):
        self.shown.text = "\u25cf " * len(self.entered) if self.secret else self.entered

    def key(self, k: str):
        """A key of the pad: a digit, the point, ⌫ or OK."""
        if k == "OK":
            if self.on_ok(self.entered):
                self.dismiss(animation=False)
                return
            self.entered = ""
        elif k == "\u232b":
            self.entered = self.entered[:-1]
        elif len(self.entered) < self.longest and not (k == "." and "." in self.entered):
            self.entered += k
        self._show()


class PinDialog(NumberPad):
    """The settings PIN pad; ``on_ok(pin)`` returns True when the PIN opens the
    settings; ``wait()`` the seconds before the next try is taken (after wrong
    PINs): meanwhile the pad is off and the wait counts down."""

    def __init__(self, on_ok, wait=lambda: 0.0, **kw):
        self.wait = wait
        self._check = on_ok
        super().__init__(_("Settings PIN"), self._try, secret=True, **kw)
        self._ticker = None
        self._locked()

    def _try(self, pin: str) -> bool:
        if self._check(pin):
            return True
        if not self._locked():
            self.label.text = _("Wrong PIN. Try again.")
        return False

    def _locked(self) -> bool:
        """While a wait runs: the keys off, the seconds counting down; True then."""
        from kivy.clock import Clock

        wait = self.wait()
        for b in self.keys.values():
            b.disabled = wait > 0
        if wait <= 0:
            if self._ticker is not None:
                self._ticker.cancel()
                self._ticker = None
                self.label.text = _("Settings PIN")
            return False
        self.label.text = _("Too many wrong PINs: wait {seconds} s.").format(seconds=int(wait + 0.999))
        if self._ticker is None:
            self._ticker = Clock.schedule_interval(lambda dt: self._locked(), 0.25)
        return True

    def on_dismiss(self):
        if self._ticker is not None:
            self._ticker.cancel()


class MenuDialog(ModalView):
    """The game menu: new game, settings, back."""

    def __init__(self, app, **kw):
        super().__init__(size_hint=(0.5, None), height=dp(5) * (TOUCH + 16) + 24, **kw)
        box = BoxLayout(orientation="vertical", padding=8, spacing=8)
        for text, cb in ((_("History"), app.open_history), (_("Rules"), app.open_rules),
                         (_("New game"), app.show_start), (_("Settings"), app.open_settings),
                         (_("Back to the game"), lambda: None)):
            box.add_widget(pressed(small_button(text, height=TOUCH + dp(8), font_size="18sp"),
                                   lambda cb=cb: (self.dismiss(), cb())))
        self.add_widget(box)


class ResumeDialog(ModalView):
    """The unfinished games, newest first (each: the game, the players, the
    turn reached, the date: :func:`game_line`): Resume one, or End one (asked first).

    ``games``: :class:`companion.storage.StoredGame` rows; ``on_resume(id)``
    and ``on_end(id)`` do it. Offered at once after a restart, and by the
    start screen's Resume when more than one game is unfinished.
    """

    def __init__(self, games, on_resume, on_end, store=None, **kw):
        super().__init__(size_hint=(0.94, 0.94), **kw)
        self.on_resume, self.on_end, self.store = on_resume, on_end, store
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
            row = BoxLayout(spacing=6, size_hint_y=None, height=TOUCH + dp(16))  # two lines: game, names, turn, date
            when = time.strftime("%d.%m. %H:%M", time.localtime(g.started))
            if g.id == asking:
                text = _("End the game of {names} without a winner?").format(names=", ".join(g.players))
                row.add_widget(wrapped(Label(text=text, font_size="16sp", halign="left", valign="middle")))
                row.add_widget(pressed(big_button(_("End it"), RED, font_size="17sp", size_hint_x=0.25),
                                       lambda gid=g.id: self._end(gid)))
                row.add_widget(pressed(big_button(_("Keep it"), GREY, font_size="17sp", size_hint_x=0.25),
                                       self._fill))
            else:
                text = game_line(g, self.store, when)
                row.add_widget(wrapped(Label(text=text, font_size="16sp", halign="left", valign="middle")))
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


def game_line(g, store, when: str) -> str:
    """An unfinished game in words: "Durchmarsch · Sarah, Tim, Maria · turn 7 · 25.11. 14:03"
    (``g``: a :class:`companion.storage.StoredGame`; the turn from the stored
    game when ``store`` reads it, left out when not)."""
    from companion.stats import turn_reached
    from companion.storage import StorageError

    title = {"durchmarsch": "Durchmarsch", "fenn": "Fenn"}.get(g.game, g.game)
    parts = [title, ", ".join(g.players)]
    if store is not None:
        try:
            parts.append(_("turn {n}").format(n=turn_reached(store.load(g.id).game)))
        except (StorageError, ValueError, KeyError):
            pass
    return "  \u00b7  ".join(parts + [when])


class HistoryDialog(ModalView):
    """This game's throws, newest first (who, values, what they did), each
    player's totals over earlier games, and this group's rematch tally."""

    def __init__(self, game, store, game_id=None, qr=None, **kw):
        from kivy.uix.scrollview import ScrollView

        from companion.prompts import result_text
        from companion.stats import rematch_tally, throw_history, totals

        from ..qr import row_with

        super().__init__(size_hint=(0.96, 0.96), **kw)
        box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        if game.name == "fenn":
            self._fenn(game, store, game_id, box, qr)
            return
        box.add_widget(Label(text=_("This game's throws"), font_size="20sp", bold=True, size_hint_y=None,
                             height=dp(32)))
        scroll = ScrollView(do_scroll_x=False, bar_width=10)
        rows = GridLayout(cols=1, spacing=2, size_hint_y=None, row_default_height=dp(30), row_force_default=True)
        rows.bind(minimum_height=rows.setter("height"))
        history = throw_history(game)
        for r in reversed(history):
            # TRANSLATORS: one throw in the history: the roller, the pips thrown, what came of it.
            text = _("{name}:  {values}  —  {result}").format(
                name=game.players[r.player], values=" ".join(map(str, r.values)), result=result_text(r, game.players))
            rows.add_widget(wrapped(Label(text=text, font_size="16sp", halign="left", valign="middle", shorten=True,
                                          color=(1, 1, 1, 1) if r.success else (1, 0.7, 0.6, 1))))
        if not history:
            rows.add_widget(Label(text=_("No throws yet."), font_size="16sp"))
        scroll.add_widget(rows)
        box.add_widget(row_with(scroll, qr) if qr is not None else scroll)  # qr: the game's page (ui/qr.py)
        mine = {n.casefold() for n in game.players}
        known = [t for t in totals(store) if t.name.casefold() in mine]
        tally = rematch_tally(store, game.players, game=game.name)
        table = GridLayout(cols=5, spacing=2, size_hint_y=None, height=dp(26) * len(known) + dp(42),
                           cols_minimum={0: dp(230)}, rows_minimum={0: dp(40)})  # a 20-letter name, two-line heads
        for h in (_("Player"), _("Games"), _("Wins"), _("Rows completed"), _("Longest march")):
            table.add_widget(wrapped(Label(text=h, bold=True, font_size="16sp", halign="center", valign="middle",
                                           color=(0.75, 0.8, 0.9, 1))))
        for t in known:
            for c in (t.name, t.games, t.wins, t.rows_completed, t.longest_march):
                table.add_widget(one_line(Label(text=str(c), font_size="16sp", halign="center")))
        box.add_widget(table)
        box.add_widget(wrapped(Label(text=_("Rematch tally: {tally}").format(  # four long names: two lines
            tally=", ".join(f"{n} {w}" for n, w in tally.items())), font_size="16sp", size_hint_y=None, height=dp(44),
            halign="center", valign="middle")))
        box.add_widget(pressed(small_button(_("Back to the game"), font_size="17sp"), self.dismiss))
        self.add_widget(box)


    def _fenn(self, game, store, gid, box, qr=None):
        """A game of Fenn: its moves, oldest first as on the end screen (scrolled
        to the newest), and the hints each player asked for."""
        from kivy.uix.scrollview import ScrollView

        from companion.fenn_hints import hints_used
        from companion.fenn_prompts import hints_text, turn_log

        from ..qr import row_with

        box.add_widget(Label(text=_("This game's moves"), font_size="20sp", bold=True, size_hint_y=None,
                             height=dp(32)))
        scroll = ScrollView(do_scroll_x=False, bar_width=10)
        rows = GridLayout(cols=1, spacing=2, size_hint_y=None, row_default_height=dp(30), row_force_default=True)
        rows.bind(minimum_height=rows.setter("height"))
        for line in turn_log(game) or [_("No moves yet.")]:  # oldest first, as on the end screen
            rows.add_widget(wrapped(Label(text=line, font_size="16sp", halign="left", valign="middle",
                                          font_name=SYMBOL_FONT, shorten=True)))
        scroll.add_widget(rows)
        # The newest moves in sight when the list is longer than the view; a short list from the top.
        def newest(*_):
            scroll.scroll_y = 0 if rows.height > scroll.height else 1

        rows.bind(height=newest)
        scroll.bind(height=newest)
        box.add_widget(row_with(scroll, qr) if qr is not None else scroll)
        used = hints_used(store, gid, game.players) if gid is not None else {n: 0 for n in game.players}
        box.add_widget(Label(text=hints_text(used), font_size="16sp", size_hint_y=None, height=dp(28)))
        box.add_widget(pressed(small_button(_("Back to the game"), font_size="17sp"), self.dismiss))
        self.add_widget(box)


class RulesDialog(ModalView):
    """The short rules card of ``game`` in language ``lang`` (from the rulebook;
    :func:`companion.rules_card.card`), scrollable."""

    def __init__(self, game: str, lang: str, **kw):
        from kivy.uix.scrollview import ScrollView

        from companion.rules_card import card, to_kivy_markup

        super().__init__(size_hint=(0.96, 0.96), **kw)
        self.game = game  # the card shown: "durchmarsch" or "fenn"
        box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        scroll = ScrollView(do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"])
        size = dp(17)
        text = Label(text=to_kivy_markup(card(game, lang), font_size=size), markup=True, font_size=size,
                     halign="left", valign="top", size_hint_y=None)
        text.bind(width=lambda w, v: setattr(w, "text_size", (v - dp(16), None)),
                  texture_size=lambda w, s: setattr(w, "height", s[1]))
        scroll.add_widget(text)
        box.add_widget(scroll)
        box.add_widget(pressed(small_button(_("Close"), font_size="17sp"), self.dismiss))
        self.add_widget(box)
