"""The classical pip test: whether a die found another way (the classifier, a face read in part, a
group of pips on felt) shows the pips of its value where it was found.

:func:`pips_confirm` looks for round spots of a pip's size (the pip-first stage's test,
:func:`vision.pipfirst._round_spots`) round a place and says whether they are that value's face:
counted, laid out as the face's, of one size, alone. Positions are pixels ``(x, y)`` of the image
given; sizes are pixels.

    >>> import numpy as np
    >>> from vision.pip_test import pips_confirm
    >>> pips_confirm(np.full((120, 120, 3), 200, np.uint8), 60.0, 60.0, 40.0, 1) is None
    True
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .candidates import _rect, round_part
from .config import DEFAULT, ReaderConfig
from .face import _pattern_fit
from .pipfirst import _round_spots, side_pip

__all__ = ["at_work_size", "more_pips", "pip_spots", "pips_confirm"]


def _cores(resp: np.ndarray, spots: np.ndarray, config: ReaderConfig) -> np.ndarray | None:
    """``spots`` (N×3: x, y, area in px of ``resp``, ``H×W uint8``) with each over twice the others'
    median area cut to its core: its part of ``resp`` over half its own peak (a pip run into the face's
    lit edge or a sheen stands out of it about twice as much as they do over the face). None when a
    spot so cut leaves no one round part of the others' median area within ``config.pip_test.sizes``."""
    out, sizes = spots.copy(), config.pip_test.sizes
    for i, (x, y, a) in enumerate(spots):
        rest = np.delete(spots[:, 2], i)
        med = float(np.median(rest)) if len(rest) else a
        if a <= 2 * med:
            continue
        r = int(math.sqrt(a)) + 2
        x0, y0 = max(0, int(x) - r), max(0, int(y) - r)
        win = resp[y0:int(y) + r + 1, x0:int(x) + r + 1]
        _n, labels = cv2.connectedComponents((win > config.faces.pip_contrast).astype(np.uint8), connectivity=8)
        own = labels[min(int(y) - y0, labels.shape[0] - 1), min(int(x) - x0, labels.shape[1] - 1)]
        if own == 0:
            return None
        peak = int(win[labels == own].max())
        core = ((labels == own) & (win > max(config.faces.pip_contrast, peak // 2))).astype(np.uint8)
        m, _lab, stats, cents = cv2.connectedComponentsWithStats(core, connectivity=8)
        parts = [j for j in range(1, m) if med / sizes <= stats[j, cv2.CC_STAT_AREA] <= sizes * med
                 and round_part(stats[j, cv2.CC_STAT_AREA], stats[j, 2], stats[j, 3])]
        if len(parts) != 1:
            return None
        j = parts[0]
        out[i] = (cents[j][0] + x0, cents[j][1] + y0, stats[j, cv2.CC_STAT_AREA])
    return out


#: The pip test's looks: at dark pips (a black-hat), light ones (a top-hat), or both (``light`` None).
_OPS = {None: (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT), True: (cv2.MORPH_TOPHAT,), False: (cv2.MORPH_BLACKHAT,)}


def _spots(grey: np.ndarray, op: int, side: float, config: ReaderConfig, glint: bool):
    """``(resp, spots)``: the black-hat or top-hat (``op``) response of ``grey`` (``H×W uint8``)
    ``config.pip_test.hat`` ``side`` px wide, and its round spots of a pip's size
    (:func:`vision.pipfirst._round_spots`: ``(x, y, area, xx, xy, yy)`` px of ``grey``) less a side
    face's pips (:func:`vision.pipfirst.side_pip`)."""
    t = config.pip_test
    resp = cv2.morphologyEx(grey, op, _rect(t.hat * side))
    spots = _round_spots(resp, config.faces.top_pip_least * side * side, t.spot_most * side * side, t.roundness,
                         split_within=t.split_within * side, glint=config.faces.glint_cut * side if glint else 0.0,
                         config=config)
    return resp, [s for s in spots if not side_pip(s)]


def pip_spots(image: np.ndarray, box, side: float, light: bool, config: ReaderConfig = DEFAULT,
              glint: bool = False, owned=()) -> list[tuple[float, float, float]]:
    """The spots the pip test takes for pips within ``box`` (``(x0, y0, x1, y1)`` px) of ``image``
    (``H×W×3 uint8 BGR``), for dice of ``side`` px: ``(x, y, area)`` px of ``image``, light pips
    (``light`` True) or dark ones (False); ``glint`` and ``owned`` (the pips of dice read, ``(x, y)`` px:
    a spot within ``config.pip_test.owned`` side of one is that die's, and left out) as for :func:`pips_confirm`."""
    h, w = image.shape[:2]
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(w, int(box[2]) + 1), min(h, int(box[3]) + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return []
    _resp, spots = _spots(cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY), _OPS[light][0], side, config, glint)
    return [(float(s[0] + x0), float(s[1] + y0), float(s[2]))
            for s in _not_owned(spots, owned, config.pip_test.owned * side, x0, y0)]


def _not_owned(spots, owned, reach: float, x0: int = 0, y0: int = 0):
    """``spots`` (``(x, y, ...)`` px of a crop whose corner lies at ``(x0, y0)``) but those within
    ``reach`` px of a pip in ``owned`` (``(x, y)`` px): another die's pips."""
    return [s for s in spots if not any(math.hypot(s[0] + x0 - u, s[1] + y0 - v) <= reach for u, v in owned)]


def pips_confirm(image: np.ndarray, x: float, y: float, side: float, value: int,
                  config: ReaderConfig = DEFAULT, owned=(), light: bool | None = None,
                  glint: bool = False) -> tuple | None:
    """The pips of a die of ``value`` round ``(x, y)`` px of ``image`` (``H×W×3 uint8 BGR``) as the
    classical pip test sees them, ``((x, y), ...)`` px, or None when they do not say ``value``.

    Pips are round spots of a black-hat (dark pips) or top-hat (light pips) ``config.pip_test.hat``
    (0.45) ``side`` wide (:func:`vision.pipfirst._round_spots`, the pip-first stage's test) whose centres
    lie within ``config.learned.confirm_reach`` side of ``(x, y)`` (a found die's place is on a grid of
    a quarter side). They say ``value`` when there are exactly that many, of one size (areas within a
    factor ``pip_test.sizes``, 2.5, a spot over twice the others' size first cut to its core,
    :func:`_cores`: a pip run into the face's lit edge), in that face's pattern
    (:func:`vision.face._pattern_fit` at least ``pip_test.pattern_fit``, 0.9), their middle within
    ``pip_test.middle`` (0.3) side of ``(x, y)``, and, for two or more, the farthest
    ``pip_test.corner_span`` (0.25-0.5) side from their middle (a face's corners, not a pip cluster or
    the pips of two dice); a one lies within ``pip_test.one_middle`` (0.25) side of ``(x, y)``; and no
    other spot of their size lies within ``config.learned.confirm_alone`` side of their middle (a two's
    other pip beside a one on a die the felt's colour), for three pips or more within
    ``config.learned.confirm_alone_face`` (their middle is the face's: a pip it lacks lies within about
    0.36 side, a touching die's pips 0.65 or more). A spot larger than a pip (a pip run together with a
    glint along the die's edge) is looked into again over Otsu's level of its response, as the
    pip-first stage does (``pip_test.split_within``, 2.0 side). ``owned``: the pips ``(x, y)`` px of
    the dice read already; a spot within ``pip_test.owned`` (0.15) side of one is that die's (a one
    touching a six has the six's pips within reach), neither this die's nor another round it; nor is
    a side face's pip (:func:`vision.pipfirst.side_pip`: a near camera shows a one's side faces' pips beside it).
    ``light``: True looks at light pips only (the shade in a light pip's hollow is a dark spot beside
    it), False at dark ones only, None at both. ``glint``: spots cut from a glint's streak too
    (:func:`_round_spots`, ``config.faces.glint_cut`` side), where the classifier must agree."""
    h, w = image.shape[:2]
    r = int(side * 1.3) + 2
    x0, y0 = max(0, int(x) - r), max(0, int(y) - r)
    x1, y1 = min(w, int(x) + r + 1), min(h, int(y) + r + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    grey = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    cx, cy = x - x0, y - y0
    t = config.pip_test
    for op in _OPS[light]:
        resp, spots = _spots(grey, op, side, config, glint)
        spots = _not_owned(spots, owned, t.owned * side, x0, y0)
        within = np.hypot([s[0] - cx for s in spots], [s[1] - cy for s in spots]) <= config.learned.confirm_reach * side
        near = np.array([s[:3] for s, w in zip(spots, within) if w])
        if len(near) != value:
            continue
        if near[:, 2].max() > t.sizes * near[:, 2].min():
            near = _cores(resp, near, config)
            if near is None:
                continue
            spots = [s for s, w in zip(spots, within) if not w] + [tuple(c) for c in near]
        if near[:, 2].max() > t.sizes * near[:, 2].min():
            continue
        mid = near[:, :2].mean(axis=0)
        if np.hypot(mid[0] - cx, mid[1] - cy) > (t.one_middle if value == 1 else t.middle) * side:
            continue
        if value >= 2:
            far = float(np.hypot(*(near[:, :2] - mid).T).max()) / side
            if not t.corner_span[0] <= far <= t.corner_span[1] or _pattern_fit(near[:, :2]) < t.pattern_fit:
                continue
        # No other pip of their size round them (a two's other pip, a larger face's): the face is whole.
        like = [s for s in spots if 1 / t.sizes <= s[2] / float(np.median(near[:, 2])) <= t.sizes]
        alone = config.learned.confirm_alone if value < 3 else config.learned.confirm_alone_face
        if sum(np.hypot(s[0] - mid[0], s[1] - mid[1]) <= alone * side for s in like) != value:
            continue
        return tuple((float(px + x0), float(py + y0)) for px, py in near[:, :2])
    return None


def at_work_size(image: np.ndarray, box, side: float, config: ReaderConfig = DEFAULT) -> tuple[np.ndarray, float]:
    """``(crop, f)``: the part ``box`` (``(x0, y0, x1, y1)`` whole px, cut to the picture) of ``image``
    (``H×W×3 uint8 BGR``) shrunk by ``f`` = ``config.work_die / side`` (``side`` px, a die's), so its dice
    measure ``config.work_die`` px: the pip test's morphology grows with the side's cube, so dice larger
    than that are tested shrunk (a point ``(x, y)`` of ``image`` lies at ``((x - x0) f, (y - y0) f)``)."""
    f = config.work_die / side
    x0, y0, x1, y1 = box
    crop = image[y0:y1, x0:x1]
    return cv2.resize(crop, (max(1, round(crop.shape[1] * f)), max(1, round(crop.shape[0] * f))),
                      interpolation=cv2.INTER_AREA), f


def more_pips(image: np.ndarray, x: float, y: float, side: float, value: int,
              config: ReaderConfig = DEFAULT, owned=(), read=()) -> int | None:
    """The value above ``value`` that the pip test (:func:`pips_confirm`) reads at ``(x, y)`` px of
    ``image`` (``H×W×3 uint8 BGR``) for a die of ``side`` px, where it does not read ``value`` itself;
    None where it reads ``value``, or no larger value, or more than one. ``owned``: as for
    :func:`pips_confirm`. ``read``: the die's pips as read, ``(x, y)`` px: where given, the test's pips
    must hold each of them and share their middle (each within ``config.learned.recount_near`` side: every face is
    point-symmetric about its middle, so a face with a pip lost keeps its middle unless it lost its own).
    A die read surely with fewer pips than the pip test counts and lays out at its place lost a pip in its
    reading (render trays-00623: a black three seen turned 45°, its middle pip lost beside a sheen, read as
    a sure two). Only values above: the test's fewer pips (a one or a two among a die's pips and its side
    face's) pass by chance where the face holds more (mock tray 135: a six the test read as a two); and
    the middles shared: mock tray 110's one and its side face's pip made the test's two, its middle 0.3
    side off the one's. Dice over ``config.work_die`` px are looked at shrunk to that side (the test's
    morphology grows with the side's cube: mock dice of 70-160 px took 20 ms a read, medianly, unshrunk)."""
    if side > config.work_die:
        r = int(side * 1.4) + 2
        x0, y0 = max(0, int(x) - r), max(0, int(y) - r)
        image, f = at_work_size(image, (x0, y0, int(x) + r + 1, int(y) + r + 1), side, config)
        x, y, side = (x - x0) * f, (y - y0) * f, config.work_die
        owned = [((u - x0) * f, (v - y0) * f) for u, v in owned]
        read = [((u - x0) * f, (v - y0) * f) for u, v in read]
    if pips_confirm(image, x, y, side, value, config, owned=owned) is not None:
        return None
    more = []
    for v in range(value + 1, 7):
        pips = pips_confirm(image, x, y, side, v, config, owned=owned)
        if pips and read:
            near = config.learned.recount_near * side
            mid, own = np.mean(pips, axis=0), np.mean(read, axis=0)
            if math.dist(mid, own) > near or any(min(math.dist(p, q) for q in pips) > near for p in read):
                continue
        if pips:
            more.append(v)
    return more[0] if len(more) == 1 else None
