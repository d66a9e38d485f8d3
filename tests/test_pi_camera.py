"""The Pi camera on a machine without one: fake ``picamera2`` modules that fail
as the real one does on a Pi (a NumPy of the wrong ABI, no camera attached),
and what the app makes of it."""

from __future__ import annotations

import sys
import textwrap

import numpy as np
import pytest

from hardware.camera import CameraError, MockCamera, PiCamera, open_camera

ABI = "numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject"


def fake_picamera2(tmp_path, monkeypatch, body: str):
    """Put a package ``picamera2`` with ``body`` as its ``__init__.py`` first on the path."""
    pkg = tmp_path / "fake" / "picamera2"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(textwrap.dedent(body))
    monkeypatch.syspath_prepend(str(tmp_path / "fake"))
    # Imported afresh here and forgotten after the test (setitem's undo removes it again).
    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.delitem(sys.modules, "picamera2")


CAMERA_OK = """
    import numpy as np
    closed = []
    class Picamera2:
        def __init__(self):
            self.started = False
        def create_video_configuration(self, main):
            return main
        def configure(self, config):
            self.size = config["size"]
        def set_controls(self, controls):
            pass
        def start(self):
            self.started = True
        def capture_array(self, name):
            w, h = self.size
            return np.full((h, w, 4), 7, np.uint8)
        def stop(self):
            pass
        def close(self):
            closed.append(self)
"""


def test_a_numpy_of_the_wrong_abi_is_a_camera_error_saying_to_reinstall(tmp_path, monkeypatch):
    fake_picamera2(tmp_path, monkeypatch, f"raise ValueError({ABI!r})\n")
    with pytest.raises(CameraError) as e:
        PiCamera()
    said = str(e.value)
    assert "numpy" in said and f"numpy {np.__version__}" in said
    assert "bash scripts/setup --pi" in said
    assert isinstance(e.value.__cause__, ValueError)


def test_a_numpy_2_import_error_says_the_same(tmp_path, monkeypatch):
    fake_picamera2(tmp_path, monkeypatch, "raise ImportError('numpy.core.multiarray failed to import')\n")
    with pytest.raises(CameraError, match="scripts/setup --pi"):
        open_camera({"source": "pi"})


def test_any_other_import_failure_is_a_camera_error(tmp_path, monkeypatch):
    fake_picamera2(tmp_path, monkeypatch, "raise OSError('libcamera.so.0.2: cannot open shared object file')\n")
    with pytest.raises(CameraError, match="reinstall python3-picamera2") as e:
        PiCamera()
    assert "libcamera.so.0.2" in str(e.value)


def test_no_camera_attached_is_a_camera_error_about_the_cable(tmp_path, monkeypatch):
    # picamera2 without a camera: Picamera2() fails with IndexError (no camera in the list)
    fake_picamera2(tmp_path, monkeypatch, """
        class Picamera2:
            def __init__(self):
                raise IndexError('list index out of range')
    """)
    with pytest.raises(CameraError, match="ribbon cable"):
        PiCamera()


def test_a_camera_that_fails_to_start_is_released(tmp_path, monkeypatch):
    fake_picamera2(tmp_path, monkeypatch, CAMERA_OK.replace(
        "self.started = True", "raise RuntimeError('Failed to start camera: Device or resource busy')"))
    with pytest.raises(CameraError, match="no other program uses it"):
        PiCamera()
    import picamera2

    assert len(picamera2.closed) == 1


def test_auto_falls_back_past_a_broken_picamera2_and_logs_why(tmp_path, monkeypatch, caplog):
    fake_picamera2(tmp_path, monkeypatch, f"raise ValueError({ABI!r})\n")
    monkeypatch.setattr("hardware.camera._usb_if_present", lambda size: None)
    with caplog.at_level("WARNING", logger="hardware.camera"):
        cam = open_camera({"source": "auto"})
    assert isinstance(cam, MockCamera)
    assert any("scripts/setup --pi" in r.getMessage() for r in caplog.records)
    with pytest.raises(CameraError):  # chosen by name, it is an error (the app then runs the demo)
        open_camera({"source": "pi"})


def test_a_working_picamera2_gives_bgr_frames_of_the_size_asked(tmp_path, monkeypatch):
    fake_picamera2(tmp_path, monkeypatch, CAMERA_OK)
    cam = open_camera({"source": "auto", "width": 64, "height": 48})
    assert isinstance(cam, PiCamera)
    frame = cam.read()
    assert frame.shape == (48, 64, 3) and frame.dtype == np.uint8
    cam.close()
    cam.close()  # twice is safe
