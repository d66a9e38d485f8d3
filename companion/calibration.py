"""Keeping a calibration on disk: the tray area and the camera controls.

The vision package finds and measures the tray (:mod:`vision.calibrate`); the
app keeps the result here, written atomically (:mod:`companion.files`), and
:func:`vision.calibrate.load_area` reads it back.

    >>> import os, tempfile
    >>> from vision.calibrate import TrayArea, load_area
    >>> folder = tempfile.mkdtemp()
    >>> area = TrayArea([(0, 0), (100, 0), (100, 80), (0, 80)], (640, 480), 40.0)
    >>> path = store_calibration(folder, area)
    >>> load_area(path).die_size
    40.0
"""

from __future__ import annotations

import json
import os

from vision.calibrate import CALIBRATION_FILE, CONTROLS_FILE, TrayArea

from .files import write_atomically

__all__ = ["store_calibration", "save_area"]


def store_calibration(data_dir: str, area: TrayArea, controls: dict | None = None) -> str:
    """Keep a calibration for the app: ``area`` in ``<data_dir>/calibration.json``
    and the camera ``controls`` fixed at calibration (exposure, white balance;
    ``{}``/None: the camera has none) in ``<data_dir>/camera_controls.json``,
    each written atomically. Returns the area file's path; raises ``OSError``
    when the folder cannot be written."""
    path = os.path.join(data_dir, CALIBRATION_FILE)
    save_area(area, path)
    if controls:
        _write_json(os.path.join(data_dir, CONTROLS_FILE), dict(controls))
    return path


def save_area(area: TrayArea, path: str) -> None:
    """Write the area as JSON, atomically (a power cut leaves the old file or the new one)."""
    _write_json(path, area.to_dict())


def _write_json(path: str, data) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    write_atomically(path, json.dumps(data, indent=1).encode())
