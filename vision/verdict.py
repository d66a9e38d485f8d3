"""Stage 6, the verdict: is the read sure, and if not, why (reasons as
:class:`vision.reasons.Reason` codes)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .config import DEFAULT, ReaderConfig


def _shows_pips(image: np.ndarray, center, side: float, *, config: ReaderConfig = DEFAULT) -> bool:
    """Whether the face of a die of ``side`` px centred at ``center`` ``(x, y)`` px in ``image``
    (``H×W×3 uint8 BGR``) shows any mark: some colour within 0.4 side of the centre differs from the
    face's median colour by ``config.verdict.pips_show`` (the 99th percentile of the pixels there, the face shrunk
    to ``config.verdict.pips_look`` px across). A place wholly outside the picture shows none."""
    h, w = image.shape[:2]
    r = 0.4 * side
    x, y = center
    x0, y0 = max(0, int(x - r)), max(0, int(y - r))
    x1, y1 = min(w, int(np.ceil(x + r)) + 1), min(h, int(np.ceil(y + r)) + 1)
    if x1 <= x0 or y1 <= y0:
        return False
    crop = image[y0:y1, x0:x1]
    k = min(1.0, config.verdict.pips_look / (2.0 * r))
    if k < 1.0:
        crop = cv2.resize(crop, (max(1, round((x1 - x0) * k)), max(1, round((y1 - y0) * k))),
                          interpolation=cv2.INTER_AREA)
        k = crop.shape[1] / (x1 - x0)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    yy, xx = np.ogrid[:lab.shape[0], :lab.shape[1]]
    inside = np.hypot((xx + 0.5) / k + x0 - x, (yy + 0.5) / k + y0 - y) < r
    px = lab[inside]
    if len(px) == 0:
        return False
    spread = np.linalg.norm(px - np.median(px, axis=0), axis=1)
    return float(np.percentile(spread, 99)) >= config.verdict.pips_show


def pip_beside(image: np.ndarray, die, side: float, others=(), *, face: float | None = None, spans=(),
               config: ReaderConfig = DEFAULT) -> bool:
    """Whether a round spot like the pips of ``die`` (a :class:`vision.dice.Die` read in ``image``,
    ``H×W×3 uint8 BGR``, its pips ``(x, y)`` px) lies beside them: within ``config.verdict.beside``
    side of their middle (``side``: the calibrated die side, px; a two's pips lie 0.85 side apart),
    yet none of them, not within its outline (the face stage judged that: a side face's pips), nor
    on another die read (``others``, :class:`vision.dice.Die`: inside its outline or at one of its
    pips). Then the face read may lack a pip (a two's other pip beside a one read round a lone pip,
    on a die whose body is the felt's colour and whose outline hardly shows). Spots are the
    pip-first stage's (:func:`vision.pipfirst._round_spots` of a black-hat or top-hat of 0.45 side,
    whichever shows the die's own pips), of their size (0.7-1.4 of their area), and round (second
    moments within 1.8: a side face's pips seen at a slant are flatter). ``face``: the dice's side read
    (px, the median of the dice read; default ``side``): where the die shows three pips or more, two of
    them at least ``config.faces.corners_apart`` of it apart (they span the face: opposite corners), a spot
    counts within ``config.verdict.beside_spanned`` of it only (a pip the face lacks lies within about 0.36
    of their middle; a near camera shows the side faces' pips beside it, 0.6-0.9 away); so too for a two
    whose pips lie no farther apart than ``config.verdict.two_spans`` of ``spans`` (their median, with two
    or more: the :func:`pip_span` of the other dice read surely as whole faces of 2-6 pips, px). Pips
    farther apart may be of two touching dice (renders: a one's pip and a three's middle one, a side or
    more apart, 1.4 of a face's diagonal); without ``spans`` a two is not taken to span its face."""
    from .candidates import _rect
    from .pipfirst import _round_spots, side_pip

    if not die.pips:
        return False
    h, w = image.shape[:2]
    mx, my = np.mean(np.array(die.pips, np.float64), axis=0)
    face = face or side
    reach = config.verdict.beside * side
    span = pip_span(die)
    if span >= config.faces.corners_apart * face and \
            (len(die.pips) >= 3 or len(spans) >= 2 and span <= config.verdict.two_spans * float(np.median(spans))):
        reach = min(reach, config.verdict.beside_spanned * face)
    r = int(side * (config.verdict.beside + 0.5)) + 2
    x0, y0 = max(0, int(mx) - r), max(0, int(my) - r)
    x1, y1 = min(w, int(mx) + r + 1), min(h, int(my) + r + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return False
    grey = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    own = np.array(die.pips, np.float64) - (x0, y0)
    kernel = _rect(0.45 * side)
    for op in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT):
        spots = _round_spots(cv2.morphologyEx(grey, op, kernel), config.faces.top_pip_least * side * side,
                             0.08 * side * side, 0.5, config=config)
        if not spots:
            continue
        xy = np.array([s[:2] for s in spots])
        d = np.hypot(xy[:, None, 0] - own[None, :, 0], xy[:, None, 1] - own[None, :, 1])
        if not (d.min(axis=0) <= 0.12 * side).all():  # not every read pip is a spot of this kind
            continue
        size = float(np.median([spots[i][2] for i in d.argmin(axis=0)]))
        for i, (sx, sy, area) in enumerate(s[:3] for s in spots):
            if d[i].min() <= 0.12 * side or not 0.7 <= area / size <= 1.4 or \
                    np.hypot(sx - (mx - x0), sy - (my - y0)) > reach:
                continue
            if side_pip(spots[i]):  # squashed: a side face's pip, seen at a slant
                continue
            at = (float(sx + x0), float(sy + y0))
            if not any(cv2.pointPolygonTest(np.float32(o.corners), at, False) >= 0 or
                       any(math.dist(at, p) <= 0.12 * side for p in o.pips) for o in (die, *others)):
                return True
        return False
    return False


def pip_span(die) -> float:
    """The distance, px, between the farthest two of ``die``'s pips (``pips`` ``(x, y)`` px); 0.0 with
    fewer than two. Every d6 face of 2-6 pips has two pips at opposite corners, so whole faces of
    one set's dice seen alike share it."""
    pips = die.pips
    return max((math.dist(p, q) for i, p in enumerate(pips) for q in pips[i + 1:]), default=0.0)


def beyond_face(die, spans, config: ReaderConfig = DEFAULT) -> bool:
    """Whether ``die`` (a :class:`vision.dice.Die` of two pips or more, ``pips`` ``(x, y)`` px) took in pips
    beyond its face: its farthest two pips lie farther apart than ``config.faces.whole_span`` of the median
    of ``spans`` (the :func:`pip_span` of two or more other dice read surely as whole faces of 2-6 pips,
    px). Every d6 face of 2-6 pips has pips at two opposite corners, so all span alike; a four read with
    the side face a near camera shows under it, its pips' dashes counted, is a six spanning 1.37 of the
    others (held-out mock tray 1226). False with fewer than two ``spans``."""
    if die.value < 2 or len(die.pips) < 2 or len(spans) < 2:
        return False
    return pip_span(die) > config.faces.whole_span * float(np.median(spans))


def part_of_face(die, side: float, config: ReaderConfig = DEFAULT, spans=()) -> bool:
    """Whether ``die`` (a :class:`vision.dice.Die` of two pips or more, ``pips`` ``(x, y)`` px) is at
    most part of a face on dice of ``side`` px (the median side of the dice read in a calibrated tray):
    it was read smaller than ``config.faces.part_size`` of the side and its farthest two pips lie closer
    than ``config.faces.corners_apart`` of it (a whole face seen with its side faces by a near camera is
    read as large as the others, its pips' span a smaller share of it). Every d6 face of
    2-6 pips has pips at two opposite corners (about 0.7 side apart); two neighbouring pips of a four lie
    0.5 side apart, a three's middle and corner 0.35 (renders trays-00087, -00113, -00133: a four's or a
    three's pips, the others lost against another die or the tray's edge, read as a sure two).
    ``spans``: the :func:`pip_span` of the other dice read surely as whole faces of 2-6 pips, px; with
    two or more, the farthest pips are compared with their median instead (``config.faces.part_span`` of
    it): the side read takes in side faces and shadows (up to 1.4 of the top face on renders, mock trays
    10-15 %), the pips' span does not, and a part of a face spans at most 0.71 of a whole one; so it is
    compared whatever its own size read (render trays-00915: a red six's outline read 1.25 sides wide
    with its side faces, one column of its pips, 0.69 of the others' span, read as a three)."""
    pips = die.pips
    if die.value < 2 or len(pips) < 2:
        return False
    if len(spans) >= 2:
        return pip_span(die) < config.faces.part_span * float(np.median(spans))
    if die.size >= config.faces.part_size * side:
        return False
    return pip_span(die) < config.faces.corners_apart * side
