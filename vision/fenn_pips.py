"""A Fenn face's pips as :func:`vision.fenn._read_face` weighs them, in the straightened patch of a die's
square (patch px throughout): how squashed each read pip is (a side's, seen at a slant), and the pips a
face's outline cut off at its rim.

Pure functions of the patch's masks: the rim's (:func:`_like_pips`, :func:`_rim_pair`, :func:`_rim_pip`) moved
out of :mod:`vision.fenn` unchanged, which had grown past 650 lines with :func:`_elongations`; the marks'
parts and shapes (:func:`_sparse_components`, :func:`_axis_ratio`) moved out of :mod:`vision.fenn_dice`
unchanged, the search for pips in the whole frame measuring them as :func:`_elongations` does.
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import BoardConfig
from .fenn_lift import _spacing, _unpaired


def _sparse_components(mask: np.ndarray):
    """The 8-connected parts of a mask with few pixels set, as ``cv2.connectedComponentsWithStats``
    gives them (``stats`` N×5 int32, ``centroids`` N×2, row 0 the background's, left zero here), with
    each part's elongation (the ratio of its long axis to its short, from its pixels' second moments:
    1 for a disc, 2 for an oval half as wide as long) and its pixels ``(ys, xs, label)``. The parts'
    figures come from their own pixels: OpenCV's stats visit the whole background too (2-3 ms a frame
    on x86)."""
    n, labels = cv2.connectedComponents(mask, connectivity=8)
    stats, cents, elongation = np.zeros((n, 5), np.int32), np.zeros((n, 2)), np.ones(n)
    at = cv2.findNonZero(mask)  # the set pixels in the frame's order, as np.nonzero gives them, 15 times faster
    at = at.reshape(-1, 2) if at is not None else np.zeros((0, 2), np.int32)
    xs, ys = at[:, 0], at[:, 1]
    lab = labels[ys, xs]
    if not len(lab):
        return stats, cents, elongation, (ys, xs, lab)
    order = np.argsort(lab, kind="stable")  # each part's pixels in the frame's order
    ls, xo, yo = lab[order], xs[order], ys[order]
    starts = np.r_[0, np.flatnonzero(np.diff(ls)) + 1]
    ids, cnt = ls[starts], np.diff(np.r_[starts, len(ls)])
    x0, y0 = np.minimum.reduceat(xo, starts), np.minimum.reduceat(yo, starts)
    w, h = np.maximum.reduceat(xo, starts) - x0 + 1, np.maximum.reduceat(yo, starts) - y0 + 1
    stats[ids] = np.column_stack([x0, y0, w, h, cnt])
    xf, yf = xo.astype(np.float64), yo.astype(np.float64)
    mx, my = np.add.reduceat(xf, starts) / cnt, np.add.reduceat(yf, starts) / cnt
    cents[ids] = np.column_stack([mx, my])
    sxx = np.add.reduceat(xf * xf, starts) / cnt - mx * mx + 1 / 12
    syy = np.add.reduceat(yf * yf, starts) / cnt - my * my + 1 / 12
    sxy = np.add.reduceat(xf * yf, starts) / cnt - mx * my
    elongation[ids] = _axis_ratio(sxx, syy, sxy)
    return stats, cents, elongation, (ys, xs, lab)


def _axis_ratio(sxx, syy, sxy):
    """A mark's elongation from its pixels' second central moments (px², each pixel's own 1/12 added to
    ``sxx`` and ``syy``): its long axis over its short, 1 for a disc, 2 for an oval half as wide as long.
    Arrays or floats alike."""
    root = np.sqrt(((sxx - syy) / 2) ** 2 + sxy * sxy)
    mean = (sxx + syy) / 2
    return np.sqrt((mean + root) / np.maximum(mean - root, 1e-6))


def _elongations(pipmask: np.ndarray, pips: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each read pip's elongation (its mark's long axis over its short, from its pixels' second moments
    in ``pipmask``, patch px, by :func:`_axis_ratio` as the search for pips measures
    it; 1 where no mark lies under the pip or the mark is under 3 px), each pip's mark's label (0:
    none) and the labels: ``(N float, N int32, H×W int32)``, ``pips`` ``N×2`` patch px."""
    _n, labels = cv2.connectedComponents((pipmask > 0).astype(np.uint8), connectivity=8)
    out, ids = np.ones(len(pips)), np.zeros(len(pips), np.int32)
    h, w = labels.shape
    for i, (x, y) in enumerate(pips):
        k = labels[min(max(int(round(y)), 0), h - 1), min(max(int(round(x)), 0), w - 1)]
        if k == 0:
            continue
        ids[i] = k
        m = cv2.moments((labels == k).astype(np.uint8), binaryImage=True)
        if m["m00"] < 3:
            continue
        out[i] = _axis_ratio(m["mu20"] / m["m00"] + 1 / 12, m["mu02"] / m["m00"] + 1 / 12, m["mu11"] / m["m00"])
    return out, ids, labels


def _like_pips(inner: np.ndarray, body: np.ndarray, pips: np.ndarray) -> np.ndarray:
    """The patch's marks of the read pips' colour (bool, ``inner`` the patch Lab float, ``body`` the
    face's Lab, ``pips`` ``N×2`` patch px): nearer the pips' median colour than half its distance from
    the face's (a board or table unlike the face is no pip)."""
    h, w = inner.shape[:2]
    at = np.clip(np.round(pips).astype(int), 0, [w - 1, h - 1])
    ink = np.median(inner[at[:, 1], at[:, 0]], axis=0)
    return np.linalg.norm(inner - ink, axis=2) < 0.5 * float(np.linalg.norm(ink - body))


def _rim_pair(marks: np.ndarray, keep: np.ndarray, pips: np.ndarray, side: float) -> bool:
    """Whether two marks of a pip's size that the face read left out lie in its square (``keep``, patch
    px), each the other's mirror through the read pips' middle (within 0.15 ``side``, the face's px):
    rim pips cut off as a pair, so the pips read stay symmetric (fenn-00251: a blue 9, a sure 7). A
    side face's pips are never so (a camera sees at most two neighbouring sides); blue and red dice
    only (a black die's pips are of its shade's colour). ``marks``: the patch's marks of the pips'
    colour (bool, :func:`_like_pips`); ``pips``: ``N×2`` patch px. A mark is a pip of 0.4-2.5 times a
    disc 0.6 of the pips' spacing across, half a spacing or more from every pip read."""
    if len(pips) < 2:
        return False
    n, _lab, stats, cents = cv2.connectedComponentsWithStats((marks & (keep > 0)).astype(np.uint8))
    step = _spacing(pips)
    area = np.pi * (0.3 * step) ** 2  # a pip about 0.6 of the pips' spacing across
    left = [cents[k] for k in range(1, n) if 0.4 * area <= stats[k, cv2.CC_STAT_AREA] <= 2.5 * area
            and np.hypot(*(pips - cents[k]).T).min() > 0.5 * step]
    mid = pips.mean(axis=0)
    return any(np.hypot(*(2 * mid - a - b)) <= 0.15 * side for i, a in enumerate(left) for b in left[i + 1:])


def _rim_pip(face: np.ndarray, pipmask: np.ndarray, pips: np.ndarray, dist: np.ndarray, config: BoardConfig):
    """``(face, pipmask)`` with one pip more, or None: every face of every layout known is symmetric
    through its middle, so a pip whose mirror image through the face's middle holds no pip has lost
    its partner; where that place lies on the face's rim (a 45°-turned 9's corners reach it), cut off
    by the face's outline, and holds a mark unlike the face (``dist``: the patch's distance from the
    face's colour, Lab), the mark is that pip. Patch px throughout."""
    if len(pips) < 6:
        return None
    got = _unpaired(pips)
    if got is None:
        return None  # one pip lost, and only one
    mid, k, spacing = got
    m = 2 * mid - pips[k]
    r = max(2, int(round(0.3 * spacing)))
    spot = np.zeros_like(face)
    cv2.circle(spot, (int(round(m[0])), int(round(m[1]))), r, 255, -1)
    inside = spot > 0
    if not inside.any() or (face[inside] > 0).mean() > 0.8:
        return None  # not at the rim: a pip there would have been seen
    if (dist[inside] > config.pip_contrast).mean() < 0.4:
        return None  # no mark there
    mark = (inside & (dist > config.pip_contrast)).astype(np.uint8) * 255
    return cv2.bitwise_or(face, spot), cv2.bitwise_or(pipmask, mark)
