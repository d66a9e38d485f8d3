"""The touchscreen app (Kivy): start, game and end screens.

Frames come from a worker thread and reads run on another, so the screen never
waits for the camera or the reader; results are handed to Kivy's main thread
with ``Clock.schedule_once``. With no camera attached the app runs a demo on the
mock camera: a touch on THROW (or the space key) throws random dice, which are
rendered and read like a real throw.

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
    from kivy.config import Config

    w, h = size or (800, 480)
    Config.set("graphics", "width", str(w))
    Config.set("graphics", "height", str(h))
    Config.set("graphics", "fullscreen", "auto" if cfg["app"].get("fullscreen") else "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("kivy", "exit_on_escape", "0")
    app = _make_app(cfg, driver)
    app.run()
    return 0


def _make_app(cfg, driver):
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.graphics import Color, Rectangle
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager
    from kivy.uix.textinput import TextInput

    from companion.durchmarsch import DurchmarschError, uses_pair
    from companion.session import Change, GameSession
    from companion.storage import Store
    from hardware.buttons import key_to_action
    from hardware.camera import CameraError, MockCamera, open_camera
    from vision.reader import annotate

    from .widgets import CameraView, SheetView

    def big_button(text, colour, **kw):
        return Button(text=text, font_size="22sp", bold=True, background_normal="",
                      background_color=colour, **kw)

    def backdrop(widget, rgba):
        with widget.canvas.before:
            Color(*rgba)
            rect = Rectangle(pos=widget.pos, size=widget.size)
        widget.bind(pos=lambda w, p: setattr(rect, "pos", p), size=lambda w, s: setattr(rect, "size", s))

    class StartScreen(Screen):
        def __init__(self, app, **kw):
            super().__init__(name="start", **kw)
            self.app = app
            root = BoxLayout(orientation="vertical", padding=16, spacing=10)
            backdrop(root, (0.13, 0.16, 0.2, 1))
            root.add_widget(Label(text="Durchmarsch", font_size="34sp", bold=True, size_hint_y=None, height=56))
            root.add_widget(Label(text="Players in seating order (2–4):", font_size="18sp", size_hint_y=None, height=32))
            recent = app.session.store.recent_players(4)
            self.inputs = []
            for i in range(4):
                t = TextInput(hint_text=f"Player {i + 1}", multiline=False, font_size="22sp",
                              size_hint_y=None, height=52, write_tab=False)
                if i < len(recent):
                    t.text = recent[i]
                self.inputs.append(t)
                root.add_widget(t)
            self.error = Label(text="", color=(1, 0.5, 0.4, 1), font_size="16sp", size_hint_y=None, height=28)
            root.add_widget(self.error)
            bar = BoxLayout(size_hint_y=None, height=64, spacing=10)
            self.resume_btn = big_button("Resume game", (0.3, 0.45, 0.7, 1))
            self.resume_btn.bind(on_release=lambda *_: app.resume())
            self.start_btn = big_button("Start", (0.2, 0.6, 0.3, 1))
            self.start_btn.bind(on_release=lambda *_: self.start())
            bar.add_widget(self.resume_btn)
            bar.add_widget(self.start_btn)
            root.add_widget(bar)
            self.add_widget(root)
            self.refresh()

        def refresh(self):
            self.resume_btn.disabled = self.app.session.store.unfinished() is None

        def start(self):
            names = [t.text.strip() for t in self.inputs if t.text.strip()]
            try:
                self.app.session.start(names)
            except ValueError as e:
                self.error.text = str(e)
                return
            self.error.text = ""

    class GameScreen(Screen):
        def __init__(self, app, **kw):
            super().__init__(name="game", **kw)
            self.app = app
            root = BoxLayout(orientation="horizontal", padding=6, spacing=6)
            backdrop(root, (0.13, 0.16, 0.2, 1))
            left = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.42)
            self.camera_view = CameraView()
            left.add_widget(self.camera_view)
            self.prompt = Label(text="", font_size="17sp", bold=True, halign="center", valign="middle",
                                size_hint_y=None, height=96)
            self.prompt.bind(size=lambda w, s: setattr(w, "text_size", s))
            left.add_widget(self.prompt)
            bar = BoxLayout(size_hint_y=None, height=64, spacing=6)
            self.throw_btn = big_button("THROW", (0.3, 0.45, 0.7, 1))
            self.throw_btn.bind(on_release=lambda *_: app.request_throw())
            self.stop_btn = big_button("STOP", (0.75, 0.2, 0.15, 1))
            self.stop_btn.bind(on_release=lambda *_: app.action("stop"))
            self.continue_btn = big_button("CONTINUE", (0.2, 0.6, 0.3, 1))
            self.continue_btn.bind(on_release=lambda *_: app.action("continue"))
            for b in (self.throw_btn, self.stop_btn, self.continue_btn):
                bar.add_widget(b)
            left.add_widget(bar)
            small = BoxLayout(size_hint_y=None, height=48, spacing=6)
            self.undo_btn = Button(text="Undo", font_size="17sp")
            self.undo_btn.bind(on_release=lambda *_: app.action("undo"))
            self.new_btn = Button(text="New game", font_size="17sp")
            self.new_btn.bind(on_release=lambda *_: app.show_start())
            small.add_widget(self.undo_btn)
            small.add_widget(self.new_btn)
            left.add_widget(small)
            root.add_widget(left)
            self.sheets_box = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.58)
            root.add_widget(self.sheets_box)
            self.add_widget(root)
            self.sheet_views: list[SheetView] = []

        def setup(self, game):
            self.sheets_box.clear_widgets()
            self.sheet_views = [SheetView() for _ in game.players]
            for v in self.sheet_views:
                self.sheets_box.add_widget(v)

        def refresh(self, game, message: str = ""):
            if len(self.sheet_views) != len(game.players):
                self.setup(game)
            for i, (v, s) in enumerate(zip(self.sheet_views, game.sheets)):
                v.show(s, roller=i == game.current_player, playing=i == game.current_player)
            due = game.decision_due
            self.stop_btn.disabled = not due
            self.continue_btn.disabled = not due
            self.throw_btn.disabled = due or game.is_over or self.app.reading
            self.undo_btn.disabled = not game.events
            self.prompt.text = (message + "\n" if message else "") + prompt_text(game)

    class EndScreen(Screen):
        def __init__(self, app, **kw):
            super().__init__(name="end", **kw)
            root = BoxLayout(orientation="vertical", padding=20, spacing=12)
            backdrop(root, (0.13, 0.16, 0.2, 1))
            self.title = Label(text="", font_size="40sp", bold=True)
            self.detail = Label(text="", font_size="20sp")
            root.add_widget(self.title)
            root.add_widget(self.detail)
            bar = BoxLayout(size_hint_y=None, height=64, spacing=10)
            again = big_button("Rematch", (0.2, 0.6, 0.3, 1))
            again.bind(on_release=lambda *_: app.rematch())
            new = big_button("New players", (0.3, 0.45, 0.7, 1))
            new.bind(on_release=lambda *_: app.show_start())
            undo = Button(text="Undo last throw", font_size="18sp")
            undo.bind(on_release=lambda *_: app.action("undo"))
            bar.add_widget(undo)
            bar.add_widget(new)
            bar.add_widget(again)
            root.add_widget(bar)
            self.add_widget(root)

        def show(self, game):
            self.title.text = f"{game.winner} wins!"
            how = "completed a row" if game.outcome.reason == "row" else "is the last player left"
            marks = ", ".join(
                f"{s.name}: {sum(r.marked for r in s.rows if not r.struck)} marks" for s in game.sheets
            )
            self.detail.text = f"{game.winner} {how} after {game.turn_number} turns.\n{marks}"

    def prompt_text(game) -> str:
        if game.is_over:
            return f"{game.winner} wins!"
        name = game.players[game.current_player]
        if game.decision_due:
            return f"{name}: stop or continue?"
        t, n = game.target, game.dice_to_throw
        how = f"two dice that add up to {t}" if uses_pair(t) else f"one die showing {t}"
        return f"{name}: throw {n} dice for {t}, {how}"

    class CompanionApp(App):
        title = "Dice companion"

        def build(self):
            data_dir = cfg["app"]["data_dir"]
            self.session = GameSession(Store(data_dir), area=self._load_area(data_dir),
                                       recorder=self._open_recorder(data_dir))
            self.session.subscribe(lambda ch: Clock.schedule_once(lambda dt: self.on_change(ch)))
            cam_cfg = dict(cfg["camera"])
            try:  # exposure and white balance fixed at calibration (Pi camera)
                with open(os.path.join(data_dir, "camera_controls.json")) as f:
                    cam_cfg["controls"] = json.load(f)
            except (OSError, ValueError):
                pass
            try:
                self.camera = open_camera(cam_cfg)
            except CameraError as e:
                log.warning("camera unavailable (%s); running the demo on the mock camera", e)
                self.camera = MockCamera()
            self.demo = isinstance(self.camera, MockCamera)
            self.reading = False
            self.waiting_for_rest = False
            self.last_dice = []
            self.highlight = ()
            self.message = ""
            self._latest = None
            self._rng = random.Random()
            self.sm = ScreenManager(transition=NoTransition())
            self.start_screen = StartScreen(self)
            self.game_screen = GameScreen(self)
            self.end_screen = EndScreen(self)
            for s in (self.start_screen, self.game_screen, self.end_screen):
                self.sm.add_widget(s)
            Window.bind(on_key_down=self._on_key)
            from companion.watch import ThrowWatcher

            self.watcher = ThrowWatcher(self.session)
            self._watch_stop = threading.Event()
            self.worker = FrameWorker(self.camera, self._frame_from_worker)
            self.worker.start()
            threading.Thread(target=self._watch_loop, name="watch", daemon=True).start()
            self.buttons = self._open_buttons()
            if driver is not None:
                Clock.schedule_once(lambda dt: driver(self), 0.3)
            return self.sm

        @staticmethod
        def _load_area(data_dir):
            from vision.calibrate import CalibrationError, load_area

            try:
                return load_area(os.path.join(data_dir, "calibration.json"))
            except CalibrationError as e:  # keep playing on the whole picture; say so in the log
                log.warning("%s: reading the whole picture until the tray is calibrated again", e)
                return None

        @staticmethod
        def _open_recorder(data_dir):
            from companion.recording import RecordingError, ThrowRecorder

            try:
                rec = ThrowRecorder(os.path.join(data_dir, "recorded"))
                calib = os.path.join(data_dir, "calibration.json")
                if os.path.exists(calib):  # eval-vision reads the recorded frames in the same area
                    shutil.copyfile(calib, os.path.join(rec.folder, "calibration.json"))
                return rec
            except (RecordingError, OSError) as e:
                log.warning("not recording throws: %s", e)
                return None

        def _watch_loop(self):
            """Worker thread: motion check on the latest frame; when the dice come
            to rest, read them here and let the main thread score or ask."""
            seen_id = None
            while not self._watch_stop.wait(1 / 15):
                frame = self._latest
                if frame is None or id(frame) == seen_id:
                    continue
                seen_id = id(frame)
                try:
                    settled = self.watcher.detector.update(frame, time.monotonic())
                    if settled is None:
                        continue
                    r = self.watcher.read_if_due(settled.frame)
                except Exception:  # a bad frame must not stop watching
                    log.exception("watching the tray failed")
                    continue
                Clock.schedule_once(lambda dt, f=settled.frame, r=r: self._settled(f, r))

        @staticmethod
        def _ask_message(r):
            """The prompt for a read that cannot be scored: its first reason, short
            enough for the 800×480 screen."""
            why = r.reasons[0] if r.reasons else r.problem
            return f"Not sure: {why}. Nudge the dice or throw again."

        def _settled(self, frame, r):
            if self.session.game is None or r is None:
                return
            self.waiting_for_rest = False
            self.last_dice = list(r.dice)
            seen = self.watcher.act(frame, r)
            if seen.outcome == "scored":
                self._show_result(self.session.game.last_result)
            elif seen.outcome == "asked":
                self.message = self._ask_message(r)
                self.refresh()

        # -- hardware ---------------------------------------------------
        def _open_buttons(self):
            g = cfg["gpio"]
            if not g.get("enabled", True):
                return None
            try:
                from hardware.buttons import DecisionButtons

                return DecisionButtons(
                    lambda a: Clock.schedule_once(lambda dt: self.action(a)),
                    stop_pin=g["stop_pin"], continue_pin=g["continue_pin"],
                    debounce=g["debounce"], hold_undo=g["hold_undo"],
                    pin_factory=cfg.get("_pin_factory"),
                )
            except Exception as e:  # no GPIO on a desktop: the keyboard and screen remain
                log.info("GPIO buttons unavailable (%s); use the screen or keys S/C", e)
                return None

        def _frame_from_worker(self, frame):
            self._latest = frame
            Clock.schedule_once(lambda dt: self._show_frame(frame))

        def _show_frame(self, frame):
            if self.sm.current != "game":
                return
            if self.last_dice:
                frame = annotate(frame, self.last_dice, highlight=self.highlight)
            self.game_screen.camera_view.show_frame(frame)

        def _on_key(self, window, key, scancode, codepoint, modifiers):
            from kivy.core.window import Keyboard

            names = {v: k for k, v in Keyboard.keycodes.items()}
            action = key_to_action(names.get(key) or codepoint or "")
            if action is None or self.sm.current != "game":
                return False
            self.action(action)
            return True

        # -- actions ------------------------------------------------------
        def action(self, action: str):
            """Do a table action: ``stop``, ``continue``, ``throw`` or ``undo``."""
            game = self.session.game
            if game is None:
                return
            try:
                if action in ("stop", "continue"):
                    self.session.decide(action)
                elif action == "throw":
                    self.request_throw()
                elif action == "undo":
                    self.session.undo()
            except DurchmarschError as e:
                self.message = str(e)
                self.refresh()

        def request_throw(self):
            """Throw (demo: random dice on the mock camera) and read it off the main thread."""
            game = self.session.game
            if game is None or self.reading or game.is_over or game.decision_due:
                return
            n = game.dice_to_throw
            if self.demo:
                # Demo: new dice on the mock camera; the watcher reads them once at rest.
                self.camera.throw([self._rng.randint(1, 6) for _ in range(n)])
                self.waiting_for_rest = True
                self.message = "Dice thrown: reading them when they are at rest…"
                self.refresh()
                return
            self.reading = True
            self.message = "Reading the dice…"
            self.refresh()
            threading.Thread(target=self._read_job, daemon=True, name="reader").start()

        def _read_job(self):
            try:
                frame = self.camera.read()
                r = self.session.read(frame)
                Clock.schedule_once(lambda dt: self._read_done(frame, r, None))
            except Exception as e:  # an unreadable frame must not stop the app
                log.exception("read failed")
                Clock.schedule_once(lambda dt, err=e: self._read_done(None, None, err))

        def _read_done(self, frame, r, err):
            self.reading = False
            if err is not None:
                self.message = f"Could not read the dice: {err}"
                self.refresh()
                return
            self.last_dice = list(r.dice)
            self.highlight = ()
            if not r.ok:
                self.message = self._ask_message(r)
                self.refresh()
                return
            try:
                result = self.session.throw(r.values, frame=frame)
            except DurchmarschError as e:
                self.message = str(e)
                self.refresh()
                return
            self.watcher.scored(r.dice)
            self._show_result(result)

        def _show_result(self, result):
            self.highlight = result.formed_by
            if result.success:
                dice = " + ".join(str(result.values[i]) for i in result.formed_by)
                self.message = f"{dice} forms {result.target}!"
            else:
                self.message = f"Misthrow: no {result.target}." + (" Row struck out." if result.row_struck else "")
            self.refresh()

        # -- screens --------------------------------------------------------
        def on_change(self, change: Change):
            game = self.session.game
            if change.kind == "start":
                self.last_dice = []
                self.message = ""
                self.game_screen.setup(game)
                self.sm.current = "game"
            if change.kind == "undo":
                self.message = "Undone."
                self.last_dice = []
                if self.sm.current == "end":
                    self.sm.current = "game"
            if change.kind == "over":
                self.end_screen.show(game)
                self.sm.current = "end"
            self.refresh()

        def refresh(self):
            game = self.session.game
            if game is not None:
                self.game_screen.refresh(game, self.message)

        def resume(self):
            self.session.resume()

        def rematch(self):
            game = self.session.game
            if game is not None:
                self.session.start(list(game.players))

        def show_start(self):
            self.start_screen.refresh()
            self.sm.current = "start"

        def on_stop(self):
            self._watch_stop.set()
            self.worker.stop()
            if self.buttons is not None:
                self.buttons.close()
            self.camera.close()
            self.session.store.close()

    return CompanionApp()
