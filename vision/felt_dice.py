"""Dice of the felt's own colour, found by their pips when a calibrated throw is short of its count.

A black die on black felt (or a red one on red felt) shows no outline against the felt: the face
stage, the pip-first stage (whose faces must end against the felt, :func:`vision.pipfirst._face_ends`)
and the face classifier all miss it, and a game due eight dice reads seven. Its pips still show
(mock trays 22, 55, 167, 189: black ones with white pips on black felt; 199: a green two on green
felt; 84: a honey five with dark pips on tan felt). :func:`felt_dice` groups the pips left over in
the tray, away from every die read, into faces and puts each to the pip test that confirms the
classifier's finds (:func:`vision.pip_test.pips_confirm`: counted, laid out as the face's, alone).
Pure NumPy and OpenCV: no camera, no I/O.

    >>> import numpy as np, cv2
    >>> from vision.felt_dice import felt_dice
    >>> felt = np.full((300, 300, 3), 30, np.uint8)
    >>> _ = cv2.circle(felt, (150, 150), 8, (235, 235, 235), -1)
    >>> [d.value for d in felt_dice(felt, [], 80.0, 1, np.float32([(0, 0), (300, 0), (300, 300), (0, 300)]))]
    [1]
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .candidates import _rect
from .config import DEFAULT, ReaderConfig
from .dice import Die
from .pip_test import pips_confirm
from .pipfirst import _face_ring, _linked, _pip_die, _round_spots, side_pip

__all__ = ["felt_dice"]


def felt_dice(image: np.ndarray, dice: list[Die], side: float, missing: int, outline: np.ndarray, *,
              origin=(0, 0), config: ReaderConfig = DEFAULT) -> list[Die]:
    """Up to ``missing`` dice of the felt's colour in ``image`` (``H×W×3 uint8 BGR``, the tray's crop
    whose corner lies at ``origin``, ``(x, y)`` px of the input), dice of ``side`` px, found by their pips.

    Light pips first, then dark ones (a top-hat and a black-hat of 0.45 side, the pip-first stage's
    spots, a side face's squashed pips left out), each at least ``config.tray.felt_clear`` side from
    the middle of every die of ``dice`` (:class:`vision.dice.Die`, px of the input, read already) and
    not one of their pips; a dark spot within ``felt_shade`` side of a light one is that pip's shade.
    Pips nearer each other than ``felt_link`` side are one face. A face of 1-6 pips whose middle lies
    0.9 side or more from every die read (as pip-first dice are kept apart,
    :func:`vision.pipfirst.add_pip_dice`) and ``felt_inset`` side or more inside the tray's
    ``outline`` (N×2 float32 ``(x, y)`` px of the input: a light mark on the rim or the table beyond is
    no die) is a die where the pip test reads its count of pips there, of that kind only, and
    ``felt_plain`` of the face round them is the felt's colour within ``felt_colour`` (:func:`_of_felt`: a
    speck on a hand or a card over the tray is not, nor one pip of a glossy die whose lit side shows).

    Returns the dice (px of the input), each sure (``config.sure``), as the classifier's finds confirmed
    by the same test are; none when more faces pass than dice are missing (which would be a guess)."""
    if missing <= 0 or side <= 0:
        return []
    tray = config.tray
    ox, oy = origin
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    owned = [(x - ox, y - oy) for d in dice for x, y in d.pips]
    centres = [((d.center[0] - ox, d.center[1] - oy), max(side, d.size)) for d in dice]
    found, lights = [], []
    felt = np.median(cv2.cvtColor(np.ascontiguousarray(image[::8, ::8]), cv2.COLOR_BGR2LAB).reshape(-1, 3), axis=0)
    for light, op in ((True, cv2.MORPH_TOPHAT), (False, cv2.MORPH_BLACKHAT)):
        spots = _round_spots(cv2.morphologyEx(grey, op, _rect(0.45 * side)), config.faces.top_pip_least * side * side,
                             0.08 * side * side, 0.5, split_within=1.2 * side, config=config)
        if light:
            lights = spots
        left = np.array([s[:3] for s in spots if not side_pip(s)
                         and all(math.dist(s[:2], c) > tray.felt_clear * size for c, size in centres)
                         and all(math.dist(s[:2], p) > 0.15 * side for p in owned)
                         and (light or all(math.dist(s[:2], q[:2]) > tray.felt_shade * side for q in lights))])
        if not len(left):
            continue
        for g in _linked(np.linalg.norm(left[:, None, :2] - left[None, :, :2], axis=2) < tray.felt_link * side):
            if len(g) > 6:
                continue
            mid = left[g, :2].mean(axis=0)
            if any(math.dist(mid, c) < 0.9 * size for c, size in centres):
                continue
            if cv2.pointPolygonTest(outline, (float(mid[0] + ox), float(mid[1] + oy)), True) < tray.felt_inset * side:
                continue
            pips = pips_confirm(image, float(mid[0]), float(mid[1]), side, len(g), config=config, owned=owned,
                                light=light)
            if pips is not None and _of_felt(image, grey, pips, side, felt, tray.felt_colour, tray.felt_plain):
                m = np.mean(pips, axis=0)
                found.append(_pip_die(len(g), (m[0] + ox, m[1] + oy), side, config.sure,
                                      np.array([(x + ox, y + oy) for x, y in pips])))
    return found if len(found) <= missing else []


def _of_felt(image: np.ndarray, grey: np.ndarray, pips, side: float, felt: np.ndarray, most: float,
             share: float) -> bool:
    """Whether the face round ``pips`` (``(x, y)`` px of ``image``, ``H×W×3 uint8 BGR``; ``grey`` its
    lightness) is the felt's colour ``felt`` (Lab, OpenCV's scale): at least ``share`` of a disc 0.42
    ``side`` round their middle, less 0.2 side round each pip (:func:`vision.pipfirst._face_ring`,
    which widens each hole by a pixel), within ``most`` of it in each of a and b and in half the
    lightness. Dice of the felt's colour: 0.996-1.0 of it on the mock trays, 0.87-0.92 on renders
    (their rounded edges catch the light); a glossy die's lit side face under one pip of its dark top,
    0.56; a hand's skin, none. False when under 80% of the disc lies in the picture."""
    ring = _face_ring(grey, tuple(np.mean(pips, axis=0)), 0.42 * side, [(x, y, 0.2 * side - 1) for x, y in pips])
    if ring is None:  # (also where the pips' holes leave none of the disc)
        return False
    _, (x0, y0, x1, y1), mask = ring
    lab = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1]), cv2.COLOR_BGR2LAB)[mask > 0].astype(np.float64)
    return float(np.mean((np.abs(lab - felt) * (0.5, 1.0, 1.0)).max(axis=1) <= most)) >= share
