"""Something over the Fenn board: a hand, a cup, an arm reaching over it, seen on the board's own
plane away from the dice (:func:`something_over`). The reader (:func:`vision.fenn.read_fenn`) then
doubts the read with :attr:`vision.reasons.FennReason.FOREIGN`.

Two cues: a part of the board unlike its colour, larger than fingers; and a line between fields
hidden where no die stands while the others are seen (something of the board's own colour).
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import BoardConfig

__all__ = ["board_plane", "something_over"]

_RES = 20  # plane px per field where the board is looked over


def board_plane(frame, to_frame) -> np.ndarray:
    """The board's top, straightened: ``_RES`` px per field, ``H×W×3`` float Lab."""
    S = np.array([[_RES, 0, 0], [0, _RES, 0], [0, 0, 1]], np.float64)
    plane = cv2.warpPerspective(frame, S @ np.linalg.inv(to_frame), (9 * _RES, _RES), flags=cv2.INTER_AREA)
    return cv2.cvtColor(plane, cv2.COLOR_BGR2LAB).astype(np.float32)


def something_over(lab, to_frame, found, config: BoardConfig, frame=None) -> bool:
    """Whether something (a hand, a cup) covers part of the board away from the dice: a region of
    at least ``config.foreign_area`` fields² unlike the board's colour, the board's lines, stitching
    and numbers (thin) opened away, each die's square and its shadow left out; or, with the
    ``frame``, a line between fields hidden where no die stands (:func:`_line_hidden`). ``lab``: the
    board from :func:`board_plane`."""
    res = _RES
    Hp = np.array([[res, 0, 0], [0, res, 0], [0, 0, 1]], np.float64) @ np.linalg.inv(to_frame)
    H, W = lab.shape[:2]
    free = np.ones((H, W), np.uint8)
    for f in found:
        mid = f.box.mean(axis=0)
        grown = mid + (f.box - mid) * 1.9  # the die, its side and its shadow
        q = cv2.perspectiveTransform(np.float32([grown]), Hp)[0]
        cv2.fillConvexPoly(free, np.round(q).astype(np.int32), 0)
    if free.sum() < 0.2 * W * H:
        return False
    if frame is not None and _line_hidden(frame, to_frame, cv2.resize(free, (9 * _LINE_RES, _LINE_RES),
                                                                   interpolation=cv2.INTER_NEAREST)):
        return True
    colour = np.median(lab[free > 0], axis=0)
    far = ((np.linalg.norm(lab - colour, axis=2) > config.foreign_colour) & (free > 0)).astype(np.uint8)
    k = max(3, int(0.22 * res)) | 1
    far = cv2.morphologyEx(far, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    n, _labels, stats, _ = cv2.connectedComponentsWithStats(far)
    return bool(n > 1 and stats[1:, cv2.CC_STAT_AREA].max() >= config.foreign_area * res * res)


_LINE_RES = 80  # plane px per field where the lines between fields are looked for (a stitch is ~1/40 field)


def _line_hidden(frame: np.ndarray, to_frame: np.ndarray, free: np.ndarray) -> bool:
    """Whether a line between two fields, where no die stands, is hidden while the others are seen: a
    hand or a cup of the board's own colour over it (its colour alone does not tell it). ``frame``:
    ``H×W×3 uint8 BGR``; ``to_frame``: the board's plane (fields) to frame px; ``free``: ``_LINE_RES``
    px a field, nonzero where no die nor its shadow is. A line is a thin ridge across the board, all
    of one sign (light lines or dark), looked for within 0.3 field of its place; hidden when it stands
    out less than 0.3 times as much as the median line seen (at least four seen, standing out by 12 of
    255 in lightness: a board with lines)."""
    res = _LINE_RES
    S = np.array([[res, 0, 0], [0, res, 0], [0, 0, 1]], np.float64)
    top = cv2.warpPerspective(frame, S @ np.linalg.inv(to_frame), (9 * res, res), flags=cv2.INTER_AREA)
    L = cv2.cvtColor(top, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32)
    rows = slice(int(0.2 * res), int(0.8 * res))  # away from the board's sides (a border, stitching)
    d = res // 4
    ridges = []
    for k in range(1, 9):
        a, b = k * res - 3 * res // 10, k * res + 3 * res // 10 + 1
        if free[rows, a - d:b + d].min() == 0:
            continue  # a die (or its shadow) near it: unknown
        P = L[rows, a - d:b + d].mean(axis=0)
        ridges.append(P[d:-d] - (P[:-2 * d] + P[2 * d:]) / 2)  # lighter (or darker) than both sides
    if len(ridges) < 4:
        return False
    sign = np.sign(np.median([r[np.argmax(np.abs(r))] for r in ridges]))
    seen = np.array([float(np.max(sign * r)) for r in ridges])
    typical = float(np.median(seen))
    return bool(typical >= 12.0 and seen.min() < 0.3 * typical)
