"""Drive the Kivy app offscreen through taps, GPIO presses (MockFactory) and keys
(run as a subprocess by tests/test_screens.py; one app per process).

Usage: python tests/ui_interact.py SCENARIO DATA_DIR OUT_DIR
Prints one JSON line with what happened, then exits. Scenarios: ``table``
(start screen, decisions by tap/GPIO/key, lights, correction, undo, settings,
language), ``fenn`` (a Fenn game by the board's widgets and GPIO, the board
calibrated by two touches), ``hang`` (start a game, score a throw, print the state, then wait
to be killed), ``resume`` (resume the unfinished game).
"""

import json
import os
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ["KIVY_NO_ARGS"] = "1"
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", os.path.join(sys.argv[3], ".kivy"))

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
    st.fields["pin"].text = "2468"
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
