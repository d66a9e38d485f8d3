"""Camera sources that yield frames as ``H×W×3 uint8 BGR`` arrays.

Every source has the same small interface, :class:`Camera`: :meth:`read`
returns the next frame (or None when a finite source is exhausted) and
:meth:`close` releases the device. Backends:

- :class:`PiCamera`: the Raspberry Pi camera through picamera2 (imported only
  when chosen; on Raspberry Pi OS it comes from the ``python3-picamera2`` package).
- :class:`OpenCVCamera`: a USB webcam through OpenCV.
- :class:`ReplayCamera`: a folder of images or a video file, in order.
- :class:`MockCamera`: synthetic frames of dice with given values.

:func:`open_camera` picks one from a plain config dict, e.g.
``{"source": "mock"}`` or ``{"source": "replay", "path": "throws/"}``.

Example::

    >>> cam = MockCamera(seed=3)
    >>> truth = cam.throw([6, 5, 4, 3, 2])
    >>> frame = cam.read()
    >>> frame.shape
    (616, 820, 3)
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Iterable

import cv2
import numpy as np

from .render import RenderedDie, RenderStyle, render_empty, render_throw

__all__ = [
    "Camera",
    "CameraError",
    "PiCamera",
    "OpenCVCamera",
    "ReplayCamera",
    "MockCamera",
    "open_camera",
    "import_picamera2",
    "picamera2_problem",
    "picamera2_fault",
    "IMAGE_EXTENSIONS",
]

log = logging.getLogger(__name__)

IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


class CameraError(RuntimeError):
    """A camera that cannot be opened or read."""


class Camera:
    """A source of frames. Subclasses implement :meth:`read`."""

    def read(self) -> np.ndarray | None:
        """The next frame, ``H×W×3 uint8 BGR``, or None when the source has ended."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the device. Safe to call twice."""

    def lock_exposure(self) -> dict:
        """Fix exposure and white balance where the camera can (the Pi camera does);
        returns the controls fixed, ``{}`` for cameras without such controls."""
        return {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __iter__(self):
        while True:
            f = self.read()
            if f is None:
                return
            yield f


#: What ends a failed import of picamera2 in words a café owner can act on.
_NUMPY_ABI = ("numpy.dtype size changed", "compiled using NumPy 1.x", "numpy.core.multiarray failed to import",
              "_ARRAY_API not found", "numpy.core._multiarray_umath")


def picamera2_problem(exc: BaseException) -> str:
    """What a failed ``import picamera2`` means and what to do, in words.

    ``exc``: the exception the import raised. picamera2 comes from Raspberry
    Pi OS (``python3-picamera2``) and imports simplejpeg, built against the
    system's NumPy 1.x; a NumPy 2 installed into the venv over it breaks the
    import with ``ValueError: numpy.dtype size changed`` (picamera2 issues
    #1088, #1211), which is not an ``ImportError``.

        >>> picamera2_problem(ModuleNotFoundError("No module named 'picamera2'", name="picamera2"))[:28]
        'picamera2 is not installed: '
        >>> "scripts/setup --pi" in picamera2_problem(ValueError("numpy.dtype size changed, may indicate ..."))
        True
    """
    kind, text = picamera2_fault(exc), str(exc)
    if kind == "numpy":
        return (f"picamera2 cannot load with numpy {np.__version__} in this venv ({text.splitlines()[0][:80]}): "
                "Raspberry Pi OS's camera software needs its own numpy 1.x; reinstall with "
                "'bash scripts/setup --pi', which keeps it")
    if kind == "missing":
        return ("picamera2 is not installed: on Raspberry Pi OS run 'sudo apt install python3-picamera2' "
                "and create the venv with --system-site-packages")
    return (f"picamera2 cannot load ({type(exc).__name__}: {text.splitlines()[0][:120] if text else ''}): "
            "run 'sudo apt install --reinstall python3-picamera2', then 'bash scripts/setup --pi'")


def picamera2_fault(exc: BaseException) -> str:
    """The kind of a failed ``import picamera2``: ``"numpy"`` (a NumPy of another
    binary interface than the one picamera2's extensions were built against),
    ``"missing"`` (no picamera2 at all) or ``"broken"`` (anything else).

        >>> picamera2_fault(ValueError("numpy.dtype size changed, may indicate binary incompatibility"))
        'numpy'
    """
    text = str(exc)
    if any(s in text for s in _NUMPY_ABI):
        return "numpy"
    if isinstance(exc, ModuleNotFoundError) and (exc.name or "").split(".")[0] == "picamera2":
        return "missing"
    return "broken"


def import_picamera2():
    """picamera2's ``Picamera2`` class. Raises :class:`CameraError` with
    :func:`picamera2_problem`'s words for any failure of the import (a missing
    package, a NumPy of the wrong ABI, a broken libcamera)."""
    try:
        from picamera2 import Picamera2  # type: ignore
    except Exception as e:  # ImportError, and ValueError for a NumPy of another ABI
        raise CameraError(picamera2_problem(e)) from e
    return Picamera2


class PiCamera(Camera):
    """The Raspberry Pi camera (picamera2, libcamera).

    ``size``: ``(width, height)`` px of the frames; ``controls``: picamera2
    controls applied at start (for example fixed ``ExposureTime`` and
    ``ColourGains`` after calibration).

    Raises :class:`CameraError` when picamera2 is missing or broken (see
    :func:`picamera2_problem`) or no camera is attached or it cannot start;
    the message says what to do.
    """

    def __init__(self, *, size: tuple[int, int] = (1640, 1232), controls: dict | None = None):
        Picamera2 = import_picamera2()
        self._cam = None
        try:
            self._cam = Picamera2()
            # picamera2 names the format by byte order: "RGB888" is B, G, R in memory (OpenCV's BGR).
            config = self._cam.create_video_configuration(main={"size": tuple(size), "format": "RGB888"})
            self._cam.configure(config)
            if controls:
                self._cam.set_controls(controls)
            self._cam.start()
        except Exception as e:  # picamera2 raises RuntimeError/IndexError without a camera, OSError when busy
            self._release_quietly()
            raise CameraError(
                f"the Pi camera does not start ({type(e).__name__}: {e}): check that its ribbon cable is "
                "seated at both ends (power off first), that no other program uses it, and that "
                "'rpicam-hello --list-cameras' lists it"
            ) from e

    def _release_quietly(self) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            try:
                cam.close()
            except Exception:  # the camera was not fully opened; nothing more to release
                pass

    def set_controls(self, controls: dict) -> None:
        """Apply picamera2 controls, e.g. ``{"AeEnable": False, "ExposureTime": 8000}``."""
        self._cam.set_controls(controls)

    def metadata(self) -> dict:
        """The latest frame's metadata (exposure, gains) from picamera2."""
        return dict(self._cam.capture_metadata())

    def lock_exposure(self) -> dict:
        """Fix exposure and white balance at their current values (after calibration),
        so the picture does not drift when hands or dice change the scene.

        Returns the controls set (``AeEnable``/``AwbEnable`` off, ``ExposureTime``
        µs, ``AnalogueGain``, ``ColourGains`` (red, blue)); store them and pass
        them as ``controls`` when the camera next starts.
        """
        md = self.metadata()
        fixed = {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": int(md["ExposureTime"]),
            "AnalogueGain": float(md["AnalogueGain"]),
            "ColourGains": tuple(float(g) for g in md["ColourGains"]),
        }
        self.set_controls(fixed)
        return fixed

    def read(self) -> np.ndarray:
        frame = self._cam.capture_array("main")
        if frame.ndim == 3 and frame.shape[2] == 4:
            frame = frame[..., :3]
        return np.ascontiguousarray(frame)

    def close(self) -> None:
        cam, self._cam = getattr(self, "_cam", None), None
        if cam is not None:
            try:
                cam.stop()
            finally:
                cam.close()


class OpenCVCamera(Camera):
    """A USB webcam through OpenCV's ``VideoCapture``.

    ``index``: the device number (0 for ``/dev/video0``); ``size``: requested
    ``(width, height)`` px. Raises :class:`CameraError` when it cannot open.
    """

    def __init__(self, index: int = 0, *, size: tuple[int, int] | None = None):
        self._cap = cv2.VideoCapture(index)
        if not self._cap.isOpened():
            raise CameraError(f"no webcam at index {index}")
        if size:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> np.ndarray | None:
        ok, frame = self._cap.read()
        if not ok:
            raise CameraError("the webcam returned no frame")
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ReplayCamera(Camera):
    """Frames from a folder of images (sorted by name) or a video file, in order.

    ``loop``: start again at the end instead of returning None. Unreadable
    image files in a folder are skipped (``skipped`` lists them). Raises
    :class:`CameraError` when the path holds no frames.
    """

    def __init__(self, path: str, *, loop: bool = False):
        self.path = path
        self.loop = loop
        self.skipped: list[str] = []
        self._cap = None
        self._files: list[str] = []
        self._i = 0
        if os.path.isdir(path):
            self._files = sorted(
                os.path.join(path, f) for f in os.listdir(path) if f.lower().endswith(IMAGE_EXTENSIONS)
            )
            if not self._files:
                raise CameraError(f"{path}: no images ({', '.join(IMAGE_EXTENSIONS)})")
        elif os.path.isfile(path):
            self._cap = cv2.VideoCapture(path)
            if not self._cap.isOpened():
                raise CameraError(f"{path}: not a video OpenCV can open")
        else:
            raise CameraError(f"{path}: no such file or folder")

    def read(self) -> np.ndarray | None:
        if self._cap is not None:
            ok, frame = self._cap.read()
            if not ok and self.loop:
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._cap.read()
            return frame if ok else None
        while True:
            if self._i >= len(self._files):
                if not self.loop or len(self.skipped) == len(self._files):
                    return None
                self._i = 0
            f = self._files[self._i]
            self._i += 1
            img = cv2.imread(f, cv2.IMREAD_COLOR)
            if img is not None:
                return img
            if f not in self.skipped:
                self.skipped.append(f)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class MockCamera(Camera):
    """Synthetic frames of dice: an empty tray until :meth:`throw` is called.

    ``seed``: makes the frames repeatable; ``style``: a :class:`RenderStyle`.
    After ``throw(values)`` every :meth:`read` returns the same rendered scene
    (with fresh sensor noise) until the next throw or :meth:`clear`.
    ``truth`` holds the rendered dice of the current scene.
    """

    def __init__(self, *, seed: int | None = None, style: RenderStyle | None = None):
        self.style = style = style or RenderStyle()
        self._rng = np.random.default_rng(seed)
        self._lock = threading.Lock()
        self.truth: list[RenderedDie] = []
        self._scene = render_empty(seed=int(self._rng.integers(1 << 31)), style=style)

    def throw(self, values: Iterable[int]) -> list[RenderedDie]:
        """Show dice with ``values`` (each 1-6) from now on; returns the truth."""
        frame, truth = render_throw(list(values), seed=int(self._rng.integers(1 << 31)), style=self.style)
        with self._lock:
            self._scene, self.truth = frame, truth
        return truth

    def show(self, frame: np.ndarray, truth=()) -> None:
        """Show ``frame`` (``H×W×3 uint8 BGR``, e.g. a :class:`hardware.fenn_scene.FennScene`
        frame) from now on, with fresh sensor noise on every read; ``truth`` what it shows."""
        with self._lock:
            self._scene, self.truth = frame, list(truth)

    def clear(self) -> None:
        """Show an empty tray from now on."""
        with self._lock:
            self._scene = render_empty(seed=int(self._rng.integers(1 << 31)), style=self.style)
            self.truth = []

    def read(self) -> np.ndarray:
        with self._lock:
            scene = self._scene
        noise = self._rng.integers(-2, 3, scene.shape, dtype=np.int16)
        return np.clip(scene.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def open_camera(config: dict) -> Camera:
    """Open the camera a config names.

    ``config["source"]``: ``"pi"``, ``"usb"`` (with ``index``), ``"replay"``
    (with ``path``, optional ``loop``) or ``"mock"`` (optional ``seed``);
    ``"auto"`` tries the Pi camera, then a webcam, then falls back to the mock
    (logging why the Pi camera was not used).
    ``config["width"]``/``["height"]``: frame size px. Raises
    :class:`CameraError` for an unknown source or one that cannot open.
    """
    source = config.get("source", "auto")
    size = (int(config.get("width", 1640)), int(config.get("height", 1232)))
    if source == "pi":
        return PiCamera(size=size, controls=config.get("controls"))
    if source == "usb":
        return OpenCVCamera(int(config.get("index", 0)), size=size)
    if source == "replay":
        if "path" not in config:
            raise CameraError("camera source 'replay' needs a 'path'")
        return ReplayCamera(config["path"], loop=bool(config.get("loop", True)))
    if source == "mock":
        return MockCamera(seed=config.get("seed"))
    if source == "auto":
        for attempt in (lambda: PiCamera(size=size, controls=config.get("controls")), lambda: _usb_if_present(size)):
            try:
                cam = attempt()
            except CameraError as e:
                # Not installed is the desktop's normal case; anything else on a Pi is worth the log.
                (log.info if "is not installed" in str(e) else log.warning)("camera not used: %s", e)
                continue
            if cam is not None:
                return cam
        return MockCamera(seed=config.get("seed"))
    raise CameraError(f"unknown camera source {source!r}: use pi, usb, replay, mock or auto")


def _usb_if_present(size):
    if not any(os.path.exists(f"/dev/video{i}") for i in range(4)):
        return None
    return OpenCVCamera(0, size=size)
