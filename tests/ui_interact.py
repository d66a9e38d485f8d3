"""Drive the Kivy app offscreen through taps, GPIO presses (MockFactory) and keys
(run as a subprocess by tests/test_screens.py; one app per process).

Usage: python tests/ui_interact.py SCENARIO DATA_DIR OUT_DIR
Prints one JSON line with what happened, then exits. Scenarios: ``table``
(start screen, decisions by tap/GPIO/key, lights, correction, undo, settings,
language), ``fenn`` (a Fenn game by the board's widgets and GPIO, the board
calibrated by two touches), ``cafe`` (the stray-tap guard on, GUARD=0.6: double taps
on the real widgets, GPIO and keys; the rules card of the game chosen; names cut at
typing; no key repeat; the PIN lockout counting down), ``hang`` (start a game, score a throw, print the state, then wait
to be killed), ``resume`` (resume the unfinished game).
"""

import json
import os
import sys
import time

from ui.snapshot import offscreen  # noqa: E402  (before Kivy is imported)

offscreen(os.path.join(sys.argv[3], ".kivy"))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from companion.config import DEFAULTS  # noqa: E402
from ui.app import run_app  # noqa: E402
from ui.snapshot import drive, enter_players, touch_picture, wait_for  # noqa: E402

SCENARIO, DATA, OUT = sys.argv[1:4]


def press(pin, hold=0.0):
    pin.drive_low()
    if hold:
        time.sleep(hold)
    pin.drive_high()


def throw(app, values):
    """Put ``values`` on the mock camera and wait until the app scored them
    (correcting the read to the truth if the reader asked)."""
    g = app.session.game
    n = len(g.events)
    app.camera.throw(values)
    yield from wait_for(lambda: len(g.events) > n or app.sm.current == "correction", 15)
    if app.sm.current == "correction" and len(g.events) == n:
        app.correction_screen.values = list(values)
        app.correction_screen.confirm()
        yield 0.2


def key(window, name, code):
    window.dispatch("on_key_down", code, 0, name, [])


def table(app, rep, Window):
    s = app.start_screen
    rep["start_text"] = s.start_btn.text
    # Language: German on the start screen.
    s.lang_buttons["de"].dispatch("on_release")
    yield 0.2
    s = app.start_screen  # rebuilt in German
    rep["start_text_de"] = s.start_btn.text
    s.lang_buttons["en"].dispatch("on_release")
    yield 0.2
    s = app.start_screen
    enter_players(s, ["Tim", "Sarah", "Maria"])
    s.up_buttons[1].dispatch("on_release")  # Sarah moves before Tim
    s.first_buttons[1].state = "down"  # Tim (now second) starts
    yield 0.1
    rep["first_label"] = s.first_label.text
    s.start_btn.dispatch("on_release")
    yield 0.3
    g = app.session.game
    rep["players"], rep["first"] = list(g.players), g.current_player
    f = app.cfg["_factory"]
    stop_led, cont_led = f.pin(app.cfg["gpio"]["stop_led"]), f.pin(app.cfg["gpio"]["continue_led"])
    rep["leds_before"] = [stop_led.state, cont_led.state]
    # Tim throws a 10 (6+4): decision due, both lights on.
    yield from throw(app, [6, 4, 2, 2, 3, 3, 1, 1])
    yield 0.2
    rep["after_throw"] = {"decision_due": g.decision_due, "leds": [stop_led.state, cont_led.state],
                          "prompt": app.game_screen.prompt.text.replace("\u00a0", " "), "meter": app.game_screen.meter.bar.text}
    # CONTINUE by GPIO: set a die aside, 7 dice for 9.
    press(app.buttons.continue_.pin)
    yield 0.3
    rep["after_continue"] = {"dice": g.dice_to_throw, "prompt": app.game_screen.prompt.text.replace("\u00a0", " "),
                             "leds": [stop_led.state, cont_led.state]}
    # A misthrow for 9 ... that was really a 9: tap Wrong? and fix one die.
    yield from throw(app, [6, 2, 1, 1, 1, 1, 1])
    rep["before_fix"] = {"player": g.current_player, "misthrow": g.last_result.misthrow}
    app.game_screen.wrong_btn.dispatch("on_release")
    yield 0.3
    rep["wrong_screen"] = app.sm.current
    cs = app.correction_screen
    k = cs.values.index(2)
    cs.select(k)
    cs.value_buttons[3 - 1].dispatch("on_release")  # the 2 was a 3
    yield 0.1
    rep["preview"] = cs.preview.text
    cs.confirm_btn.dispatch("on_release")
    yield 0.3
    rep["after_fix"] = {"screen": app.sm.current, "player": g.current_player, "success": g.last_result.success,
                        "values": sorted(g.last_result.values), "decision_due": g.decision_due}
    # STOP by keyboard.
    key(Window, "s", 115)
    yield 0.3
    rep["after_key_stop"] = {"player": g.current_player, "events": len(g.events)}
    # Undo by the screen button: asked first; GPIO CONTINUE confirms.
    n = len(g.events)
    app.game_screen.undo_btn.dispatch("on_release")
    yield 0.3
    rep["undo_question"] = getattr(app.dialog, "question", None) and app.dialog.question.text
    rep["undo_leds"] = [stop_led.state, cont_led.state]
    press(app.buttons.continue_.pin)
    yield 0.3
    rep["after_undo"] = {"events": len(g.events), "was": n, "decision_due": g.decision_due, "dialog": app.dialog is None}
    # Hold STOP: asks for undo; a short STOP press then cancels.
    press(app.buttons.stop.pin, hold=0.6)
    yield 0.3
    rep["hold_asks"] = app.dialog is not None
    press(app.buttons.stop.pin)
    yield 0.3
    rep["after_cancel"] = {"events": len(g.events), "dialog": app.dialog is None}
    # Key U asks, Escape closes.
    key(Window, "u", 117)
    yield 0.2
    rep["key_u_asks"] = app.dialog is not None
    key(Window, "escape", 27)
    yield 0.3
    rep["escape_closes"] = app.dialog is None
    rep["beeps_so_far"] = list(app.beeper.played)
    # Settings: a wrong PIN is refused, the right one opens; odds off and a new PIN saved.
    app.game_screen.menu_btn.dispatch("on_release")
    yield 0.2
    app.dialog.dismiss(animation=False)
    yield 0.1
    app.open_settings()
    yield 0.2
    pad = app.dialog
    for c in "9999":
        pad.keys[c].dispatch("on_release")
    pad.keys["OK"].dispatch("on_release")
    yield 0.2
    rep["wrong_pin"] = {"screen": app.sm.current, "label": pad.label.text}
    for c in "1234":
        pad.keys[c].dispatch("on_release")
    pad.keys["OK"].dispatch("on_release")
    yield 0.3
    rep["settings_screen"] = app.sm.current
    st = app.sm.get_screen("settings")
    # The rolling area: touch the tray's corners on a still picture; Save stores it and the reader uses it.
    app.open_calibration()
    yield 0.3
    cal = app.calibration_screen
    frame_size = (cal.picker.frame.shape[1], cal.picker.frame.shape[0])
    cal.picker.set_corners(())
    for fx, fy in ((0.1, 0.1), (0.6, 0.1)):
        touch_picture(cal.picker, fx, fy)
    touch_picture(cal.picker, 1.2, 0.5)  # beside the picture: no corner
    rep["calib_two"] = {"corners": len(cal.picker.corners), "save_disabled": cal.save_btn.disabled,
                        "status": cal.status.text}
    for fx, fy in ((0.6, 0.9), (0.1, 0.9)):
        touch_picture(cal.picker, fx, fy)
    rep["calib_four"] = {"corners": [[round(x / frame_size[0], 2), round(y / frame_size[1], 2)]
                                     for x, y in cal.picker.corners], "save_disabled": cal.save_btn.disabled}
    cal.save_btn.dispatch("on_release")
    yield 0.3
    area = app.session.area
    rep["calib_saved"] = {
        "screen": app.sm.current, "said": st.error.text,
        "file": json.load(open(os.path.join(DATA, "calibration.json"))),
        "inside": [area.contains((fx * frame_size[0], fy * frame_size[1])) for fx, fy in ((0.3, 0.5), (0.8, 0.5))],
        "watcher_same_area": app.watcher.detector._area.tolist() == [list(p) for p in area.polygon],
        "frame_size": list(frame_size),
    }
    st.fields["odds"].state = "normal"
    st.fields["pin"].open_pad()  # the new PIN typed on the screen's own digits
    for k in "2468":
        st.fields["pin"].pad.key(k)
    st.fields["pin"].pad.key("OK")
    st.fields["stop_pin"].text = "6"  # clashes with CONTINUE: refused
    st.save()
    rep["clash"] = st.error.text
    st.fields["stop_pin"].text = "5"
    st.save()
    yield 0.3
    rep["after_save"] = {"screen": app.sm.current, "meter": app.game_screen.meter.bar.text}
    rep["settings_file"] = json.load(open(os.path.join(DATA, "settings.json")))
    rep["beeps"] = list(app.beeper.played) if app.beeper else None
    yield 0.1


def hang(app, rep, Window):
    enter_players(app.start_screen, ["Sarah", "Tim"], first=0)
    app.start_screen.start_btn.dispatch("on_release")
    yield 0.3
    yield from throw(app, [6, 4, 1, 1, 2, 2, 3, 3])
    app.action("continue")
    yield 0.2
    print(json.dumps({"state": app.session.game.to_dict()}), flush=True)
    while True:
        yield 1.0  # until killed


def resume(app, rep, Window):
    rep["resume_enabled"] = not app.start_screen.resume_btn.disabled
    app.start_screen.resume_btn.dispatch("on_release")
    yield 0.3
    rep["screen"] = app.sm.current
    rep["state"] = app.session.game.to_dict()
    rep["prompt"] = app.game_screen.prompt.text.replace("\u00a0", " ")


def fenn(app, rep, Window):
    """A Fenn game by the board's widgets: the game chosen, the black die tapped,
    fields touched on the board, faces tapped, GPIO CONTINUE ends a turn, STOP
    held asks to undo; then the board calibrated by two touches."""
    from ui.snapshot import _Touch

    f = app.cfg["_factory"]
    stop, cont = app.buttons.stop.pin, app.buttons.continue_.pin
    cont_led = f.pin(app.cfg["gpio"]["continue_led"])
    s = app.start_screen
    s.game_buttons["fenn"].dispatch("on_release")
    enter_players(s, ["Anna", "Ben"], first=1)  # Ben plays blue
    yield 0.1
    rep["rows_shown"] = [t.parent.opacity for t in s.inputs]
    s.start_btn.dispatch("on_release")
    yield 0.3
    scr = app.fenn_screen
    rep["screen"] = app.sm.current
    rep["players"] = list(app.session.game.players)

    def tap_face(value):
        b = next(w for w in scr.choices.children if getattr(w, "value", None) == value)
        b.dispatch("on_release")

    def touch_field(n):
        x0, y0, size = scr.board.geometry()
        return scr.board.on_touch_down(_Touch((x0 + (n - 0.5) * size, y0 + size / 2)))

    tap_face(6)  # the black die shows 6: blue (Ben) begins
    yield 0.2
    touch_field(5)  # too far: says why, nothing chosen
    yield 0.1
    rep["far"] = app.table.fenn.message
    touch_field(3)
    yield 0.1
    rep["faces"] = sorted(w.value for w in scr.choices.children if hasattr(w, "value"))
    tap_face(1)  # Ben: 1 -> 3, top 1: his turn ends
    yield 0.2
    touch_field(8)
    yield 0.1
    tap_face(8)  # Anna: 9 -> 8 with 8 on top: an extra step may follow
    yield 0.2
    rep["extra_prompt"] = scr.prompt.text.replace("\u00a0", " ")
    rep["continue_lit"] = cont_led.state
    press(cont)  # GPIO CONTINUE ends her turn
    yield 0.3
    rep["after_continue"] = app.session.game.to_dict()
    press(stop, hold=0.6)  # holding STOP asks to undo
    yield 0.3
    rep["undo_question"] = app.dialog.question.text if app.undo_open() else None
    press(cont)  # CONTINUE confirms
    yield 0.3
    rep["after_undo"] = app.session.game.prompt_state()
    # The board for the camera: two touches on the still picture, saved.
    app.open_calibration("board")
    yield 0.2
    bs = app.sm.get_screen("board")
    touch_picture(bs.picker, 0.1, 0.5)
    rep["one_point_save_disabled"] = bs.save_btn.disabled
    touch_picture(bs.picker, 0.9, 0.5)
    rep["two_points_save_disabled"] = bs.save_btn.disabled
    bs.save()
    yield 0.2
    rep["board_saved"] = os.path.exists(os.path.join(DATA, "board.json")) and app.session.board is not None


class HeldTouch:
    """A finger on the on-screen keyboard: down, held, up (what VKeyboard reads of a touch)."""

    _n = 0

    def __init__(self, pos):
        HeldTouch._n += 1
        self.uid, self.pos, self.ud, self.grab_current = 1000 + HeldTouch._n, pos, {}, None
        self.x, self.y = pos

    def grab(self, widget, exclusive=False):
        self.grab_current = widget

    def ungrab(self, widget):
        self.grab_current = None


def cafe(app, rep, Window):
    s = app.start_screen
    # The rules card of the game chosen on the start screen (Fenn), not Durchmarsch's.
    s.game_buttons["fenn"].dispatch("on_release")
    yield 0.1
    s.rules_btn.dispatch("on_release")
    yield 0.3
    rep["rules_game"] = getattr(app.dialog, "game", None)
    app.dialog.dismiss()
    yield from wait_for(lambda: app.table.guard.left() == 0)  # the start screen shown a moment (the guard)
    s.game_buttons["durchmarsch"].dispatch("on_release")
    yield 0.1
    # Names: cut at the longest taken (20) as they are typed, by a keyboard or pasted.
    s.inputs[0].text = "Maximiliane-Charlotte von Hohenberg-Weißenfels"
    yield 0.1
    rep["cut"] = s.inputs[0].text
    # The on-screen keyboard: a key held 1.5 s types once; one cursor.
    s.onscreen = True
    for t in s.inputs:
        t.keyboard_mode = "managed"
    s.inputs[1].text = ""
    s.inputs[1].focus = True
    s.show_keyboard(s.inputs[1])
    yield 0.3
    kb = s.keyboard
    x0, y0 = kb.to_window(*kb.pos)
    touch = HeldTouch((x0 + kb.width * 2.5 / 12, y0 + kb.height * 0.7))  # the second row's third key: e
    kb.on_touch_down(touch)
    yield 1.5
    kb.on_touch_up(touch)
    yield 0.1
    rep["held_e"] = s.inputs[1].text
    rep["key_h_px"] = kb.height * 0.98 / 5
    s._key(("enter", None))
    yield 0.2
    rep["cursors"] = sum(1 for t in s.inputs if t.focus)
    s.hide_keyboard()
    enter_players(s, ["Anna", "Ben"])
    yield from wait_for(lambda: app.table.guard.left() == 0)  # Start came back where the keys were
    s.start_btn.dispatch("on_release")
    yield 0.8
    g = app.session.game
    # A decision due; STOP double-tapped on the screen (200 ms): THROW appears under the finger.
    app.session.throw([6, 4, 1, 1, 1, 1, 1, 1])
    yield 0.8
    scr = app.game_screen
    n = len(g.events)
    scr.stop_btn.dispatch("on_release")
    yield 0.2
    rep["throw_shown"] = scr.throw_btn.parent is not None and not scr.throw_btn.disabled
    scr.throw_btn.dispatch("on_release")
    yield 0.3
    rep["after_double_stop"] = {"events": len(g.events) - n, "thrown": app.table.waiting_for_rest,
                                "dropped": app.table.guard.dropped}
    yield 0.5
    # GPIO CONTINUE pressed twice 150 ms apart on a decision: one press acts.
    app.session.throw([6, 4, 1, 1, 1, 1, 1, 1])
    yield 0.8
    n = len(g.events)
    pin = app.buttons.continue_.pin
    press(pin)
    time.sleep(0.15)
    press(pin)
    yield 0.8
    rep["after_double_gpio"] = {"events": len(g.events) - n, "thrown": app.table.waiting_for_rest}
    # Keys: C then Space 100 ms later.
    app.session.throw([5, 4, 1, 1, 1, 1, 1])
    yield 0.8
    n = len(g.events)
    Window.dispatch("on_key_down", 99, 0, "c", [])
    yield 0.1
    Window.dispatch("on_key_down", 32, 0, " ", [])
    yield 0.3
    rep["after_double_key"] = {"events": len(g.events) - n, "thrown": app.table.waiting_for_rest}
    # The settings' PIN: 5 wrong PINs lock the pad, the wait counts down.
    yield 0.5
    app.open_settings()
    yield 0.2
    for _ in range(5):
        for k in "0000":
            app.dialog.key(k)
        app.dialog.key("OK")
    yield 0.1
    rep["locked"] = {"label": app.dialog.label.text, "keys_off": all(b.disabled for b in app.dialog.keys.values())}
    yield 1.3
    rep["locked_later"] = app.dialog.label.text
    app.dialog.dismiss()
    yield 0.2
    # Fenn: a double tap on a top face that makes a Pasch lands on the black die's picker,
    # opened in the same place: it does not turn the black die.
    from ui.snapshot import _Touch

    app.show_start()
    yield from wait_for(lambda: app.table.guard.left() == 0)
    s = app.start_screen
    s.game_buttons["fenn"].dispatch("on_release")
    enter_players(s, ["Anna", "Ben"])
    s.start_btn.dispatch("on_release")
    yield 0.8
    g, scr = app.session.game, app.fenn_screen
    app.table.fenn.tap_black(6)  # blue begins
    yield 0.8
    g.set_position(blue=(3, 1), red=(8, 2), black=6, to_move=0)
    app.refresh()
    x0, y0, size = scr.board.geometry()
    scr.board.on_touch_down(_Touch((x0 + 3.5 * size, y0 + size / 2)))  # field 4
    yield 0.3
    faces = [w for w in reversed(scr.choices.children) if getattr(w, "value", None) is not None]
    six = next(i for i, w in enumerate(faces) if w.value == 6)
    faces[six].dispatch("on_release")
    yield 0.2
    under = [w for w in reversed(scr.choices.children) if getattr(w, "value", None) is not None]
    rep["pasch_offered"] = app.table.fenn.black_choices()
    under[min(six, len(under) - 1)].dispatch("on_release")  # the second tap, where the finger was
    yield 0.3
    rep["after_double_face"] = {"last": repr(g.events[-1]), "phase": app.table.fenn.phase(), "black": g.position().black}
    yield 0.5
    under = [w for w in reversed(scr.choices.children) if getattr(w, "value", None) is not None]
    under[0].dispatch("on_release")  # a deliberate tap after the picker was shown: it acts
    yield 0.3
    rep["after_deliberate"] = {"phase": app.table.fenn.phase(), "black": g.position().black}


def main():
    cfg = json.loads(json.dumps(DEFAULTS))
    cfg["app"]["data_dir"] = DATA
    cfg["camera"].update(source="mock", seed=11)
    cfg["gpio"]["hold_undo"] = 0.4
    cfg["app"]["guard"] = float(os.environ.get("GUARD", "0"))  # the stray-tap guard: its own scenarios
    factory = MockFactory()
    cfg["_pin_factory"] = factory
    rep = {}

    def driver(app):
        app.cfg["_factory"] = factory
        drive(app, globals()[SCENARIO](app, rep, __import__("kivy.core.window", fromlist=["Window"]).Window), rep)

    run_app(cfg, driver=driver)
    print(json.dumps(rep))


if __name__ == "__main__":
    main()
