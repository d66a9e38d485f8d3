"""Drive the Kivy app offscreen through a short game (run as a subprocess by tests/test_ui.py).

Usage: python tests/ui_driver.py DATA_DIR OUT_DIR [WIDTHxHEIGHT]
Prints one JSON line with what happened, then exits.
"""

import json
import os
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ["KIVY_NO_ARGS"] = "1"
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", os.path.join(sys.argv[2], ".kivy"))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from companion.config import DEFAULTS  # noqa: E402
from ui.app import run_app  # noqa: E402
from ui.snapshot import drive, enter_players  # noqa: E402


def main():
    data = sys.argv[1]
    size = tuple(int(v) for v in (sys.argv[3] if len(sys.argv) > 3 else "800x480").split("x"))
    cfg = json.loads(json.dumps(DEFAULTS))
    cfg["app"]["data_dir"] = data
    cfg["app"]["guard"] = float(os.environ.get("GUARD", "0"))  # the stray-tap guard has its own tests
    cfg["camera"] = {"source": "mock", "seed": 7}
    cfg["_pin_factory"] = MockFactory()
    report = {"throws": [], "screens": [], "presses": []}

    def driver(app):
        from kivy.core.window import Window

        drive(app, script(app, report, Window), report)

    run_app(cfg, driver=driver, size=size)
    print(json.dumps(report))


def script(app, report, Window):
    out = sys.argv[2]
    report["screens"].append(app.sm.current)
    yield 0.1
    if app.sm.current == "start" and app.start_screen.resume_btn.disabled is False and os.environ.get("RESUME"):
        app.start_screen.resume_btn.dispatch("on_release")
        yield 0.3
        report["resumed"] = app.session.game.to_dict()
        report["screens"].append(app.sm.current)
        return
    enter_players(app.start_screen, ["Sarah", "Tim", "Maria"])
    app.start_screen.start_btn.dispatch("on_release")
    yield 0.3
    report["screens"].append(app.sm.current)
    g = app.session.game
    report["first"] = g.current_player
    for k in range(int(os.environ.get("THROWS", "6"))):
        if g.is_over:
            break
        if g.decision_due:
            # alternate: screen CONTINUE, GPIO STOP, keyboard 'c'
            if k % 3 == 0:
                app.game_screen.continue_btn.dispatch("on_release")
                report["presses"].append("screen-continue")
            elif k % 3 == 1:
                pin = app.buttons.stop.pin
                pin.drive_low()
                pin.drive_high()
                report["presses"].append("gpio-stop")
            else:
                Window.dispatch("on_key_down", 99, 0, "c", [])
                report["presses"].append("key-continue")
            yield 0.3
            continue
        due = g.dice_to_throw
        app.game_screen.throw_btn.dispatch("on_release")
        for _ in range(100):
            yield 0.1
            if not app.reading and not app.waiting_for_rest:
                break
        truth = sorted(d.value for d in app.camera.truth)
        read = sorted(d.value for d in app.last_dice)
        report["throws"].append({"due": due, "truth": truth, "read": read, "events": len(g.events)})
        if k == 0:
            yield 0.4
            Window.screenshot(os.path.join(out, "game.png"))
    yield 0.4
    Window.screenshot(os.path.join(out, "game_end.png"))
    report["state"] = g.to_dict()
    report["events"] = len(g.events)
    report["frames_shown"] = app.game_screen.camera_view.frames_shown


if __name__ == "__main__":
    main()
