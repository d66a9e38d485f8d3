"""The rolling area: find the dice tray, measure the dice, store both.

Calibration runs once per set-up (camera above the tray): :func:`find_tray`
finds the tray in a frame (or :func:`area_from_corners` takes the four corners
the players touch on the screen), :func:`measure_dice` reads the dice lying in
it for their size, and :func:`companion.calibration.save_area` keeps the result as JSON. From then
on the reader reads only inside the area (``read_throw(frame, area=area)``),
so dice set aside outside it are ignored.

Example::

    >>> from hardware.render import TrayScene
    >>> scene = TrayScene(seed=2)
    >>> area = find_tray(scene.frame([]))
    >>> area.contains((410, 308)), area.contains((20, 20))
    (True, False)
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

import cv2
import numpy as np

from .candidates import in_shade
from .config import DEFAULT
from .verdict import pip_span

__all__ = ["TrayArea", "CalibrationError", "find_tray", "area_from_corners", "measure_dice", "pips_side", "load_area",
           "calibrate", "CALIBRATION_FILE", "CONTROLS_FILE"]

#: The stored area's file name in the data folder.
CALIBRATION_FILE = "calibration.json"
#: The camera controls fixed at calibration (Pi camera), in the data folder.
CONTROLS_FILE = "camera_controls.json"


class CalibrationError(ValueError):
    """No tray found, corners that make no area, or a calibration file that cannot be read."""


@dataclass(frozen=True)
class TrayArea:
    """Where dice are read: ``polygon``, the tray's outline as ``(x, y)`` pixels
    of a frame of ``frame_size`` ``(width, height)``; ``die_size``, the die side
    in pixels (None until dice were measured)."""

    polygon: tuple[tuple[float, float], ...]
    frame_size: tuple[int, int]
    die_size: float | None = None

    def to_dict(self) -> dict:
        """JSON-ready form."""
        return {
            "polygon": [[round(x, 1), round(y, 1)] for x, y in self.polygon],
            "frame_size": list(self.frame_size),
            "die_size": None if self.die_size is None else round(self.die_size, 1),
        }

    @classmethod
    def from_dict(cls, d: dict) -> "TrayArea":
        """The inverse of :meth:`to_dict`; raises :class:`CalibrationError` on a bad form."""
        try:
            poly = tuple((float(x), float(y)) for x, y in d["polygon"])
            size = (int(d["frame_size"][0]), int(d["frame_size"][1]))
            die = d.get("die_size")
            die = None if die is None else float(die)
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise CalibrationError(f"not a tray area: {e!r}") from e
        if len(poly) < 3:
            raise CalibrationError("a tray area needs at least 3 corners")
        return cls(poly, size, die)

    def scaled(self, frame_size: tuple[int, int]) -> "TrayArea":
        """The same area for frames of another ``(width, height)``."""
        sx, sy = frame_size[0] / self.frame_size[0], frame_size[1] / self.frame_size[1]
        poly = tuple((x * sx, y * sy) for x, y in self.polygon)
        die = None if self.die_size is None else self.die_size * (sx + sy) / 2
        return TrayArea(poly, tuple(frame_size), die)

    def contains(self, point: tuple[float, float]) -> bool:
        """True when ``(x, y)`` pixels lies inside the area."""
        poly = np.asarray(self.polygon, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0


def find_tray(image: np.ndarray, *, min_share: float = 0.15) -> TrayArea:
    """Find the dice tray in a frame from above.

    ``image``: ``H×W×3 uint8 BGR``, the tray roughly in the middle. The
    picture is split into three colour clusters (k-means in Lab on a 160 px
    copy); the tray is the cluster region around the image centre, its holes
    (dice lying in it) filled, simplified to a convex outline. ``min_share``:
    the least share of the picture the tray may cover. Raises
    :class:`CalibrationError` when no such region is found (tray not in view,
    or the same colour as the table), or what is found is a strip across the
    whole picture (a table's plank).
    """
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.dtype != np.uint8:
        raise CalibrationError("calibration needs an H×W×3 uint8 BGR frame")
    grown = _grown_tray(image, min(min_share, DEFAULT.tray.least))
    if grown is not None and not _a_strip(grown):
        return grown
    h, w = image.shape[:2]
    s = 160 / max(h, w)
    small = cv2.resize(image, (max(8, round(w * s)), max(8, round(h * s))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(1)
    _, labels, _ = cv2.kmeans(lab, 3, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    labels = labels.reshape(small.shape[:2])
    sh, sw = labels.shape
    centre = labels[sh // 3: 2 * sh // 3, sw // 3: 2 * sw // 3]
    tray_label = int(np.bincount(centre.ravel(), minlength=3).argmax())
    mask = (labels == tray_label).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    n, comp = cv2.connectedComponents(mask)
    if n <= 1:
        raise CalibrationError("no tray found in the middle of the picture")
    region = (comp == _middle_part(comp, n)).astype(np.uint8) * 255
    cnts, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(cnts, key=cv2.contourArea))
    share = cv2.contourArea(hull) / float(sh * sw)
    if share < min_share:
        raise CalibrationError(f"the region in the middle covers {share:.0%} of the picture: no tray found")
    if share > 0.97:
        raise CalibrationError("the whole picture looks alike: no tray edge found (touch its corners instead)")
    poly = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True).reshape(-1, 2) / s
    area = TrayArea(tuple((float(x), float(y)) for x, y in poly), (w, h))
    if _a_strip(area):
        raise CalibrationError("what was found runs across the whole picture, no tray: touch its corners instead")
    return area


def _middle_part(comp: np.ndarray, n: int) -> int:
    """The label of the part covering most of the middle third of ``comp`` (``H×W`` int32 labels of
    ``n`` parts, 0 the background, as :func:`cv2.connectedComponents` gives them): the tray lies in the
    middle of the picture."""
    h, w = comp.shape
    counts = np.bincount(comp[h // 3: 2 * h // 3, w // 3: 2 * w // 3].ravel(), minlength=n)
    counts[0] = 0
    return int(counts.argmax())


def _a_strip(area: TrayArea) -> bool:
    """Whether ``area`` runs across the whole picture from one edge to the opposite one (within 1% of the
    frame) while under half the picture wide the other way: a table's plank or a runner, not a tray, which
    lies wholly in view (a render's wooden table, trays-00312: a plank grown from the middle was taken
    for the tray, and no die was read in it)."""
    w, h = area.frame_size
    p = np.asarray(area.polygon, np.float64)
    x0, y0 = p.min(axis=0)
    x1, y1 = p.max(axis=0)
    down = y0 <= 0.01 * h and y1 >= 0.99 * h and x1 - x0 < 0.5 * w
    across = x0 <= 0.01 * w and x1 >= 0.99 * w and y1 - y0 < 0.5 * h
    return bool(down or across)


def _grown_tray(image: np.ndarray, min_share: float) -> TrayArea | None:
    """The tray grown from the middle of the picture: the region reached from the middle through
    small steps of colour (a felt's light falls off gently; the tray's edge or wall is a step),
    within a wider bound of the middle's colour, its holes (dice) filled. Textured tables (grain,
    checks, stripes) are full of steps, so the region does not leak into them. None when the region
    is no tray: too small, nearly the whole picture, or not convex (a square or round tray is; a leak
    into the table is ragged, its hull's outline runs over the table; then :func:`find_tray` clusters
    the colours instead)."""
    cfg = DEFAULT.tray
    h, w = image.shape[:2]
    s = cfg.work / max(h, w)
    small = cv2.resize(image, (max(8, round(w * s)), max(8, round(h * s))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    sh, sw = lab.shape[:2]
    mid = lab[sh // 3: 2 * sh // 3, sw // 3: 2 * sw // 3].reshape(-1, 3).astype(np.float32)
    ref = np.median(mid, axis=0)
    dist = np.abs(lab.astype(np.float32) - ref) * (0.5, 1.0, 1.0)
    near = (dist.max(axis=2) <= cfg.bound).astype(np.uint8)
    # Seeds: pixels of the middle third with the middle's colour (not a die).
    seeds = np.argwhere(near[sh // 3: 2 * sh // 3, sw // 3: 2 * sw // 3] > 0)
    if len(seeds) == 0:
        return None
    # Edges the region may not cross: the tray's rim or wall, whatever its colours.
    light = lab[..., 0].astype(np.float32)
    edge = cv2.magnitude(cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3)) / 8
    region = np.zeros((sh + 2, sw + 2), np.uint8)
    region[1:-1, 1:-1] = edge > cfg.edge
    step = (cfg.step,) * 3
    flags = 4 | cv2.FLOODFILL_MASK_ONLY | (255 << 8)
    for y, x in seeds[:: max(1, len(seeds) // 25)]:
        y, x = int(y) + sh // 3, int(x) + sw // 3
        if region[y + 1, x + 1] == 0:
            cv2.floodFill(lab, region, (x, y), 0, step, step, flags)
    region = (region[1:-1, 1:-1] == 255).astype(np.uint8) * near * 255
    region = cv2.morphologyEx(region, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    n, comp = cv2.connectedComponents(region)
    if n <= 1:
        return None
    # The tray is what lies in the middle (seeds on a table of the felt's colour beside a round tray grow
    # parts there, at times larger than the felt: render trays-00596's dark wood grain).
    region = (comp == _middle_part(comp, n)).astype(np.uint8)
    # The felt's shaded margin along the walls (a step the growing stopped at, still of the felt's
    # colour) joins the region, as far as ``cfg.margin`` px of the work size.
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    for _ in range(cfg.margin):
        region = cv2.dilate(region, cross) & near
    hull = _solid_hull(region, min_share, cfg)
    if hull is None:
        return None
    # The felt in a wall's cast shadow (its colour dimmed, past a sharp step) joins it when the tray
    # stays a solid convex shape: a die lying in that shadow lies in the tray.
    shaded = in_shade(lab, ref, cfg.shade_chroma, cfg.step)
    light = lab[..., 0].astype(np.float32)
    wider = region
    for _ in range(cfg.shade_reach):
        # Outwards the shade only deepens (within a step): lighter again beyond it is the rim or the table.
        lit = cv2.dilate(np.where(wider > 0, light, 0.0), cross)
        wider = wider | (cv2.dilate(wider, cross) & shaded & (light <= lit + cfg.step))
    wider_hull = _solid_hull(wider | region, min_share, cfg) if (wider & ~region).any() else None
    if wider_hull is not None:
        # A shadow is a solid band: what the outline gains is nearly all shaded felt (a leak into a
        # table's grain of the felt's hue is patchy).
        gained = np.zeros_like(region)
        cv2.drawContours(gained, [wider_hull], -1, 1, -1)
        cv2.drawContours(gained, [hull], -1, 0, -1)
        if gained.sum() and float((gained & wider).sum()) / float(gained.sum()) >= cfg.shade_fill \
                and cv2.contourArea(wider_hull) <= cfg.widest * cv2.contourArea(hull):
            hull = wider_hull
    # The felt beyond a shadow's sharp edge (a step the growing stopped at, the felt's colour all the same
    # but darker, too deep in shade for the test above; not a lighter rim of the felt's hue): the part of
    # it and the region, where it is a tray's solid shape no more than ``cfg.widest`` times the outline grown.
    like = _like_felt(near & (light <= np.median(light[region > 0])), region, hull, min_share, cfg)
    if like is not None:
        hull = like
    poly = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
    mid_xy = poly.mean(axis=0)
    poly = (mid_xy + (poly - mid_xy) * (1 + cfg.grow)) / s  # out to the tray's edge (the filter's rim)
    return TrayArea(tuple((float(x), float(y)) for x, y in poly), (w, h))


def _like_felt(near: np.ndarray, region: np.ndarray, hull: np.ndarray, min_share: float, cfg) -> np.ndarray | None:
    """The convex outline of the part of ``near`` (``H×W uint8`` 0/1: the felt's colour) that most of
    ``region`` (the tray grown, 0/1) lies in, where it is a tray's (:func:`_solid_hull`), holds ``hull``
    (the outline so far, a contour of ``region``'s px) and is larger than it by at most ``cfg.widest``
    times its area; else None."""
    part = cv2.morphologyEx(near | region, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    n, comp = cv2.connectedComponents(part)
    if n <= 1:
        return None
    counts = np.bincount(comp[region > 0].ravel(), minlength=n)
    counts[0] = 0
    part = (comp == int(counts.argmax())).astype(np.uint8)
    like = _solid_hull(part, min_share, cfg)
    if like is None:
        return None
    area, was = cv2.contourArea(like), cv2.contourArea(hull)
    if not was < area <= cfg.widest * was:
        return None
    inside = np.zeros_like(region)
    cv2.drawContours(inside, [hull], -1, 1, -1)
    gained = np.zeros_like(region)
    cv2.drawContours(gained, [like], -1, 1, -1)
    if (inside & ~gained).sum() > 0.02 * inside.sum():
        return None  # it does not hold the outline grown
    # Like the shade's band, what it adds is nearly all the felt's colour (a leak into a grained table or
    # over a phone beside the tray is patchy).
    gained &= ~inside
    return like if float((gained & part).sum()) >= cfg.shade_fill * float(gained.sum()) else None


def _solid_hull(region: np.ndarray, min_share: float, cfg) -> np.ndarray | None:
    """The convex outline of the largest part of ``region`` (``H×W uint8`` 0/1) when it is a tray's: it
    covers ``min_share``-0.9 of the picture and runs along the region (``cfg.solid`` of it: dice against
    the wall leave gaps in it; a region leaked into the table leaves its hull's outline over the table);
    else None."""
    cnts, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cnts:
        return None
    hull = cv2.convexHull(max(cnts, key=cv2.contourArea))
    share = cv2.contourArea(hull) / float(region.shape[0] * region.shape[1])
    rim = np.zeros_like(region)
    cv2.drawContours(rim, [hull], -1, 1, 1)
    near_region = cv2.dilate(region, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    support = float((rim & near_region).sum()) / max(1.0, float(rim.sum()))
    return hull if min_share <= share <= 0.9 and support >= cfg.solid else None


def area_from_corners(corners, frame_size: tuple[int, int]) -> TrayArea:
    """A tray area from corners the players touched, ``(x, y)`` pixels of a frame
    of ``frame_size`` ``(width, height)``, in any order.

    Raises :class:`CalibrationError` for fewer than 3 points or an area
    smaller than 5% of the frame.
    """
    pts = np.asarray(list(corners), np.float32).reshape(-1, 2)
    if len(pts) < 3:
        raise CalibrationError("touch at least 3 corners of the tray")
    hull = cv2.convexHull(pts.reshape(-1, 1, 2)).reshape(-1, 2)
    if cv2.contourArea(hull) < 0.05 * frame_size[0] * frame_size[1]:
        raise CalibrationError("the corners touched enclose too small an area")
    return TrayArea(tuple((float(x), float(y)) for x, y in hull), tuple(frame_size))


def measure_dice(image: np.ndarray, area: TrayArea, config=DEFAULT) -> TrayArea:
    """Read the dice lying in the tray and store their size in the area.

    ``image``: ``H×W×3 uint8 BGR`` with a few dice in the tray; ``config`` a
    :class:`vision.config.ReaderConfig`. Returns a new :class:`TrayArea` with
    ``die_size`` (pixels, the median side of the dice read with confidence ≥ 0.8;
    where none is, those read surely at the side they agree with,
    :func:`searched_sizes`). Where the dice read by their outlines are more than
    ``config.tray.outline_over_pips`` times larger (or smaller) than their pips say
    (:func:`pips_side`), the outlines took in their shadows or glow (black dice
    under a lamp, translucent dice: renders of issue 38 measured 1.2-2 times the
    dice) or were read in part, and the dice are sized by their pips. Where a sure
    die shows a whole face (4-6 pips that agree with its outline), only the sides within
    that factor of the whole faces' are kept, like compared with like: outlines with
    outlines, or pips with pips where the dice are sized by their pips. Raises
    :class:`CalibrationError` when no die could be read well.
    """
    from .reader import read_throw

    r = read_throw(image, area=TrayArea(area.polygon, area.frame_size, None))
    sure = [d for d in r.dice if d.confidence >= 0.8]
    sizes = [d.size for d in sure]
    outlined = [(d.size, span) for d in sure if d.inner > 0 and (span := pips_side(d)) is not None]
    spans = [s for _o, s in outlined]
    most = config.tray.outline_over_pips
    by_pips = bool(spans) and not 1 / most <= float(np.median([o for o, _s in outlined])) / float(np.median(spans)) <= most
    if by_pips:
        sizes = spans
    # The whole faces' sides measured as ``sizes`` measures the dice: by their pips where those are believed.
    whole = [pips_side(d) if by_pips else d.size for d in sure if _whole_face(d, most)]
    if whole:
        ref = float(np.median(whole))
        sizes = [s for s in sizes if 1 / most <= s / ref <= most] or sizes
    sizes = sizes or searched_sizes(image, area, config)
    if not sizes:
        raise CalibrationError("no die read clearly: put a few dice in the tray, apart, and try again")
    return TrayArea(area.polygon, area.frame_size, float(np.median(sizes)))


def pips_side(die) -> float | None:
    """The side (px) a die's pips say it has: its farthest two pips' distance
    (:func:`vision.verdict.pip_span`) over that of a face's opposite corner pips in the layout
    (``PIP_LAYOUT``: pips a quarter side from the middle, the corners 0.707 side apart; every face
    of 2-6 pips has two). None for a one, or a die whose pips read are not its value's count."""
    if not 2 <= die.value <= 6 or len(die.pips) != die.value:
        return None
    return pip_span(die) / (2 * np.sqrt(2) * 0.25)


def _whole_face(die, most: float) -> bool:
    """Whether ``die`` shows 4-6 pips that agree with its side (:func:`_pips_agree`): such a face is
    no part of another die's (``PIP_LAYOUT``: two or three of a 4-6's pips make a 2 or 3 at about 0.6
    its side, as a 1 is any one pip; four or more make no smaller face), so its side is a die's.
    Renders trays-00872 and -00888 (issue 38): the pips of 4s and 6s read as 2s and 3s at half the
    side outnumbered the one or two dice read whole."""
    return 4 <= die.value <= 6 and _pips_agree(die, most)


def _pips_agree(die, most: float) -> bool:
    """Whether ``die``'s side is within ``most`` times (either way) the side its pips say (:func:`pips_side`)."""
    span = pips_side(die)
    return span is not None and 1 / most <= die.size / span <= most


def searched_sizes(image: np.ndarray, area: TrayArea, config=DEFAULT) -> list[float]:
    """The sides (px) of the dice read surely in ``area`` of ``image`` (``H×W×3 uint8 BGR``) at the die
    side they agree with, or ``[]``: the dice are read (classical passes only) at sides from
    ``config.tray.size_search`` of the tray's shorter side, a step of ``config.tray.size_step`` apart;
    a side is the dice's where at least ``config.tray.size_dice`` dice are read surely at it, the median
    of their own sides within ``config.tray.size_agree`` of it; the side with the most such dice whose
    pips agree with their size (:func:`pips_side`, within ``config.tray.outline_over_pips``) wins, then
    the side with the most dice, then the first (pips read as dice at a small side agree with no
    die's). For a tray whose dice no read measured at the size its parts suggest (a
    die's shadow or a translucent die's glow taken into its outline)."""
    from .dice import is_sure
    from .reader import read_throw

    least, most = config.tray.size_search
    short = float(min(cv2.minAreaRect(np.asarray(area.polygon, np.float32))[1]))
    bare = TrayArea(area.polygon, area.frame_size, None)
    for learned in (False, True):
        # The classical passes first; where they read too few dice surely at any side (black dice on black
        # felt showing ones, twos and threes, render trays-00957: a sure two or three at each side, and no
        # whole face), the classifier's second look too, which confirms the ones the classical passes read.
        best: list[float] = []
        best_rank = (0, 0, 0)
        side = least * short
        while 0 < side <= most * short:
            r = read_throw(image, area=bare, die_size=side, learned=learned, config=config)
            dice = [d for d in r.dice if is_sure(d, config.sure_confidence)]
            sizes = [d.size for d in dice]
            rank = (sum(_whole_face(d, config.tray.outline_over_pips) for d in dice),
                    sum(_pips_agree(d, config.tray.outline_over_pips) for d in dice), len(sizes))
            if ((len(sizes) >= config.tray.size_dice or rank[0]) and rank > best_rank
                    and abs(float(np.median(sizes)) / side - 1) <= config.tray.size_agree):
                best, best_rank = sizes, rank
            side *= config.tray.size_step
        if best:
            return best
    return best


def calibrate(image: np.ndarray, corners=None) -> tuple[TrayArea, str | None]:
    """The whole calibration from one frame: the tray (found, or from the
    ``corners`` touched, ``(x, y)`` pixels) and the size of the dice lying in it.

    ``image``: ``H×W×3 uint8 BGR``. Returns ``(area, warning)``: ``warning`` is
    None when the dice were measured, else why not (the area is still good;
    the reader then estimates the die size from each throw). Raises
    :class:`CalibrationError` when no tray is found or the corners make no area.
    """
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.dtype != np.uint8:
        raise CalibrationError("calibration needs an H×W×3 uint8 BGR frame")
    size = (image.shape[1], image.shape[0])
    area = area_from_corners(corners, size) if corners is not None else find_tray(image)
    try:
        return measure_dice(image, area), None
    except CalibrationError as e:
        return area, f"{e}; the dice size will be estimated from each throw"


def load_area(path: str) -> TrayArea | None:
    """The stored area, or None when there is no file.

    Raises :class:`CalibrationError` when the file exists but is not a valid
    area (the app then asks for calibration again, it does not guess).
    """
    if not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise CalibrationError(f"{path}: cannot read the calibration: {e}") from e
    return TrayArea.from_dict(data)
