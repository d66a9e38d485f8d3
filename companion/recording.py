"""Record every scored throw as a labelled image, so games become test sets.

The folder holds one JPEG per scored throw and a ``labels.json`` in the
format of ``../shared/photos/labels.json``: a list of
``{"file", "values" (sorted), "category", "source", "width", "height"}``.
The values are the ones scored, after any correction on the screen, so a
later reader can be measured against them with
``companion eval-vision FOLDER/labels.json``. When the tray was calibrated,
its area is kept beside them as ``calibration.json`` and used by eval-vision.

Example::

    >>> import tempfile, numpy as np
    >>> rec = ThrowRecorder(tempfile.mkdtemp())
    >>> name = rec.record(np.zeros((48, 64, 3), np.uint8), [6, 4, 1], game=1, seq=0)
    >>> rec.labels()[0]["values"], rec.labels()[0]["file"] == name
    ([1, 4, 6], True)
"""

from __future__ import annotations

import json
import os
import threading

import numpy as np

from .files import write_atomically

__all__ = ["ThrowRecorder", "RecordingError"]


class RecordingError(OSError):
    """The recording folder cannot be written, or its labels.json is not a labels list."""


class ThrowRecorder:
    """Keeps scored throws in ``folder`` (created when missing).

    ``category``: the category written for each entry (``"recorded"``).
    Raises :class:`RecordingError` when the folder holds a ``labels.json``
    that is not a JSON list (it is left as it is, never overwritten).
    """

    def __init__(self, folder: str, *, category: str = "recorded"):
        self.folder = folder
        self.category = category
        self._lock = threading.Lock()
        os.makedirs(folder, exist_ok=True)
        self._labels_path = os.path.join(folder, "labels.json")
        self.labels()  # fail early on a broken file

    def labels(self) -> list[dict]:
        """The entries recorded so far."""
        if not os.path.exists(self._labels_path):
            return []
        try:
            with open(self._labels_path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            raise RecordingError(f"{self._labels_path}: cannot read: {e}") from e
        if not isinstance(data, list):
            raise RecordingError(f"{self._labels_path}: not a labels list")
        return data

    def record(self, frame: np.ndarray, values, *, game: int, seq: int) -> str:
        """Write the frame (``H×W×3 uint8 BGR``) as JPEG and add its entry.

        ``values``: the scored dice values; ``game``/``seq``: the game's id and
        the throw's event number (they name the file). Returns the file name,
        relative to the folder. Raises :class:`RecordingError` when it cannot
        be written.
        """
        import cv2

        name = f"game{game:05d}-{seq:04d}.jpg"
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
        if not ok:
            raise RecordingError(f"cannot encode the frame of {name}")
        with self._lock:
            self._write(os.path.join(self.folder, name), buf.tobytes())
            entries = [e for e in self.labels() if e.get("file") != name]
            entries.append({
                "file": name,
                "values": sorted(int(v) for v in values),
                "category": self.category,
                "source": {"game": game, "seq": seq},
                "width": int(frame.shape[1]),
                "height": int(frame.shape[0]),
            })
            self._write(self._labels_path, json.dumps(entries, indent=1).encode())
        return name

    def forget(self, *, game: int, seq: int) -> bool:
        """Drop the entry of an undone throw (its image is kept, renamed
        ``*.undone.jpg``); True when there was one."""
        name = f"game{game:05d}-{seq:04d}.jpg"
        with self._lock:
            entries = self.labels()
            kept = [e for e in entries if e.get("file") != name]
            if len(kept) == len(entries):
                return False
            self._write(self._labels_path, json.dumps(kept, indent=1).encode())
            path = os.path.join(self.folder, name)
            if os.path.exists(path):
                os.replace(path, path[:-4] + ".undone.jpg")
        return True

    def prune(self, *, keep: int) -> int:
        """Keep the ``keep`` most recent recorded throws; remove the older ones'
        entries and images, oldest first (and the images of undone throws).
        Returns how many files were removed. Raises :class:`RecordingError`
        when labels.json cannot be written."""
        removed = 0
        with self._lock:
            entries = self.labels()
            old, kept = entries[:max(0, len(entries) - keep)], entries[max(0, len(entries) - keep):]
            if old:
                self._write(self._labels_path, json.dumps(kept, indent=1).encode())
            keep_names = {e.get("file") for e in kept}
            for e in old:
                path = os.path.join(self.folder, str(e.get("file")))
                if e.get("file") not in keep_names and os.path.exists(path):
                    os.remove(path)
                    removed += 1
            if len(entries) > keep:
                for name in os.listdir(self.folder):
                    if name.endswith(".undone.jpg"):
                        os.remove(os.path.join(self.folder, name))
                        removed += 1
        return removed

    def _write(self, path: str, data: bytes) -> None:
        try:
            write_atomically(path, data)
        except OSError as e:
            raise RecordingError(f"cannot write {path}: {e}") from e
