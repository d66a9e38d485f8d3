"""The shared dice photos as the benchmarks and the training script use them.

Example::

    >>> half("nell-byler__dice_detection/3f09a1.jpg")
    1
    >>> b = Box(10.0, 20.0, 40.0, 44.0, 5)
    >>> b.centre, b.side
    ((25.0, 32.0), 27.0)

- :data:`PHOTOS`: the folder of ``labels.json`` (``../shared/photos`` from the
  project root; see its README).
- :func:`half`: a photo's half for two-fold cross-validation, the parity of
  its name's first hex digit. ``training/train_face_net.py --fold K`` trains
  on half K; ``benchmarks/read_photos.py --face-net-folds`` reads each photo
  with the fold of the other half.
- :func:`load_boxes`: the many-colours photos' die boxes, from the source's
  own annotations (``training/data/many_colours_boxes.csv``, BSD-3-Clause,
  nell-byler/dice_detection; its licence is beside it).
"""

from __future__ import annotations

import csv
import os
from collections import defaultdict
from typing import NamedTuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: The shared photos' folder (its ``labels.json`` lists them).
PHOTOS = os.path.join(ROOT, "..", "shared", "photos")

#: The many-colours photos' die boxes: CSV with ``file, value, xmin, ymin, xmax, ymax`` (pixels).
BOXES = os.path.join(ROOT, "training", "data", "many_colours_boxes.csv")

#: A box holds the top face and a sliver of the sides seen; the face is about this share of its side.
FACE_OF_BOX = 0.9


class Box(NamedTuple):
    """One die's box in a photo: corners in pixels and the true top-face value (1-6)."""

    x0: float
    y0: float
    x1: float
    y1: float
    value: int

    @property
    def centre(self) -> tuple[float, float]:
        """The box's centre, pixels ``(x, y)``."""
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    @property
    def side(self) -> float:
        """The box's side, pixels: the mean of its width and height."""
        return ((self.x1 - self.x0) + (self.y1 - self.y0)) / 2


def half(name: str) -> int:
    """0 or 1: the parity of the photo name's first hex digit.

    ``name`` is a path or a ``folder/name.jpg`` label; only its base name
    counts. A name that does not start with a hex digit is in half 0.
    """
    c = os.path.basename(str(name))[:1]
    return int(c, 16) % 2 if c and c in "0123456789abcdefABCDEF" else 0


def load_boxes(path: str = BOXES) -> dict[str, list[Box]]:
    """``{photo label: [Box, ...]}`` from a boxes CSV, photos in file order.

    ``path``: a CSV with the header ``file, value, xmin, ymin, xmax, ymax``.
    Raises ``FileNotFoundError`` when it is missing and ``ValueError`` when a
    row lacks a column or holds a non-number.
    """
    boxes: dict[str, list[Box]] = defaultdict(list)
    with open(path, newline="") as f:
        for n, row in enumerate(csv.DictReader(f), start=2):
            try:
                boxes[row["file"]].append(Box(*(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax")),
                                              int(row["value"])))
            except (KeyError, TypeError, ValueError) as e:
                raise ValueError(f"{path}, line {n}: a box needs file, value, xmin, ymin, xmax, ymax ({e})") from None
    return dict(boxes)
