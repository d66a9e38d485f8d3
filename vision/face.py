"""Stage 2, read a face: the pips in a face's outline, checked against the
dice set's layouts (:mod:`vision.diceset`: pattern, spread, size of the
pips), give a die and its confidence.

The dice set is data: it says how many pips a face may show, which values
have a documented layout to fit (the others are read by counting alone:
pips of one size whose middle is the face's middle, as on Miwin's 7-9), and
whether the dice differ by their pips' colour (then :func:`pip_colour` names
the die). Standard d6 (the tray) and Miwin's dice (the Fenn board) are two
sets read by this one stage.
"""

from __future__ import annotations

import functools
import math
import statistics

import cv2
import numpy as np

from .candidates import _ELLIPSE3, _blob_shape, _deepest, _fill_holes, _slant, round_part
from .config import ReaderConfig
from .dice import Die
from .diceset import D6, PIP_LAYOUT, DiceSet
from .reasons import Doubt


def _top_face_pips(pips, deepest: tuple[float, tuple[int, int]]):
    """Keep the pips of the top face.

    A die seen at an angle shows up to three faces. The top face's pips are the
    largest and lie within half a face of the face's deepest point
    (``deepest``, from :func:`_deepest`); pips of side faces are foreshortened
    and lie beyond its edge.
    """
    if len(pips) <= 1:
        return pips
    peak, (px, py) = deepest
    top_side = max(2.0 * peak, 1.0)
    order = sorted(pips, key=lambda p: -p[2])
    ref = statistics.median(p[2] for p in order[:3])
    # The top face's pips share one shape (round, or one ellipse when the face
    # is seen at an angle); a side face's pips are squashed another way.
    half = [p[3] for p in order[: max(1, (len(order) + 1) // 2)]]
    shape = np.array([statistics.median(float(s[k]) for s in half) for k in range(3)])
    keep = []
    for p in pips:
        x, y, a = p[:3]
        if a < 0.4 * ref:
            continue
        if math.hypot(x - px, y - py) > 0.75 * top_side:
            continue
        if a >= 25 and np.abs(p[3] - shape).sum() > 0.6:
            continue
        keep.append(p)
    return keep




def _read_face(face: np.ndarray, pip_mask: np.ndarray, offset, config: ReaderConfig, long_side: int | None,
               known_side: float | None = None, *, dice: DiceSet = D6, lab: np.ndarray | None = None,
               calibrated: bool = False, found: bool = False) -> Die | None:
    """Read one face mask (uint8 0/255) with the pips in ``pip_mask``: a
    :class:`Die` in the mask's pixels plus ``offset``, or None. With
    ``known_side`` (the calibrated die side, px), faces far from that size are
    refused before their pips are looked at; ``calibrated``: that side was measured at calibration
    (then two pips closer than a two's corners are no whole two, :func:`_two_apart`). ``long_side``: the picture's
    longer side, px, against which ``config.min_die``/``max_die`` bound a
    face (None: a straightened patch of one die, not bounded so).
    ``dice``: the dice set (:class:`vision.diceset.DiceSet`): faces of 1 to
    ``dice.most`` pips are read, a documented layout is fitted, any other
    value is counted (:func:`_counted_fit`). ``lab``: the picture in Lab
    (``H×W×3 uint8``, the masks' pixels), needed to name the die by its pips'
    colour (``Die.die``) when the set's dice differ by it; a pip colour no die
    of the set has costs confidence. ``found``: the face's square was found by a search of its own
    (Fenn's :func:`vision.fenn_dice.find_dice`: a die's size, its body's colour round its pips), so a
    lone pip of a die that shows 1 (Fenn's blue and red, F1) has its outline, shaded or cut by the
    patch, count as two or more pips' does (to the power 0.3): every blue or red 1 read with any
    confidence on the Fenn renders (47) and mock scenes (219) was a 1."""
    cnts, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cnts:
        return None
    cnt = max(cnts, key=cv2.contourArea)
    rect = cv2.minAreaRect(cnt)
    (cx, cy), (rw, rh), ang = rect
    if long_side and (min(rw, rh) < config.min_die * long_side or max(rw, rh) > config.max_die * long_side):
        return None
    side = math.sqrt(max(1.0, rw * rh))
    if known_side and not 0.6 * known_side <= side <= 1.5 * known_side:
        return None
    # Work in the face's box (and a margin of a third of a side for the
    # places round its pips): the blob's crop may hold several faces.
    bx, by, bw, bh = cv2.boundingRect(cnt)
    pad = int(side / 3) + 2
    x0, y0 = max(0, bx - pad), max(0, by - pad)
    x1, y1 = min(face.shape[1], bx + bw + pad), min(face.shape[0], by + bh + pad)
    face, pip_mask = face[y0:y1, x0:x1], pip_mask[y0:y1, x0:x1]
    if lab is not None:
        lab = lab[y0:y1, x0:x1]
    cnt = cnt - np.array([[[x0, y0]]], cnt.dtype)
    rect = ((cx - x0, cy - y0), (rw, rh), ang)
    cx, cy = cx - x0, cy - y0
    offset = (offset[0] + x0, offset[1] + y0)
    aspect = min(rw, rh) / max(rw, rh)
    face_area = cv2.contourArea(cnt)
    fill = face_area / max(1.0, rw * rh)
    # Pips: holes of the pip class inside this face.
    inner = cv2.erode(face, _ELLIPSE3)
    holes = cv2.bitwise_and(pip_mask, inner)
    # Glints on glossy pips leave bright specks inside them: close and fill. A set with faces of
    # more pips than a d6's packs them closer (Miwin's 8 in two columns of four: gaps of a few
    # pixels, which a close would bridge); its pips' specks are only filled.
    if dice.most <= 6:
        holes = cv2.morphologyEx(holes, cv2.MORPH_CLOSE, _ELLIPSE3)
    holes = _fill_holes(holes)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(holes, connectivity=8)
    pips = []
    for i in range(1, n):
        a = stats[i, cv2.CC_STAT_AREA]
        bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        rel = math.sqrt(a) / side
        if rel < 0.06 or rel > 0.35:
            continue
        if not round_part(a, bw, bh):
            continue
        pips.append((float(cents[i][0]), float(cents[i][1]), float(a), _blob_shape(labels, stats[i], i)))
    if not pips:
        return None
    deepest = _deepest(face)
    pips = _top_face_pips(pips, deepest)
    if not 1 <= len(pips) <= dice.most:
        return None
    outline = max(0.0, min(1.0, (aspect - 0.5) / 0.35)) * max(0.0, min(1.0, (fill - 0.5) / 0.3))
    spread = _spread_fit(pips, (cx, cy), side)
    doubts: list[Doubt] = []
    marked = False
    counted = not dice.known_layout(len(pips))
    die, cost = _die_of(lab, labels, pips, face, dice, config)
    if counted:
        # A value with no documented layout (Miwin's 7-9): read by counting (see _counted_fit).
        # A face found by a search of its own (a die's square round its pips) whose pips make a whole
        # face (one size, a pip's, about its middle) is evidence enough that it is a die: its outline,
        # which takes in side faces at a slant, counts less, as for a documented layout below.
        fit = _counted_fit(pips, face, side, config)
        conf = fit * ((outline * spread) ** 0.3 if found and fit >= 1.0 else outline * spread)
    else:
        areas = [p[2] for p in pips]
        mean_area = sum(areas) / len(areas)
        size_spread = math.sqrt(sum((a - mean_area) ** 2 for a in areas) / len(areas)) / max(1.0, mean_area)
        conf = max(0.2, 1.0 - max(0.0, size_spread - 0.25))
        layout = _layout_fit(_face_coords(cnt, rect, pips))
        # A two, three or four whose free layout places show no pip (see
        # :func:`_free_places_empty`) is no part of a three, five or six; one
        # whose free places show a pip-like mark may be (``Die.free_mark``).
        loose = 2 <= len(pips) <= 4 and layout < 1.0
        whole = loose and _free_places_empty(pips, pip_mask, side, ang, rect)
        marked = loose and not whole
        if len(pips) == 2 and whole and not (calibrated and known_side and not _two_apart(pips, known_side, config)):
            layout = max(layout, 0.9)  # a whole two, its outline aside
        if len(pips) >= 3:
            # The pips' own pattern, for a face whose outline takes in side faces.
            # Three pips on a line or four on a parallelogram that are not whole
            # are weak evidence (a six's column, part of a six): enough to read,
            # not to be sure.
            weight = 1.0 if len(pips) >= 5 or whole else 0.5
            if layout < weight:
                layout = max(layout, weight * _pattern_fit(np.array([[p[0], p[1]] for p in pips])))
        conf *= 0.5 + 0.5 * layout
        if calibrated and known_side and len(pips) >= 2 and _span(pips) > config.faces.pip_span * known_side:
            # Pips spread wider than a face (a four with a side face's two beside it): never sure.
            conf = min(conf, config.faces.not_sure_most)
            doubts.append(Doubt.LOOSE_FIT)
        if 2 <= len(pips) <= 4 and not whole and layout < 0.9:
            # Pips that may be part of a larger face (a pip in a place they
            # leave free, two rows of a six), in an outline they fit only
            # loosely: read, never sure. Two rows of a six whose third row
            # merged with the face's edge where it touched another die read as
            # a sure four at 0.81 (a mock tray); no photo's read changed its
            # values or its sureness.
            conf = min(conf, config.faces.not_sure_most)
            doubts.append(Doubt.LOOSE_FIT)
        # A face seen at an angle has an outline that takes in its side faces, so
        # it is neither square nor solid and its pips spread less than its side
        # would have them; two or more pips in a whole face's pattern are evidence
        # enough that it is a die, and the outline counts less.
        if len(pips) >= 2 and layout >= 0.9:
            conf *= (outline * spread) ** 0.3
        else:
            conf *= (outline ** 0.3 if found and len(pips) == 1 and die is not None and dice.carries(die, 1)
                     else outline) * spread
        if len(pips) == 1:
            conf *= _lone_pip_fit(pips[0], face, pip_mask)
    slant = _slant([statistics.fmean(float(p[3][k]) for p in pips) for k in range(3)])
    # The face's side from the widest circle inside its outline, which side
    # faces beside the top face (a close or oblique camera sees them) do not
    # widen as they lengthen the outline's box.
    inner = 2.0 * deepest[0] / config.faces.inscribed
    if not counted and slant < config.faces.side_slant:
        # Pips squashed flatter than 2:3: a face seen at a steep slant, which
        # may be a die's side face, not its top. Read, never sure.
        conf = min(conf, config.faces.not_sure_most)
        doubts.append(Doubt.SIDE_FACE)
    conf -= cost
    ox, oy = offset
    box = cv2.boxPoints(rect)
    corners = tuple((float(x + ox), float(y + oy)) for x, y in box)
    return Die(
        value=len(pips),
        center=(cx + ox, cy + oy),
        size=side,
        corners=corners,
        confidence=round(float(max(0.0, min(1.0, conf))), 3),
        pips=tuple((p[0] + ox, p[1] + oy) for p in pips),
        slant=round(slant, 3),
        doubts=tuple(doubts),
        free_mark=bool(marked),
        inner=round(min(inner, side), 1),
        die=die,
    )


def _span(pips) -> float:
    """The distance, px, between the farthest two of ``pips`` (``(x, y, ...)`` px)."""
    pts = np.array([p[:2] for p in pips], np.float64)
    return float(np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1)).max())


def _die_of(lab, labels, pips, face, dice: DiceSet, config: ReaderConfig) -> tuple[str | None, float]:
    """``(die, cost)``: the set's die whose pips have the colour of ``pips``, and
    what it costs the face's confidence: 0.4 for pips of a colour no die of the
    set has (die None). ``(None, 0.0)`` for a set whose dice do not differ by
    colour, or without the picture in Lab (``lab`` None)."""
    if not dice.by_colour or lab is None:
        return None, 0.0
    colour = pip_colour(lab, _pip_pixels(labels, pips), face, config)
    die = dice.die_of(colour) if colour else None
    return die, (0.4 if die is None else 0.0)


def _pip_pixels(labels: np.ndarray, pips) -> np.ndarray:
    """A bool mask of the pixels of ``pips`` (their components in ``labels``)."""
    ids = [labels[min(labels.shape[0] - 1, round(p[1])), min(labels.shape[1] - 1, round(p[0]))] for p in pips]
    return np.isin(labels, [k for k in ids if k])


def pip_colour(lab: np.ndarray, pip_pixels: np.ndarray, face: np.ndarray, config: ReaderConfig) -> str | None:
    """The colour name of a face's pips: ``"black"``, ``"blue"``, ``"red"`` or None (unclear).

    ``lab``: the face's picture in Lab (``H×W×3 uint8``); ``pip_pixels``: a
    bool mask of its pips' pixels; ``face``: the face mask (uint8, 0/255). The
    pips' cores (the 40% of their pixels farthest in colour from the face's
    body, not their blurred rims) are named by ``config.colours``
    (:class:`vision.config.ColourConfig`): dark and grey is black, a strong
    -b* blue, a strong +a* red; very dark (below half ``black_lightness``),
    neither blue nor red and within 1.6 times ``black_chroma`` is black too (a
    coloured light's cast on black pips: purple under a magenta light).
    """
    if not pip_pixels.any():
        return None
    lab = lab.astype(np.float32)
    body_pixels = (face > 0) & ~pip_pixels
    body = np.median(lab[body_pixels], axis=0) if body_pixels.any() else np.array([255.0, 128.0, 128.0])
    pix = lab[pip_pixels]
    far = np.linalg.norm(pix - body, axis=1)
    core = pix[far >= np.percentile(far, 60)]
    L, a, b = core.mean(axis=0) - np.array([0.0, 128.0, 128.0])
    c = config.colours
    if L < c.black_lightness and math.hypot(a, b) < c.black_chroma:
        return "black"
    if b < -c.pip_chroma and b < -abs(a):
        return "blue"
    if a > c.pip_chroma and a > abs(b):
        return "red"
    if L < c.black_lightness / 2 and math.hypot(a, b) < 1.6 * c.black_chroma:
        return "black"  # very dark, tinted by a coloured light to neither blue nor red (a purple cast)
    return None


def _counted_fit(pips, face: np.ndarray, side: float, config: ReaderConfig) -> float:
    """How well pips counted on a face of no documented layout make a face (0-1).

    ``pips``: ``(x, y, area, shape)`` in the pixels of ``face`` (uint8 mask);
    ``side``: the face's side, px. Nothing is matched to one layout (fenn.md:
    the layouts of Miwin's 7, 8 and 9 are not documented); what every face
    of a die shares is checked instead: pips of one size (within
    ``config.faces.counted_spread`` of the middle one: a merged or broken pip
    costs 0.35), of a pip's size for the face (about 0.08 of its side across:
    else 0.3), and point symmetry (their middle within
    ``config.faces.counted_off_centre`` of a side from the face's middle:
    else 0.5). Measured on mock Fenn scenes and renders (benchmarks/fenn_camera.py).
    """
    fit = 1.0
    areas = [p[2] for p in pips]
    med = float(np.median(areas))
    spread = config.faces.counted_spread
    if any(a > spread * med or a < 0.85 * med / spread for a in areas):
        fit -= 0.35
    expected = (0.08 * side) ** 2 * math.pi
    if not 0.35 * expected <= med <= 2.2 * expected:
        fit -= 0.3
    m = cv2.moments(face, binaryImage=True)
    if m["m00"]:
        mid = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
        off = float(np.hypot(*(np.mean([[p[0], p[1]] for p in pips], axis=0) - mid))) / side
        if off > config.faces.counted_off_centre:
            fit -= 0.5
    return max(0.0, fit)


def _lone_pip_fit(pip, face: np.ndarray, pip_mask: np.ndarray) -> float:
    """How much a lone pip looks like a one's (0-1).

    ``pip``: ``(x, y, area, shape)`` in the pixels of ``face`` (uint8 mask of
    the face) and ``pip_mask`` (uint8, 255 where the pips' brightness class
    is). A one's pip sits in a clean face: the ring from 1.6 to 3.2 pip radii
    round it lies on the face (at least 85% of it) and holds nothing of the
    pips' class (at most 1%). A dark mark on a cable's label, a key's symbol
    or a speck on a box's edge has lettering beside it or little face round
    it. Measured on the webcam photos: 98 of 101 ones read there met both,
    and 21 of 30 lone marks that were no die failed one.
    """
    x, y, a = pip[:3]
    r = math.sqrt(a / math.pi)
    ring = np.zeros_like(face)
    centre = (round(x), round(y))
    cv2.circle(ring, centre, max(2, round(3.2 * r)), 255, -1)
    cv2.circle(ring, centre, max(1, round(1.6 * r)), 0, -1)
    on_face = cv2.bitwise_and(ring, face)
    n_ring, n_face = cv2.countNonZero(ring), cv2.countNonZero(on_face)
    cover = n_face / max(1, n_ring)
    clutter = cv2.countNonZero(cv2.bitwise_and(on_face, pip_mask)) / max(1, n_face)
    fit = min(1.0, max(0.0, (cover - 0.7) / 0.15))
    fit *= min(1.0, max(0.0, 1.0 - (clutter - 0.01) * 20.0))
    return fit * _pip_solidity_fit(pip, face, pip_mask)


def _pip_solidity_fit(pip, face: np.ndarray, pip_mask: np.ndarray) -> float:
    """How much a lone pip's outline looks like a pip's (0-1): its solidity
    (area over its convex hull's area) of 0.9 or more gives 1, 0.8 or less 0.

    A pip is a filled disc, seen as an ellipse: convex. A key's symbol, an
    arrow or a letter is not. Measured on the webcam photos: the ones read
    there had a solidity of 0.94-1.0, the marks on keys 0.7-0.88. A pip of
    under 20 px is too coarse to tell, and gives 1.
    """
    x, y = round(pip[0]), round(pip[1])
    h, w = pip_mask.shape[:2]
    if pip[2] < 20 or not (0 <= x < w and 0 <= y < h):
        return 1.0
    _, labels = cv2.connectedComponents(cv2.bitwise_and(pip_mask, face), connectivity=8)
    k = labels[y, x]
    if k == 0:
        return 1.0
    cnts, _ = cv2.findContours((labels == k).view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(cnts, key=cv2.contourArea)
    solidity = cv2.contourArea(outline) / max(1.0, cv2.contourArea(cv2.convexHull(outline)))
    return min(1.0, max(0.0, (solidity - 0.8) / 0.1))


def _free_places_empty(pips, pip_mask: np.ndarray, side: float, angle: float, box=None) -> bool:
    """True when a two's, three's or four's pips have a whole face's pattern
    and the places they leave free hold no pip.

    ``pips``: the face's pips ``(x, y, area, shape)``, pixels of ``pip_mask``
    (uint8, 255 where the pips' brightness class is); ``side``: the face's
    side, px; ``angle``: its outline's turn, degrees (``cv2.minAreaRect``).
    Two or three pips must lie on a diagonal (a six's column lies along a
    side), and they leave the other diagonal's corners free (a five has pips
    there); two leave the centre free too (a three).
    Four pips must span a square of at least a quarter side (two rows of a
    six span half as much one way as the other), and they leave the middle
    of each side and the centre free (a six, a five). A place holds a pip when over a third of a
    pip-sized disc there is of the pips' class: a missed pip (glare, merged
    with a shadow) shows up so.

    ``box``: the face's outline box (``cv2.minAreaRect``, in ``pip_mask``'s
    pixels), or None. With it, two pips may also be a three's middle and
    one corner, its other corner missed (merged with the dark gap where two
    dice touch: a three read as a two, surely, on a mock-camera frame):
    the places one more pip spacing beyond each pip along their line must be
    free too where they lie inside the box. A two's own pips lie at the
    corners, so those places lie beyond its face.
    """
    pts = np.array([[p[0], p[1]] for p in pips], np.float64)
    r = max(1.5, 0.8 * math.sqrt(float(np.mean([p[2] for p in pips])) / math.pi))
    mid = pts.mean(axis=0)
    if len(pts) in (2, 3):
        d = pts - mid
        far = pts[np.argmax((d * d).sum(axis=1))] - mid
        turn = (math.degrees(math.atan2(far[1], far[0])) - angle) % 90.0
        if 2 * math.hypot(*far) < 0.35 * side or not 25.0 <= turn <= 65.0:
            return False
        free = [mid + (-far[1], far[0]), mid - (-far[1], far[0])]
        if len(pts) == 2:
            free.append(mid)  # a three's middle pip
            if box is not None:
                corners = cv2.boxPoints(box).reshape(-1, 1, 2)
                free += [q for q in (mid + 3 * far, mid - 3 * far)
                         if cv2.pointPolygonTest(corners, (float(q[0]), float(q[1])), False) >= 0]
    elif len(pts) == 4:
        quad = pts[np.argsort(np.arctan2(pts[:, 1] - mid[1], pts[:, 0] - mid[0]))]
        edges = [math.dist(quad[k], quad[(k + 1) % 4]) for k in range(4)]
        a, b = (edges[0] + edges[2]) / 2, (edges[1] + edges[3]) / 2
        if min(a, b) < 0.25 * side or min(a, b) < 0.7 * max(a, b):
            return False
        free = [(quad[k] + quad[(k + 1) % 4]) / 2 for k in range(4)] + [mid]
    else:
        return False
    h, w = pip_mask.shape[:2]
    disc = np.zeros((int(2 * r) + 3, int(2 * r) + 3), np.uint8)
    c = disc.shape[0] // 2
    cv2.circle(disc, (c, c), int(round(r)), 1, -1)
    for x, y in free:
        if not (r <= x < w - r and r <= y < h - r):
            return False  # the place is off the picture: nothing to tell
        x0, y0 = int(round(x)) - c, int(round(y)) - c
        patch = pip_mask[max(0, y0):y0 + disc.shape[0], max(0, x0):x0 + disc.shape[1]]
        if patch.shape != disc.shape:
            return False
        if np.count_nonzero(patch[disc > 0]) > np.count_nonzero(disc) / 3:
            return False
    return True


def _two_apart(pips, side: float, config: ReaderConfig) -> bool:
    """Whether two pips lie as far apart as a two's corners on a die of the calibrated ``side`` px: at
    least ``config.faces.two_apart`` of it. A three's middle and one corner, its other corner lost in
    the gap against another die, lie half as far apart (a widened mock tray read such a three as a
    sure two). Without a calibrated side the face's own outline is no measure (a mixed set's, a slanted
    die's), and the check is not made."""
    return math.dist(pips[0][:2], pips[1][:2]) >= config.faces.two_apart * side


def _spread_fit(pips, center, side) -> float:
    """How far the pips spread from their centre, against a die face (0-1).

    A lenient check that keeps dice seen at odd angles: standard pips sit
    about a third of a side from the face's centre (1: on the centre).
    """
    n = len(pips)
    if n == 1:
        off = math.hypot(pips[0][0] - center[0], pips[0][1] - center[1]) / side
        return float(max(0.0, 1.0 - max(0.0, off - 0.12) * 4))
    mx, my = sum(p[0] for p in pips) / n, sum(p[1] for p in pips) / n
    expect = 0.35 if n in (2, 3, 4) else 0.33
    outer = [d for d in (math.hypot(p[0] - mx, p[1] - my) / side for p in pips) if d > 0.1]
    if not outer:
        return 0.3
    err = abs(statistics.median(outer) - expect) / expect
    return float(max(0.2, 1.0 - max(0.0, err - 0.25) * 1.5))


def _face_coords(cnt: np.ndarray, rect, pips) -> np.ndarray:
    """Pip centres in the face's own frame: ``N×2``, the face being the unit
    square centred on 0.

    The face's outline is simplified to four corners when it has four (a face
    seen at an angle is a quadrilateral, not a square), else its
    minimum-area rectangle is used, and a perspective transform maps those
    corners to the unit square.
    """
    hull = cv2.convexHull(cnt)
    quad = cv2.approxPolyDP(hull, 0.06 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float32)
    if len(quad) != 4 or not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        quad = cv2.boxPoints(rect).astype(np.float32)
    # Order the corners around their centre so the map has no flip.
    mid = quad.mean(axis=0)
    quad = quad[np.argsort(np.arctan2(quad[:, 1] - mid[1], quad[:, 0] - mid[0]))]
    unit = np.float32([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    m = cv2.getPerspectiveTransform(quad, unit)
    pts = np.float32([[p[0], p[1]] for p in pips]).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, m).reshape(-1, 2).astype(np.float64)


def _pattern_fit(pts: np.ndarray) -> float:
    """How well pip centres ``N×2`` (pixels) form a die face's pattern, whatever the view (0-1).

    The pips alone are fitted, not the face's outline (which may include side
    faces): the points are whitened (an affine map to unit covariance, which
    undoes the foreshortening of a face seen at an angle), then the standard
    layout, whitened the same way, is turned to the best match. Three pips
    must lie evenly on a line; one or two always fit.
    """
    n = len(pts)
    if n <= 2:
        return 1.0
    p = np.asarray(pts, np.float64)
    p = p - p.mean(axis=0)
    if n == 3:
        _, _, vt = np.linalg.svd(p)
        t = p @ vt[0]
        off = p @ vt[1]
        order = np.argsort(t)
        length = float(t[order[-1]] - t[order[0]])
        if length <= 0:
            return 0.0
        resid = (abs(float(t[order[1]] - (t[order[0]] + t[order[-1]]) / 2)) + float(np.abs(off).max())) / length
        return float(max(0.0, 1.0 - max(0.0, resid - 0.08) * 5.0))
    q = _whiten(p)
    if q is None:
        return 0.0
    ref = _whitened_layout(n)  # A×n×2: every turn and mirror of the layout
    diff = q[None, :, None, :] - ref[:, None, :, :]
    d2 = (diff * diff).sum(axis=3)  # A×pips×points, squared distances
    nearest = d2.argmin(axis=2)
    rms = np.sqrt(d2.min(axis=2).mean(axis=1))
    # Each pip must have its own layout point: turns where two pips share one do not count.
    own = (np.diff(np.sort(nearest, axis=1), axis=1) != 0).all(axis=1)
    best = float(rms[own].min()) if own.any() else np.inf
    return float(max(0.0, 1.0 - max(0.0, best - 0.1) * 4.0))


_TURNS = np.linspace(0, 2 * np.pi, 48, endpoint=False)


@functools.lru_cache(maxsize=None)
def _whitened_layout(n: int) -> np.ndarray:
    """The whitened layout of ``n`` pips in 48 turns, and mirrored: ``96×n×2`` (computed once per ``n``)."""
    ref = np.array(PIP_LAYOUT[n], np.float64)
    ref = _whiten(ref - ref.mean(axis=0))
    rots = np.stack([np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]]) for a in _TURNS])
    return np.concatenate([ref @ rots, (ref * [1.0, -1.0]) @ rots])


def _whiten(p: np.ndarray):
    """Centred points ``N×2`` mapped to unit covariance, or None when they lie on a line."""
    cov = p.T @ p / len(p)
    w, v = np.linalg.eigh(cov)
    if w[0] <= 1e-6 * max(w[1], 1e-9):
        return None
    return p @ v @ np.diag(1.0 / np.sqrt(w)) @ v.T


def _layout_fit(uv: np.ndarray) -> float:
    """How well the pips match the standard layout for their count (0-1).

    ``uv``: pip centres in the face's frame (:func:`_face_coords`). The standard layout for
    their count, in either quarter turn, is fitted by least squares with a
    free pip spacing. A good fit has small residuals, a spacing of 0.18-0.36
    of the side (real dice put the outer pips about a quarter side from the
    centre) and its centre on the face's centre.
    """
    # Plain Python: at most six pips, where NumPy's per-call cost is most of the time.
    pts = [(float(u), float(v)) for u, v in uv]
    n = len(pts)
    if n == 1:
        off = math.hypot(*pts[0])
        return float(max(0.0, 1.0 - max(0.0, off - 0.12) * 4))
    if any(abs(c) > 0.55 for p in pts for c in p):
        return 0.0
    best = 0.0
    outward = sorted(range(n), key=lambda i: -math.hypot(*pts[i]))
    p = [pts[i] for i in outward]
    pmx, pmy = sum(x for x, _ in p) / n, sum(y for _, y in p) / n
    for turn in (False, True):
        ref = [(-y, x) if turn else (x, y) for x, y in PIP_LAYOUT[n]]
        # Match each pip, outermost first, to the nearest free layout point
        # (the layout points are far apart).
        free = list(range(n))
        r = []
        for u, v in p:
            j = min(free, key=lambda k: math.hypot(ref[k][0] * 0.27 - u, ref[k][1] * 0.27 - v))
            free.remove(j)
            r.append(ref[j])
        rmx, rmy = sum(x for x, _ in r) / n, sum(y for _, y in r) / n
        pc = [(x - pmx, y - pmy) for x, y in p]
        rc = [(x - rmx, y - rmy) for x, y in r]
        denom = sum(x * x + y * y for x, y in rc)
        spacing = sum(a * c + b * d for (a, b), (c, d) in zip(pc, rc)) / denom if denom > 0 else 0.0
        if spacing <= 0:
            continue
        resid = math.sqrt(sum((a - spacing * c) ** 2 + (b - spacing * d) ** 2
                              for (a, b), (c, d) in zip(pc, rc)) / n) / spacing
        fit = max(0.0, 1.0 - max(0.0, resid - 0.12) * 3.0)
        if not 0.18 <= spacing <= 0.36:
            fit *= 0.4
        fit *= max(0.0, 1.0 - max(0.0, math.hypot(pmx - rmx, pmy - rmy) - 0.1) * 4.0)
        best = max(best, fit)
    return float(best)
