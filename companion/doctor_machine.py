"""The doctor's checks of the machine: camera, GPIO, display, sound, clock, systemd.

Like :mod:`companion.doctor`, each returns a :class:`~companion.doctor.Check`
(✔, ✖, or ○ for a part this machine does not have) and takes what it reads
(devices, commands, files) as parameters, so tests pass fakes. Off a Raspberry
Pi a missing part is ○, on a Pi it is ✖.

    >>> check_clock(run=lambda cmd: "yes", now=1.8e9).mark.symbol
    '✔'
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import subprocess
import time
import warnings

from .doctor_base import Check, Mark, is_raspberry_pi
from .i18n import _

__all__ = ["check_camera", "check_gpio", "check_display", "check_audio", "check_clock", "check_systemd",
           "adjtimex_synchronised", "UNIT"]

#: The kiosk's systemd unit (systemd/install).
UNIT = "dice-companion.service"
#: A clock before this (2025-01-01, seconds since 1970) was never set: a Pi has no battery clock.
EARLIEST = 1735689600


def _command(cmd: list[str]) -> str | None:
    """A command's output (stripped), or None when it is missing or fails."""
    if shutil.which(cmd[0]) is None:
        return None
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def check_camera(cam_cfg: dict, data_dir: str, *, camera=None, opener=None, on_pi: bool | None = None):
    """The camera opens and gives a frame: its kind, size and exposure.

    ``cam_cfg``: the config's ``[camera]``; ``camera``: an open camera to use
    (not closed here); ``opener(cfg)``: opens one (``ui.devices``' way:
    :func:`hardware.camera.open_camera` with the controls fixed at calibration).
    Returns ``(check, frame)``, ``frame`` ``H×W×3 uint8 BGR`` or None.
    """
    import json

    from hardware.camera import CameraError, MockCamera, PiCamera, ReplayCamera, open_camera
    from vision.calibrate import CONTROLS_FILE

    title = _("Camera")
    on_pi = is_raspberry_pi() if on_pi is None else on_pi
    own = camera is None
    if own:
        cfg = dict(cam_cfg)
        try:
            with open(os.path.join(data_dir, CONTROLS_FILE)) as f:
                cfg["controls"] = json.load(f)
        except (OSError, ValueError):
            pass
        try:
            camera = (opener or open_camera)(cfg)
        except CameraError as e:
            return Check("camera", title, Mark.FAIL, _("does not open: {error}").format(error=e),
                         _("Check the camera and its cable; on a desktop choose the camera 'mock' in the settings.")), None
    try:
        try:
            frame = camera.read()
        except CameraError as e:
            frame, error = None, str(e)
        else:
            error = ""
        if frame is None:
            return Check("camera", title, Mark.FAIL, _("opens but gives no picture {error}").format(error=error).strip(),
                         _("Check the camera's cable, then restart the app.")), None
        size = f"{frame.shape[1]}×{frame.shape[0]}"
        if isinstance(camera, MockCamera):
            if cam_cfg.get("source") == "mock":
                return Check("camera", title, Mark.OK, _("the demo camera (source mock), {size}").format(size=size)), frame
            said = _("no camera here: the demo camera, {size}").format(size=size)
            if on_pi:
                return Check("camera", title, Mark.FAIL, said,
                             _("Connect the camera (the app runs the demo until then).")), frame
            return Check("camera", title, Mark.ABSENT, said), frame
        kind = _("Pi camera") if isinstance(camera, PiCamera) else _("recorded pictures") if isinstance(
            camera, ReplayCamera) else _("webcam")
        said = f"{kind}, {size}"
        if isinstance(camera, PiCamera):
            try:
                md = camera.metadata()
                said += ", " + _("exposure {ms:.1f} ms, gain {gain:.1f}").format(
                    ms=md["ExposureTime"] / 1000, gain=md.get("AnalogueGain", 0.0))
            except Exception:  # metadata is a nicety; the frame came
                pass
        if float(frame.mean()) < 12:
            return Check("camera", title, Mark.FAIL, said + "; " + _("the picture is almost black"),
                         _("Take the cap off the lens and light the table.")), frame
        return Check("camera", title, Mark.OK, said), frame
    finally:
        if own:
            camera.close()


def check_gpio(gpio: dict, *, devices=None, pulse: bool = False, pin_factory=None, on_pi: bool | None = None,
               sleep=time.sleep) -> Check:
    """The GPIO pins: claimable, the buttons read released, the lights and buzzer
    pulsed once on request (``pulse``).

    ``gpio``: the config's ``[gpio]``; ``devices``: the app's devices holding the
    pins (``buttons``, ``lights``, ``beeper`` attributes) instead of claiming them;
    ``pin_factory``: gpiozero's (None: the default; without GPIO, gpiozero's mock
    pins stand in and the check says so).
    """
    title = _("Buttons, lights, buzzer")
    if not gpio.get("enabled", True):
        return Check("gpio", title, Mark.ABSENT, _("GPIO is off in the config ([gpio] enabled = false)"))
    names = ("stop_pin", "continue_pin", "stop_led", "continue_led", "buzzer")
    used = [gpio[k] for k in names if gpio.get(k)]
    if len(used) != len(set(used)):
        return Check("gpio", title, Mark.FAIL, _("a pin is named twice: {pins}").format(pins=", ".join(map(str, used))),
                     _("Give each part its own pin on the settings screen."))
    on_pi = is_raspberry_pi() if on_pi is None else on_pi
    mock = ""
    own = devices is None or getattr(devices, "buttons", None) is None  # the app holds no pins: claim them here
    if own:
        from gpiozero.exc import BadPinFactory, GPIOPinInUse

        from hardware.buttons import DecisionButtons
        from hardware.lights import Beeper, DecisionLights

        def claim(factory):
            buttons = DecisionButtons(lambda a: None, stop_pin=gpio["stop_pin"], continue_pin=gpio["continue_pin"],
                                      pin_factory=factory)
            try:
                lights = DecisionLights(stop_pin=gpio["stop_led"], continue_pin=gpio["continue_led"], pin_factory=factory)
                beeper = Beeper(gpio["buzzer"], pin_factory=factory)
            except Exception:
                buttons.close()
                raise
            return _Devices(buttons, lights, beeper)

        try:
            with warnings.catch_warnings():  # gpiozero warns of each pin library it tries; the check says the outcome
                warnings.simplefilter("ignore")
                devices = claim(pin_factory)
        except BadPinFactory:
            if on_pi:
                return Check("gpio", title, Mark.FAIL, _("no GPIO library"),
                             _("Run 'sudo apt install python3-lgpio', then 'bash scripts/setup --pi'."))
            from gpiozero.pins.mock import MockFactory

            devices, mock = claim(MockFactory()), _("no GPIO here: mock pins") + "; "
        except GPIOPinInUse:
            return Check("gpio", title, Mark.FAIL, _("the pins are in use (is the app running?)"),
                         _("Stop the app first: sudo systemctl stop dice-companion"))
        except Exception as e:  # a pin that does not exist or cannot be claimed
            return Check("gpio", title, Mark.FAIL, _("the pins cannot be claimed: {error}").format(error=e),
                         _("Check the pin numbers (BCM) on the settings screen."))
    try:
        held = [word for word, b in ((_("STOP"), getattr(devices.buttons, "stop", None)),
                                     (_("CONTINUE"), getattr(devices.buttons, "continue_", None)))
                if b is not None and b.is_pressed]
        said = mock + _("STOP on {stop}, CONTINUE on {cont}").format(stop=gpio["stop_pin"], cont=gpio["continue_pin"])
        said += "; " + (_("{buttons} reads pressed").format(buttons=", ".join(held)) if held else _("buttons released"))
        if pulse:
            _pulse(devices, sleep)
            said += "; " + _("the lights and the buzzer were pulsed: did you see and hear them?")
        if held:
            return Check("gpio", title, Mark.FAIL, said,
                         _("A button wired to ground reads pressed only while pressed: check the wire and the pin."))
        return Check("gpio", title, Mark.ABSENT if mock else Mark.OK, said)
    finally:
        if own:
            devices.close()


class _Devices:
    """The buttons, lights and buzzer the doctor claimed itself."""

    def __init__(self, buttons, lights, beeper):
        self.buttons, self.lights, self.beeper = buttons, lights, beeper

    def close(self):
        for d in (self.buttons, self.lights, self.beeper):
            d.close()


def _pulse(devices, sleep) -> None:
    lights, beeper = getattr(devices, "lights", None), getattr(devices, "beeper", None)
    if lights is not None:
        for stop, cont in ((True, False), (False, True), (False, False)):
            lights.show(stop=stop, cont=cont)
            sleep(0.4)
    buzzer = getattr(beeper, "buzzer", None)
    if buzzer is not None:
        buzzer.on()
        sleep(0.15)
        buzzer.off()


def check_display(fullscreen: bool, *, window=None, env=None, dri: str = "/dev/dri",
                  on_pi: bool | None = None) -> Check:
    """The screen: Kivy's window (``window``: the running app's) or, before the app
    runs, what it will open on: a desktop (``$DISPLAY``, ``$WAYLAND_DISPLAY``) or,
    full screen without one, KMS/DRM (``/dev/dri/card*``, SDL's ``kmsdrm``)."""
    title = _("Display")
    if window is not None:
        kind = type(window).__name__.replace("Window", "") or "Kivy"
        return Check("display", title, Mark.OK, _("{kind} window {w}×{h}").format(kind=kind, w=window.width, h=window.height))
    env = os.environ if env is None else env
    on_pi = is_raspberry_pi() if on_pi is None else on_pi
    cards = sorted(f for f in (os.listdir(dri) if os.path.isdir(dri) else []) if f.startswith("card"))
    desktop = env.get("WAYLAND_DISPLAY") or env.get("DISPLAY")
    if desktop:
        return Check("display", title, Mark.OK, _("a desktop ({name})").format(name=desktop))
    if cards:
        driver = env.get("SDL_VIDEODRIVER", "")
        said = _("KMS/DRM: {cards}").format(cards=", ".join(cards))
        if fullscreen and driver not in ("", "kmsdrm"):
            return Check("display", title, Mark.FAIL, said + f"; SDL_VIDEODRIVER={driver}",
                         _("Full screen without a desktop needs SDL_VIDEODRIVER=kmsdrm (systemd/install sets it)."))
        if not os.access(os.path.join(dri, cards[0]), os.R_OK | os.W_OK):
            return Check("display", title, Mark.FAIL, said + "; " + _("no access"),
                         _("Add the user to the groups video and render: sudo usermod -aG video,render $USER"))
        return Check("display", title, Mark.OK, said)
    if on_pi or fullscreen:
        return Check("display", title, Mark.FAIL, _("no screen found (no desktop, no /dev/dri)"),
                     _("Connect the display; on a Pi enable KMS (dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt)."))
    return Check("display", title, Mark.ABSENT, _("no screen here: the app runs only offscreen"))


def check_audio(sound: bool, *, cards_file: str = "/proc/asound/cards", pulse: bool = False, data_dir: str = "",
                player=None, on_pi: bool | None = None) -> Check:
    """Sound output: the sound cards ALSA lists (``cards_file``); with ``pulse`` one
    sound is played (``player(path)``; ``aplay`` by default)."""
    title = _("Sound")
    if not sound:
        return Check("audio", title, Mark.ABSENT, _("sound is off in the settings"))
    try:
        with open(cards_file) as f:
            names = [line.split("]:", 1)[1].split(" - ")[0].strip() for line in f if "]:" in line]
    except OSError:
        names = []
    on_pi = is_raspberry_pi() if on_pi is None else on_pi
    if not names:
        if on_pi:
            return Check("audio", title, Mark.FAIL, _("no sound card"),
                         _("Connect a speaker (HDMI, USB or the jack) or switch sound off in the settings."))
        return Check("audio", title, Mark.ABSENT, _("no sound card here"))
    said = ", ".join(names)
    if pulse:
        from hardware.sound import write_tones

        path = write_tones(os.path.join(data_dir or "/tmp", "sounds"))["success"]
        ok = (player or (lambda p: _command(["aplay", "-q", p]) is not None))(path)
        said += "; " + (_("a sound was played: did you hear it?") if ok else _("the sound could not be played"))
        if not ok:
            return Check("audio", title, Mark.FAIL, said, _("Check the volume and which output is chosen (sudo raspi-config)."))
    return Check("audio", title, Mark.OK, said)


class _Timex(ctypes.Structure):
    # struct timex (linux/timex.h): modes first; 0 reads the state without changing it.
    _fields_ = [("modes", ctypes.c_uint), ("_rest", ctypes.c_byte * 256)]


def adjtimex_synchronised() -> bool | None:
    """The kernel's view: True when its clock is synchronised (``adjtimex`` returns
    a state other than ``TIME_ERROR``, 5), None when it cannot be asked."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        state = libc.adjtimex(ctypes.byref(_Timex()))
    except (OSError, AttributeError):
        return None
    return None if state < 0 else state != 5


def check_clock(*, run=None, kernel=adjtimex_synchronised, now: float | None = None) -> Check:
    """The clock: set (after :data:`EARLIEST`) and synchronised, as ``timedatectl``
    says (``run(cmd)``: a command's output or None) or else the kernel (``kernel()``)."""
    title = _("Clock")
    now = time.time() if now is None else now
    said = time.strftime("%Y-%m-%d %H:%M", time.localtime(now))
    if now < EARLIEST:
        return Check("clock", title, Mark.FAIL, said + "; " + _("never set"),
                     _("Connect the network once (the Pi has no clock battery), or: sudo date -s '2026-05-01 12:00'."))
    sync = (run or _command)(["timedatectl", "show", "-p", "NTPSynchronized", "--value"])
    synced = {"yes": True, "no": False}.get(sync or "")
    if synced is None:
        synced = kernel()
    if synced is None:
        return Check("clock", title, Mark.ABSENT, said + "; " + _("cannot tell whether it is synchronised"))
    if not synced:
        return Check("clock", title, Mark.FAIL, said + "; " + _("not synchronised"),
                     _("Connect the network (games are dated by this clock); see: timedatectl status"))
    return Check("clock", title, Mark.OK, said + "; " + _("synchronised"))


def check_systemd(*, run=None, booted: bool | None = None) -> Check:
    """The kiosk's unit (:data:`UNIT`): installed, enabled, running, with a watchdog;
    ``run(cmd)``: a command's output or None; ``booted``: systemd runs this machine
    (None: ``/run/systemd/system`` exists)."""
    title = _("Kiosk service")
    booted = os.path.isdir("/run/systemd/system") if booted is None else booted
    if not booted:
        return Check("systemd", title, Mark.ABSENT, _("no systemd here"))
    run = run or _command
    props = run(["systemctl", "show", UNIT, "-p", "LoadState,UnitFileState,ActiveState,WatchdogUSec,NRestarts"]) or ""
    p = dict(line.split("=", 1) for line in props.splitlines() if "=" in line)
    if p.get("LoadState") != "loaded":
        return Check("systemd", title, Mark.ABSENT, _("not installed as a kiosk"),
                     _("To start on boot: sudo systemd/install"))
    said = _("{enabled}, {active}").format(enabled=p.get("UnitFileState", "?"), active=p.get("ActiveState", "?"))
    restarts = int(p.get("NRestarts", "0") or 0)
    if restarts:
        said += "; " + _("restarted {n} times").format(n=restarts)
    watchdog = p.get("WatchdogUSec", "0")
    if watchdog in ("0", "infinity", ""):
        return Check("systemd", title, Mark.FAIL, said + "; " + _("no watchdog"),
                     _("Install the unit again: sudo systemd/install"))
    said += "; " + _("watchdog {time}").format(time=watchdog)
    if p.get("UnitFileState") != "enabled" or restarts > 5:
        todo = (_("See why: journalctl -u dice-companion") if restarts > 5
                else _("To start on boot: sudo systemctl enable dice-companion"))
        return Check("systemd", title, Mark.FAIL, said, todo)
    return Check("systemd", title, Mark.OK, said)
