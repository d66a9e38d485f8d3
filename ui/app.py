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

The app is a small Kivy ``App``: what to show and what a press does live in
:class:`ui.controller.TableController` (plain Python, tested without Kivy),
the devices in :mod:`ui.devices`, the screens in :mod:`ui.screens`.

Start it with ``companion`` (or ``companion kiosk``). Tests drive it with
:func:`run_app`'s ``driver`` hook on SDL's offscreen video driver.
"""

from __future__ import annotations

import logging
import os
import threading
import time

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")

from .devices import (  # noqa: E402
    FrameWorker,
    TableDevices,
    calibration_beside,
    load_tray_area,
    open_recorder,
    open_table_camera,
    with_settings,
)

__all__ = ["run_app", "FrameWorker"]

log = logging.getLogger(__name__)


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
    # The start screen docks its own keyboard for names (ui/keyboard_layouts.py), one per language.
    app = _make_app(cfg, driver)
    app.run()
    return 0


def _make_app(cfg, driver):
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.screenmanager import NoTransition, ScreenManager

    from companion import i18n
    from companion.session import GameSession
    from companion.storage import Store
    from companion.watch import ThrowWatcher
    from hardware.buttons import key_to_action
    from vision.reader import annotate

    from . import screens as S
    from .controller import TableController

    class CompanionApp(App):
        """The Kivy app: screens, dialogs, threads. It is the controller's view."""

        title = "Dice companion"

        def build(self):
            self.cfg = with_settings(cfg)
            self.language = self.cfg["app"]["language"]
            i18n.set_language(self.language)
            data_dir = self.cfg["app"]["data_dir"]
            self.session = GameSession(Store(data_dir), area=load_tray_area(data_dir),
                                       recorder=open_recorder(data_dir),
                                       keep_frame_games=self.cfg["app"]["keep_frame_games"],
                                       keep_recorded=self.cfg["app"]["keep_recorded"])
            from companion.fenn_cli import load_stored_board

            self.session.board = load_stored_board(data_dir)  # Fenn's board, when calibrated
            self.session.maintain()  # storage bounded: old pictures removed, the database vacuumed now and then
            self.camera, self.demo = open_table_camera(self.cfg["camera"], data_dir)
            self.watcher = ThrowWatcher(self.session)
            from companion.status import AppStatus  # the heartbeat the table's page reads (companion/web)

            self.status = AppStatus(data_dir, source=self.cfg["camera"]["source"], demo=self.demo)
            logging.getLogger().addHandler(self.status.handler)
            self.session.subscribe(self.status.on_change)
            from .tap_guard import TapGuard

            self.table = TableController(self.session, self, camera=self.camera, demo=self.demo,
                                         watcher=self.watcher, subscribe=False,
                                         guard=TapGuard(self.cfg["app"]["guard"]))
            self.session.subscribe(lambda ch: Clock.schedule_once(lambda dt: self.table.on_change(ch)))
            self.table.fenn.prepare(self.cfg.get("fenn", {}))  # Fenn's hints solved (or loaded) in the background now
            self.dialog = None
            self.devices = None
            from hardware.sound import SoundPlayer

            self.sounds = SoundPlayer(os.path.join(data_dir, "sounds"), enabled=self.cfg["app"]["sound"])
            self._latest = None
            self.sm = ScreenManager(transition=NoTransition())
            self._build_screens()
            # Stray taps never act: a new screen or dialog starts the guard's quiet time; touches within it are dropped.
            self.sm.bind(current=lambda *_: self.table.guard.hold())
            S.drop_stray_touches(Window, self.table.guard)
            Window.bind(on_key_down=self._on_key)
            if Window.softinput_mode == "":
                Window.softinput_mode = "below_target"  # the docked keyboard never covers the field
            self._watch_stop = threading.Event()
            self.worker = FrameWorker(self.camera, self._frame_from_worker)
            self.worker.start()
            threading.Thread(target=self._watch_loop, name="watch", daemon=True).start()
            self.status.start(lambda: self._latest)
            self._open_hardware()
            self._notify_systemd()
            # After a restart (a power cut, a reboot), the unfinished games are offered at once.
            Clock.schedule_once(lambda dt: self.offer_resume(), 0.2)
            if driver is not None:
                Clock.schedule_once(lambda dt: driver(self), 0.3)
            return self.sm

        # The controller's state, read by the screens and the tests.
        message = property(lambda self: self.table.message)
        reading = property(lambda self: self.table.reading)
        pending = property(lambda self: self.table.pending)
        last_dice = property(lambda self: self.table.last_dice)
        last_frame = property(lambda self: self.table.last_frame)
        highlight = property(lambda self: self.table.highlight)
        waiting_for_rest = property(lambda self: self.table.waiting_for_rest)

        def _build_screens(self, names=()):
            current = self.sm.current if self.sm.screen_names else "start"
            self.sm.clear_widgets()
            self.start_screen = S.StartScreen(self, names=names)
            self.game_screen = S.GameScreen(self)
            self.correction_screen = S.CorrectionScreen(self)
            self.end_screen = S.EndScreen(self)
            self.fenn_screen = S.FennScreen(self)
            self.fenn_end_screen = S.FennEndScreen(self)
            for s in (self.start_screen, self.game_screen, self.correction_screen, self.end_screen,
                      self.fenn_screen, self.fenn_end_screen):
                self.sm.add_widget(s)
            game = self.session.game
            if game is not None:
                self.setup_game(game)
                if game.is_over:
                    self.show_end(game)
            play = self.table.play_screens()[0]
            self.sm.current = current if current in self.sm.screen_names else play if game else "start"
            self.refresh()

        def set_language(self, code: str):
            """Switch every screen to language ``code`` (de, en, fr, it)."""
            if code == self.language:
                return
            i18n.set_language(code)
            self.language = code
            self.cfg["app"]["language"] = code
            try:  # a restart keeps the language chosen at the table
                from companion.settings import SettingsError, remember

                remember(self.cfg["app"]["data_dir"], "app", "language", code)
            except (OSError, SettingsError) as e:
                log.warning("language not kept for the next start: %s", e)
            names = self.start_screen.names() if self.sm.has_screen("start") else ()
            chosen = self.start_screen.game if self.sm.has_screen("start") else "durchmarsch"
            self._build_screens(names)
            self.start_screen.choose_game(chosen)

        def _open_hardware(self):
            if self.devices is not None:
                self.devices.close()
            self.devices = TableDevices(self.cfg["gpio"], sound=self.cfg["app"]["sound"],
                                        on_action=lambda a: Clock.schedule_once(lambda dt: self.action(a)),
                                        pin_factory=cfg.get("_pin_factory"))
            self.update_lights()

        # The devices, as the tests reach them.
        buttons = property(lambda self: self.devices.buttons if self.devices else None)
        lights = property(lambda self: self.devices.lights if self.devices else None)
        beeper = property(lambda self: self.devices.beeper if self.devices else None)

        def _notify_systemd(self):
            """Under systemd (``Type=notify``): READY now, WATCHDOG from Kivy's
            clock, so a UI loop that hangs stops the pings and systemd restarts it."""
            from hardware.watchdog import Notifier

            self.notifier = Notifier()
            every = self.notifier.interval()
            if every:
                Clock.schedule_interval(lambda dt: self.notifier.ping(), every)
            Clock.schedule_once(lambda dt: self.notifier.ready("the start screen is up"), 0)

        # -- the controller's view ----------------------------------------------
        def show(self, name):
            self.sm.current = name
            self.update_lights()

        def current(self):
            return self.sm.current

        def refresh(self):
            game = self.session.game
            if game is not None and self.table.is_fenn():
                self.fenn_screen.refresh(game)
            elif game is not None:
                self.game_screen.refresh(game, self.table.message)
            self.update_lights()

        def setup_game(self, game):
            if game.name == "durchmarsch":
                self.game_screen.setup(game)

        def show_end(self, game):
            if game.name == "fenn":
                self.fenn_end_screen.show(game, self.table.fenn.hints_used())
            else:
                self.end_screen.show(game)

        def open_correction(self, values, frame, *, mode, due, dice, why):
            self.correction_screen.open(values, frame, mode=mode, due=due, dice=dice, why=why)
            self.sm.current = "correction"

        def correction_values(self):
            c = self.correction_screen
            return list(c.values), c.due, c.mode

        def correction_error(self, text):
            self.correction_screen.preview.text = text

        def open_undo(self, question):
            self._open_dialog(S.UndoDialog(self, question))

        def close_undo(self):
            if isinstance(self.dialog, S.UndoDialog):
                self.dialog.dismiss()

        def undo_open(self):
            return isinstance(self.dialog, S.UndoDialog)

        def beep(self, event):
            """A mark, a misthrow, a win or a question: the piezo (where wired) and the audio output."""
            if self.devices is not None:
                self.devices.beep(event)
            if self.sounds is not None:
                self.sounds.enabled = self.cfg["app"]["sound"]
                self.sounds.play(event)

        def update_lights(self):
            if self.devices is not None:
                self.devices.show(*self.table.lights())

        _update_lights = update_lights

        def start_read(self):
            threading.Thread(target=self._read_job, daemon=True, name="reader").start()

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
            Clock.schedule_once(lambda dt: self.table.seen(act()))

        def _frame_from_worker(self, frame):
            self._latest = frame
            Clock.schedule_once(lambda dt: self._show_frame(frame))

        def _show_frame(self, frame):
            if self.sm.current != "game":
                return
            if self.table.last_dice:
                frame = annotate(frame, self.table.last_dice, highlight=self.table.highlight, confidence=False)
            self.game_screen.camera_view.show_frame(frame)

        def _read_job(self):
            try:
                frame = self.worker.latest if self.worker.latest is not None else self.camera.read()
                r = self.session.read(frame)
                Clock.schedule_once(lambda dt: self.table.read_done(frame, r))
            except Exception as e:  # an unreadable frame must not stop the app
                log.exception("read failed")
                Clock.schedule_once(lambda dt, err=e: self.table.read_done(None, None, err))

        # -- keys and presses (the screens call these) -------------------------
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
            """A table action (see :meth:`TableController.action`)."""
            self.table.action(action)

        def request_throw(self):
            self.table.request_throw()

        def ask_undo(self):
            self.table.ask_undo()

        def confirm_undo(self):
            self.table.confirm_undo()

        def can_correct(self) -> bool:
            return self.table.can_correct()

        def close_correction(self):
            self.sm.current = "game"
            self.refresh()

        def read_again(self):
            self.table.read_again()

        def confirm_correction(self, values):
            self.table.confirm_correction(values, self.correction_screen.mode)

        def rematch(self):
            self.table.rematch()

        def resume(self):
            """Resume: the unfinished game, or a choice when there are several."""
            games = self.session.store.unfinished_games()
            if len(games) > 1:
                self.offer_resume(games)
            else:
                self.table.resume()

        def offer_resume(self, games=None):
            """Offer the unfinished games (after a restart, at once); first say
            what was done to damaged storage, if anything."""
            from companion.prompts import storage_text

            store = self.session.store
            games = store.unfinished_games() if games is None else games
            notice = storage_text(store.repair, len(store.hidden))
            if notice and self.dialog is None and not getattr(self, "_told_storage", False):
                self._told_storage = True
                dialog = S.NoticeDialog(notice)
                dialog.bind(on_dismiss=lambda *_: Clock.schedule_once(lambda dt: self.offer_resume(), 0))
                self._open_dialog(dialog)
                return
            if games and self.dialog is None:
                self._open_dialog(S.ResumeDialog(games, self.table.resume, self.end_unfinished, self.session.store))

        def end_unfinished(self, game_id: int):
            self.session.end_unfinished(game_id)
            self.start_screen.refresh()

        def show_start(self):
            self.start_screen.refresh()
            self.sm.current = "start"
            self.update_lights()

        def open_menu(self):
            self._open_dialog(S.MenuDialog(self))

        def open_history(self):
            """This game's throws, the players' totals and the rematch tally."""
            if self.session.game is not None:
                from .qr import GameQR

                qr = GameQR(self)  # the game's page by QR code, when [web] is on
                qr.show(self.session.game_id)
                self._open_dialog(S.HistoryDialog(self.session.game, self.session.store, self.session.game_id, qr=qr))

        def open_rules(self):
            """The rules card of the game, in the screen's language: on the start
            screen the game chosen there, else the game at the table."""
            if self.sm.current == "start" or self.session.game is None:
                game = self.start_screen.game
            else:
                game = self.session.game.name
            self._open_dialog(S.RulesDialog(game, self.language))

        def _open_dialog(self, dialog):
            self.table.guard.hold()  # its buttons open where a finger may still be
            self.dialog = dialog
            dialog.bind(on_dismiss=lambda *_: self._dialog_closed(dialog))
            dialog.open()
            self.update_lights()

        def _dialog_closed(self, dialog):
            self.table.guard.hold()  # the buttons under it come back under the finger
            if self.dialog is dialog:
                self.dialog = None
            self.update_lights()
        # -- settings -------------------------------------------------------------
        def open_settings(self):
            """Ask for the PIN (after 5 wrong ones, a growing wait), then show the settings."""
            from companion.settings import PinGuard

            if not hasattr(self, "pin_guard"):
                self.pin_guard = PinGuard()

            def ok(pin):
                if not self.pin_guard.check(pin, self.cfg):
                    return False
                self._back_from_settings = self.sm.current
                if self.sm.has_screen("settings"):
                    self.sm.remove_widget(self.sm.get_screen("settings"))
                self.sm.add_widget(S.SettingsScreen(self))
                self.sm.current = "settings"
                self._update_lights()
                return True

            self._open_dialog(S.PinDialog(ok, wait=self.pin_guard.wait))

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
            for section in ("camera", "gpio", "app", "fenn"):
                saved.setdefault(section, {}).update(values.get(section, {}))
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
            self.table.guard.seconds = new["app"]["guard"]
            self.start_screen.longest = new["app"]["name_length"]
            if new["camera"] != old["camera"]:
                self.worker.stop()
                self.camera.close()
                self.camera, self.demo = open_table_camera(new["camera"], data_dir)
                self.table.camera, self.table.demo = self.camera, self.demo
                self.worker = FrameWorker(self.camera, self._frame_from_worker)
                self.worker.start()
            self.table.fenn.prepare(new.get("fenn", {}))  # new Fenn games use these; a game under way keeps its own
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
        def open_calibration(self, what: str = "tray"):
            """Show a still (the latest frame) for touching the tray's corners, or
            (``what="board"``) the Fenn board's two ends."""
            frame = self.worker.latest if self.worker.latest is not None else self.camera.read()
            if frame is None:
                if self.sm.has_screen("settings"):
                    self.sm.get_screen("settings").error.text = i18n._("No picture from the camera.")
                return
            if what == "board":
                board = self.session.board
                corners = board.scaled((frame.shape[1], frame.shape[0])).corners if board is not None else ()
                if not self.sm.has_screen("board"):
                    self.sm.add_widget(S.BoardScreen(self))
                self.sm.get_screen("board").open(frame, corners)
                self.sm.current = "board"
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

        def save_board(self, frame, points) -> str:
            """Store the Fenn board from ``points`` on ``frame`` (two: the middles of
            fields 1 and 9; four: the outline found) and read fields from it."""
            import json

            from companion.files import write_atomically
            from vision.fenn import BOARD_FILE, BoardArea, measure_tilt

            size = (frame.shape[1], frame.shape[0])
            try:
                board = (BoardArea.from_ends(points[0], points[1], size) if len(points) == 2
                         else BoardArea(tuple(map(tuple, points)), size, across_known=False))
                board = measure_tilt(frame, board)  # the table's tilt under the board, from the still dice
                write_atomically(os.path.join(self.cfg["app"]["data_dir"], BOARD_FILE),
                                 json.dumps(board.to_dict()).encode())
            except (ValueError, OSError, IndexError) as e:  # a BoardError too
                return i18n._("Could not save: {error}").format(error=e)
            self.session.board = board
            self.close_calibration()
            said = i18n._("Board saved.")
            if self.sm.has_screen("settings"):
                self.sm.get_screen("settings").error.text = said
            return said

        def open_table_check(self):
            """The "Table check" screen (from the settings): the doctor's checks on this table."""
            if not self.sm.has_screen("table_check"):
                self.sm.add_widget(S.TableCheckScreen(self))
            self.sm.current = "table_check"
            self.sm.get_screen("table_check").run()

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
                calibration_beside(self.session.recorder, data_dir)
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


        def on_stop(self):
            if getattr(self, "notifier", None) is not None:
                self.notifier.stopping()
            self._watch_stop.set()
            self.worker.stop()
            if self.devices is not None:
                self.devices.close()
            self.camera.close()
            self.session.store.close()

    return CompanionApp()
