"""``companion doctor``: is everything right at this table? One line per check.

Each check is a plain function returning a :class:`Check`: a :class:`Mark`
(✔ fine, ✖ something to do, ○ not here: a part this machine does not have,
which is fine off a Pi), what was found and what to do, in the language set
with :mod:`companion.i18n`. What a check reads from the machine (files,
commands, devices) comes in through its parameters, so tests pass fakes. The
checks of the machine itself (camera, GPIO, display, sound, clock, systemd)
are in :mod:`companion.doctor_machine`, the result types in
:mod:`companion.doctor_base`; :func:`run_checks` runs them all, the
command line and the "Table check" screen show them.

    >>> c = check_python((3, 11, 2))
    >>> c.mark.symbol, c.said
    ('✔', 'Python 3.11.2')
    >>> check_pin({"app": {"pin": "1234", "data_dir": "/nonexistent"}}).mark.symbol
    '✖'
"""

from __future__ import annotations

import os
import shutil
import sys
from importlib import metadata

from .doctor_base import Check, Mark, is_raspberry_pi
from .i18n import _

__all__ = ["Mark", "Check", "check_python", "check_packages", "check_picamera2", "check_calibration",
           "check_board", "check_disk", "check_data_dir", "check_pin", "is_raspberry_pi", "system_numpy",
           "overlap", "run_checks", "exit_code", "format_line", "SYSTEM_SITE"]

#: Where Debian's and Raspberry Pi OS's Python packages live (python3-numpy, python3-picamera2).
SYSTEM_SITE = "/usr/lib/python3/dist-packages"
#: Below this much free space on the data dir's disk a check fails: a throw keeps about 200 kB
#: of pictures (README, storage), so 500 MB is about 2,500 throws, a week of a busy café.
MIN_FREE_BYTES = 500 * 1024 * 1024
#: A stored tray or board and the one found now must overlap this much (intersection over union).
MIN_OVERLAP = 0.8


def system_numpy(site: str = SYSTEM_SITE) -> str | None:
    """The version of the system's numpy (Debian's ``python3-numpy``) in ``site``, or None."""
    for dist in metadata.distributions(path=[site]):
        if (dist.metadata["Name"] or "").lower() == "numpy":
            return dist.version
    return None


def check_python(version=None) -> Check:
    """Python itself: 3.11 or later (Raspberry Pi OS Bookworm has 3.11). ``version``: a tuple, ``sys.version_info`` by default."""
    v = tuple(version or sys.version_info[:3])
    said = "Python " + ".".join(str(p) for p in v[:3])
    if v < (3, 11):
        return Check("python", _("Python"), Mark.FAIL, said, _("Python 3.11 or later is needed (Raspberry Pi OS Bookworm)."))
    return Check("python", _("Python"), Mark.OK, said)


def check_packages(*, version=metadata.version, numpy_file: str | None = None, system: str | None = "",
                   sees_system: bool | None = None) -> Check:
    """The packages the app needs, and numpy's binary interface: a numpy of another
    major version than the system's, in a venv that sees the system's packages,
    breaks everything apt built against the system's (picamera2's simplejpeg).

    ``version(name)``: an installed package's version (``importlib.metadata.version``);
    ``numpy_file``: where the numpy in use lives; ``system``: the system's numpy
    version (``""``: look it up; None: none); ``sees_system``: whether this Python
    sees the system's packages (None: look in ``sys.path``).
    """
    found, missing = {}, []
    for name in ("numpy", "opencv-python-headless", "kivy", "gpiozero"):
        try:
            found[name] = version(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
    if "opencv-python-headless" in missing and _has_module("cv2"):
        missing.remove("opencv-python-headless")  # Debian's python3-opencv serves as well
    said = ", ".join(f"{k} {v}" for k, v in found.items())
    title = _("Python packages")
    if missing:
        return Check("packages", title, Mark.FAIL, _("missing: {names}").format(names=", ".join(missing)),
                     _("Run 'bash scripts/setup' in the companion's folder."))
    system = system_numpy() if system == "" else system
    if sees_system is None:
        sees_system = SYSTEM_SITE in sys.path
    if numpy_file is None:
        import numpy

        numpy_file = numpy.__file__
    ours = found["numpy"]
    if system and sees_system and ours.split(".")[0] != system.split(".")[0] and not numpy_file.startswith(SYSTEM_SITE):
        return Check("packages", title, Mark.FAIL,
                     _("numpy {ours} in the venv hides the system's numpy {system}: the camera's software will not load")
                     .format(ours=ours, system=system),
                     _("Run 'bash scripts/setup --pi': it keeps the system's numpy."))
    return Check("packages", title, Mark.OK, said)


def _has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def check_picamera2(*, importer=None, on_pi: bool | None = None) -> Check:
    """Whether picamera2 imports. ``importer()``: imports it and returns the class
    (:func:`hardware.camera.import_picamera2`, raising ``CameraError``); ``on_pi``:
    this is a Raspberry Pi (None: :func:`is_raspberry_pi`); off a Pi a missing
    picamera2 is not a fault (○)."""
    from hardware.camera import CameraError, import_picamera2, picamera2_fault

    importer = importer or import_picamera2
    on_pi = is_raspberry_pi() if on_pi is None else on_pi
    title = _("Pi camera software")
    try:
        importer()
    except CameraError as e:
        kind = picamera2_fault(e.__cause__ or e)
        if kind == "missing" and not on_pi:
            return Check("picamera2", title, Mark.ABSENT, _("picamera2 is not installed (not a Raspberry Pi)"))
        todo = {
            "numpy": _("Run 'bash scripts/setup --pi': the camera's software needs the system's numpy."),
            "missing": _("Run 'sudo apt install python3-picamera2', then 'bash scripts/setup --pi'."),
        }.get(kind, _("Run 'sudo apt install --reinstall python3-picamera2', then 'bash scripts/setup --pi'."))
        return Check("picamera2", title, Mark.FAIL, _("picamera2 does not load: {error}").format(error=_first(e)), todo)
    return Check("picamera2", title, Mark.OK, _("picamera2 loads"))


def _first(e: BaseException, n: int = 120) -> str:
    text = str(e.__cause__ or e).strip().splitlines()
    return (text[0] if text else type(e).__name__)[:n]


def overlap(a, b, frame_size: tuple[int, int]) -> float:
    """Intersection over union (0-1) of two polygons of ``(x, y)`` pixels in a frame of ``frame_size``.

        >>> round(overlap([(0, 0), (200, 0), (200, 200), (0, 200)], [(0, 0), (200, 0), (200, 100), (0, 100)], (400, 400)), 2)
        0.5
    """
    import cv2
    import numpy as np

    w, h = frame_size
    k = min(1.0, 400 / max(w, h))  # masks of at most 400 px a side are exact enough
    masks = []
    for poly in (a, b):
        m = np.zeros((max(1, round(h * k)), max(1, round(w * k))), np.uint8)
        cv2.fillPoly(m, [np.round(np.float32(poly) * k).astype(np.int32)], 1)
        masks.append(m.astype(bool))
    union = np.logical_or(*masks).sum()
    return float(np.logical_and(*masks).sum() / union) if union else 0.0


def check_calibration(data_dir: str, frame=None, *, find=None) -> Check:
    """The tray calibration: stored, readable, and still where the tray is in ``frame``
    (``H×W×3 uint8 BGR``, the camera's view now; None: not compared). ``find(frame)``:
    finds the tray (:func:`vision.calibrate.find_tray`)."""
    from vision.calibrate import CALIBRATION_FILE, CalibrationError, find_tray, load_area

    title = _("Dice tray calibration")
    again = _("Calibrate: Settings → Dice tray… (or 'companion calibrate').")
    try:
        area = load_area(os.path.join(data_dir, CALIBRATION_FILE))
    except CalibrationError as e:
        return Check("calibration", title, Mark.FAIL, _("the stored calibration cannot be read: {error}").format(error=e), again)
    if area is None:
        return Check("calibration", title, Mark.FAIL, _("not calibrated: the whole picture is read"), again)
    die = _("a die {size} px").format(size=round(area.die_size)) if area.die_size else _("dice not measured")
    said = _("{n} corners in {w}×{h}, {die}").format(n=len(area.polygon), w=area.frame_size[0], h=area.frame_size[1], die=die)
    if frame is None:
        return Check("calibration", title, Mark.OK, said)
    return _still_in_view(Check("calibration", title, Mark.OK, said), frame, area.scaled, lambda a: a.polygon,
                          find or find_tray, CalibrationError, _("the tray is not found in the picture to compare"),
                          _("the tray seen now overlaps the stored one by {share:.0%}: camera or tray moved"), again)


def _still_in_view(stored: Check, frame, scaled, outline, find, error, not_found: str, moved: str, again: str) -> Check:
    """``stored`` (a ✔ for a calibration on disk), compared with what ``find(frame)``
    finds now (raising ``error`` when nothing): ✖ with ``moved`` when the stored
    outline (``outline(scaled(frame size))``) and the one found overlap less than
    :data:`MIN_OVERLAP`; ✔ with ``not_found`` when nothing is found to compare."""
    size = (frame.shape[1], frame.shape[0])
    try:
        now = find(frame)
    except error:
        return Check(stored.key, stored.title, Mark.OK, stored.said + "; " + not_found)
    share = overlap(outline(scaled(size)), outline(now), size)
    if share < MIN_OVERLAP:
        return Check(stored.key, stored.title, Mark.FAIL, stored.said + "; " + moved.format(share=share), again)
    return Check(stored.key, stored.title, Mark.OK,
                 stored.said + "; " + _("matches the picture ({share:.0%})").format(share=share))


def check_board(data_dir: str, frame=None, *, find=None) -> Check:
    """Fenn's board calibration (only needed for Fenn with the camera): stored,
    readable, and where the board is in ``frame`` when one is found there."""
    from vision.fenn import BOARD_FILE, BoardError, find_board, load_board

    title = _("Fenn board calibration")
    again = _("Calibrate: Settings → Fenn board…")
    path = os.path.join(data_dir, BOARD_FILE)
    if not os.path.exists(path):
        return Check("board", title, Mark.ABSENT, _("not calibrated (needed only for Fenn with the camera)"), again)
    try:
        board = load_board(path)
    except BoardError as e:
        return Check("board", title, Mark.FAIL, _("the stored board cannot be read: {error}").format(error=e), again)
    said = _("stored for {w}×{h}").format(w=board.frame_size[0], h=board.frame_size[1])
    if frame is None:
        return Check("board", title, Mark.OK, said)
    return _still_in_view(Check("board", title, Mark.OK, said), frame, board.scaled, lambda b: b.corners,
                          find or find_board, BoardError, _("no board in the picture now"),
                          _("the board seen now overlaps the stored one by {share:.0%}: camera or board moved"), again)


def _existing(path: str) -> str:
    while path and not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return path or "/"


def check_disk(data_dir: str, *, usage=shutil.disk_usage) -> Check:
    """Free space on the data dir's disk (``usage(path)``: ``shutil.disk_usage``);
    below :data:`MIN_FREE_BYTES` the pictures soon stop."""
    u = usage(_existing(data_dir))
    gb = u.free / 1e9
    said = _("{free:.1f} GB free of {total:.0f} GB").format(free=gb, total=u.total / 1e9)
    if u.free < MIN_FREE_BYTES:
        return Check("disk", _("Disk space"), Mark.FAIL, said,
                     _("Free some space or use a larger card: with less than 0.5 GB the pictures stop."))
    return Check("disk", _("Disk space"), Mark.OK, said)


def check_data_dir(data_dir: str) -> Check:
    """The data dir (games, pictures, settings) exists and this user can write there
    (a file is written and removed), or can be created."""
    title = _("Data folder")
    fix = _("Make it this user's: sudo chown -R $USER {path}").format(path=data_dir)
    if os.path.exists(data_dir) and not os.path.isdir(data_dir):
        return Check("data_dir", title, Mark.FAIL, _("{path} is a file, not a folder").format(path=data_dir),
                     _("Set another data_dir in the config, or move the file away."))
    if not os.path.isdir(data_dir):
        parent = _existing(data_dir)
        if os.access(parent, os.W_OK):
            return Check("data_dir", title, Mark.OK, _("{path} will be created at the first start").format(path=data_dir))
        return Check("data_dir", title, Mark.FAIL, _("{path} is missing and cannot be created").format(path=data_dir),
                     _("Make it this user's: sudo chown -R $USER {path}").format(path=parent))
    probe = os.path.join(data_dir, f".doctor-{os.getpid()}")
    try:
        with open(probe, "w") as f:
            f.write("ok")
        os.remove(probe)
    except OSError as e:
        return Check("data_dir", title, Mark.FAIL,
                     _("{path} cannot be written: {error}").format(path=data_dir, error=e.strerror), fix)
    return Check("data_dir", title, Mark.OK, _("{path} is writable").format(path=data_dir))


def check_pin(cfg: dict) -> Check:
    """The settings PIN (with the settings saved on the screen laid over ``cfg``): still the default 1234?"""
    from .settings import SettingsError, apply_settings, load_settings, uses_default_pin

    try:
        cfg = apply_settings(cfg, load_settings(cfg["app"]["data_dir"]))
    except SettingsError:
        pass  # the app sets a broken settings file aside and uses the config alone, so do we
    if uses_default_pin(cfg):
        return Check("pin", _("Settings PIN"), Mark.FAIL, _("still 1234"),
                     _("Set a new PIN on the settings screen (⚙, then New PIN)."))
    return Check("pin", _("Settings PIN"), Mark.OK, _("changed from the default"))


def run_checks(cfg: dict, *, pulse: bool = False, camera=None, devices=None, window=None) -> list[Check]:
    """Every check, in the order a café owner would go through them.

    ``cfg``: the config (:func:`companion.config.load_config`); ``pulse``: light
    the LEDs and sound the buzzer and speaker once; ``camera``: an open camera to
    use (the app's) instead of opening the config's; ``devices``: the app's GPIO
    devices (:class:`ui.devices.TableDevices`-like) instead of claiming the pins;
    ``window``: the app's Kivy window, when it runs.
    """
    from . import doctor_machine as m

    data_dir = cfg["app"]["data_dir"]
    checks = [check_python(), check_packages(), check_picamera2()]
    cam_check, frame = m.check_camera(cfg["camera"], data_dir, camera=camera)
    checks += [cam_check, check_calibration(data_dir, frame), check_board(data_dir, frame),
               m.check_gpio(cfg["gpio"], devices=devices, pulse=pulse),
               m.check_display(cfg["app"].get("fullscreen", False), window=window),
               m.check_audio(cfg["app"]["sound"], pulse=pulse, data_dir=data_dir),
               check_disk(data_dir), check_data_dir(data_dir), m.check_clock(), m.check_systemd(), check_pin(cfg)]
    return checks


def exit_code(checks) -> int:
    """0 when nothing is to be done (✔ or ○ only), 1 when any check failed (✖)."""
    return 1 if any(c.mark is Mark.FAIL for c in checks) else 0


def format_line(c: Check) -> str:
    """``"✔ Camera: Pi camera, 1640×1232, exposure 8.0 ms"``, with `` → what to do`` when there is something."""
    return f"{c.mark.symbol} {c.title}: {c.said}" + (f" → {c.todo}" if c.todo else "")
