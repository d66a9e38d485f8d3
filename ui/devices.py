"""The app's devices, away from its screens: the camera and its frame thread,
the tray calibration and the throw recorder, the GPIO buttons, lights and
buzzer, and the settings laid over the config. Each is optional: without a
camera the demo runs on the mock camera, without GPIO the screen and keys
remain.

    >>> from hardware.camera import MockCamera
    >>> cam, demo = open_table_camera({"kind": "mock"}, "/nonexistent")
    >>> demo
    True
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import threading
import time

import numpy as np

__all__ = ["FrameWorker", "TableDevices", "open_table_camera", "load_tray_area", "open_recorder",
           "with_settings", "calibration_beside"]

log = logging.getLogger(__name__)


def _demo_style():
    from hardware.render import RenderStyle

    # As a real table looks: dice apart most of the time (1 in 20 placed against
    # another). With the renderer's default share, 0.3, a third of the demo's
    # throws were asked about; with this, 1 in 60 (60 throws of 5-8 dice).
    return RenderStyle(touching=0.05)


#: The look of the demo's throws on the mock camera.
DEMO_STYLE = _demo_style()


class FrameWorker:
    """Reads frames from a camera on a background thread and keeps the latest.

    ``on_frame(frame)`` is called on the worker thread for every frame, at
    most ``fps`` times a second; the caller hands frames to the UI thread.
    """

    def __init__(self, camera, on_frame, *, fps: float = 15.0):
        self.camera = camera
        self.on_frame = on_frame
        self.period = 1.0 / fps
        self.latest: np.ndarray | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="frames", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            t0 = time.monotonic()
            try:
                frame = self.camera.read()
            except Exception:
                log.exception("camera read failed")
                frame = None
            if frame is not None:
                self.latest = frame
                self.on_frame(frame)
            self._stop.wait(max(0.0, self.period - (time.monotonic() - t0)))

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)


def open_table_camera(cam_cfg: dict, data_dir: str):
    """The camera of ``cam_cfg`` (see :func:`hardware.camera.open_camera`), with the
    exposure and white balance fixed at calibration when stored in ``data_dir``;
    the mock camera when none can be opened. Returns ``(camera, demo)``."""
    from hardware.camera import CameraError, MockCamera, open_camera
    from vision.calibrate import CONTROLS_FILE

    cam_cfg = dict(cam_cfg)
    try:  # exposure and white balance fixed at calibration (Pi camera)
        with open(os.path.join(data_dir, CONTROLS_FILE)) as f:
            cam_cfg["controls"] = json.load(f)
    except (OSError, ValueError):
        pass
    try:
        camera = open_camera(cam_cfg)
    except CameraError as e:
        log.warning("camera unavailable (%s); running the demo on the mock camera", e)
        camera = MockCamera(style=DEMO_STYLE)
    return camera, isinstance(camera, MockCamera)


def load_tray_area(data_dir: str):
    """The calibrated tray area stored in ``data_dir``, or None (none stored, or
    a broken file: the whole picture is read, and the log says so)."""
    from vision.calibrate import CALIBRATION_FILE, CalibrationError, load_area

    try:
        return load_area(os.path.join(data_dir, CALIBRATION_FILE))
    except CalibrationError as e:
        log.warning("%s: reading the whole picture until the tray is calibrated again", e)
        return None


def open_recorder(data_dir: str):
    """The throw recorder in ``<data_dir>/recorded``, or None when it cannot be opened."""
    from companion.recording import RecordingError, ThrowRecorder

    try:
        rec = ThrowRecorder(os.path.join(data_dir, "recorded"))
        calibration_beside(rec, data_dir)
        return rec
    except (RecordingError, OSError) as e:
        log.warning("not recording throws: %s", e)
        return None


class TableDevices:
    """The GPIO buttons, their lights and the buzzer (each None when missing).

    ``gpio``: the config's ``[gpio]`` table; ``sound``: the buzzer on or off;
    ``on_action(action)``: called (on gpiozero's thread) for ``stop``,
    ``continue`` and ``undo``; ``pin_factory``: a gpiozero pin factory (tests
    pass ``MockFactory``), None for the default.
    """

    def __init__(self, gpio: dict, *, sound: bool, on_action, pin_factory=None):
        self.buttons = self.lights = self.beeper = None
        if not gpio.get("enabled", True):
            return
        try:
            from hardware.buttons import DecisionButtons

            self.buttons = DecisionButtons(
                on_action, stop_pin=gpio["stop_pin"], continue_pin=gpio["continue_pin"],
                debounce=gpio["debounce"], hold_undo=gpio["hold_undo"], pin_factory=pin_factory)
        except Exception as e:  # no GPIO on a desktop: the keyboard and screen remain
            log.info("GPIO buttons unavailable (%s); use the screen or keys S/C", e)
            return
        try:
            from hardware.lights import Beeper, DecisionLights

            self.lights = DecisionLights(stop_pin=gpio["stop_led"], continue_pin=gpio["continue_led"],
                                         pin_factory=pin_factory)
            self.beeper = Beeper(gpio["buzzer"], enabled=sound, pin_factory=pin_factory)
        except Exception as e:
            log.warning("button lights or buzzer unavailable: %s", e)

    def show(self, stop: bool, cont: bool) -> None:
        """Light the STOP and CONTINUE buttons."""
        if self.lights is not None:
            self.lights.show(stop=stop, cont=cont)

    def beep(self, event: str) -> None:
        """Play ``event``'s sound on the buzzer (success, misthrow, ask, win)."""
        if self.beeper is not None:
            self.beeper.play(event)

    def close(self) -> None:
        """Release the pins."""
        for dev in (self.buttons, self.lights, self.beeper):
            if dev is not None:
                dev.close()
        self.buttons = self.lights = self.beeper = None


def with_settings(cfg: dict) -> dict:
    """``cfg`` with the settings saved on the screen laid over it; a broken
    settings file is set aside (renamed ``.bad``) and the config used alone."""
    from companion.settings import (
        SETTINGS_FILE,
        SettingsError,
        apply_settings,
        load_settings,
    )

    data_dir = cfg["app"]["data_dir"]
    try:
        return apply_settings(cfg, load_settings(data_dir))
    except SettingsError as e:
        log.error("%s; using the config file alone", e)
        bad = os.path.join(data_dir, SETTINGS_FILE)
        try:
            os.replace(bad, bad + ".bad")
        except OSError:
            pass
        return dict(cfg)


def calibration_beside(recorder, data_dir: str) -> None:
    """Copy the tray calibration, if any, into ``recorder``'s folder (None: not
    recording), so eval-vision reads the recorded frames in the same area.
    Raises ``OSError`` when it cannot be copied."""
    from vision.calibrate import CALIBRATION_FILE

    calib = os.path.join(data_dir, CALIBRATION_FILE)
    if recorder is not None and os.path.exists(calib):
        shutil.copyfile(calib, os.path.join(recorder.folder, CALIBRATION_FILE))


