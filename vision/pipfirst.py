"""Dice found from their pips alone, where no face stood out from the table.

A wooden die on wood, a cream die on a light desk, a die in the shadow of a
tray's wall: the reader's faces (:mod:`vision.reader`) do not show them, but
their pips do. :func:`pip_dice` finds round dark (or light) spots of a pip's
size and groups them into faces; :func:`pip_scale` tells the die size to look
for; :func:`add_pip_dice` merges what it finds with the dice read from their
faces. Positions are working-image pixels ``(x, y)``; sizes are pixels.

    >>> import numpy as np
    >>> from vision.pipfirst import pip_dice
    >>> pip_dice(np.full((240, 320), 200, np.uint8), [], 60.0)
    []
"""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np

from .candidates import _blob_shape, _glints_cut, _otsu, _rect, _slant
from .config import DEFAULT, ReaderConfig
from .dice import (
    FRONT_FACE,
    OFF_CENTRE,
    Die,
    _read_size,
)
from .diceset import PIP_LAYOUT
from .face import _free_places_empty, _pattern_fit, _span
from .learned import _clear_of_edge
from .reasons import Doubt

__all__ = ["add_pip_dice", "pip_dice", "pip_scale"]



def pip_scale(gray: np.ndarray, dice: list[Die], long_side: int, *, config: ReaderConfig = DEFAULT) -> float | None:
    """The die side, px, to look for pips at: the median size of the dice
    read with confidence 0.5 or more; while fewer than two dice are sure, the
    size the pips in the picture suggest (:func:`_pip_side`) when it is
    within a factor 1.5 of that (or nothing was read). None when neither
    says anything."""
    read = _read_size(dice, inner=False)
    if sum(d.confidence >= 0.8 for d in dice) >= 2:
        return read
    from_pips = _pip_side(gray, long_side, config=config)
    if from_pips and (read is None or 0.67 <= from_pips / read <= 1.5):
        return from_pips
    return read


def _pip_side(gray: np.ndarray, long_side: int, *, config: ReaderConfig = DEFAULT) -> float | None:
    """The die side, px, the round dark spots of ``gray`` (``H×W uint8``)
    suggest: their median diameter over ``config.pips.pip_share``; None with fewer
    than two (a two's pips are enough). Spots are looked for from the pips
    of a die ``config.pips.smallest_die`` of ``long_side`` wide (0.54% of it) up to
    6% of it.
    """
    resp = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, _rect(0.05 * long_side))
    least = config.pips.pip_share * config.pips.smallest_die * long_side / 2.0  # the least pip radius, px
    radii = [math.sqrt(spot[2] / math.pi) for spot in _round_spots(resp, least ** 2 * math.pi,
                                                                (0.03 * long_side) ** 2 * math.pi, 0.6,
                                                                config=config)]
    if len(radii) < 2:
        return None
    return float(np.median(radii)) * 2.0 / config.pips.pip_share




def side_pip(spot) -> bool:
    """Whether a spot of :func:`_round_spots` (``(x, y, area, xx, xy, yy)``) is squashed like a side
    face's pip seen at a slant: its second moments over 1.8 apart (its axes over 1.34), where a top
    face's pip, seen from above, is round (mock trays: a near camera's side-face pips 1.9-2.1, a
    top face's at most 1.3)."""
    xx, xy, yy = spot[3:6]
    lo, hi = np.linalg.eigvalsh(np.array([[xx, xy], [xy, yy]], np.float64))
    return bool(hi > 1.8 * max(lo, 1e-6))


def _round_spots(resp: np.ndarray, min_area: float, max_area: float, roundness: float,
                 exclude: np.ndarray | None = None, level: int | None = None,
                 split_within: float = 0.0, *, glint: float = 0.0, config: ReaderConfig = DEFAULT) -> list[tuple[float, ...]]:
    """Round spots of a black-hat or top-hat response ``resp`` (``H×W uint8``):
    ``(x, y, area, xx, xy, yy)`` in px and px², and their second moments
    scaled to trace 2 (:func:`_blob_shape`), for the parts over ``level`` (first
    ``config.faces.pip_contrast``) with an area in ``[min_area, max_area]``, a box
    and a fill of at least ``roundness``, and second moments no more
    squashed than 1:2.2 (a side face's pips, seen edge-on, are).
    ``exclude``: uint8 mask of places not to look (the faces already read).
    A part at most ``split_within`` px wide and high that is up to ten pips
    large, or of a pip's size but not round (pips run together by a shadow
    on their face, a pip joined to a crack), is looked into again over
    Otsu's level of its response; where that parts none, with ``glint`` (px), its parts no round pip (a
    pip run into a glint along a glossy die's edge) are opened with a disc that wide."""
    if level is None:
        level = config.faces.pip_contrast
    mask = cv2.threshold(resp, level, 255, cv2.THRESH_BINARY)[1]
    if exclude is not None:
        mask = cv2.bitwise_and(mask, cv2.bitwise_not(exclude))
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    spots = []
    for i in range(1, n):
        a = float(stats[i, cv2.CC_STAT_AREA])
        x, y, bw, bh = stats[i, :4]
        round_enough = min(bw, bh) / max(bw, bh) >= roundness and a / float(bw * bh) >= roundness
        if ((max_area < a <= 10 * max_area or (min_area <= a <= max_area and not round_enough))
                and max(bw, bh) <= split_within and level == config.faces.pip_contrast):
            part = resp[y:y + bh, x:x + bw]
            inside = labels[y:y + bh, x:x + bw] == i
            higher = max(level + 1, int(_otsu(part[inside])) + 1)
            sub = np.where(inside, part, 0).astype(np.uint8)
            split = _round_spots(sub, min_area, max_area, roundness, level=higher, config=config)
            if not split and glint >= 3:  # the face stage's cut (:func:`vision.candidates._glints_cut`)
                cut = _glints_cut(inside.astype(np.uint8) * 255, glint)
                split = _round_spots(np.where(cut > 0, part, 0).astype(np.uint8), min_area, max_area, roundness,
                                     level=level + 1, config=config)
            spots += [(sx + x, sy + y, *rest) for sx, sy, *rest in split]
            continue
        if not min_area <= a <= max_area:
            continue
        if not round_enough:
            continue
        xx, xy, yy = _blob_shape(labels, stats[i], i)
        if _slant((xx, xy, yy)) < config.pips.least_slant:
            continue
        spots.append((float(cents[i][0]), float(cents[i][1]), a, float(xx), float(xy), float(yy)))
    return spots


def pip_dice(gray: np.ndarray, dice: list[Die], side: float, *, same_kind: bool = False,
             calibrated: bool = False, config: ReaderConfig = DEFAULT) -> list[Die]:
    """Dice found from their pips alone, where no die was read.

    ``gray``: the working image's lightness (``H×W uint8``); ``dice``: the
    dice read from their faces (the faces of those read with
    ``config.pips.blocking`` or more, grown by 10%, are not looked at again);
    ``side``: the die side to look for, px. Dark pips (a black-hat
    filter of half a die) and light pips (a top-hat) are found as round
    spots of a pip's size. Spots closer than 0.6 side and of like size are
    linked into groups; a group of two to six pips is a die when its pips
    make a face's pattern at a face's spacing on a plain face (see
    :func:`_pip_group_dice`: a group that took in a side face's pips or a
    speck is tried in parts). Any dark pip left, 0.5 side or more from the
    next, may be a one (:func:`_lone_pip_die`: a plain face with an edge
    round it; a one seen at a slant has its side faces' pips just beyond
    its edge). Then two of the pips
    left, 0.55-0.95 side apart, may be a two (with 30 pips left or fewer).
    The face's outline was not seen, so a pip-first die is sure only when
    its pips' tests scored ``config.pips.sure`` together and it is not
    a front face (``config.pips.front_slant``); a one, only when its face
    lies wholly inside the picture and holds no other pip
    (``config.pips.one_most``). ``same_kind``: the dice are all of one
    kind (a calibrated set): when the sure dice read all have dark pips (or
    all light), only pips of that kind are looked for. ``calibrated``: ``side``
    was measured at calibration; then pips spread wider than such a face
    (``config.faces.pip_span``) are never sure.
    """
    h, w = gray.shape
    blocking = [d for d in dice if d.confidence >= config.pips.blocking]
    own = np.zeros((h, w), np.uint8)
    for d in blocking:
        c = np.array([d.corners], np.float32)
        mid = c.mean(axis=1, keepdims=True)
        cv2.fillPoly(own, (mid + (c - mid) * 1.1).round().astype(np.int32), 255)
    out: list[Die] = []
    kernel = _rect(0.45 * side)
    kinds = _pip_kinds(gray, dice) if same_kind else set()
    looks = [(dark, op) for dark, op in ((True, cv2.MORPH_BLACKHAT), (False, cv2.MORPH_TOPHAT))
             if len(kinds) != 1 or dark in kinds]
    for dark, op in looks:
        resp = cv2.morphologyEx(gray, op, kernel)
        least = config.faces.top_pip_least * side * side
        spots = _round_spots(resp, least, 0.08 * side * side, 0.5, own, split_within=1.2 * side,
                             config=config)
        if not spots:
            continue
        pips = np.array(spots)
        pip_mask = cv2.bitwise_and(cv2.threshold(resp, config.faces.pip_contrast, 255, cv2.THRESH_BINARY)[1],
                                   cv2.bitwise_not(own))
        dist = np.linalg.norm(pips[:, None, :2] - pips[None, :, :2], axis=2)
        ratio = pips[:, None, 2] / pips[None, :, 2]
        groups = _linked((dist < 0.6 * side) & (ratio > 0.4) & (ratio < 2.5))
        np.fill_diagonal(dist, np.inf)
        nearest = dist.min(axis=1)
        found: list[Die] = []
        for g in groups:
            if 2 <= len(g) <= 8:  # more: a patch of lettering or a keyboard, not a die
                found.extend(_pip_group_dice(pips[g], gray, (pip_mask, resp), side, blocking + found,
                                             calibrated=calibrated, config=config))
        if dark:
            # A one seen at an angle has its side faces' pips just beyond its
            # face's edge: any dark pip left may be a one.
            used = {tuple(p) for d in found for p in d.pips}
            for i in np.argsort(-pips[:, 2]):
                if (pips[i, 0], pips[i, 1]) not in used and nearest[i] >= 0.5 * side:
                    near = pips[(dist[i] < config.pips.two_reach[1] * side), :2]
                    d = _lone_pip_die(pips[i], gray, (pip_mask, resp), side, blocking + found, near, config=config)
                    if d is not None:
                        found.append(d)
        # A two's pips lie farther apart than a group's links, and one of them
        # may have been linked to a side face's pips: pairs of the pips left,
        # nearest a two's spacing first.
        used = {tuple(p) for d in found for p in d.pips}
        left = [i for i in range(len(pips)) if (pips[i, 0], pips[i, 1]) not in used]
        if len(left) <= 30:
            reach_lo, reach_hi = config.pips.two_reach
            pairs = sorted(((abs(dist[i, j] - 0.76 * side), i, j) for i, j in itertools.combinations(left, 2)
                            if reach_lo * side <= dist[i, j] <= reach_hi * side), key=lambda t: t[0])
            taken: set[int] = set()
            for _, i, j in pairs:
                if i in taken or j in taken:
                    continue
                d = _pip_group_die(pips[[i, j]], gray, (pip_mask, resp), side, blocking + found,
                                   calibrated=calibrated, config=config)
                if d is not None:
                    found.append(d)
                    taken |= {i, j}
        out.extend(found)
    return out


def _pip_kinds(gray: np.ndarray, dice: list[Die]) -> set[bool]:
    """Whether the sure dice of ``dice`` (of two pips or more) have dark pips:
    a set of True (darker than the face's median) and False (lighter)."""
    kinds = set()
    for d in dice:
        if d.confidence < 0.8 or d.value < 2:
            continue
        box = np.round(np.array(d.corners)).astype(np.int32)
        x0, y0 = np.maximum(box.min(axis=0), 0)
        x1, y1 = box.max(axis=0) + 1
        face = gray[y0:y1, x0:x1]
        if face.size:
            pips = [float(gray[round(y), round(x)]) for x, y in d.pips]
            kinds.add(bool(np.median(pips) < np.median(face)))
    return kinds


def _pip_group_dice(pips: np.ndarray, gray: np.ndarray, marks: tuple[np.ndarray, np.ndarray], side: float,
                    blocking: list[Die], *, calibrated: bool = False, config: ReaderConfig = DEFAULT) -> list[Die]:
    """The dice in one group of linked pips (``N×6``, as :func:`_round_spots` gives them).

    The whole group is tried first (:func:`_pip_group_die`). When it makes
    no die (it took in the pips of a side face, or of a neighbour, or a
    speck of shadow), its parts of two to six pips are tried, the largest
    first (a six and a speck holds a six's column too), and the surest die
    of the largest parts that make one wins; the pips within 0.9 side of it
    are its own, and the rest are tried again the same way.
    """
    n = len(pips)
    if n < 2:
        return []
    whole = _pip_group_die(pips, gray, marks, side, blocking, calibrated=calibrated, config=config) if n <= 6 else None
    if whole is not None or n == 2:
        return [whole] if whole is not None else []
    best = None
    for k in range(min(6, n - 1), 1, -1):
        for part in itertools.combinations(range(n), k):
            d = _pip_group_die(pips[list(part)], gray, marks, side, blocking, calibrated=calibrated, config=config)
            if d is not None and (best is None or d.confidence > best.confidence):
                best = d
        if best is not None:
            break
    if best is None:
        return []
    rest = pips[np.linalg.norm(pips[:, :2] - np.array(best.center), axis=1) > 0.9 * side]
    return [best] + _pip_group_dice(rest, gray, marks, side, blocking + [best], calibrated=calibrated,
                                    config=config)


def _linked(adjacent: np.ndarray) -> list[list[int]]:
    """The groups (lists of indices) of an ``N×N`` bool adjacency matrix's
    connected parts."""
    n = len(adjacent)
    label = np.arange(n)
    while True:
        # Every point takes the smallest label among itself and its neighbours.
        new = np.where(adjacent, label[None, :], n).min(axis=1)
        new = np.minimum(new, label)
        new = new[new]
        if np.array_equal(new, label):
            break
        label = new
    return [np.flatnonzero(label == k).tolist() for k in np.unique(label)]


def _face_ring(gray: np.ndarray, centre, outer: float, holes, squash: np.ndarray | None = None):
    """A face round pips: ``(lightness, (x0, y0, x1, y1), mask)``, or None
    when under 80% of it is in the picture or the ``holes`` leave none of it.

    The face is the disc of ``outer`` px round ``centre`` (``(x, y)`` px) in
    ``gray`` (``H×W uint8``), less the discs ``holes`` (``(x, y, r)`` px);
    ``lightness`` is its pixels' values (float32), ``mask`` (uint8) marks them
    in the crop ``x0:x1, y0:y1`` (clipped to the picture: a die may lie
    against the picture's edge). ``squash``: a 2×2 matrix that maps the face
    seen square to the picture (a face seen at a slant is an ellipse)."""
    h, w = gray.shape
    x, y = centre
    reach = outer if squash is None else outer * float(np.abs(squash).sum(axis=1).max())
    x0, y0 = int(x - reach), int(y - reach)
    x1, y1 = int(math.ceil(x + reach)) + 1, int(math.ceil(y + reach)) + 1
    if squash is None:
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.circle(m, (round(x - x0), round(y - y0)), round(outer), 255, -1)
    else:
        yy, xx = np.mgrid[y0:y1, x0:x1]
        flat = np.stack([xx - x, yy - y], axis=-1).astype(np.float32) @ np.linalg.inv(squash).T.astype(np.float32)
        m = ((flat ** 2).sum(axis=-1) <= outer * outer).astype(np.uint8) * 255
    whole = cv2.countNonZero(m)
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if cx1 <= cx0 or cy1 <= cy0:
        return None
    m = np.ascontiguousarray(m[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0])
    if cv2.countNonZero(m) < 0.8 * whole:
        return None
    for hx, hy, r in holes:
        cv2.circle(m, (round(hx - cx0), round(hy - cy0)), round(r) + 1, 0, -1)
    if not cv2.countNonZero(m):  # the holes cover the disc (a side of a few px): no face to judge
        return None
    return gray[cy0:cy1, cx0:cx1][m > 0].astype(np.float32), (cx0, cy0, cx1, cy1), m


def _plainness(ring, marks: tuple[np.ndarray, np.ndarray], pips=None, *,
               config: ReaderConfig = DEFAULT) -> tuple[float, float, float, float]:
    """How plain a face (:func:`_face_ring`'s ``ring``) is: ``(stray, lo,
    med, hi)``, the share of its pixels of the pips' class and the 10th, 50th
    and 90th percentiles of its lightness. ``marks``: the pips' class (uint8
    mask) and the response it was cut from (``H×W uint8``).

    With the face's ``pips`` (rows ``x, y, area``, px and px²), a stray mark
    at least half a pip large that is both weak (under half as strong as
    the pips, by its median) and long (squashed past 1:2.2, as no pip is)
    does not count: a crack or a knot in a wooden face. A weak round mark
    does (the faint pip of a larger face), and so does a fleck too small to
    have a shape."""
    face, (x0, y0, x1, y1), m = ring
    pip_mask, resp = marks
    stray_marks = cv2.bitwise_and(pip_mask[y0:y1, x0:x1], m)
    if pips is not None:
        strength = float(np.median([resp[round(p[1]), round(p[0])] for p in pips]))
        least = 0.5 * float(np.mean([p[2] for p in pips]))
        crop = resp[y0:y1, x0:x1]
        n, labels, stats, _ = cv2.connectedComponentsWithStats(stray_marks, connectivity=8)
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] < least:
                continue
            part = labels == i
            weak = np.median(crop[part]) < 0.5 * strength
            if weak and _slant(_blob_shape(labels, stats[i], i)) < config.pips.least_slant:
                stray_marks[part] = 0
    stray = cv2.countNonZero(stray_marks) / max(1, face.size)
    lo, med, hi = np.percentile(face, (10, 50, 90))
    return stray, float(lo), float(med), float(hi)


def _pip_squash(pips: np.ndarray) -> np.ndarray | None:
    """The 2×2 matrix mapping a face seen square to the picture, from its
    pips' mean shape (``N×6`` rows ``x, y, area, xx, xy, yy``): a face seen
    at a slant squashes its round pips into ellipses across the slant. None
    when the pips are round (squashed by under 10%)."""
    xx, xy, yy = pips[:, 3:6].mean(axis=0)
    vals, vecs = np.linalg.eigh(np.array([[xx, xy], [xy, yy]]))
    f = math.sqrt(max(vals[0], 1e-6) / vals[1])
    if f > 0.9:
        return None
    return vecs @ np.diag([f, 1.0]) @ vecs.T


def _pip_group_die(pips: np.ndarray, gray: np.ndarray, marks: tuple[np.ndarray, np.ndarray], side: float,
                   blocking: list[Die], *, calibrated: bool = False, config: ReaderConfig = DEFAULT) -> Die | None:
    """A die from a group of 2-6 pips (``N×6``: ``x, y, area`` in px and px²,
    and their shapes ``xx, xy, yy``, see :func:`_round_spots`), or None.

    The pips must be of like size (spread of areas at most 35%; a two's
    at most ``config.pips.two_areas`` apart: a one's pip and the
    foreshortened pip of a side face seen beside it are no two), make a
    face's pattern (:func:`_pattern_fit`) with a pip spacing of 0.17-0.36
    side (the layout's outer pips sit about 0.27 side from the centre), and
    lie on a plain face that ends (:func:`_face_ends`): over the face's disc,
    outside the pips, at most 2% is of the pips' class (``marks``, see
    :func:`_plainness`),
    and the face differs from the pips by more than half its own spread of
    lightness. The face's disc is 0.42 of its side wide (a face seen at an
    angle has its side face's pips just beyond its edge). Two to four pips
    must leave their free layout places empty (:func:`_free_places_empty`).
    The die's centre must be at least 0.85 side from every die read from
    its face (``blocking``).
    """
    n = len(pips)
    pts, areas = pips[:, :2], pips[:, 2]
    if areas.std() > 0.35 * areas.mean():
        return None
    if n == 2 and areas.max() > config.pips.two_areas * areas.min():
        return None  # a one's pip and a side face's, foreshortened (renders 483, 498, 530)
    mid = pts.mean(axis=0)
    if any(math.dist(mid, d.center) < 0.85 * max(side, d.size) for d in blocking):
        return None
    ref = np.array(PIP_LAYOUT[n], np.float64)
    ref_rms = math.sqrt(float(((ref - ref.mean(axis=0)) ** 2).sum(axis=1).mean()))
    squash = _pip_squash(pips)
    flat = pts - mid if squash is None else (pts - mid) @ np.linalg.inv(squash).T
    spacing = math.sqrt(float((flat ** 2).sum(axis=1).mean())) / ref_rms / side
    if not 0.17 <= spacing <= 0.36:
        return None
    # The pattern first: it needs no pixels, and the tests below only lower
    # the confidence (each is 0-1), so a group whose pattern scores under the
    # least a die needs is no die (a large group is tried in many parts).
    conf = _pattern_fit(pts) if n >= 3 else 1.0
    if conf < 0.3:
        return None
    size = side * spacing / 0.27  # this face's side, px
    r = math.sqrt(float(areas.mean()) / math.pi)
    ring = _face_ring(gray, mid, 0.42 * size, [(x, y, 1.6 * r) for x, y in pts], squash)
    if ring is None:
        return None
    if ring[0].size < 10:
        return None
    stray, lo, med, hi = _plainness(ring, marks, pips, config=config)
    pip_level = float(np.median([gray[round(y), round(x)] for x, y in pts]))
    conf *= max(0.0, 1.0 - max(0.0, stray - 0.02) * 20.0)
    conf *= min(1.0, max(0.0, (abs(med - pip_level) - 0.5 * (hi - lo)) / 30.0))
    conf *= _face_ends(gray, mid, size, med, squash)
    if conf < 0.3:
        return None
    if n <= 4:
        # No pip where a larger face would have one (a six missing a pip
        # holds a four). The face's outline is not seen: its turn is the
        # pips' diagonal's.
        far = pts[np.argmax(np.linalg.norm(pts - mid, axis=1))] - mid
        angle = math.degrees(math.atan2(far[1], far[0])) - 45.0
        if not _free_places_empty([(p[0], p[1], p[2]) for p in pips], marks[0], size, angle):
            return None
    slant = 1.0 if squash is None else _slant(pips[:, 3:6].mean(axis=0))
    front = slant < config.pips.front_slant and _under_a_face(mid, size, marks[0], blocking, config=config)
    # Pips spread wider than a face of the side looked for (a four and a near camera's side-face pips
    # beside it) are never sure: ``config.faces.pip_span``.
    wide = calibrated and _span(pts) > config.faces.pip_span * side
    sure = conf >= config.pips.sure and slant >= config.faces.side_slant and not front and not wide
    return _pip_die(n, mid, size, conf if sure else min(config.pips.most, conf), pts, slant,
                    doubts=((FRONT_FACE,) if front else ()) + (() if sure else (Doubt.PIPS_ONLY,)))


def _under_a_face(mid, size: float, pip_mask: np.ndarray, dice: list[Die], *, config: ReaderConfig = DEFAULT) -> bool:
    """Whether something of a die lies just above a face of ``size`` px at
    ``mid`` (``(x, y)`` px): pips (``pip_mask``, uint8) or a die of ``dice``
    within 0.6 side across and 0.5-1.5 side up. From a low camera a die's
    front face is seen under its top face, and may look squarer than it."""
    x, y = mid
    if any(abs(d.center[0] - x) < 0.6 * size and 0.5 * size < y - d.center[1] < 1.5 * size for d in dice):
        return True
    h, w = pip_mask.shape
    x0, x1 = max(0, round(x - 0.6 * size)), min(w, round(x + 0.6 * size))
    y0, y1 = max(0, round(y - 1.5 * size)), max(0, round(y - 0.5 * size))
    pip_area = math.pi * (0.5 * config.pips.pip_share * size) ** 2
    return x1 > x0 and y1 > y0 and cv2.countNonZero(pip_mask[y0:y1, x0:x1]) >= 0.3 * pip_area


def _lone_pip_die(pip, gray: np.ndarray, marks: tuple[np.ndarray, np.ndarray], side: float,
                  blocking: list[Die], near=(), *, config: ReaderConfig = DEFAULT) -> Die | None:
    """A one from a dark pip (a row of :func:`_round_spots`: ``x, y, area``, px), or None.

    A one's pip is 12-32% of the side wide, and sits alone in a plain face:
    within 0.42 side of it, outside the pip, at most 0.5% is of the pips'
    class and the face differs from the pip by more than its own spread of
    lightness. The face must end (:func:`_face_ends`: a round mark on a
    plain tray, a screw head, has no die round it). The die's centre must
    be at least ``config.pips.one_clear`` side from every die read from its face (``blocking``;
    a die touching it lies about a side off).
    It may be sure when it scored ``config.pips.sure``, its face (0.6
    side round the pip) is inside the picture, and none of the pips
    ``near`` it (``(x, y)`` px, within a two's reach) lies on its face: a
    two's other pip lies 0.76 side off, beyond the plain disc looked at.
    Nor may it be sure, or confirmed by the learned classifier, when its
    plain disc does not lie whole on the face (``config.pips.one_off_face``): a
    two's corner pip whose other pip is hidden (merged with the shadow of a
    die against it) has the face's edge within a quarter side; such a one
    has the doubt :data:`vision.reader.OFF_CENTRE`.
    """
    x, y, a = pip[:3]
    r = math.sqrt(a / math.pi)
    if not 0.06 * side <= r <= 0.16 * side:
        return None
    if any(math.dist((x, y), d.center) < config.pips.one_clear * max(side, d.size) for d in blocking):
        return None
    ring = _face_ring(gray, (x, y), 0.42 * side, [(x, y, 1.6 * r)])
    if ring is None:
        return None
    stray, lo, med, hi = _plainness(ring, marks, config=config)
    conf = max(0.0, 1.0 - max(0.0, stray - 0.005) * 50.0)
    conf *= min(1.0, max(0.0, (abs(med - float(gray[round(y), round(x)])) - (hi - lo)) / 30.0))
    conf *= _face_ends(gray, (x, y), side, med)
    if conf < 0.3:
        return None
    h, w = gray.shape
    # A one's pip lies in the middle of its face, and its plain disc lies on
    # the face; a two's corner pip has the face's edge within a quarter side.
    off = float(np.mean(np.abs(ring[0] - med) > config.pips.off_face_level))
    centred = off <= config.pips.one_off_face
    sure = (conf >= config.pips.sure and centred and _clear_of_edge(x, y, side, w, h)
            and not any(_on_one_face(gray, (x, y), q, r, lo, med, hi) for q in near))
    most = 1.0 if sure else config.pips.one_most
    doubts = (() if centred else (OFF_CENTRE,)) + (() if sure else (Doubt.PIPS_ONLY,))
    return _pip_die(1, (x, y), side, min(most, conf), np.array([[x, y]]), doubts=doubts)


def _on_one_face(gray: np.ndarray, p, q, r: float, lo: float, med: float, hi: float) -> bool:
    """Whether the pips at ``p`` and ``q`` (``(x, y)`` px, of radius about
    ``r`` px) lie on one face of lightness ``lo``-``hi`` round ``med``: the
    picture between them never departs from the face by over 15 or its own
    spread (no face edge between them)."""
    p, q = np.asarray(p, np.float64), np.asarray(q, np.float64)
    length = float(np.linalg.norm(q - p))
    if length <= 4 * r:
        return True
    ts = np.linspace(2 * r / length, 1 - 2 * r / length, 16)
    pts = np.round(p + ts[:, None] * (q - p)).astype(int)
    h, w = gray.shape
    pts[:, 0] = np.clip(pts[:, 0], 0, w - 1)
    pts[:, 1] = np.clip(pts[:, 1], 0, h - 1)
    return float(np.abs(gray[pts[:, 1], pts[:, 0]].astype(np.float32) - med).max()) <= max(15.0, hi - lo)


def _face_ends(gray: np.ndarray, centre, side: float, level: float, squash: np.ndarray | None = None) -> float:
    """How clearly a face of ``side`` px round ``centre`` (``(x, y)`` px) ends (0-1).

    Along 16 rays from 0.4 to 0.9 side out, the lightness of ``gray``
    (``H×W uint8``) must somewhere depart from the face's ``level`` by over
    15: the face's edge, its side faces or its shadow. 60% of the rays or
    fewer give 0, 85% or more give 1. A mark on a plain tray (a screw head,
    dots of print) has no face that ends. ``squash``: as for
    :func:`_face_ring` (the rays are squashed with the face).
    """
    h, w = gray.shape
    x, y = centre
    turns = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    reach = np.linspace(0.4 * side, 0.9 * side, 12)
    dx, dy = np.outer(np.cos(turns), reach), np.outer(np.sin(turns), reach)
    if squash is not None:
        dx, dy = squash[0, 0] * dx + squash[0, 1] * dy, squash[1, 0] * dx + squash[1, 1] * dy
    xs = np.clip(np.round(x + dx).astype(int), 0, w - 1)
    ys = np.clip(np.round(y + dy).astype(int), 0, h - 1)
    ends = float(np.mean(np.any(np.abs(gray[ys, xs].astype(np.float32) - level) > 15, axis=1)))
    return min(1.0, max(0.0, (ends - 0.6) / 0.25))


def _pip_die(value: int, mid, size: float, conf: float, pts: np.ndarray, slant: float = 1.0,
             doubts: tuple[str, ...] = ()) -> Die:
    """A :class:`Die` found from its pips: an upright square of ``size`` px round ``mid``,
    with the ``doubts`` (see :class:`vision.reader.Die`) its pips leave."""
    half = size / 2
    corners = tuple((float(mid[0] + dx * half), float(mid[1] + dy * half))
                    for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))
    return Die(value=value, center=(float(mid[0]), float(mid[1])), size=float(size), corners=corners,
               confidence=round(float(conf), 3), pips=tuple((float(x), float(y)) for x, y in pts),
               slant=round(slant, 3), doubts=doubts)


def add_pip_dice(dice: list[Die], found: list[Die], *, config: ReaderConfig = DEFAULT) -> list[Die]:
    """``dice`` with the pip-first dice ``found`` added.

    A pip-first die is left out where a die as sure or surer was read within
    0.9 of its side, or where, unsure, it lies under an unsure die-sized
    reading closer than two dice can (0.6 side across, under 0.9 side down)
    and shares none of its pips: it is that die's front face, seen from a
    low camera. A less sure
    reading in its place (a speck read as a die, a side face read at a
    slant) gives way to it.
    """
    def near(d: Die, e: Die) -> bool:
        return math.dist(d.center, e.center) < 0.9 * e.size

    def front_face(d: Die, e: Die) -> bool:
        # Neither sure, e lies under the die-sized d closer than two dice
        # can, and they share no pip (e is no fuller reading of d's face):
        # d's front face, seen from a low camera.
        s = max(d.size, e.size)
        shared = any(math.dist(p, q) < 0.1 * s for p in d.pips for q in e.pips)
        weak = d.confidence < config.pips.blocking and e.confidence < config.pips.blocking
        return (weak and d.size >= 0.7 * e.size and not shared
                and abs(e.center[0] - d.center[0]) < 0.6 * s and 0 < e.center[1] - d.center[1] < 0.9 * s)

    def within(d: Die, e: Die) -> bool:
        # e's pips are some of d's, read without doubt (two pips of a glossy four): d read the face whole.
        s = max(d.size, e.size)
        return not d.doubts and len(d.pips) > len(e.pips) > 0 and \
            all(any(math.dist(p, q) < 0.1 * s for q in d.pips) for p in e.pips)

    found = [e for e in found if not any((near(d, e) and (d.confidence >= e.confidence or within(d, e)))
                                         or front_face(d, e) for d in dice)]
    return [d for d in dice if not any(near(d, e) for e in found)] + found
