"""Double taps on the real widgets: the Kivy app offscreen, touched through its
Window (Kivy's own ``UnitTestTouch``: down and up, as a finger), its GPIO
buttons (MockFactory) and keys, the stray-tap guard on (0.6 s) with its clock
in the driver's hands (the second tap of a double tap comes 50-400 ms later by
that clock, so no test waits). Run as a subprocess by tests/test_stray_taps.py.

Usage: python tests/ui_guard.py SCENARIO DATA_DIR OUT_DIR
Prints one JSON line with what happened. Scenarios: ``screens`` (the start,
menu, settings and correction screens' own buttons double-tapped, and GPIO
and keys pressed just after them), ``games`` (a whole Durchmarsch game and a
whole Fenn game by double taps on the widgets), ``read_line`` (a Fenn demo
move read by the camera, then touch moves: the "Read: …" line goes).
"""

import json
import os
import random
import sys

from ui.snapshot import offscreen  # noqa: E402  (before Kivy is imported)

offscreen(os.path.join(sys.argv[3], ".kivy"))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from companion.config import DEFAULTS  # noqa: E402
from ui.app import run_app  # noqa: E402
from ui.snapshot import drive, enter_players, wait_for, winning_values  # noqa: E402

SCENARIO, DATA, OUT = sys.argv[1:4]
GAPS = (0.05, 0.2, 0.4)  # seconds between the two taps of a double tap
SHOWN = 1.0  # a deliberate tap: the screen was shown this long


class Clock:
    """The guard's clock, moved by the driver."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now

    def wait(self, seconds):
        self.now += seconds


def where(w):
    """The middle of widget ``w`` in window pixels."""
    return w.to_window(w.center_x, w.center_y)


def touch(pos):
    """A finger down and up at ``pos`` (window px), through the Window as a touchscreen's touch."""
    from kivy.tests.common import UnitTestTouch

    t = UnitTestTouch(*pos)
    t.touch_down()
    t.touch_up()


def under(pos):
    """The name of the button a touch at ``pos`` would reach now (the topmost
    dialog first), or None: shows the second tap lands on something live."""
    from kivy.core.window import Window
    from kivy.uix.behaviors import ButtonBehavior

    def walk(w):
        if getattr(w, "opacity", 1) == 0 or not w.collide_point(*w.to_widget(*pos)):
            return None
        kids = [w.current_screen] if getattr(w, "current_screen", None) is not None else w.children
        for c in kids:
            found = walk(c)
            if found:
                return found
        if isinstance(w, ButtonBehavior) and not w.disabled:
            return getattr(w, "text", "") or type(w).__name__
        return None

    for top in Window.children:  # children[0] is the topmost (an open dialog)
        found = walk(top)
        if found or type(top).__name__.endswith(("Dialog", "Pad", "ModalView", "DropDown")):
            return found
    return None


def shown():
    """Yield until the screen manager's change of screen is drawn (Kivy's
    ScreenManager takes no touch before: the guard must be what drops a tap)."""
    from kivy.app import App

    sm = App.get_running_app().sm
    yield 0.05
    yield from wait_for(lambda: not sm.transition.is_active, 5, 0.05)


def double_tap(clock, w, gap, settle=0.15):
    """Tap widget ``w`` deliberately, then again ``gap`` s later (by the guard's
    clock) where it was; yields while the screen changes. Leaves in
    ``double_tap.second`` what lay under the finger at the second tap and in
    ``double_tap.dropped`` how many taps the guard dropped."""
    from kivy.app import App

    guard = App.get_running_app().table.guard
    yield from shown()
    pos = where(w)
    clock.wait(SHOWN)
    dropped = guard.dropped
    touch(pos)
    yield settle
    yield from shown()
    double_tap.second = under(pos)
    clock.wait(gap)
    touch(pos)
    yield settle
    double_tap.dropped = guard.dropped - dropped


def press(pin):
    pin.drive_low()
    pin.drive_high()


# -- the start, menu, settings and correction screens --------------------------------------------
def screens(app, rep, Window, clock):
    g_rep = rep.setdefault("cases", [])
    s = app.start_screen
    for gap in GAPS:
        # 1. Start: the keyboard's ⏎ after the last name puts the keyboard away and Start comes back there.
        clock.wait(SHOWN)
        app.show_start()
        s = app.start_screen
        enter_players(s, ["Anna", "Ben", "Cleo", "Dan"])
        s.onscreen = True
        for t in s.inputs:
            t.keyboard_mode = "managed"
        s.inputs[3].focus = True
        s.show_keyboard(s.inputs[3])
        yield 0.3
        kb = s.keyboard
        x0, y0 = kb.to_window(*kb.pos)
        enter = (x0 + kb.width * 0.93, y0 + kb.height * 0.5)  # ⏎ at the end of the middle row (every layout)
        started = app.session.game_id
        clock.wait(SHOWN)
        dropped = app.table.guard.dropped
        touch(enter)
        yield 0.3
        second = under(enter)
        clock.wait(gap)
        touch(enter)
        yield 0.3
        g_rep.append({"case": "enter_then_start", "gap": gap, "under": second, "keyboard_gone": kb.parent is None,
                      "dropped": app.table.guard.dropped - dropped,
                      "screen": app.sm.current, "started": app.session.game_id != started})
        # 2. Start: a game, a throw; End screen's "New players" lands on the start screen's Start.
        clock.wait(SHOWN)
        s.start_btn.dispatch("on_release")  # a deliberate start, the screen shown a while
        yield 0.3
        g = app.session.game
        while not g.is_over:
            if g.decision_due:
                app.session.decide("continue")
            else:
                app.session.throw(winning_values(g.target, g.dice_to_throw))
        yield 0.3
        before = app.session.game_id
        new = next(b for b in app.end_screen.walk() if getattr(b, "text", "") == "New players")
        yield from double_tap(clock, new, gap)
        g_rep.append({"case": "new_players_then_start", "gap": gap, "under": double_tap.second, "dropped": double_tap.dropped,
                      "screen": app.sm.current, "new_game": app.session.game_id != before})
        # 3. A game at the table: Menu double-tapped (the second tap outside the menu would close it).
        clock.wait(SHOWN)
        app.start_screen.start_btn.dispatch("on_release")
        yield 0.3
        g = app.session.game
        yield from double_tap(clock, app.game_screen.menu_btn, gap)
        g_rep.append({"case": "menu_twice", "gap": gap, "under": double_tap.second, "dropped": double_tap.dropped,
                      "menu_open": type(app.dialog).__name__ == "MenuDialog"})
        # 4. Menu → Settings: the PIN pad opens under the finger; no digit typed.
        entry = next(b for b in app.dialog.walk() if getattr(b, "text", "") == "Settings")
        yield from double_tap(clock, entry, gap)
        pad = app.dialog
        g_rep.append({"case": "settings_then_pin_digit", "gap": gap, "under": double_tap.second, "dropped": double_tap.dropped,
                      "pad": type(pad).__name__, "typed": getattr(pad, "entered", None)})
        # 5. The PIN's OK opens the settings screen: the tap after it lands on a setting.
        clock.wait(SHOWN)
        for k in "1234":
            touch(where(pad.keys[k]))  # digits typed quickly (a digit does not start the quiet time)
        yield 0.1
        yield from double_tap(clock, pad.keys["OK"], gap, settle=0.3)
        st = app.sm.get_screen("settings") if app.sm.has_screen("settings") else None
        opened = [w for w in Window.children if type(w).__name__ in ("DropDown", "NumberPad")]
        g_rep.append({"case": "pin_ok_then_setting", "gap": gap, "under": double_tap.second, "dropped": double_tap.dropped,
                      "screen": app.sm.current, "opened": [type(w).__name__ for w in opened]})
        for w in opened:
            w.dismiss()
        yield 0.2
        # 6. A setting's drop-down double-tapped: its choices open under the finger; none is picked.
        camera = st.fields["source"]
        before = camera.text
        yield from double_tap(clock, camera, gap, settle=0.3)
        g_rep.append({"case": "dropdown_twice", "gap": gap, "under": double_tap.second, "dropped": double_tap.dropped,
                      "open": camera.is_open, "value_kept": camera.text == before})
        camera.is_open = False
        yield 0.2
        # 7. Settings' Cancel: back at the game, where "Wrong?" lies under the finger.
        app.session.throw([6, 4, 1, 1, 1, 1, 1, 1])
        yield 0.2
        cancel = next(b for b in st.walk() if getattr(b, "text", "") == "Cancel")
        yield from double_tap(clock, cancel, gap)
        g_rep.append({"case": "settings_cancel_then_wrong", "gap": gap, "under": double_tap.second, "dropped": double_tap.dropped,
                      "screen": app.sm.current})
        # 8. GPIO and keys right after the screen changed: Wrong? opens the correction; CONTINUE
        # by GPIO 'gap' later would confirm it; a key C neither.
        yield from shown()
        clock.wait(SHOWN)
        touch(where(app.game_screen.wrong_btn))
        yield from shown()
        n = len(g.events)
        clock.wait(gap)
        press(app.buttons.continue_.pin)
        yield 0.3
        Window.dispatch("on_key_down", 99, 0, "c", [])
        yield 0.2
        g_rep.append({"case": "wrong_then_gpio_and_key", "gap": gap, "screen": app.sm.current,
                      "events": len(g.events) - n})
        # 9. The photo tapped: shown over the whole screen; the second tap does not close it at once.
        import numpy as np

        cs = app.correction_screen
        cs.picture.show_frame(np.full((120, 160, 3), 90, np.uint8))
        yield from double_tap(clock, cs.picture, gap)
        zoom = Window.children[0]
        g_rep.append({"case": "photo_zoom", "gap": gap, "dropped": double_tap.dropped,
                      "zoomed": zoom is getattr(cs, "zoomed", None) and tuple(zoom.size) == tuple(Window.size)})
        clock.wait(SHOWN)
        touch(where(cs.picture))  # a deliberate tap closes it
        yield 0.2
        g_rep[-1]["closed"] = cs.zoomed not in Window.children
        # 10. The correction's Cancel: back at the game, where "Wrong?" lies under the finger.
        yield from double_tap(clock, app.correction_screen.cancel_btn, gap)
        g_rep.append({"case": "correction_cancel_then_wrong", "gap": gap, "under": double_tap.second,
                      "dropped": double_tap.dropped, "screen": app.sm.current})
        # 11. The correction's Confirm, twice: one throw scored (the decision is due).
        yield from shown()
        clock.wait(SHOWN)
        touch(where(app.game_screen.wrong_btn))
        yield from shown()
        n = len(g.events)
        yield from double_tap(clock, app.correction_screen.confirm_btn, gap)
        g_rep.append({"case": "confirm_twice", "gap": gap, "under": double_tap.second, "dropped": double_tap.dropped,
                      "screen": app.sm.current, "events": len(g.events) - n, "decision_due": g.decision_due})
        # A deliberate tap once the screen was shown acts.
        yield from shown()
        clock.wait(SHOWN)
        touch(where(app.game_screen.stop_btn))
        yield 0.2
        g_rep.append({"case": "deliberate_stop", "gap": gap, "events": len(g.events) - n})
    rep["dropped"] = app.table.guard.dropped


# -- whole games by double taps --------------------------------------------------------------------
class Tray:
    """The demo's camera replaced: THROW asks it for dice; the driver "reads" them."""

    def __init__(self):
        self.asked = []

    def throw(self, values):
        self.asked.append(len(values))


def durchmarsch(app, rep, clock, rng):
    """Anna: 10, STOP; Ben: a misthrow; Anna: 9 … 1 by CONTINUE (a row: she wins).
    Every tap by touch on the widget, each followed by a stray tap where it was."""
    app.show_start()
    s = app.start_screen
    enter_players(s, ["Anna", "Ben"], first=0)
    clock.wait(SHOWN)
    s.start_btn.dispatch("on_release")
    yield 0.3
    g, scr = app.session.game, app.game_screen
    tray = Tray()
    app.table.camera = tray
    intended, strays, acted = [], 0, []

    def read(values):
        app.table.waiting_for_rest = False
        app.session.throw(values)
        intended.append({"throw": list(values)})

    plan = [("throw", [6, 4, 1, 1, 2, 2, 3, 3]), ("stop",), ("throw", [1, 1, 1, 1, 1, 1, 1, 2])]
    for target in range(9, 0, -1):
        plan += [("throw", None), ("continue",)] if target > 1 else [("throw", None)]
    for step in plan:
        yield from shown()
        clock.wait(SHOWN)
        button = {"throw": scr.throw_btn, "stop": scr.stop_btn, "continue": scr.continue_btn}[step[0]]
        pos = where(button)
        n, asked = len(g.events), len(tray.asked)
        touch(pos)
        yield 0.1
        if step[0] == "throw":
            acted.append(len(tray.asked) - asked)
            read(step[1] or winning_values(g.target, g.dice_to_throw))
        else:
            intended.append({"decision": step[0]})
            acted.append(len(g.events) - n)
        yield 0.1
        yield from shown()
        n, asked = len(g.events), len(tray.asked)
        clock.wait(rng.uniform(0.05, 0.4))
        touch(pos)  # the second tap, where the finger was: THROW after STOP, STOP after a read...
        strays += 1
        yield 0.1
        assert len(g.events) == n and len(tray.asked) == asked, ("a stray tap acted", step)
    rep["durchmarsch"] = {"over": g.is_over, "winner": g.winner, "strays": strays, "acted": acted,
                          "events": [g.event_to_json(e) for e in g.events], "intended": intended,
                          "stored": [g.event_to_json(e) for e in app.session.store.load(app.session.game_id).game.events],
                          "screen": app.sm.current}


def fenn(app, rep, clock, rng):
    """Anna (blue) and Ben race to their goals: each turn the end nearest the goal
    (``turn_ends``), tapped on the board, the faces, the black die and End turn,
    each tap followed by a stray tap where it was."""
    from companion.fenn import GOAL, EndTurn, Pass, SetBlack, Step

    app.show_start()
    s = app.start_screen
    s.choose_game("fenn")
    enter_players(s, ["Anna", "Ben"], first=0)
    clock.wait(SHOWN)
    s.start_btn.dispatch("on_release")
    yield 0.3
    g, scr, flow = app.session.game, app.fenn_screen, app.table.fenn
    intended, strays = [], 0

    def face(value, colour=None):
        return next(w for w in scr.choices.children if getattr(w, "value", None) == value
                    and (colour is None or w.colour == colour))

    def field(n):
        x0, y0, size = scr.board.geometry()
        return scr.board.to_window(x0 + (n - 0.5) * size, y0 + size / 2)

    def tap_twice(pos):
        nonlocal strays
        yield from shown()
        clock.wait(SHOWN)
        touch(pos)
        yield 0.08
        yield from shown()
        n = len(g.events)
        clock.wait(rng.uniform(0.05, 0.4))
        touch(pos)
        strays += 1
        yield 0.08
        assert len(g.events) == n, "a stray tap acted"

    for value in (3, 6):  # the black die: 3 (thrown again), then 6: blue begins
        yield from tap_twice(where(face(value, "black")))
        intended.append({"black": value})
    for _turn in range(60):
        if g.is_over:
            break
        if flow.can_pass():
            yield from tap_twice(where(scr.end_btn))
            intended.append(Pass())
            continue
        goal = GOAL[g.position().to_move]
        ends = g.turn_ends()
        best = min(abs(goal - k[0]) for k in ends)
        path = ends[rng.choice(sorted(k for k in ends if abs(goal - k[0]) == best))]
        for e in path:
            if isinstance(e, Step):
                at_goal = Step(e.field, min(t.top for t in g.legal_steps() if t.field == e.field))
                yield from tap_twice(field(e.field))
                if g.is_over:  # the goal: won at the tap on the field, whatever the face (F4: the first listed)
                    intended.append(at_goal)
                    break
                yield from tap_twice(where(face(e.top)))
            elif isinstance(e, SetBlack):
                yield from tap_twice(where(face(e.top, "black")))
            elif isinstance(e, EndTurn) and flow.can_end_turn():
                yield from tap_twice(where(scr.end_btn))
            intended.append(e)
            if g.is_over:
                break
    rep["fenn"] = {"over": g.is_over, "winner": g.winner, "strays": strays,
                   "events": [g.event_to_json(e) for e in g.events],
                   "intended": [e if isinstance(e, dict) else g.event_to_json(e) for e in intended],
                   "stored": [g.event_to_json(e) for e in app.session.store.load(app.session.game_id).game.events],
                   "screen": app.sm.current}


def games(app, rep, Window, clock):
    rng = random.Random(7)
    yield from durchmarsch(app, rep, clock, rng)
    yield from fenn(app, rep, clock, rng)
    rep["dropped"] = app.table.guard.dropped


# -- Fenn: a demo move's "Read: …" line -----------------------------------------------------------
def read_line(app, rep, Window, clock):
    app.table.guard.seconds = 0.0  # this scenario is about the words, not the taps
    # The demo's board and move come from the table's random source: a fixed seed, a
    # board the reader reads sure (an unsure read asks instead of moving: another test;
    # seed 7's board asks since its calibration measures the table's tilt along alone).
    app.table.rng = random.Random(2)
    s = app.start_screen
    s.choose_game("fenn")
    enter_players(s, ["Anna", "Ben"], first=0)
    s.start_btn.dispatch("on_release")
    yield 0.3
    g, flow, scr = app.session.game, app.table.fenn, app.fenn_screen
    flow.tap_black(6)  # blue (Anna) begins
    yield 0.2
    n = len(g.events)
    scr.demo_btn.dispatch("on_release")  # Anna's turn by the demo: the board shown, read at rest
    yield from wait_for(lambda: len(g.events) > n and flow.seen, 60)
    yield 0.3
    rep["after_demo"] = {"moved": len(g.events) > n, "prompt": scr.prompt.text.replace("\u00a0", " ")}
    texts = []
    ends = g.turn_ends()
    path = ends[sorted(ends)[0]]
    for e in path:  # Ben's turn by touch
        if hasattr(e, "field"):
            flow.tap_field(e.field)
            yield 0.3
            texts.append(scr.prompt.text.replace("\u00a0", " "))
            if g.is_over:
                break
            flow.tap_face(e.top)
        elif hasattr(e, "top"):
            flow.tap_black(e.top)
        elif flow.can_end_turn():
            flow.end_turn()
        yield 1.0  # the camera keeps watching the board (unchanged: the demo's picture)
        texts.append(scr.prompt.text.replace("\u00a0", " "))
    rep["touch_prompts"] = texts


def main():
    from ui.tap_guard import DEFAULT_GUARD

    cfg = json.loads(json.dumps(DEFAULTS))
    cfg["app"]["data_dir"] = DATA
    cfg["app"]["language"] = "en"
    cfg["app"]["guard"] = DEFAULT_GUARD
    cfg["camera"].update(source="mock", seed=11)
    factory = MockFactory()
    cfg["_pin_factory"] = factory
    rep = {}
    clock = Clock()

    def driver(app):
        app.table.guard.clock = clock  # the same guard the widgets, keys and GPIO ask
        from kivy.core.window import Window

        drive(app, globals()[SCENARIO](app, rep, Window, clock), rep)

    run_app(cfg, driver=driver)
    print(json.dumps(rep))


if __name__ == "__main__":
    main()
