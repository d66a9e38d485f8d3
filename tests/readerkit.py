"""Pictures and stand-ins shared by the reader's tests (drawn with OpenCV, no files)."""

import math

import cv2
import numpy as np

from vision.diceset import PIP_LAYOUT


def agreeing_net(dice):
    """A stand-in for the learned classifier that is 0.999 sure of each of
    ``dice``'s values within 0.3 side of its centre, and of no die elsewhere."""

    class Agrees:
        def classify(self, image, centers, side, turns=False):
            p = np.zeros((len(centers), 7))
            for row, (x, y) in zip(p, centers):
                d = min(dice, key=lambda d: math.dist(d.center, (x, y)))
                if math.dist(d.center, (x, y)) < 0.3 * d.size:
                    row[:] = 0.001 / 6
                    row[d.value] = 0.999
                else:
                    row[0] = 1.0
            return p

    return Agrees


def red_pips_on_blue():
    """Red pips on blue dice 2, 5 and 6, both of lightness about 125 (Lab)."""
    img = np.full((300, 420, 3), 205, np.uint8)
    for k, v in enumerate([2, 5, 6]):
        cx, cy = 80 + 130 * k, 150
        cv2.rectangle(img, (cx - 30, cy - 30), (cx + 30, cy + 30), (190, 120, 60), -1)
        for u, w in PIP_LAYOUT[v]:
            cv2.circle(img, (round(cx + u * 16), round(cy + w * 16)), 6, (40, 60, 210), -1)
    return cv2.GaussianBlur(img, (3, 3), 0)


def faces_on_wood(values, side=70, edge=18, marks=()):
    """A 640×480 picture of dice faces that do not stand out from a wooden
    table: the faces are the table's colour, outlined by an edge ``edge``
    grey levels darker (under the reader's contrast for a face), with dark
    pips of 0.18 side at the standard layout. ``marks``: extra dark dots
    ``(x, y, r)`` px on the bare table."""
    rng = np.random.default_rng(0)
    img = np.empty((480, 640, 3), np.float32)
    img[:] = (150, 185, 215)
    img += rng.normal(0, 3, (480, 640, 1))
    img += (6 * np.sin(np.arange(480) / 7.0))[:, None, None]  # grain
    for k, v in enumerate(values):
        cx, cy = 100 + (k % 3) * 200, 130 + (k // 3) * 220
        half = side // 2
        cv2.rectangle(img, (cx - half, cy - half), (cx + half, cy + half), (150 - edge, 185 - edge, 215 - edge), 2)
        for u, w in PIP_LAYOUT[v]:
            centre = (round(cx + u * 0.27 * side), round(cy + w * 0.27 * side))
            cv2.circle(img, centre, round(0.09 * side), (40, 45, 50), -1, cv2.LINE_AA)
    for x, y, r in marks:
        cv2.circle(img, (x, y), r, (40, 45, 50), -1, cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8)
