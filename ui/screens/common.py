"""Shared sizes, colours and small builders of the screens."""

from __future__ import annotations

from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

__all__ = [
    "no_lone_word",
    "GREEN",
    "BLUE",
    "RED",
    "GREY",
    "TOUCH",
    "BG",
    "RESOLUTIONS",
    "BCM_PINS",
    "big_button",
    "small_button",
    "backdrop",
    "wrapped",
    "FittedLabel",
    "button_bar",
    "pressed",
    "hold",
    "table_guard",
    "drop_stray_touches",
    "one_line",
    "cut_name",
    "widest_word",
]


#: Minimum height of anything a finger presses, px at 800×480.
TOUCH = dp(48)


BG = (0.13, 0.16, 0.2, 1)
#: Button colours (RGBA).
GREEN, BLUE, RED, GREY = (0.2, 0.6, 0.3, 1), (0.3, 0.45, 0.7, 1), (0.75, 0.2, 0.15, 1), (0.35, 0.38, 0.42, 1)


RESOLUTIONS = ("640x480", "1280x720", "1640x1232", "1920x1080", "2304x1296")


BCM_PINS = tuple(str(p) for p in range(0, 28))


def big_button(text, colour, **kw):
    """A large flat button (bold, 22sp)."""
    kw.setdefault("font_size", "22sp")
    return Button(text=text, bold=True, background_normal="", background_color=colour, **kw)


def small_button(text, **kw):
    """A plain button at least :data:`TOUCH` px high; a long text wraps inside it."""
    kw.setdefault("font_size", "16sp")
    kw.setdefault("size_hint_y", None)
    kw.setdefault("height", TOUCH)
    b = Button(text=text, halign="center", valign="middle", **kw)
    # Wrap between words only: a single long word (Zurücknehmen) is never cut.
    def fit(w, size):
        w.text_size = (max(1, size[0] - dp(8)), size[1]) if " " in w.text else (None, None)

    b.bind(size=fit)
    return b


def no_lone_word(text: str) -> str:
    """``text`` with each line's last two words joined by a no-break space, so a
    wrapped prompt never leaves one word alone on its last line.

    >>> no_lone_word("deux dés qui font 7") == "deux dés qui font\u00a07"
    True
    """
    return "\n".join(line[: i] + "\u00a0" + line[i + 1:] if (i := line.rstrip().rfind(" ")) > 0 else line
                     for line in text.split("\n"))


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


class FittedLabel(Label):
    """A label that wraps its text to its width and takes the largest of
    ``sizes`` (sp, largest first) in which every line fits its height, measured
    by Kivy; text that fits in none is shown whole in the smallest, overflowing.

    Example::

        prompt = FittedLabel(sizes=(18, 17, 16), bold=True, halign="center", size_hint_y=None, height=dp(84))
        prompt.text = "Anna: move red 1 or 2 fields.\nRead: blue 3 on field 3"

    ``grow``: a text that fits in none makes the label (``size_hint_y=None``)
    as tall as the text in the smallest size, taking the room from what in its
    layout takes the rest (a live picture), and it is its own height again once
    the text fits; without it the text overflows its label.

    (Kivy 2.3's label whose text height is fixed, as :func:`wrapped` makes it,
    with ``valign="middle"``, drops the last lines of a text of several lines
    before they fill it; this one does not fix the text's height: the label
    centres its text.)
    """

    def __init__(self, *, sizes=(18, 17, 16), grow: bool = False, **kwargs):
        self.sizes = tuple(sizes)
        self.grow = grow
        super().__init__(font_size=sp(self.sizes[0]), **kwargs)
        self.own_height = self.height
        self.bind(width=self._fit, text=self._fit)
        if not grow:
            self.bind(height=self._fit)

    def _fit(self, *_):
        from kivy.core.text import Label as CoreLabel

        self.text_size = (self.width, None)
        room = self.own_height if self.grow else self.height
        for size in self.sizes:
            core = CoreLabel(text=self.text, font_size=sp(size), font_name=self.font_name, bold=self.bold,
                             halign=self.halign, text_size=(self.width, None))
            core.refresh()
            if core.content_height <= room:
                break
        self.font_size = sp(size)
        if self.grow:
            self.height = max(room, core.content_height)


def button_bar(buttons, height=None, spacing=8):
    """A row of buttons of one height."""
    bar = BoxLayout(size_hint_y=None, height=TOUCH + dp(12) if height is None else height, spacing=spacing)
    for b in buttons:
        bar.add_widget(b)
    return bar


def table_guard():
    """The running app's stray-tap guard (:class:`ui.tap_guard.TapGuard`), or None (no app, no table)."""
    from kivy.app import App

    return getattr(getattr(App.get_running_app(), "table", None), "guard", None)


def hold() -> None:
    """What the buttons mean changed now (a screen, a dialog, a list, a keyboard
    moved in): presses are dropped for the guard's quiet time (``app.guard``)."""
    guard = table_guard()
    if guard is not None:
        guard.hold()


def pressed(button, callback, *, changes: bool = True):
    """Call ``callback()`` when ``button`` is released; returns the button.

    A release within the stray-tap guard's quiet time is dropped (a double
    tap acts once, touch or a test's ``dispatch`` alike). ``changes``: the
    press may change what the buttons mean (a screen, a dialog, a list): the
    quiet time starts after it. False for presses that leave every button
    where and what it was (a digit of a pad, a die's value)."""

    def release(*_):
        guard = table_guard()
        if guard is not None and not guard.ready():
            return
        callback()
        if changes and guard is not None:
            guard.hold()

    button.bind(on_release=release)
    return button


def drop_stray_touches(window, guard) -> None:
    """Touches that begin within ``guard``'s quiet time reach no widget (their
    moves and release neither): a finger's second tap never lands on what just
    appeared under it. ``window``: Kivy's ``Window``; ``guard``: a
    :class:`ui.tap_guard.TapGuard`."""
    dropped = set()

    def down(_w, touch):
        if not guard.ready():
            dropped.add(touch.uid)
            return True
        return False

    def up(_w, touch):
        if touch.uid in dropped:
            dropped.discard(touch.uid)
            return True
        return False

    window.bind(on_touch_down=down, on_touch_move=lambda _w, touch: touch.uid in dropped, on_touch_up=up)


def one_line(label, shorten_from="right"):
    """Keep ``label`` (or a button) on one line inside its own width, an
    ellipsis where the text is longer (a long name); returns the label."""
    label.shorten, label.shorten_from, label.max_lines = True, shorten_from, 1
    label.bind(size=lambda w, s: setattr(w, "text_size", (max(1, s[0] - dp(6)), None)))
    return label


def widest_word(text: str, font_size: float, *, bold: bool = False) -> float:
    """The width (px) of ``text``'s widest word at ``font_size`` px, measured by
    Kivy: a column narrower than it breaks the word ("Gestrichen|e")."""
    from kivy.core.text import Label as CoreLabel

    def width(word):
        core = CoreLabel(text=word, font_size=font_size, bold=bold)
        core.refresh()
        return core.content_width

    return max((width(w) for w in text.split()), default=0.0)


def cut_name(text: str, longest: int) -> str:
    """A name as typed, cut to ``longest`` characters (``app.name_length``) and
    without leading spaces: the start screen's fields take no more.

    >>> cut_name("  Maximiliane-Charlotte von Hohenberg", 20)
    'Maximiliane-Charlott'
    """
    return text.lstrip()[:longest]
