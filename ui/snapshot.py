"""``companion snapshot``: every screen in a representative state, as PNG files.

Runs the real app offscreen (SDL's offscreen driver, the mock camera, GPIO on
gpiozero's MockFactory) on a throw-away data folder, plays a scripted game
of three players and saves, in ``OUTDIR``:

``start.png`` (names, recent names, first roller), ``decision.png`` (a throw
read at rest, STOP/CONTINUE due), ``game.png`` (set a die aside, throw 7,
risk meter), ``correction.png`` (a read with a die missing), ``undo.png``
(the undo question), ``pin.png`` (the settings PIN pad), ``settings.png``,
``settings-more.png`` (its numbers, the new PIN, an old unfinished game offered for
ending), ``numpad.png`` (the new PIN typed on the screen's digits),
``calibrate.png`` (four tray corners touched on the still picture), ``end.png``
(winner and how the game went), ``board.png`` (Fenn's board: two ends touched), ``end-sheets.png`` (the final sheets),
``resume.png`` (the unfinished games offered after a restart), ``history.png``
(this game's throws, the players' totals, the rematch tally), ``rules.png`` (the rules card),
then a game of Fenn by touch (:mod:`ui.fenn_snapshot`: ``fenn-*.png``).

Example::

    companion snapshot --size 800x480 --lang de /tmp/shots
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile

from .fenn_snapshot import FENN_SCREENS

__all__ = ["snapshot", "drive", "enter_players", "wait_for", "touch_picture", "SCREENS", "winning_values", "offscreen"]

#: The PNG files written, in order.
SCREENS = ("start", "start-keyboard", "decision", "game", "correction", "undo", "pin", "settings", "settings-more",
           "numpad", "calibrate",
           "board", "end", "end-sheets", "resume", "history", "rules") + FENN_SCREENS


#: The snapshot's players: everyday names, or (``--long-names``) per language four names of
#: the longest length taken (``app.name_length``, 20), wide letters first: every screen must fit them.
NAMES = ("Sarah", "Tim", "Maria", "Jonas")
LONG_NAMES = {
    "de": ("Wolfgang Weißmüller-W", "Hans-Jürgen Großmann", "Marie-Luise Schönwald", "Maximilian Wöhlbrück"),
    "en": ("Wilhelmina Whitworth", "Christopher Williams", "Mary-Elizabeth Moore", "Maximilian Wellwood"),
    "fr": ("Marie-Éléonore Wéry-M", "Jean-Baptiste Moreau", "Anne-Sophie Lefèvre", "François Dumont-Wéry"),
    "it": ("Maria Valentina Rossi", "Gian Marco Bianchini", "Niccolò Mastroianni", "Anna Maria Castelli"),
}


def players_for(lang: str, long_names: bool) -> list[str]:
    """The snapshot's four players (cut to 20 characters, the longest names taken by default)."""
    return [n[:20] for n in LONG_NAMES.get(lang, LONG_NAMES["en"])] if long_names else list(NAMES)


def offscreen(kivy_home: str | None = None) -> None:
    """Set Kivy's environment for a window nobody sees (SDL's offscreen driver,
    no command line, no log files; ``kivy_home``: Kivy's folder, when given).
    Call it before Kivy is imported (``companion snapshot`` and the tests' drivers)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    if kivy_home:
        os.environ.setdefault("KIVY_HOME", kivy_home)


def winning_values(target: int, n: int) -> list[int]:
    """``n`` dice values (1-6) that form ``target`` (10…1; two dice for 10-7)."""
    vals = [6, target - 6] if target >= 7 else [target]
    return vals + [1 if target != 1 else 2] * (n - len(vals))


def enter_players(start, names, *, first: int | None = None) -> None:
    """Type ``names`` (seating order) into start screen ``start``'s four fields,
    blanking the rest, and press "Starts" of seat ``first`` (None: no choice)."""
    for i, t in enumerate(start.inputs):
        t.text = names[i] if i < len(names) else ""
    if first is not None:
        for i, b in enumerate(start.first_buttons):
            b.state = "down" if i == first else "normal"


def drive(app, steps, report: dict) -> None:
    """Run generator ``steps`` on Kivy's clock: each value it yields is the
    seconds to wait before the next step; the app stops when it ends. An
    exception is put in ``report["error"]`` and stops the app."""
    from kivy.clock import Clock

    it = iter(steps)

    def tick(dt):
        try:
            wait = next(it)
        except StopIteration:
            app.stop()
            return
        except Exception as e:  # report and stop rather than hang
            import traceback

            report["error"] = f"{type(e).__name__}: {e}"
            report["traceback"] = traceback.format_exc()
            app.stop()
            return
        Clock.schedule_once(tick, wait or 0.05)

    Clock.schedule_once(tick, 0.1)


class _Touch:
    """The least of a Kivy touch a widget's ``on_touch_down`` reads: ``pos``."""

    def __init__(self, pos):
        self.pos = self.opos = pos
        self.x, self.y = pos


def touch_picture(picture, fx: float, fy: float) -> bool:
    """Touch a picture widget (a :class:`ui.widgets.CornerPicker`) at ``(fx, fy)``,
    fractions of the drawn picture's width and height from its top-left corner."""
    (x0, y0), (w, h) = picture.picture_rect()
    return picture.on_touch_down(_Touch((x0 + fx * w, y0 + h - fy * h)))


def visible_texts(window) -> list[str]:
    """The texts of every widget shown in ``window`` (labels, buttons, inputs),
    sorted: what a player can read on the screen, or reach by scrolling a list
    (a scroll view's whole content, wherever it is scrolled to: the same
    however far its layout got), to compare screens across a refactor (the
    picture's pixels vary with the live camera)."""
    from kivy.uix.scrollview import ScrollView

    out = []

    def walk(w, shown=True, scrolled=False):
        shown = shown and getattr(w, "opacity", 1) > 0 and not getattr(w, "disabled_hidden", False)
        text = getattr(w, "text", None)
        if shown and isinstance(text, str) and text.strip():
            x, y = w.to_window(*w.pos)
            if scrolled or (x < window.width and y < window.height and x + w.width > 0 and y + w.height > 0):
                out.append(text.strip())
        # A screen manager shows its current screen (during a transition the old one too: not kept).
        children = [w.current_screen] if getattr(w, "current_screen", None) is not None else w.children
        for c in children:
            walk(c, shown, scrolled or isinstance(w, ScrollView))

    for c in window.children:
        walk(c)
    return sorted(out)


def smallest_text(window) -> tuple[float, str]:
    """The smallest font size (px) of any text shown in ``window`` and that
    text: ``(px, text)`` (``(0, "")`` when none). Walks the widgets as
    :func:`visible_texts` does; a text drawn in a label's markup at another
    size is not seen."""
    best = (0.0, "")
    for w in _on_screen(window):
        text, size = getattr(w, "text", None), getattr(w, "font_size", None)
        if isinstance(text, str) and text.strip() and size and w.height > 2:
            if not best[1] or float(size) < best[0]:
                best = (round(float(size), 1), text.strip()[:40])
    return best


def _on_screen(window):
    """The widgets shown in ``window`` (not hidden, at least partly inside it,
    more than 2 px wide), walking only the screen manager's current screen."""

    def walk(w, shown=True):
        shown = shown and getattr(w, "opacity", 1) > 0
        if shown and w.width > 2:
            x, y = w.to_window(*w.pos)
            if x < window.width and y < window.height and x + w.width > 0 and y + w.height > 0:
                yield w
        children = [w.current_screen] if getattr(w, "current_screen", None) is not None else w.children
        for c in list(children):
            yield from walk(c, shown)

    for c in list(window.children):
        yield from walk(c)


def settle(window) -> None:
    """Lay out every layout in ``window`` now, parents first (as Kivy's next
    frame would), so what is measured is what will be drawn."""
    from kivy.uix.layout import Layout
    from kivy.uix.scrollview import ScrollView

    def walk(w):
        if isinstance(w, Layout):
            w.do_layout()
        elif isinstance(w, ScrollView) and w.children:
            w.update_from_scroll()  # its content's width follows its own
        for c in list(w.children):
            walk(c)

    for c in list(window.children):
        walk(c)


def cut_texts(window) -> list[str]:
    """The texts shown in ``window`` that do not fit their label (or button):
    a word wider than the width its text wraps in (Kivy breaks it inside the
    word: "Gestrichen|e"), lines taller than the label (the last ones lost or
    spilling), or one line wider than an unwrapped label. Measured with Kivy's
    own text layout. Labels that end in an ellipsis by design (``shorten``)
    and markup are left out. Returns the texts (their first 40 characters)."""
    from kivy.core.text import Label as CoreLabel
    from kivy.uix.label import Label

    def measure(w, text, width=None):
        core = CoreLabel(text=text, font_size=w.font_size, font_name=w.font_name, bold=w.bold,
                         halign=w.halign, text_size=(width, None), padding=w.padding)
        core.refresh()
        return core.content_width, core.content_height

    out = []
    for w in _on_screen(window):
        if not isinstance(w, Label) or not w.text.strip() or w.shorten or w.markup:
            continue
        wrap = w.text_size[0]
        if wrap:
            widest = max(w.text.split(), key=lambda word: measure(w, word)[0])
            if measure(w, widest)[0] > wrap + 1 or measure(w, w.text, wrap)[1] > w.height + 2:
                out.append(w.text.strip()[:40])
        elif measure(w, w.text)[0] > w.width + 1:
            out.append(w.text.strip()[:40])
    return out


def shot(window, outdir: str, name: str, report: dict | None = None) -> str:
    """Save the window as ``OUTDIR/name.png``; returns the path. With ``report``,
    also keep the screen's :func:`visible_texts` in ``report["texts"][name]``."""
    if report is not None:
        settle(window)
        report.setdefault("texts", {})[name] = visible_texts(window)
        report.setdefault("smallest", {})[name] = smallest_text(window)
        report.setdefault("cut", {})[name] = cut_texts(window)
    made = window.screenshot(os.path.join(outdir, name + ".png"))
    path = os.path.join(outdir, name + ".png")
    if made and made != path:
        os.replace(made, path)
    return path


def wait_for(cond, timeout=10.0, step=0.1):
    """Yield ``step`` until ``cond()`` is true or ``timeout`` seconds passed."""
    waited = 0.0
    while not cond() and waited < timeout:
        yield step
        waited += step


def _script(app, outdir, report, names=NAMES):
    from kivy.core.window import Window

    s = app.start_screen
    long = names != NAMES  # the longest names: four players, the sheets at their smallest
    enter_players(s, list(names if long else names[:3]), first=0)
    s.refresh_recent()
    s.refresh_first()
    yield 0.3
    report["files"].append(shot(Window, outdir, "start", report))
    # The names keyboard of the language, as on the kiosk's touchscreen: a fourth
    # name typed by touch, with the language's accents and ⇧ for a capital.
    s.onscreen = True
    s.inputs[3].keyboard_mode = "managed"
    s.inputs[3].text = ""
    s.show_keyboard(s.inputs[3])
    for key in {"de": "jürgen", "fr": "zoé", "it": "niccolò"}.get(app.language, "zoe"):
        s._key(key)
    yield 0.4
    report["files"].append(shot(Window, outdir, "start-keyboard", report))
    report["typed"] = s.inputs[3].text
    s.inputs[3].text = names[3] if long else ""
    s.hide_keyboard()
    yield 0.2
    s.start_btn.dispatch("on_release")
    yield 0.3
    session = app.session
    # How the game went so far: Sarah 10, 9, stop; Tim misthrow; Maria 10, stop.
    for ev in ([6, 4, 1, 1, 2, 2, 3, 3], "continue", [5, 4, 1, 1, 1, 1, 1], "stop",
               [1, 1, 1, 1, 1, 1, 1, 2], [5, 5, 1, 1, 2, 2, 3, 3], "stop"):
        session.decide(ev) if isinstance(ev, str) else session.throw(ev)
    yield 0.2
    throw = [6, 2, 3, 3, 1, 5, 4, 2]  # Sarah's throw for 8
    app.camera.throw(throw)
    yield from wait_for(lambda: session.game.decision_due or app.sm.current == "correction", 15)
    if app.sm.current == "correction":  # the reader was unsure: correct it as players would
        app.correction_screen.values = list(throw)
        app.confirm_correction(list(throw))
    yield 0.6
    report["files"].append(shot(Window, outdir, "decision", report))
    app.game_screen.continue_btn.dispatch("on_release")
    yield 0.6
    report["files"].append(shot(Window, outdir, "game", report))
    app.camera.throw([1, 3, 5, 6, 2, 2])  # six dice where seven are due: the reader asks
    yield from wait_for(lambda: app.sm.current == "correction", 15)
    report["asked"] = app.sm.current == "correction"
    app.correction_screen.select(0)
    yield 0.4
    report["files"].append(shot(Window, outdir, "correction", report))
    app.correction_screen.add_die()
    app.correction_screen.set_value(6)
    app.correction_screen.confirm()
    yield 0.3
    app.ask_undo()
    yield 0.4
    report["files"].append(shot(Window, outdir, "undo", report))
    app.dialog.dismiss()
    yield 0.2
    import time
    from unittest import mock

    with mock.patch("time.time", return_value=time.time() - 3 * 86400):  # a game left three days ago
        session.store.new_game(list(names[:2]), first=0, game="fenn")
    app.open_settings()
    yield 0.2
    for k in "12":
        app.dialog.key(k)
    yield 0.3
    report["files"].append(shot(Window, outdir, "pin", report))
    for k in "34":
        app.dialog.key(k)
    app.dialog.key("OK")
    yield 0.4
    report["files"].append(shot(Window, outdir, "settings", report))
    st = app.sm.get_screen("settings")
    st.scroll.scroll_y = 0  # the numbers, the PIN and the old game offered for ending
    yield 0.3
    report["files"].append(shot(Window, outdir, "settings-more", report))
    report["stale_offered"] = len(st.stale)
    st.end_stale()
    st.fields["pin"].open_pad()
    for k in "4711":
        st.fields["pin"].pad.key(k)
    yield 0.3
    report["files"].append(shot(Window, outdir, "numpad", report))
    st.fields["pin"].pad.dismiss()
    yield 0.2
    app.open_calibration()
    yield 0.3
    picker = app.calibration_screen.picker
    for fx, fy in ((0.15, 0.2), (0.85, 0.18), (0.88, 0.85), (0.12, 0.82)):
        touch_picture(picker, fx, fy)
    yield 0.3
    report["files"].append(shot(Window, outdir, "calibrate", report))
    app.close_calibration()
    app.open_calibration("board")  # Fenn's board: found on the still (the mock camera shows a tray: none found)
    app.sm.get_screen("board").picker.set_corners(((300.0, 500.0), (1340.0, 520.0)))
    yield 0.3
    report["files"].append(shot(Window, outdir, "board", report))
    app.close_calibration()
    app.close_settings()
    g = session.game
    while not g.is_over:
        if g.decision_due:
            session.decide("continue")
        else:
            session.throw(winning_values(g.target, g.dice_to_throw))
    yield 0.6
    report["files"].append(shot(Window, outdir, "end", report))
    app.end_screen.toggle_sheets()
    yield 0.4
    report["files"].append(shot(Window, outdir, "end-sheets", report))
    # Two games left unfinished, as a restart finds them: the choice offered at once.
    for who in (list(names[:3]), ["Anna", "Ben"] if not long else list(names[2:])):
        session.store.new_game(who, first=0)
    app.offer_resume()
    yield 0.4
    report["files"].append(shot(Window, outdir, "resume", report))
    app.dialog.dismiss()
    yield 0.3
    app.open_history()
    yield 0.4
    report["files"].append(shot(Window, outdir, "history", report))
    app.dialog.dismiss()
    yield 0.3
    app.open_rules()
    yield 0.4
    report["files"].append(shot(Window, outdir, "rules", report))
    app.dialog.dismiss()
    yield 0.2
    from .fenn_snapshot import fenn_script

    yield from fenn_script(app, report, save=lambda name: report["files"].append(shot(Window, outdir, name, report)),
                           enter_players=enter_players, wait_for=wait_for,
                           players=("Anna", "Ben") if not long else names[:2])
    report["screens"] = [os.path.basename(f)[:-4] for f in report["files"]]


def snapshot(size: tuple[int, int], lang: str, outdir: str, *, long_names: bool = False, pace: float = 1.0) -> dict:
    """Render every screen (see the module text) at ``size`` ``(width, height)``
    px in language ``lang`` into ``outdir`` (``long_names``: the players'
    names of :data:`LONG_NAMES`, four at the Durchmarsch table; ``pace``: the
    script's waits times this, 0.25 for a quick check). Returns a report ``{"files":
    [...], "error"?: ...}``. Raises ``ValueError`` for a language not offered."""
    from companion.i18n import LANGUAGES

    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not offered (choose from {', '.join(LANGUAGES)})")
    offscreen()
    os.makedirs(outdir, exist_ok=True)
    data = tempfile.mkdtemp(prefix="companion-snapshot-")
    try:
        return _snapshot_in(size, lang, outdir, data, players_for(lang, long_names), pace=pace)
    finally:
        shutil.rmtree(data, ignore_errors=True)  # the demo game's store and frames are not kept


def _paced(steps, pace: float):
    """The script ``steps`` with every wait it yields times ``pace``."""
    for wait in steps:
        yield wait * pace if wait else wait


def _snapshot_in(size: tuple[int, int], lang: str, outdir: str, data: str, names=NAMES, pace: float = 1.0) -> dict:
    """:func:`snapshot` with its demo game kept in the folder ``data``."""
    os.environ.setdefault("KIVY_HOME", os.path.join(data, ".kivy"))
    from gpiozero.pins.mock import MockFactory

    from companion.config import DEFAULTS
    from companion.storage import Store

    old = Store(data)  # an earlier game, so the start screen offers recent names
    old.abandon(old.new_game(list(names), first=0))
    old.close()
    cfg = json.loads(json.dumps(DEFAULTS))
    cfg["app"].update(data_dir=data, language=lang, guard=0.0)  # pictures of screens: no waiting between presses
    cfg["camera"].update(source="mock", seed=3)
    cfg["_pin_factory"] = MockFactory()
    report: dict = {"files": [], "size": list(size), "lang": lang}

    from ui.app import run_app

    run_app(cfg, driver=lambda app: drive(app, _paced(_script(app, outdir, report, tuple(names)), pace), report),
            size=size)
    return report


def main(size: str, lang: str, outdir: str, long_names: bool = False, pace: float = 1.0) -> int:
    """CLI entry: prints the report as JSON; exit 0 when every screen was saved."""
    try:
        w, h = (int(v) for v in size.lower().split("x"))
    except ValueError:
        print(f"--size must be WIDTHxHEIGHT, got {size!r}", file=sys.stderr)
        return 2
    rep = snapshot((w, h), lang, outdir, long_names=long_names, pace=pace)
    print(json.dumps(rep))
    return 0 if "error" not in rep and len(rep["files"]) == len(SCREENS) else 1
