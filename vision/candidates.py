"""Stage 1, find candidates: the table as a smooth background, the foreground
split into die faces (Otsu within each blob, touching faces cut along the
distance transform), and what is left unexplained or foreign afterwards.

Images are ``H×W×3 uint8 BGR`` (``lab``: the same in OpenCV's 8-bit CIELAB),
masks ``H×W uint8`` (0 or 255); positions are pixels ``(x, y)`` of the
working image.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from .config import DEFAULT, ReaderConfig
from .dice import Die, _side_slant_most


def _shrink(image: np.ndarray, scale: float) -> np.ndarray:
    """``image`` resized by ``scale``: halved with ``cv2.pyrDown`` (a smoothed,
    fast halving) while the scale allows, then a linear step for the rest."""
    h, w = image.shape[:2]
    size = (max(16, round(w * scale)), max(16, round(h * scale)))
    while image.shape[1] >= 2 * size[0] and image.shape[0] >= 2 * size[1]:
        image = cv2.pyrDown(image)
    if image.shape[1] == size[0] and image.shape[0] == size[1]:
        return image
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)


def _foreground(lab: np.ndarray, config: ReaderConfig) -> np.ndarray:
    """Pixels that differ from the smooth table background (uint8 0/255)."""
    h, w = lab.shape[:2]
    small = cv2.resize(lab, (max(8, w // 8), max(8, h // 8)), interpolation=cv2.INTER_AREA)
    k = max(3, (max(small.shape[:2]) // 6) | 1)
    bg = cv2.medianBlur(small, k)
    bg = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
    return (_lab_dist2(lab, bg, _CHROMA_TWICE) > config.min_contrast**2).astype(np.uint8) * 255


#: Weights of L, a and b in the colour distance that finds dice on a table:
#: a difference in colour counts twice one in lightness.
_CHROMA_TWICE = (1.0, 2.0, 2.0)


def _lab_dist2(lab: np.ndarray, ref, weights=(1.0, 1.0, 1.0)) -> np.ndarray:
    """Squared weighted colour distance of each pixel of ``lab`` (``H×W×3
    uint8`` Lab) from ``ref`` (an image of the same shape, or one Lab colour):
    ``H×W float32``, ``wL·ΔL² + wa·Δa² + wb·Δb²``."""
    if not isinstance(ref, np.ndarray) or ref.shape != lab.shape:
        ref = np.full_like(lab, np.asarray(ref).astype(np.uint8))
    diff = cv2.absdiff(lab, ref)
    return cv2.transform(cv2.multiply(diff, diff, dtype=cv2.CV_32F), np.float32([weights]))


def _unexplained_parts(mask: np.ndarray, dice: list[Die], offset) -> list[np.ndarray]:
    """The outer contours of ``mask`` (uint8 0/255) left once every die has
    explained its face grown by 60% (its side faces and shadow) and specks
    are opened away. ``offset``: ``(x, y)`` of the mask's corner in the
    dice's pixel coordinates."""
    rest = mask.copy()
    ox, oy = offset
    for d in dice:
        c = np.array([[(x - ox, y - oy) for x, y in d.corners]], np.float32)
        mid = c.mean(axis=1, keepdims=True)
        cv2.fillPoly(rest, (mid + (c - mid) * 1.6).round().astype(np.int32), 0)
    rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    cnts, _ = cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return list(cnts)


def _wholly_inside(d: Die, w: int, h: int) -> bool:
    """True when every corner of ``d``'s face lies inside a ``w×h`` px
    picture by more than 2% of its side."""
    m = 0.02 * d.size
    return all(m < x < w - 1 - m and m < y < h - 1 - m for x, y in d.corners)


def _cut_by_edge(comp: np.ndarray, offset, size) -> bool:
    """True when a blob's mask (uint8, its corner at ``offset``, ``(x, y)`` px)
    touches the edge of a picture of ``size`` ``(w, h)`` px."""
    if not cv2.countNonZero(comp):
        return False
    return _touches_edge(cv2.boundingRect(comp), offset, size)


def _touches_edge(rect, offset, size) -> bool:
    """True when ``rect`` (``(x, y, w, h)`` px, as ``cv2.boundingRect`` gives
    it, in pixels of a crop whose corner is at ``offset``) reaches within a
    pixel of the edge of a picture of ``size`` ``(w, h)`` px."""
    x, y, bw, bh = rect
    x, y = x + offset[0], y + offset[1]
    return x <= 1 or y <= 1 or x + bw >= size[0] - 1 or y + bh >= size[1] - 1


def _leftover(comp: np.ndarray, offset, dice: list[Die], side: float, edge=None, *,
              gray: np.ndarray | None = None, in_tray: bool = False, places: list | None = None,
              config: ReaderConfig = DEFAULT) -> tuple[int, int]:
    """What of a blob the dice read in it do not explain: ``(die-like parts, large parts)``.

    Each die explains its face grown by 60% (its side faces and shadow). A
    left-over part is die-like when it is about a face's area and compact; it
    is large when it covers more than 2.5 faces and is not a thin arc (the
    inner wall of a round tray is one). With ``edge`` (the image's ``(w, h)``,
    px), a die-like part touching the image's edge is not counted: it is no
    die wholly in the picture. With ``gray`` (the image's lightness, ``H×W
    uint8``, in the dice's pixels), a die-like part that is a read die's side
    face seen under a close camera (:func:`_side_face_part`) is not counted; when ``in_tray`` too (a
    read in a calibrated tray, its walls known), nor a part showing no pip (:func:`shows_pip`: every face of a d6 has one;
    renders: a die's cast shadow on the felt, the lit felt between shadows, a die's side face with its
    pips turned away). ``places``: a list the middle ``(x, y)`` px of each die-like part counted is
    appended to.
    """
    # Only the dice whose grown faces reach the blob can explain any of it.
    h, w = comp.shape[:2]
    near = []
    for d in dice:
        reach = 1.6 * max(math.dist(d.center, c) for c in d.corners)
        if (offset[0] - reach <= d.center[0] <= offset[0] + w + reach
                and offset[1] - reach <= d.center[1] <= offset[1] + h + reach):
            near.append(d)
    cnts = _unexplained_parts(comp, near, offset)
    face = side * side
    die_like = large = 0
    for c in cnts:
        a = cv2.contourArea(c)
        if a < 0.45 * face:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(c)
        aspect = min(rw, rh) / max(1.0, max(rw, rh))
        fill = a / max(1.0, rw * rh)
        if a <= 2.5 * face:
            if edge is not None and _touches_edge(cv2.boundingRect(c), offset, edge):
                continue
            at = c + np.array(offset, c.dtype)
            if aspect >= 0.5 and fill >= 0.55 and (gray is None or not (
                    _side_face_part(at, gray, near, side, config=config)
                    or (in_tray and not shows_pip(at, gray, side, config=config)))):
                die_like += 1
                if places is not None:
                    places.append(tuple(at.reshape(-1, 2).mean(axis=0).tolist()))
        else:
            large += aspect >= 0.35 and fill >= 0.4
    return die_like, large


def _side_face_part(cnt: np.ndarray, gray: np.ndarray, dice: list[Die], side: float, *,
                    config: ReaderConfig = DEFAULT) -> bool:
    """Whether a part of a blob no die explains is a read die's side face.

    ``cnt``: the part's contour (``N×1×2``, px ``(x, y)`` in ``gray``'s
    pixels); ``gray``: the image's lightness, ``H×W uint8``; ``side``: the die
    side, px. A close camera sees a die's side faces beyond the 60% margin a
    die explains round its face (on the table-phone photos, parts whose middle
    lay 0.9-1.4 sides from the die's centre, their pips squashed to 0.08-0.41
    and 0.005-0.013 of a face). The part is one when it lies within 1.6 sides of a
    die read seen square-on (slant at least ``config.faces.front_slant``) and its dark
    spots say so: at least one pip squashed as a side face's beside that die
    (:func:`_side_slant_most`, and flatter than ``config.faces.side_slant``) with its
    short axis within 45° of the line from that die (foreshortened towards
    it), and no spot of a top face's pip: less squashed, and at least
    ``config.faces.top_pip_least`` of a face. An unread die's top face beside a die
    seen square-on is seen about square-on too, its pips round.
    """
    pts = cnt.reshape(-1, 2).astype(np.float64)
    mid = pts.mean(axis=0)
    near = [d for d in dice if d.slant >= config.faces.front_slant and math.dist(d.center, mid) <= 1.6 * d.size]
    if not near:
        return False
    die = min(near, key=lambda d: math.dist(d.center, mid))
    toward = (mid - np.asarray(die.center)) / max(1e-6, math.dist(die.center, mid))
    x, y, bw, bh = cv2.boundingRect(cnt)
    h, w = gray.shape[:2]
    pad = int(0.3 * side) + 1
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
    # Dark spots as vision.pipfirst finds pips: a black-hat of about half a die.
    resp = cv2.morphologyEx(gray[y0:y1, x0:x1], cv2.MORPH_BLACKHAT, _rect(0.45 * side))
    inside = np.zeros(resp.shape, np.uint8)
    cv2.drawContours(inside, [(cnt - np.array([x0, y0], cnt.dtype)).astype(np.int32)], -1, 255, -1)
    dark = cv2.bitwise_and(cv2.threshold(resp, config.faces.pip_contrast, 255, cv2.THRESH_BINARY)[1], inside)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    flat = 0
    for i in range(1, n):
        a = stats[i, cv2.CC_STAT_AREA] / (side * side)
        if not 0.002 <= a <= 0.08:
            continue
        shape = _blob_shape(labels, stats[i], i)
        if _slant(shape) > min(config.faces.side_slant, _side_slant_most(die.slant, config=config)):
            if a >= config.faces.top_pip_least:
                return False  # a top face's pip: maybe an unread die
            continue
        xx, xy, yy = shape
        short = np.linalg.eigh(np.array([[xx, xy], [xy, yy]]))[1][:, 0]
        flat += abs(float(short @ toward)) >= math.cos(math.radians(45))
    return flat > 0


def _part_box(cnt: np.ndarray, shape, side: float):
    """``((x0, y0, x1, y1), inside)``: the box round a part's contour (``N×1×2``, ``(x, y)`` px) grown by
    0.3 ``side`` (px) and cut to a picture of ``shape`` ``(H, W, ...)``, and the part's mask in that box
    (``uint8``, 255 inside)."""
    x, y, bw, bh = cv2.boundingRect(cnt)
    h, w = shape[:2]
    pad = int(0.3 * side) + 1
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(inside, [(cnt - np.array([x0, y0], cnt.dtype)).astype(np.int32)], -1, 255, -1)
    return (x0, y0, x1, y1), inside


def shows_pip(cnt: np.ndarray, gray: np.ndarray, side: float, *, config: ReaderConfig = DEFAULT) -> bool:
    """Whether a part of a picture shows a pip-like spot: a spot of a black-hat or top-hat of 0.45 side
    over ``config.faces.pip_contrast`` covering ``config.faces.top_pip_least`` of a face or more, round
    (its box no flatter than 1:2 and at least half filled; the black-hat's strips along a narrow shadow
    are no spot). Every face of a d6 has a pip, so a part showing none is no die's top face.

    ``cnt``: the part's contour (``N×1×2``, ``(x, y)`` px of ``gray``); ``gray``: the picture's lightness
    (``H×W uint8``); ``side``: the die side, px."""
    (x0, y0, x1, y1), inside = _part_box(cnt, gray.shape, side)
    if not cv2.countNonZero(inside):
        return False
    least = config.faces.top_pip_least * side * side
    # Spots against the part itself: what lies beyond it painted its median, so its edge against the
    # lit felt makes none.
    part = gray[y0:y1, x0:x1].copy()
    part[inside == 0] = np.uint8(np.median(part[inside > 0]))
    for op in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT):
        resp = cv2.morphologyEx(part, op, _rect(0.45 * side))
        spots = cv2.bitwise_and(cv2.threshold(resp, config.faces.pip_contrast, 255, cv2.THRESH_BINARY)[1], inside)
        n, _, stats, _ = cv2.connectedComponentsWithStats(spots, connectivity=8)
        for i in range(1, n):
            bw, bh, a = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT], stats[i, cv2.CC_STAT_AREA]
            if a >= least and min(bw, bh) >= 0.5 * max(bw, bh) and a >= 0.5 * bw * bh:
                return True
    return False


def _foreign(lab: np.ndarray, dice: list[Die], side: float, config: ReaderConfig, inside: np.ndarray) -> int:
    """1 when something that is neither tray nor die covers over 2.5 faces of a tray picture.

    ``lab``: the tray's crop at working scale (``H×W×3 uint8`` Lab);
    ``inside``: ``H×W`` uint8, 255 inside the tray's area (the crop's corners
    beyond it show the table). The tray is the area's median colour (dice
    cover far less than half a tray); pixels in the area far from it that no
    die (grown by 60% for its sides and shadow) explains are something else:
    a hand, a cup, a phone.
    """
    step = max(1, int(math.sqrt(lab.shape[0] * lab.shape[1] / 16000)))
    pixels = lab[::step, ::step][inside[::step, ::step] > 0]
    if not len(pixels):
        return 0
    # Half the working scale is enough for things larger than 2.5 faces.
    lab = cv2.resize(lab, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_NEAREST)
    inside = cv2.resize(inside, (lab.shape[1], lab.shape[0]), interpolation=cv2.INTER_NEAREST)
    side = side / 2
    dice = [replace(d, center=(d.center[0] / 2, d.center[1] / 2),
                    corners=tuple((x / 2, y / 2) for x, y in d.corners)) for d in dice]
    felt = np.median(pixels, axis=0)
    dist2 = _lab_dist2(lab, felt, _CHROMA_TWICE)
    other = cv2.bitwise_and((dist2 > (2 * config.min_contrast) ** 2).astype(np.uint8) * 255, inside)
    # The felt in a wall's shadow, along the walls (as deep as a wall's shadow reaches), is tray too.
    walls = along_walls(inside, max(1, round(config.tray.shade_walls * side)))
    other[(walls > 0) & (in_shade(lab, felt, config.tray.shade_chroma) > 0)] = 0
    cnts = _unexplained_parts(other, dice, (0, 0))
    for c in cnts:
        a = cv2.contourArea(c)
        if a <= 2.5 * side * side:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(c)
        # Not a thin arc along the edge (the inner wall of a round tray).
        if a / max(1.0, rw * rh) >= 0.35 and min(rw, rh) / max(1.0, max(rw, rh)) >= 0.25:
            return 1
    return 0


def along_walls(tray: np.ndarray, reach: int) -> np.ndarray:
    """``H×W uint8``, 255 within ``reach`` px of the walls of ``tray`` (``H×W uint8``, nonzero inside the
    tray's area) and beyond them: where a wall's shadow may fall (the band left by eroding the area
    with a square of ``2 * reach + 1`` px, the picture's edge counting as a wall)."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * reach + 1, 2 * reach + 1))
    return cv2.bitwise_not(cv2.erode(tray, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0))


def in_shade(lab: np.ndarray, ref, chroma: float, lighter: float = 0.0) -> np.ndarray:
    """``H×W uint8``, 1 where ``lab`` (``H×W×3`` uint8 CIELAB, OpenCV's scale) is the colour ``ref`` (Lab)
    in shade, as a tray wall's shadow dims the felt: no lighter (by more than ``lighter``), its a and b
    the felt's dimmed in proportion to the lightness (a shadow scales the light), within ``chroma``."""
    f = lab.astype(np.float32)
    dim = np.clip(f[..., 0] / max(1.0, float(ref[0])), 0.0, 1.0)
    da = f[..., 1] - 128 - (float(ref[1]) - 128) * dim
    db = f[..., 2] - 128 - (float(ref[2]) - 128) * dim
    return ((f[..., 0] <= float(ref[0]) + lighter) & (np.hypot(da, db) <= chroma)).astype(np.uint8)


def _colour_pips(lab: np.ndarray, cands) -> list:
    """Candidates with pips told by colour: for each coloured face mask of
    ``cands`` (see :func:`_blob_faces`; chroma at least 20), the pips are the
    face's pixels far in colour (Lab, Otsu's threshold, at least 20) from the
    face's median colour. ``lab``: the blob's crop, ``H×W×3 uint8`` Lab."""
    out = []
    seen = []
    for faces, _ in cands:
        for face in faces:
            n = cv2.countNonZero(face)
            if any(abs(n - m) < 0.03 * n for m in seen):
                continue  # about the same face as one done
            seen.append(n)
            inner = face > 0
            med = np.median(lab[inner], axis=0)
            if math.hypot(float(med[1]) - 128.0, float(med[2]) - 128.0) < 20.0:
                continue  # a white, cream or wooden face: its pips differ in lightness
            dist = np.sqrt(_lab_dist2(lab, med))
            vals = np.clip(dist[inner], 0, 255).astype(np.uint8)
            if vals.size < 20:
                continue
            thr = max(20.0, _otsu(vals))
            pips = ((dist > thr) & inner).astype(np.uint8) * 255
            out.append(([face], pips))
    return out


def _ragged_hull(comp: np.ndarray) -> np.ndarray | None:
    """The filled convex hull of a blob mask (uint8 0/255) when the blob
    covers less than 85% of it (a face only partly told from the table), else None."""
    cnts, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cnts:
        return None
    hull = cv2.convexHull(np.vstack(cnts))
    if cv2.countNonZero(comp) >= 0.85 * cv2.contourArea(hull):
        return None
    out = np.zeros_like(comp)
    cv2.drawContours(out, [hull], -1, 255, thickness=cv2.FILLED)
    return out


def _fill_holes(mask: np.ndarray, max_hole: float | None = None) -> np.ndarray:
    """``mask`` (uint8 0/255) with its holes filled; with ``max_hole`` (px²),
    only holes up to that area (a tray's rim is a ring round the whole tray,
    and filling it would make the tray one blob)."""
    if max_hole is None:
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out = np.zeros_like(mask)
        cv2.drawContours(out, contours, -1, 255, thickness=cv2.FILLED)
        return out
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hier is None:
        return out
    holes = [c for c, h in zip(contours, hier[0]) if h[3] >= 0 and cv2.contourArea(c) <= max_hole]
    cv2.drawContours(out, holes, -1, 255, thickness=cv2.FILLED)
    return out


def _blob_faces(gray: np.ndarray, comp: np.ndarray, min_area: float, *, flipped: bool = False):
    """Candidate splits of one foreground blob into face masks and a pip mask.

    A die in a blob has up to four brightness levels (shadow, side faces, top
    face, pips), so three thresholds are tried: Otsu's over the blob, and
    Otsu's again within each of its two classes. For each, the face is the
    majority side and the pips the other; ``flipped`` swaps them (a dark die
    inside a generous blob of light halo is the minority). Returns a list of
    ``(face masks with holes filled, pip mask)``.
    """
    inside = comp > 0
    vals = gray[inside]
    if vals.size < 20:
        return []
    t1 = _otsu(vals)
    thresholds = [t1]
    for sub in (vals[vals > t1], vals[vals <= t1]):
        if sub.size >= 20:
            thresholds.append(_otsu(sub))
    out = []
    for thr in thresholds:
        above = cv2.threshold(gray, thr, 255, cv2.THRESH_BINARY)[1]
        bright = cv2.bitwise_and(above, comp)
        dark = cv2.bitwise_and(cv2.bitwise_not(above), comp)
        nb, nd = cv2.countNonZero(bright), cv2.countNonZero(dark)
        face_mask, pip_mask = (bright, dark) if (nb >= nd) != flipped else (dark, bright)
        # Each outer outline, filled, is one face mask with its holes filled.
        cnts, _ = cv2.findContours(face_mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        masks = []
        for c in cnts:
            if cv2.contourArea(c) >= min_area:
                m = np.zeros_like(face_mask)
                cv2.drawContours(m, [c], -1, 255, thickness=cv2.FILLED)
                masks.append(m)
        if masks:
            out.append((masks, pip_mask))
    return out


def hat_pips(gray: np.ndarray, comp: np.ndarray, side: float, config: ReaderConfig = DEFAULT) -> list[np.ndarray]:
    """Pip masks of a blob by what stands out locally: ``[light pips, dark pips]``, each ``H×W uint8`` 0/255
    within ``comp`` (the blob, ``H×W uint8``) of ``gray`` (``H×W uint8``, its crop), for dice of ``side`` px.

    Each is a top-hat (light pips) or black-hat (dark pips) with a disc ``config.faces.hat_disc`` side across
    (wider than a pip, about 0.2 side; narrower than the face), over ``config.faces.hat_level`` of its
    strongest response in the blob (the 99.5th percentile: the pips'), and at least
    ``config.faces.pip_contrast`` / 4. A glossy die's sheen, broad and lighter than the rest of its face,
    takes in its light pips at any one level of the blob; it stands out from nothing a disc's width round
    it, and its pips do. Beyond the blob counts as lighter (darker) than anything in it, so the blob's own
    edge against the felt does not stand out."""
    inside = comp > 0
    if not inside.any():
        return []
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, round(config.faces.hat_disc * side)) | 1,) * 2)
    out = []
    for op, beyond in ((cv2.MORPH_TOPHAT, 255), (cv2.MORPH_BLACKHAT, 0)):
        # Beyond the blob the picture is as light (dark) as can be: its edge against the felt stands out from
        # nothing, only what stands out within it.
        resp = cv2.morphologyEx(np.where(inside, gray, np.uint8(beyond)), op, disc)
        level = max(config.faces.hat_level * float(np.percentile(resp[inside], 99.5)), config.faces.pip_contrast / 4)
        out.append(_glints_cut(((resp > level) & inside).astype(np.uint8) * 255, config.faces.glint_cut * side))
    return out


def round_part(area: float, width: int, height: int) -> bool:
    """Whether a part of a pip mask (``area`` px² in a box ``width`` × ``height`` px) may be a round pip:
    its box and its fill of the box both at least 0.45 (what the face stage takes as a pip,
    :func:`vision.face._read_face`)."""
    return min(width, height) / max(width, height) >= 0.45 and area / float(width * height) >= 0.45


def _glints_cut(holes: np.ndarray, width: float) -> np.ndarray:
    """``holes`` (``H×W uint8`` 0/255, a face's pip-class parts) with each part that is no round pip (its box
    or its fill under 0.45 of a square's) opened with a disc ``width`` px across: a glint on a glossy die is as
    light as its pips, and a streak of it along the face runs into a pip, which then is no round blob and was
    lost (red and black dice of the renders, their twos and fours read as ones and twos). The streak, narrower
    than the disc, goes; a round pip, wider, stays. Round parts are left as they are."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=8)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, round(width)) | 1,) * 2)
    out = holes
    for i in range(1, n):
        x, y, bw, bh, a = stats[i]
        if round_part(a, bw, bh):
            continue
        if out is holes:
            out = holes.copy()
        part = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8) * 255
        opened = cv2.morphologyEx(cv2.copyMakeBorder(part, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0),
                                  cv2.MORPH_OPEN, disc)[2:-2, 2:-2]
        region = out[y:y + bh, x:x + bw]
        region[part > 0] = opened[part > 0]
    return out


def _otsu(vals: np.ndarray) -> float:
    thr, _ = cv2.threshold(vals.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(thr)


def _die_side(masks: list[np.ndarray]) -> float | None:
    """The typical die side, pixels: the area-weighted median side of the
    square, solid faces (specks of wood grain or felt are many but small:
    weighting by area keeps them from setting the size)."""
    sides = []
    for m in masks:
        cnts, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not cnts:
            continue
        c = max(cnts, key=cv2.contourArea)
        (_, _), (rw, rh), _ = cv2.minAreaRect(c)
        if min(rw, rh) < 4:
            continue
        if min(rw, rh) / max(rw, rh) > 0.8 and cv2.contourArea(c) / (rw * rh) > 0.8:
            sides.append(math.sqrt(rw * rh))
    if len(sides) < 2:
        return None  # one square speck says nothing of the dice
    sides = np.sort(np.array(sides))
    weight = np.cumsum(sides * sides)
    return float(sides[np.searchsorted(weight, weight[-1] / 2)])


def _split_touching(mask: np.ndarray, side: float | None) -> list[np.ndarray]:
    """Split a mask of touching faces into single faces.

    With a known die side, a mask covering k ≥ 2 faces' area is cut into k
    parts by k-means on its pixel positions (adjacent squares come apart at
    their common edge); otherwise it is returned whole.
    """
    if side is None:
        return [mask]
    area = int(np.count_nonzero(mask))
    k = int(round(area / (side * side * 0.95)))
    if k < 2:
        return [mask]
    k = min(k, 12)
    ys, xs = np.nonzero(mask)
    pts = np.column_stack([xs, ys]).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5)
    # Cluster a sample of the pixels, then give every pixel its nearest centre.
    sample = pts[:: max(1, len(pts) // 1500)]
    cv2.setRNGSeed(k)  # the same image always reads the same (an engineer replaying frames expects it)
    _, _, centres = cv2.kmeans(sample, k, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    # Nearest centre: |p - c|² = |p|² - 2 p·c + |c|², and |p|² is the same for every centre.
    lab = np.argmin((centres * centres).sum(axis=1)[None, :] - 2.0 * (pts @ centres.T), axis=1)
    parts = []
    for j in range(k):
        m = np.zeros_like(mask)
        sel = lab == j
        m[ys[sel], xs[sel]] = 255
        m = cv2.morphologyEx(m, cv2.MORPH_OPEN, _ELLIPSE3)
        if np.count_nonzero(m) >= side * side * 0.3:
            parts.append(m)
    return parts or [mask]


_ELLIPSE3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))


def _slant(shape) -> float:
    """How square-on a pip of second moments ``shape`` (``xx, xy, yy``, see
    :func:`_blob_shape`) is seen, 0-1: its short axis over its long axis."""
    xx, xy, yy = (float(c) for c in shape)
    # The eigenvalues of the symmetric 2×2 matrix [[xx, xy], [xy, yy]].
    mean, half = (xx + yy) / 2, math.hypot((xx - yy) / 2, xy)
    lo, hi = mean - half, mean + half
    return math.sqrt(max(lo, 0.0) / hi)


def _blob_shape(labels: np.ndarray, stat, i: int) -> np.ndarray:
    """Blob ``i``'s shape: its second moments scaled to trace 2 (a disc gives
    ``[1, 0, 1]``: xx, xy, yy), from ``labels`` and its ``stat`` row."""
    x, y, w, h = stat[:4]
    m = cv2.moments((labels[y:y + h, x:x + w] == i).view(np.uint8), True)
    a = max(m["m00"], 1.0)
    c = np.array([m["mu20"] / a, m["mu11"] / a, m["mu02"] / a]) + 1.0 / 12
    return c * (2.0 / (c[0] + c[2]))


def _deepest(face: np.ndarray) -> tuple[float, tuple[int, int]]:
    """The deepest point of a face mask (``H×W uint8`` 0/255): ``(its
    distance to the mask's edge, px; its position (x, y), px)``, the peak of
    the distance transform. Twice that distance is the widest circle inside."""
    _, peak, _, at = cv2.minMaxLoc(cv2.distanceTransform(face, cv2.DIST_L2, 5))
    return float(peak), at



def _rect(size: float) -> np.ndarray:
    """A square structuring element of about ``size`` px (odd, at least 3)."""
    k = max(3, int(round(size)) | 1)
    return cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
