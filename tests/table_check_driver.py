"""Open the Table check screen behind the PIN offscreen (run as a subprocess by tests/test_doctor.py).

Usage: python tests/table_check_driver.py DATA_DIR OUT_DIR LANG [WIDTHxHEIGHT]
Prints one JSON line: the checks shown (before and after "Test lights and sound"), the status line,
the screenshots taken.
"""

import json
import sys

# ui_driver's preamble: SDL offscreen, Kivy quiet, KIVY_HOME in OUT_DIR (the same argument places).
from ui_driver import DEFAULTS, MockFactory, drive, run_app  # noqa: E402

from ui.snapshot import shot, wait_for  # noqa: E402


def main():
    data, out, lang = sys.argv[1:4]
    size = tuple(int(v) for v in (sys.argv[4] if len(sys.argv) > 4 else "800x480").split("x"))
    cfg = json.loads(json.dumps(DEFAULTS))
    cfg["app"].update(data_dir=data, language=lang)
    cfg["camera"] = {"source": "mock", "seed": 7}
    factory = cfg["_pin_factory"] = MockFactory()
    report = {"files": []}

    def script(app):
        from kivy.core.window import Window

        yield 0.2
        app.open_settings()
        yield 0.2
        for k in "1234":
            app.dialog.key(k)
        app.dialog.key("OK")
        yield 0.3
        # The settings shown a moment: a tap before is dropped as a stray one (app.guard).
        yield from wait_for(lambda: app.table.guard.left() == 0)
        report["screen"] = app.sm.current
        from companion.i18n import _

        button = next(b for b in app.sm.get_screen("settings").walk() if getattr(b, "text", "") == _("Table check…"))
        button.dispatch("on_release")  # the one button on the settings screen
        screen = app.sm.get_screen("table_check")
        yield from wait_for(lambda: screen.checks)
        report["current"] = app.sm.current
        report["checks"] = [c.to_dict() for c in screen.checks]
        report["status"] = screen.status.text
        report["files"].append(shot(Window, out, f"table-check-{lang}"))
        screen.checks = []
        screen.run(pulse=True)
        yield from wait_for(lambda: screen.checks)
        report["pulsed"] = [c.to_dict() for c in screen.checks if c.key == "gpio"]
        report["stop_light_after"] = factory.pin(17).state

    run_app(cfg, driver=lambda app: drive(app, script(app), report), size=size)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
