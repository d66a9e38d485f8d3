"""The touchscreen app (Kivy): start, game, correction, end and settings screens.

Frames come from a worker thread and reads run on another, so the screen never
waits for the camera or the reader; results are handed to Kivy's main thread
with ``Clock.schedule_once``. With no camera attached the app runs a demo on the
mock camera: a touch on THROW (or the space key) throws random dice, which are
rendered and read like a real throw.

Buttons: GPIO STOP and CONTINUE (their lights lit while they can be pressed;
STOP held 3 s asks for undo), the same on the screen, and keys on a desktop
(S stop, C/Enter continue, Space throw, U/Backspace undo, W wrong). While the
undo question is open, CONTINUE confirms and STOP cancels.

Start it with ``companion`` (or ``companion kiosk``). Tests drive it with
:func:`run_app`'s ``driver`` hook on SDL's offscreen video driver.
"""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import threading
import time

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")

import numpy as np  # noqa: E402

__all__ = ["run_app", "FrameWorker"]

log = logging.getLogger(__name__)


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


def run_app(cfg: dict, *, driver=None, size: tuple[int, int] | None = None) -> int:
    """Build and run the app with config ``cfg`` (see :mod:`companion.config`).

    ``driver(app)``: called once the first screen is up (tests use it to tap
    buttons and take screenshots); ``size``: window ``(width, height)`` px.
    Returns the exit code (0).
    """
    w, h = size or (800, 480)
    # Larger screens get larger type and touch targets (1.0 at 800×480, 1.5 at 1280×720).
    os.environ.setdefault("KIVY_METRICS_DENSITY", str(round(max(1.0, min(1.5, w / 800, h / 480)), 2)))
    from kivy.config import Config

    Config.set("graphics", "width", str(w))
    Config.set("graphics", "height", str(h))
    Config.set("graphics", "fullscreen", "auto" if cfg["app"].get("fullscreen") else "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("kivy", "exit_on_escape", "0")
    kb = cfg["app"].get("keyboard", "auto")
    if kb == "onscreen" or (kb == "auto" and cfg["app"].get("fullscreen")):
        Config.set("kivy", "keyboard_mode", "dock")  # the touchscreen's own keyboard
    app = _make_app(cfg, driver)
    app.run()
    return 0


def _with_settings(cfg: dict) -> dict:
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


def _calibration_beside(recorder, data_dir: str) -> None:
    """Copy the tray calibration, if any, into ``recorder``'s folder (None: not
    recording), so eval-vision reads the recorded frames in the same area.
    Raises ``OSError`` when it cannot be copied."""
    from vision.calibrate import CALIBRATION_FILE

    calib = os.path.join(data_dir, CALIBRATION_FILE)
    if recorder is not None and os.path.exists(calib):
        shutil.copyfile(calib, os.path.join(recorder.folder, CALIBRATION_FILE))


def _make_app(cfg, driver):
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.screenmanager import NoTransition, ScreenManager

    from companion import i18n
    from companion.durchmarsch import DurchmarschError, Throw
    from companion.prompts import ask_text, result_text, undo_text
    from companion.session import SCORED, Change, GameSession
    from companion.storage import Store
    from hardware.buttons import key_to_action
    from hardware.camera import CameraError, MockCamera, open_camera
    from vision.reader import annotate

    from . import screens as S

    class CompanionApp(App):
        title = "Dice companion"

        def build(self):
            self.cfg = _with_settings(cfg)
            self.language = self.cfg["app"]["language"]
            i18n.set_language(self.language)
            data_dir = self.cfg["app"]["data_dir"]
            self.session = GameSession(Store(data_dir), area=self._load_area(data_dir),
                                       recorder=self._open_recorder(data_dir))
            self.session.subscribe(lambda ch: Clock.schedule_once(lambda dt: self.on_change(ch)))
            self.camera = self._open_camera()
            self.reading = False
            self.waiting_for_rest = False
            self.last_dice = []
            self.last_frame = None  # the frame of the last scored throw (for "wrong?")
            self.pending = None  # (ReadResult, frame) of a read the players were asked about
            self.highlight = ()
            self.message = ""
            self.dialog = None
            self.buttons = self.lights = self.beeper = None
            self._latest = None
            self._rng = random.Random()
            self.sm = ScreenManager(transition=NoTransition())
            self._build_screens()
            Window.bind(on_key_down=self._on_key)
            if Window.softinput_mode == "":
                Window.softinput_mode = "below_target"  # the docked keyboard never covers the field
            from companion.watch import ThrowWatcher

            self.watcher = ThrowWatcher(self.session)
            self._watch_stop = threading.Event()
            self.worker = FrameWorker(self.camera, self._frame_from_worker)
            self.worker.start()
            threading.Thread(target=self._watch_loop, name="watch", daemon=True).start()
            self._open_hardware()
            if driver is not None:
                Clock.schedule_once(lambda dt: driver(self), 0.3)
            return self.sm

        def _build_screens(self, names=()):
            current = self.sm.current if self.sm.screen_names else "start"
            self.sm.clear_widgets()
            self.start_screen = S.StartScreen(self, names=names)
            self.game_screen = S.GameScreen(self)
            self.correction_screen = S.CorrectionScreen(self)
            self.end_screen = S.EndScreen(self)
            for s in (self.start_screen, self.game_screen, self.correction_screen, self.end_screen):
                self.sm.add_widget(s)
            game = self.session.game
            if game is not None:
                self.game_screen.setup(game)
                if game.is_over:
                    self.end_screen.show(game)
            self.sm.current = current if current in self.sm.screen_names else "game" if game else "start"
            self.refresh()

        def set_language(self, code: str):
            """Switch every screen to language ``code`` (de, en, fr, it)."""
            if code == self.language:
                return
            i18n.set_language(code)
            self.language = code
            names = self.start_screen.names() if self.sm.has_screen("start") else ()
            self._build_screens(names)

        # -- setup ----------------------------------------------------------
        def _open_camera(self):
            from vision.calibrate import CONTROLS_FILE

            cam_cfg = dict(self.cfg["camera"])
            try:  # exposure and white balance fixed at calibration (Pi camera)
                with open(os.path.join(self.cfg["app"]["data_dir"], CONTROLS_FILE)) as f:
                    cam_cfg["controls"] = json.load(f)
            except (OSError, ValueError):
                pass
            try:
                camera = open_camera(cam_cfg)
            except CameraError as e:
                log.warning("camera unavailable (%s); running the demo on the mock camera", e)
                camera = MockCamera()
            self.demo = isinstance(camera, MockCamera)
            return camera

        @staticmethod
        def _load_area(data_dir):
            from vision.calibrate import CALIBRATION_FILE, CalibrationError, load_area

            try:
                return load_area(os.path.join(data_dir, CALIBRATION_FILE))
            except CalibrationError as e:  # keep playing on the whole picture; say so in the log
                log.warning("%s: reading the whole picture until the tray is calibrated again", e)
                return None

        @staticmethod
        def _open_recorder(data_dir):
            from companion.recording import RecordingError, ThrowRecorder

            try:
                rec = ThrowRecorder(os.path.join(data_dir, "recorded"))
                _calibration_beside(rec, data_dir)
                return rec
            except (RecordingError, OSError) as e:
                log.warning("not recording throws: %s", e)
                return None

        def _open_hardware(self):
            """The GPIO buttons, their lights and the buzzer (each optional: a
            desktop without GPIO keeps the screen and the keys)."""
            for dev in (self.buttons, self.lights, self.beeper):
                if dev is not None:
                    dev.close()
            self.buttons = self.lights = self.beeper = None
            g = self.cfg["gpio"]
            if not g.get("enabled", True):
                return
            factory = cfg.get("_pin_factory")
            try:
                from hardware.buttons import DecisionButtons

                self.buttons = DecisionButtons(
                    lambda a: Clock.schedule_once(lambda dt: self.action(a)),
                    stop_pin=g["stop_pin"], continue_pin=g["continue_pin"],
                    debounce=g["debounce"], hold_undo=g["hold_undo"], pin_factory=factory)
            except Exception as e:  # no GPIO on a desktop: the keyboard and screen remain
                log.info("GPIO buttons unavailable (%s); use the screen or keys S/C", e)
                return
            try:
                from hardware.lights import Beeper, DecisionLights

                self.lights = DecisionLights(stop_pin=g["stop_led"], continue_pin=g["continue_led"],
                                             pin_factory=factory)
                self.beeper = Beeper(g["buzzer"], enabled=self.cfg["app"]["sound"], pin_factory=factory)
            except Exception as e:
                log.warning("button lights or buzzer unavailable: %s", e)
            self._update_lights()

        # -- frames and reads (worker threads) -------------------------------
        def _watch_loop(self):
            """Worker thread: feed the latest frame to the tested
            :meth:`ThrowWatcher.feed`, which reads a settled scene here and
            scores or asks on the main thread (Kivy's clock)."""
            seen_id = None
            while not self._watch_stop.wait(1 / 15):
                frame = self._latest
                if frame is None or id(frame) == seen_id:
                    continue
                seen_id = id(frame)
                try:
                    self.watcher.feed(frame, time.monotonic(), act_on=self._act_on_main)
                except Exception:  # a bad frame must not stop watching
                    log.exception("watching the tray failed")

        def _act_on_main(self, act):
            """Run the watcher's decision on the main thread, then show what it saw."""
            Clock.schedule_once(lambda dt: self._seen(act()))

        def _seen(self, seen):
            if seen.read is None:
                return
            self.waiting_for_rest = False
            self.last_dice = list(seen.read.dice)
            if seen.outcome == "scored":
                self.last_frame = self.watcher.last_frame

        def _frame_from_worker(self, frame):
            self._latest = frame
            Clock.schedule_once(lambda dt: self._show_frame(frame))

        def _show_frame(self, frame):
            if self.sm.current != "game":
                return
            if self.last_dice:
                frame = annotate(frame, self.last_dice, highlight=self.highlight, confidence=False)
            self.game_screen.camera_view.show_frame(frame)

        def request_throw(self):
            """Throw (demo: random dice on the mock camera) or read the latest
            frame now (a real camera), off the main thread."""
            game = self.session.game
            if game is None or self.reading or game.is_over or game.decision_due:
                return
            if self.demo:
                # Demo: new dice on the mock camera; the watcher reads them once at rest.
                self.camera.throw([self._rng.randint(1, 6) for _i in range(game.dice_to_throw)])
                self.waiting_for_rest = True
                self.message = i18n._("Dice thrown: reading them when they are at rest…")
                self.refresh()
                return
            self.reading = True
            self.message = i18n._("Reading the dice…")
            self.refresh()
            threading.Thread(target=self._read_job, daemon=True, name="reader").start()

        def _read_job(self):
            try:
                frame = self.worker.latest if self.worker.latest is not None else self.camera.read()
                r = self.session.read(frame)
                Clock.schedule_once(lambda dt: self._read_done(frame, r, None))
            except Exception as e:  # an unreadable frame must not stop the app
                log.exception("read failed")
                Clock.schedule_once(lambda dt, err=e: self._read_done(None, None, err))

        def _read_done(self, frame, r, err):
            self.reading = False
            if err is not None:
                self.message = i18n._("Could not read the dice: {error}").format(error=err)
                self.refresh()
                return
            self.last_dice = list(r.dice)
            self.highlight = ()
            try:
                taken = self.session.take(r, frame)  # the session alone decides: score or ask
            except DurchmarschError as e:
                self.message = str(e)
                self.refresh()
                return
            if taken == SCORED:
                self.last_frame = frame
                self.watcher.scored(r.dice)

        # -- keys and buttons ----------------------------------------------
        def _on_key(self, window, key, scancode, codepoint, modifiers):
            from kivy.core.window import Keyboard

            names = {v: k for k, v in Keyboard.keycodes.items()}
            name = names.get(key) or codepoint or ""
            if name == "escape" and isinstance(self.dialog, S.UndoDialog):
                self.dialog.dismiss()
                return True
            if self.sm.current in ("start", "settings"):
                return False  # typing names or settings
            action = key_to_action(name)
            if action is None:
                return False
            self.action(action)
            return True

        def action(self, action: str):
            """Do a table action: ``stop``, ``continue``, ``throw``, ``undo``
            (asks first) or ``wrong`` (opens the correction of the last throw)."""
            game = self.session.game
            if game is None:
                return
            if isinstance(self.dialog, S.UndoDialog):  # CONTINUE confirms, STOP cancels
                if action == "continue":
                    self.confirm_undo()
                elif action == "stop":
                    self.dialog.dismiss()
                return
            if self.sm.current not in ("game", "end"):
                return
            try:
                if action in ("stop", "continue") and self.sm.current == "game":
                    self.session.decide(action)
                elif action == "throw":
                    self.request_throw()
                elif action == "undo":
                    self.ask_undo()
                elif action == "wrong" and self.can_correct():
                    self.open_correction("wrong")
            except DurchmarschError as e:
                self.message = str(e)
                self.refresh()

        def _update_lights(self):
            if self.lights is None:
                return
            game = self.session.game
            if isinstance(self.dialog, S.UndoDialog):
                self.lights.show(stop=True, cont=True)
            else:
                due = game is not None and game.decision_due and self.sm.current == "game"
                self.lights.show(stop=due, cont=due)

        def _beep(self, event):
            if self.beeper is not None:
                self.beeper.play(event)

        # -- undo ---------------------------------------------------------------
        def ask_undo(self):
            """Ask before undoing the last event (screen, key U, STOP held 3 s)."""
            game = self.session.game
            question = undo_text(game) if game is not None else None
            if question is None or self.dialog is not None:
                return
            self._open_dialog(S.UndoDialog(self, question))

        def confirm_undo(self):
            if self.dialog is not None:
                self.dialog.dismiss()
            try:
                self.session.undo()
            except DurchmarschError as e:
                self.message = str(e)
                self.refresh()

        def _open_dialog(self, dialog):
            self.dialog = dialog
            dialog.bind(on_dismiss=lambda *_: self._dialog_closed(dialog))
            dialog.open()
            self._update_lights()

        def _dialog_closed(self, dialog):
            if self.dialog is dialog:
                self.dialog = None
            self._update_lights()

        # -- correction -------------------------------------------------------
        def can_correct(self) -> bool:
            """True when the last event is a throw (its dice can be corrected)."""
            game = self.session.game
            return game is not None and bool(game.events) and isinstance(game.events[-1], Throw)

        def open_correction(self, mode: str):
            """Show the correction screen: ``"ask"`` for the pending unsure read,
            ``"wrong"`` for the last scored throw."""
            game = self.session.game
            if mode == "ask":
                r, frame = self.pending
                dice = sorted(r.dice, key=lambda d: (d.center[0], d.center[1]))
                values, due = [d.value for d in dice], r.expected
            else:
                result = game.last_result
                dice = sorted(self.last_dice, key=lambda d: (d.center[0], d.center[1]))
                values, due, frame = list(result.values), len(result.values), self.last_frame
                if sorted(d.value for d in dice) == sorted(values):
                    values = [d.value for d in dice]  # picture order, so the numbers match
                else:
                    dice = []
            why = self.message if mode == "ask" else None
            self.correction_screen.open(values, frame, mode=mode, due=due, dice=dice, why=why)
            self.sm.current = "correction"
            self._update_lights()

        def close_correction(self):
            self.sm.current = "game"
            self.refresh()

        def read_again(self):
            """The players nudged the dice: read the picture again."""
            self.pending = None
            self.close_correction()
            self.reading = True
            self.message = i18n._("Reading the dice…")
            self.refresh()
            threading.Thread(target=self._read_job, daemon=True, name="reader").start()

        def confirm_correction(self, values):
            """Score the corrected ``values`` (they are what the rules use and
            what is stored and recorded with the frame)."""
            mode = self.correction_screen.mode
            try:
                if mode == "ask":
                    r, frame = self.pending
                    self.pending = None
                    self.session.throw(values, frame=frame)
                    self.last_frame = frame
                    self.watcher.scored(r.dice)
                else:
                    self.session.correct(values, frame=self.last_frame)
            except DurchmarschError as e:
                self.correction_screen.preview.text = str(e)
                return
            self.last_dice = []  # the picture's reads no longer match the values scored
            if self.sm.current == "correction":
                self.sm.current = "game"
            self.refresh()

        # -- settings -------------------------------------------------------------
        def open_settings(self):
            """Ask for the PIN, then show the settings."""
            from companion.settings import check_pin

            def ok(pin):
                if not check_pin(pin, self.cfg):
                    return False
                self._back_from_settings = self.sm.current
                if self.sm.has_screen("settings"):
                    self.sm.remove_widget(self.sm.get_screen("settings"))
                self.sm.add_widget(S.SettingsScreen(self))
                self.sm.current = "settings"
                self._update_lights()
                return True

            self._open_dialog(S.PinDialog(ok))

        def close_settings(self):
            back = getattr(self, "_back_from_settings", "start")
            self.sm.current = back if self.sm.has_screen(back) else "start"
            self.refresh()
            self._update_lights()

        def save_settings(self, values: dict) -> str | None:
            """Store the settings screen's ``values`` (see
            :meth:`SettingsScreen.values`) and use them at once: language,
            sound, odds, pins and camera. Returns an error message, or None."""
            from companion.settings import (
                SettingsError,
                apply_settings,
                hash_pin,
                load_settings,
            )
            from companion.settings import save_settings as store

            data_dir = self.cfg["app"]["data_dir"]
            g = values["gpio"]
            used = [g[k] for k in ("stop_pin", "continue_pin", "stop_led", "continue_led", "buzzer") if g[k]]
            if len(used) != len(set(used)):
                return i18n._("Each pin can be used once only.")
            pin = values.pop("pin", "")
            try:
                saved = load_settings(data_dir)
            except SettingsError:
                saved = {}
            for section in ("camera", "gpio", "app"):
                saved.setdefault(section, {}).update(values[section])
            if pin:
                try:
                    saved["pin_hash"] = hash_pin(pin)
                except ValueError:
                    return i18n._("A PIN is 4 to 8 digits.")
            try:
                new = apply_settings(cfg, saved)
                store(data_dir, saved)
            except (SettingsError, OSError) as e:
                return str(e)
            old = self.cfg
            self.cfg = new
            if new["camera"] != old["camera"]:
                self.worker.stop()
                self.camera.close()
                self.camera = self._open_camera()
                self.worker = FrameWorker(self.camera, self._frame_from_worker)
                self.worker.start()
            if new["gpio"] != old["gpio"] or new["app"]["sound"] != old["app"]["sound"]:
                self._open_hardware()
            back = getattr(self, "_back_from_settings", "start")
            if new["app"]["language"] != self.language:
                i18n.set_language(new["app"]["language"])
                self.language = new["app"]["language"]
                self.sm.current = back if back in ("start", "game", "end") else "start"
                self._build_screens(self.start_screen.names())
            self.close_settings()
            return None

        # -- calibration ----------------------------------------------------------
        def open_calibration(self):
            """Show a still of the tray (the latest frame) for touching its corners."""
            frame = self.worker.latest if self.worker.latest is not None else self.camera.read()
            if frame is None:
                if self.sm.has_screen("settings"):
                    self.sm.get_screen("settings").error.text = i18n._("No picture from the camera.")
                return
            area = self.session.area
            corners = ()
            if area is not None:
                corners = area.scaled((frame.shape[1], frame.shape[0])).polygon
            if not self.sm.has_screen("calibrate"):
                self.sm.add_widget(S.CalibrationScreen(self))
            self.calibration_screen = self.sm.get_screen("calibrate")
            self.calibration_screen.open(frame, corners)
            self.sm.current = "calibrate"

        def close_calibration(self):
            self.sm.current = "settings" if self.sm.has_screen("settings") else "start"

        def save_calibration(self, frame, corners) -> str:
            """Calibrate on ``frame`` (``H×W×3 uint8 BGR``) with the ``corners``
            touched (frame pixels), fix the camera's exposure and white
            balance, store both, and read only the area from now on. Returns
            what was done (or what went wrong) in words for the players."""
            from companion.calibration import store_calibration
            from vision.calibrate import CalibrationError, calibrate
            from vision.rest import RestDetector

            data_dir = self.cfg["app"]["data_dir"]
            try:
                area, warning = calibrate(frame, corners)
            except CalibrationError as e:
                log.info("calibration refused: %s", e)
                return i18n._("These points enclose too small an area: touch the corners of the tray.")
            try:
                controls = self.camera.lock_exposure()
            except Exception as e:  # a camera that refuses its controls keeps its automatic ones
                log.warning("exposure not fixed: %s", e)
                controls = {}
            try:
                store_calibration(data_dir, area, controls)
                _calibration_beside(self.session.recorder, data_dir)
            except OSError as e:
                return i18n._("Could not save: {error}").format(error=e)
            self.session.area = area
            self.watcher.detector = RestDetector(area=area.polygon)
            log.info("calibrated: %s (%s)", area.to_dict(), warning or "dice measured")
            if warning:
                said = i18n._("Tray saved. No die measured: put a few dice apart in the tray and calibrate again.")
            else:
                said = i18n._("Tray saved; a die is {size} px wide.").format(size=round(area.die_size))
            self.close_calibration()
            if self.sm.has_screen("settings"):
                self.sm.get_screen("settings").error.text = said
            return said

        def open_menu(self):
            self._open_dialog(S.MenuDialog(self))

        # -- screens ----------------------------------------------------------------
        def on_change(self, change: Change):
            game = self.session.game
            if change.kind == "start":
                self.last_dice = []
                self.last_frame = None
                self.pending = None
                self.message = ""
                self.game_screen.setup(game)
                self.sm.current = "game"
            elif change.kind == "throw":
                self.highlight = change.result.formed_by
                self.message = result_text(change.result, game.players)
                self._beep("success" if change.result.success else "misthrow")
                if self.sm.current == "correction" and self.correction_screen.mode == "ask":
                    self.sm.current = "game"  # nudged dice were read sure after all
            elif change.kind == "read":
                self.pending = (change.read, change.frame)
                self.message = ask_text(change.read.values, change.read.expected, change.read.reasons)
                self._beep("ask")
                self.open_correction("ask")
            elif change.kind == "decision":
                self.message = ""
            elif change.kind == "undo":
                self.message = i18n._("Undone.")
                self.last_dice = []
                self.pending = None
                if self.sm.current in ("end", "correction"):
                    self.sm.current = "game"
            elif change.kind == "over":
                self.end_screen.show(game)
                self.sm.current = "end"
                self._beep("win")
            self.refresh()

        def refresh(self):
            game = self.session.game
            if game is not None:
                self.game_screen.refresh(game, self.message)
            self._update_lights()

        def resume(self):
            self.session.resume()

        def rematch(self):
            """Revanche: the same players in the same seats, a new game."""
            game = self.session.game
            if game is not None:
                self.session.start(list(game.players))

        def show_start(self):
            self.start_screen.refresh()
            self.sm.current = "start"
            self._update_lights()

        def on_stop(self):
            self._watch_stop.set()
            self.worker.stop()
            for dev in (self.buttons, self.lights, self.beeper):
                if dev is not None:
                    dev.close()
            self.camera.close()
            self.session.store.close()

    return CompanionApp()
