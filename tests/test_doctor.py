"""``companion doctor``: each check with fakes for what it reads from the machine,
and the command on this machine."""

from __future__ import annotations

import json
import os
import shutil
from collections import namedtuple

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion import doctor as d
from companion import doctor_machine as m
from companion.cli import main
from companion.config import DEFAULTS
from hardware.camera import CameraError, MockCamera, PiCamera

OK, FAIL, ABSENT = d.Mark.OK, d.Mark.FAIL, d.Mark.ABSENT
ABI = ValueError("numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88")


def versions(**v):
    def version(name):
        if name not in v:
            raise d.metadata.PackageNotFoundError(name)
        return v[name]
    return version


INSTALLED = {"numpy": "1.24.2", "opencv-python-headless": "4.11.0.86", "kivy": "2.3.1", "gpiozero": "2.0.1"}


def test_python_version():
    assert d.check_python((3, 11, 2)).mark is OK
    c = d.check_python((3, 9, 2))
    assert c.mark is FAIL and "3.11" in c.todo


def test_packages_say_when_a_numpy_2_hides_the_systems_numpy():
    numpy2 = dict(INSTALLED, numpy="2.4.6")
    c = d.check_packages(version=versions(**numpy2), numpy_file="/home/pi/dice/.venv/lib/numpy/__init__.py",
                         system="1.24.2", sees_system=True)
    assert c.mark is FAIL and "2.4.6" in c.said and "1.24.2" in c.said and "setup --pi" in c.todo
    # the Pi install: the system's numpy itself
    c = d.check_packages(version=versions(**INSTALLED), numpy_file=d.SYSTEM_SITE + "/numpy/__init__.py",
                         system="1.24.2", sees_system=True)
    assert c.mark is OK and "numpy 1.24.2" in c.said
    # a venv that does not see the system's packages: its numpy is its own business
    assert d.check_packages(version=versions(**numpy2), numpy_file="/x/numpy/__init__.py", system="1.24.2",
                            sees_system=False).mark is OK


def test_packages_missing():
    c = d.check_packages(version=versions(numpy="1.26.4", kivy="2.3.1"), system=None)
    assert c.mark is FAIL and "gpiozero" in c.said and "scripts/setup" in c.todo


def test_picamera2_faults():
    def fails(exc):
        def importer():
            raise CameraError(str(exc)) from exc
        return importer

    c = d.check_picamera2(importer=fails(ABI), on_pi=True)
    assert c.mark is FAIL and "numpy.dtype size changed" in c.said and "setup --pi" in c.todo
    missing = ModuleNotFoundError("No module named 'picamera2'", name="picamera2")
    assert d.check_picamera2(importer=fails(missing), on_pi=False).mark is ABSENT
    c = d.check_picamera2(importer=fails(missing), on_pi=True)
    assert c.mark is FAIL and "apt install python3-picamera2" in c.todo
    c = d.check_picamera2(importer=fails(OSError("libcamera.so.0.2: cannot open")), on_pi=True)
    assert c.mark is FAIL and "--reinstall" in c.todo
    assert d.check_picamera2(importer=lambda: object, on_pi=True).mark is OK


def tray_frame(seed=2):
    from hardware.render import TrayScene

    return TrayScene(seed=seed).frame([])


def test_calibration_stored_matching_and_moved(tmp_path):
    from companion.calibration import store_calibration
    from vision.calibrate import find_tray

    data = str(tmp_path)
    frame = tray_frame()
    c = d.check_calibration(data, frame)
    assert c.mark is FAIL and "Dice tray" in c.todo
    store_calibration(data, find_tray(frame))
    c = d.check_calibration(data, frame)
    assert c.mark is OK and "matches" in c.said
    moved = np.roll(frame, frame.shape[1] // 3, axis=1)  # the camera turned: the tray a third of the frame aside
    c = d.check_calibration(data, moved)
    assert c.mark is FAIL and "moved" in c.said
    # a picture of the other size: the stored area is scaled to it
    half = frame[::2, ::2].copy()
    assert d.check_calibration(data, half).mark is OK
    (tmp_path / "calibration.json").write_text("{broken")
    assert d.check_calibration(data, frame).mark is FAIL


def test_board_absent_stored_and_moved(tmp_path):
    from vision.fenn import BoardArea

    data = str(tmp_path)
    assert d.check_board(data).mark is ABSENT
    board = BoardArea(((100, 200), (1000, 200), (1000, 300), (100, 300)), (1640, 1232))
    (tmp_path / "board.json").write_text(json.dumps(board.to_dict()))
    frame = np.zeros((1232, 1640, 3), np.uint8)
    assert d.check_board(data, frame, find=lambda f: board).mark is OK
    away = BoardArea(((100, 700), (1000, 700), (1000, 800), (100, 800)), (1640, 1232))
    c = d.check_board(data, frame, find=lambda f: away)
    assert c.mark is FAIL and "0%" in c.said


Usage = namedtuple("Usage", "total used free")


def test_disk_space(tmp_path):
    assert d.check_disk(str(tmp_path), usage=lambda p: Usage(32e9, 31.8e9, 200e6)).mark is FAIL
    c = d.check_disk(str(tmp_path / "not" / "yet"), usage=lambda p: Usage(32e9, 20e9, 12e9))
    assert c.mark is OK and "12.0 GB" in c.said


def test_data_dir(tmp_path, monkeypatch):
    assert d.check_data_dir(str(tmp_path)).mark is OK
    assert os.listdir(tmp_path) == []  # the probe file is removed
    assert "created" in d.check_data_dir(str(tmp_path / "new")).said
    f = tmp_path / "file"
    f.write_text("x")
    assert d.check_data_dir(str(f)).mark is FAIL
    monkeypatch.setattr(d.os, "access", lambda p, mode: False)
    c = d.check_data_dir(str(tmp_path / "new"))
    assert c.mark is FAIL and "chown" in c.todo


def test_pin_default_and_changed(tmp_path):
    from companion.settings import hash_pin, save_settings

    cfg = {"app": dict(DEFAULTS["app"], data_dir=str(tmp_path))}
    assert d.check_pin(cfg).mark is FAIL
    save_settings(str(tmp_path), {"pin_hash": hash_pin("4711")})
    assert d.check_pin(cfg).mark is OK


class FakePicam:
    def __init__(self, value=90):
        self.value = value

    def capture_array(self, name):
        return np.full((48, 64, 4), self.value, np.uint8)

    def capture_metadata(self):
        return {"ExposureTime": 8000, "AnalogueGain": 2.0, "ColourGains": (1.5, 1.8)}


def pi_camera(value=90):
    cam = PiCamera.__new__(PiCamera)  # a Pi camera without the Pi: picamera2 faked underneath
    cam._cam = FakePicam(value)
    return cam


def test_camera_kinds(tmp_path):
    data = str(tmp_path)
    c, frame = m.check_camera({"source": "auto"}, data, camera=pi_camera())
    assert c.mark is OK and "64×48" in c.said and "8.0 ms" in c.said and frame.shape == (48, 64, 3)
    c, _ = m.check_camera({"source": "pi"}, data, camera=pi_camera(3))
    assert c.mark is FAIL and "black" in c.said
    c, frame = m.check_camera({"source": "auto"}, data, opener=lambda cfg: MockCamera(seed=1), on_pi=False)
    assert c.mark is ABSENT and frame is not None
    assert m.check_camera({"source": "auto"}, data, opener=lambda cfg: MockCamera(seed=1), on_pi=True)[0].mark is FAIL
    assert m.check_camera({"source": "mock"}, data, on_pi=True)[0].mark is OK

    def broken(cfg):
        raise CameraError("the Pi camera does not start (IndexError: list index out of range)")

    c, frame = m.check_camera({"source": "pi"}, data, opener=broken)
    assert c.mark is FAIL and "IndexError" in c.said and frame is None


def test_camera_gets_the_controls_fixed_at_calibration(tmp_path):
    (tmp_path / "camera_controls.json").write_text('{"ExposureTime": 8000}')
    seen = []
    m.check_camera({"source": "auto"}, str(tmp_path), opener=lambda cfg: seen.append(cfg) or MockCamera(seed=1))
    assert seen[0]["controls"] == {"ExposureTime": 8000}


GPIO = dict(DEFAULTS["gpio"])


def test_gpio_claims_reads_and_pulses():
    f = MockFactory()
    states = []
    c = m.check_gpio(GPIO, pin_factory=f, pulse=True, sleep=lambda s: states.append(
        (f.pin(17).state, f.pin(27).state, f.pin(22).state)))
    assert c.mark is OK and "released" in c.said
    # STOP's light, then CONTINUE's, then both off, then the buzzer on
    assert states == [(True, False, False), (False, True, False), (False, False, False), (False, False, True)]
    assert not f.pin(22).state  # and off again; the pins released:
    assert m.check_gpio(GPIO, pin_factory=f).mark is OK


def test_gpio_faults():
    from hardware.buttons import DecisionButtons

    f = MockFactory()
    held = DecisionButtons(lambda a: None, pin_factory=f)
    c = m.check_gpio(GPIO, pin_factory=f)
    assert c.mark is FAIL and "in use" in c.said
    held.stop.pin.drive_low()  # STOP pressed (or shorted to ground)
    c = m.check_gpio(GPIO, devices=type("D", (), {"buttons": held})())
    assert c.mark is FAIL and "STOP reads pressed" in c.said
    held.close()
    assert m.check_gpio(dict(GPIO, buzzer=5)).mark is FAIL  # a pin twice
    assert m.check_gpio(dict(GPIO, enabled=False)).mark is ABSENT


def test_display(tmp_path):
    win = type("WindowSDL", (), {"width": 800, "height": 480})()
    assert "800×480" in m.check_display(True, window=win).said
    assert m.check_display(False, env={"DISPLAY": ":0"}, dri=str(tmp_path / "none")).mark is OK
    assert m.check_display(False, env={}, dri=str(tmp_path / "none"), on_pi=False).mark is ABSENT
    assert m.check_display(False, env={}, dri=str(tmp_path / "none"), on_pi=True).mark is FAIL
    (tmp_path / "card0").write_text("")
    assert m.check_display(True, env={}, dri=str(tmp_path)).mark is OK
    c = m.check_display(True, env={"SDL_VIDEODRIVER": "x11"}, dri=str(tmp_path))
    assert c.mark is FAIL and "kmsdrm" in c.todo


PI_CARDS = """ 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 1 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                      bcm2835 Headphones
"""


def test_audio(tmp_path):
    cards = tmp_path / "cards"
    cards.write_text(PI_CARDS)
    c = m.check_audio(True, cards_file=str(cards))
    assert c.mark is OK and c.said == "vc4-hdmi, bcm2835_headpho"
    played = []
    c = m.check_audio(True, cards_file=str(cards), pulse=True, data_dir=str(tmp_path), player=played.append)
    assert c.mark is FAIL and played and played[0].endswith("success.wav")  # the player said it could not
    assert m.check_audio(True, cards_file=str(cards), pulse=True, data_dir=str(tmp_path),
                         player=lambda p: True).mark is OK
    assert m.check_audio(True, cards_file=str(tmp_path / "none"), on_pi=True).mark is FAIL
    assert m.check_audio(True, cards_file=str(tmp_path / "none"), on_pi=False).mark is ABSENT
    assert m.check_audio(False).mark is ABSENT


def test_clock():
    now = 1.8e9
    assert m.check_clock(run=lambda cmd: "yes", now=now).mark is OK
    assert m.check_clock(run=lambda cmd: "no", kernel=lambda: True, now=now).mark is FAIL  # timedatectl first
    assert m.check_clock(run=lambda cmd: None, kernel=lambda: True, now=now).mark is OK
    assert m.check_clock(run=lambda cmd: None, kernel=lambda: None, now=now).mark is ABSENT
    c = m.check_clock(run=lambda cmd: "yes", now=3600.0)  # 1970: never set
    assert c.mark is FAIL and "never set" in c.said


def test_the_kernel_can_be_asked_whether_the_clock_is_synchronised():
    assert m.adjtimex_synchronised() in (True, False, None)


def unit(**p):
    props = {"LoadState": "loaded", "UnitFileState": "enabled", "ActiveState": "active",
             "WatchdogUSec": "30s", "NRestarts": "0"} | p
    return lambda cmd: "\n".join(f"{k}={v}" for k, v in props.items())


def test_systemd():
    assert m.check_systemd(booted=False).mark is ABSENT
    assert m.check_systemd(run=unit(LoadState="not-found"), booted=True).mark is ABSENT
    c = m.check_systemd(run=unit(), booted=True)
    assert c.mark is OK and "watchdog 30s" in c.said
    assert m.check_systemd(run=unit(WatchdogUSec="0"), booted=True).mark is FAIL
    c = m.check_systemd(run=unit(NRestarts="9"), booted=True)
    assert c.mark is FAIL and "journalctl" in c.todo
    assert m.check_systemd(run=unit(UnitFileState="disabled"), booted=True).mark is FAIL


def test_the_command_on_this_machine(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[camera]\nsource = "mock"\n[app]\ndata_dir = "{tmp_path / "data"}"\nlanguage = "de"\n')
    from companion.i18n import language

    before = language()
    code = main(["doctor", "--json", "--config", str(cfg)])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    keys = [x["key"] for x in lines]
    assert keys == ["python", "packages", "picamera2", "camera", "calibration", "board", "gpio", "display",
                    "audio", "disk", "data_dir", "clock", "systemd", "pin"]
    assert code == (1 if any(x["mark"] == "fail" for x in lines) else 0)
    pin = lines[-1]
    assert pin["mark"] == "fail" and pin["title"] == "PIN für die Einstellungen"  # in the config's language
    assert not (tmp_path / "data").exists() or os.listdir(tmp_path / "data") == []
    assert language() == before  # the doctor spoke German and left the language as it was
    assert main(["doctor", "--config", str(tmp_path / "missing.toml")]) == 2
    shutil.rmtree(tmp_path / "data", ignore_errors=True)


def test_lines_and_exit_code():
    checks = [d.Check("a", "A", OK, "fine"), d.Check("b", "B", ABSENT, "not here")]
    assert d.exit_code(checks) == 0
    checks.append(d.Check("c", "C", FAIL, "broken", "mend it"))
    assert d.exit_code(checks) == 1
    assert [d.format_line(c) for c in checks] == ["✔ A: fine", "○ B: not here", "✖ C: broken → mend it"]


@pytest.mark.parametrize("lang", ["de", "en", "fr", "it"])
def test_every_doctor_and_table_check_word_is_translated(lang):
    """Each message of the doctor and its screen has a translation in the language's catalog."""
    import ast

    from babel.messages.pofile import read_po

    from companion.i18n import LOCALE_DIR

    with open(os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", "companion.po"), "rb") as f:
        catalog = read_po(f)
    screen = os.path.join(os.path.dirname(d.__file__), "..", "ui", "screens", "table_check.py")
    untranslated = []
    for path in (d.__file__, m.__file__, screen):
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_" and node.args \
                    and isinstance(node.args[0], ast.Constant):
                entry = catalog.get(node.args[0].value)
                if entry is None or not entry.string:
                    untranslated.append(node.args[0].value)
    assert untranslated == []


def test_the_table_check_screen_behind_the_pin(tmp_path):
    """Settings → Table check… shows every check, with the app's own (mock) pins and
    its window, and "Test lights and sound" pulses the lights through the app's devices."""
    import subprocess
    import sys

    driver = os.path.join(os.path.dirname(__file__), "table_check_driver.py")
    r = subprocess.run([sys.executable, driver, str(tmp_path / "data"), str(tmp_path), "de"],
                       capture_output=True, text=True, timeout=120, cwd=os.path.dirname(os.path.dirname(driver)))
    rep = json.loads(r.stdout.strip().splitlines()[-1])
    assert rep.get("error") is None and rep["screen"] == "settings" and rep["current"] == "table_check"
    by = {c["key"]: c for c in rep["checks"]}
    assert len(rep["checks"]) == 14
    assert by["gpio"]["mark"] == "ok" and "STOPP an 5" in by["gpio"]["said"]  # the app's mock pins, in German
    assert by["display"]["mark"] == "ok" and "800×480" in by["display"]["said"]
    assert by["camera"]["mark"] == "ok" and by["pin"]["mark"] == "fail"
    failed = sum(c["mark"] == "fail" for c in rep["checks"])
    assert rep["status"] == f"{failed} zu beheben"
    assert "gesehen und gehört" in rep["pulsed"][0]["said"] and rep["stop_light_after"] is False
    assert os.path.exists(rep["files"][0])
