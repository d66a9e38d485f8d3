"""Stage 4, choose among readings: every candidate face is read in several
ways (lightness, colour, flipped, split); the readings that explain the most
without contradicting each other are kept, doubted where rivals disagree.
Dice from pips (:mod:`vision.pipfirst`, stage 3) join here.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from .candidates import (
    _ELLIPSE3,
    _blob_faces,
    _colour_pips,
    _cut_by_edge,
    _die_side,
    _fill_holes,
    _foreground,
    _leftover,
    _ragged_hull,
    _split_touching,
    _wholly_inside,
    along_walls,
    hat_pips,
    in_shade,
)
from .config import DEFAULT, ReaderConfig
from .dice import (
    BY_COLOUR,
    RIVAL_READ,
    Die,
    _read_die_side,
    _read_size,
    _side_slant_most,
)
from .diceset import D6, DiceSet
from .face import _read_face
from .pipfirst import add_pip_dice, pip_dice, pip_scale


class Unexplained(int):
    """How many die-like things no die read explains (an ``int``), with ``places``: the middles ``(x, y)``
    (px of the working image) of those that are parts of the picture; the rest (readings left out in
    doubt) have no place. A die found later at a place explains that part (see
    :func:`vision.reader.read_throw`)."""

    places: tuple = ()

    def __new__(cls, count: int, places=()):
        obj = super().__new__(cls, count)
        obj.places = tuple(places)
        return obj


def _read_work(img: np.ndarray, config: ReaderConfig, die_side: float | None = None, edge: bool = False, *,
               calibrated: bool = False, expect: int | None = None, dice_set: DiceSet = D6, walls=None, beyond=None):
    """Dice in a working-scale image: ``(dice, die-like parts unexplained (and
    readings left out in doubt), large parts unexplained, die side px, the
    image in Lab)``. ``edge``: the
    image's edge is the picture's, and die-like parts cut by it are not
    counted as unexplained. ``calibrated``: ``die_side`` comes from a
    calibration of the tray. ``expect``: the dice known to be in the image
    (a calibrated read short of them looks for dice by their pips; with it,
    a reading left out at the picture's edge leaves the read sure, for the
    count tells whether a die was lost). ``dice_set``: the dice set the face
    stage reads (:mod:`vision.diceset`; standard d6). ``walls``: ``H×W uint8``, nonzero along a tray's
    walls, where the felt in their shadow (the image's median colour dimmed) is felt, not a thing. ``beyond``:
    ``H×W uint8``, nonzero beyond the tray's outline found (dice are read out to the walls there): a part lying
    mostly there that is no die is the wall or the rim, neither unexplained nor foreign."""
    h, w = img.shape[:2]
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    gray = lab[..., 0]
    fg = _foreground(lab, config)
    if walls is not None:
        felt = np.median(lab[::4, ::4].reshape(-1, 3), axis=0)
        fg[(walls > 0) & (in_shade(lab, felt, config.tray.shade_chroma) > 0)] = 0
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, _ELLIPSE3)
    long_side = max(h, w)
    min_area = (config.min_die * long_side) ** 2
    max_area = (config.max_die * long_side) ** 2 * 6
    if die_side:
        min_area = max(min_area, (0.5 * die_side) ** 2)
    fg = _fill_holes(fg, 4 * die_side**2 if die_side else (config.max_die * long_side) ** 2)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    # Pass 1: for every blob, candidate splits into faces and pips.
    blobs = []
    huge = 0
    parts = [(labels, i, stats[i]) for i in range(1, n)]
    for lbl, i, (x, y, bw, bh, area) in parts:
        if area > max_area or (die_side and area > 12 * die_side * die_side):
            if lbl is labels and _mostly_beyond(labels == i, beyond):
                # The wall or rim beyond the outline found, and what touches it inside (dice against the
                # wall, render trays-00952: two touching dice joined to the rim's band): the parts within
                # the outline are read on their own.
                parts += _within(labels == i, beyond, die_side)
                continue
            # Far too big for dice: a hand, an arm, a box; not the wall or rim beyond the outline found, nor
            # its shade within (a piece of it too big for a die, as before the pieces were read), nor a wall
            # within an outline found out to the rim (render trays-00962: light walls round tan felt).
            huge += lbl is labels and not _along_outline(labels == i, beyond, die_side, config)
            continue
        if area < min_area:
            continue
        pad = 2
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(w, x + bw + pad), min(h, y + bh + pad)
        comp = (lbl[y0:y1, x0:x1] == i).astype(np.uint8) * 255
        cands = _blob_faces(gray[y0:y1, x0:x1], comp, min_area)
        blobs.append(((x0, y0), cands, comp, gray[y0:y1, x0:x1], lab[y0:y1, x0:x1]))
    # Pass 2: the die size, from faces that look like one square die.
    side = die_side if die_side else _die_side([f for _, cands, _, _, _ in blobs for faces, _ in cands for f in faces])
    # Pass 3: read every candidate split of every blob, and read it other
    # ways while no reading is sure (see _read_blob).
    reads = [_read_blob(blob, side, min_area, config, long_side, die_side, calibrated, dice_set) for blob in blobs]
    # Pass 4: the die size again, from the surest multi-pip reads (a glint in
    # one pip can make the pip itself look like a die showing 1), and only
    # dice of about that size are kept.
    measured = bool(die_side)
    if not die_side:
        read_side = _read_die_side(d for per in reads for got in per for d in got)
        if read_side:
            side, measured = read_side, True
    dice: list[Die] = []
    doubted = 0
    for per, (offset, _, comp, _, _) in zip(reads, blobs):
        # Every candidate split may explain part of the blob (a white die and a
        # red die touching come apart at different thresholds): take the
        # surest dice first, and no two in the same place.
        pool = sorted((d for got in per for d in got), key=lambda d: -d.confidence)
        best: list[Die] = []
        for d in pool:
            if side and not 0.6 * side <= d.size <= 1.5 * side:
                continue
            if any(_same_place(d, b) for b in best):
                continue
            best.append(d)
        best = _doubt_rivals(best, pool, config.sure_confidence)
        if edge and side and best and cv2.countNonZero(comp) > 3 * side * side and _cut_by_edge(comp, offset, (w, h)):
            # Something larger than a die and cut by the picture's edge (a
            # laptop, a box): a key with a symbol looks like a one. Only dice
            # of two pips or more read surely count in it. When anything else
            # was read there the read is not sure, unless the number of dice
            # due is known (the count then tells whether a die was lost).
            kept = [d for d in best if d.value > 1 and d.confidence >= config.sure_confidence]
            doubted += len(kept) < len(best) and expect is None
            best = kept
        dice.extend(best)
    # Pass 5: dice whose faces did not stand out from the table (a wooden
    # die on wood, a die in the shadow of the tray's wall), found from their
    # pips alone. After a calibration, only while the read is in doubt (it
    # costs time, and a calibrated tray's dice mostly stand out whole).

    if not calibrated:
        pip_side = pip_scale(gray, dice, long_side, config=config)
        if pip_side:
            dice = add_pip_dice(dice, pip_dice(gray, dice, pip_side, config=config), config=config)
    if edge:
        # A die not wholly in the picture is no part of the throw read, and a
        # mark on something the edge cuts (a laptop's key) is no die: a die
        # read unsurely at the edge is left out, and the read is not sure
        # unless the number of dice due is known (as above).
        cut = [d for d in dice if d.confidence < config.sure_confidence and not _wholly_inside(d, w, h)]
        dice = [d for d in dice if d not in cut]
        doubted += bool(cut) and expect is None
    # A die has one top face: its side faces read are left out. The read is
    # not sure (a view that steep may hide more) unless each is plainly a
    # side face of a top face seen square-on (see _side_faces).
    sides = _side_faces(dice, config.sure, config=config)
    plainly = _side_faces(dice, config.sure, plainly=True, config=config)
    dice = [d for d in dice if d not in sides]
    doubted += any(e not in plainly for e in sides)
    if not measured:
        # Pass 4 once more, over every die read: where no face stood out whole
        # (wood on wood), pass 2's guess is a pip's or the grain's size, and
        # the dice found by their pips tell the die's.
        side = _read_die_side(dice) or side

    def leftovers(dice):
        unexplained, foreign, places = doubted, huge, []
        # Where no die size was measured (one die read, or none surely),
        # what is die-sized is judged by the dice read: each by the circle
        # inside its face where its box took in side faces (a camera at a
        # slant). Else nothing was judged, and a second die whose outline
        # ran into its side faces went unread while the read was sure (a
        # webcam photo).
        at = side or _read_size(dice)
        if at:
            for offset, _, comp, _, _ in blobs:
                if _mostly_beyond(comp > 0, beyond, offset):
                    continue
                die_like, large = _leftover(comp, offset, dice, at, (w, h) if edge else None, gray=gray,
                                            in_tray=walls is not None, places=places, config=config)
                unexplained += die_like
                foreign += large
        return Unexplained(unexplained, places), foreign

    def by_pips(dice):
        return add_pip_dice(dice, pip_dice(gray, dice, die_side, same_kind=True, calibrated=True, config=config),
                            config=config)

    doubt = (not dice or any(d.confidence < config.sure_confidence for d in dice)
             or (expect is not None and len(dice) != expect))
    if calibrated and doubt:
        dice = by_pips(dice)
    unexplained, foreign = leftovers(dice)
    if calibrated and unexplained and not doubt:
        dice = by_pips(dice)
        unexplained, foreign = leftovers(dice)
    return dice, unexplained, foreign, side, lab


def _along_outline(part: np.ndarray, beyond, side: float | None, config: ReaderConfig) -> bool:
    """Whether ``part`` (``H×W`` bool, a blob of the working image) lies nearly all (``config.tray.on_wall``
    of it) within ``config.tray.wall_band`` die sides (``side`` px) of the tray's outline found or beyond it
    (``beyond``, ``H×W uint8``, nonzero beyond the outline; None: no tray): a tray's wall or rim, where the
    outline was found out to the rim. A hand or a cup reaches farther in."""
    if beyond is None or not side:
        return False
    band = along_walls(255 - beyond, max(1, round(config.tray.wall_band * side)))
    return int(np.count_nonzero(part & (band > 0))) >= config.tray.on_wall * int(np.count_nonzero(part))


def _within(part: np.ndarray, beyond: np.ndarray, side: float | None) -> list:
    """The pieces of ``part`` (``H×W`` bool, a blob of the working image mostly beyond the tray's outline
    found) that lie within the outline (``beyond``, ``H×W uint8``, zero there), parted from each other and
    from thin links by an opening a tenth of a die ``side`` px wide: ``[(labels, label, stats), ...]``
    as :func:`cv2.connectedComponentsWithStats` gives them (one ``labels`` image for all)."""
    inner = (part & (beyond == 0)).astype(np.uint8)
    k = max(3, round(0.1 * side) | 1) if side else 3
    inner = cv2.morphologyEx(inner, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, lbl, stats, _ = cv2.connectedComponentsWithStats(inner, connectivity=8)
    return [(lbl, j, stats[j]) for j in range(1, n)]


def _mostly_beyond(part: np.ndarray, beyond, offset=(0, 0)) -> bool:
    """Whether at least half of ``part`` (``h×w`` bool, its corner at ``offset`` ``(x, y)`` px of the working
    image) lies where ``beyond`` (``H×W uint8`` or None) is nonzero."""
    if beyond is None:
        return False
    x, y = offset
    h, w = part.shape
    return 2 * int(np.count_nonzero(part & (beyond[y:y + h, x:x + w] > 0))) >= int(np.count_nonzero(part))


def _read_blob(blob, side, min_area, config: ReaderConfig, long_side: int, die_side, calibrated: bool,
               dice_set: DiceSet = D6):
    """Every reading of one blob: a list (one per candidate split) of dice lists.

    ``blob``: ``(offset, candidates, mask, grey crop, Lab crop)`` from pass 1
    of :func:`_read_work`. The candidates are read first; while no reading is
    one the reader could be sure of, the blob is read again three more ways:
    with face and pips swapped (a dark die in a light halo), over its whole
    convex hull (a light die on a light table, not after a calibration), and
    with pips told by colour (red pips on a blue die, not after a calibration).
    """
    offset, cands, comp, gray_blob, lab_blob = blob
    known = bool(die_side)
    per = _read_candidates(cands, offset, side, config, long_side, known, dice_set, lab_blob, calibrated)

    def unsure():
        return not any(d.confidence >= config.sure_confidence for got in per for d in got)

    # Only a blob about a die's size and a halo (not a speck, not the tray's
    # wall) may hide a die of the minority class. A face of the minority
    # class showing one pip is as likely a dark patch round a speck (a label,
    # a shadow).
    area = np.count_nonzero(comp)
    fits = side is None or (area >= 0.8 * side * side and (not known or area <= 4 * side * side))
    if fits and unsure():
        flipped = _blob_faces(gray_blob, comp, min_area, flipped=True)
        swapped = _read_candidates(flipped, offset, side, config, long_side, known, dice_set, lab_blob, calibrated)
        per += [[d for d in got if d.value > 1] for got in swapped]
    if calibrated and side and 0.5 * side * side <= area <= 4 * side * side and config.faces.hat_level > 0 and unsure():
        # A glossy die's sheen is as light as its pips over part of its face, so no level of the blob parts
        # them: in a blob of half to four dice' area, its pips are read again as what stands out from the face
        # round them (a top-hat or black-hat of a disc wider than a pip), in the candidates' faces and in the
        # blob's whole outline. A pip lost in the sheen leaves a smaller face (a three's corners are a two):
        # read so, never sure alone; the classifier may confirm it (``vision.learned._rejudge``).
        faces = [masks for masks, _ in cands] + [[_fill_holes(comp)]]
        # Only faces read surely so (pips of one size in a face's pattern) are taken: a side face's dash and a
        # pip, read loosely as a two, would stand in the way of the classifier's search there.
        # A five or six read so whole is no smaller face with pips lost (``config.faces.hat_whole``).
        most = config.faces.hat_most
        per += [[d if d.value >= config.faces.hat_whole else replace(d, confidence=min(d.confidence, most))
                 for d in got if d.value > 1 and d.confidence >= config.sure_confidence and not d.doubts]
                for got in _read_candidates([(masks, pips) for pips in hat_pips(gray_blob, comp, side, config)
                                             for masks in faces], offset, side, config, long_side, known,
                                            dice_set, lab_blob, calibrated)]
    # A calibrated tray was measured with its dice standing out whole, so its
    # ragged specks are not re-read.
    hull = None if calibrated else _ragged_hull(comp)
    die_sized = hull is not None and (side is None or 0.6 * side * side <= cv2.countNonZero(hull) <= 2.5 * side * side)
    if die_sized and unsure():
        per += _read_candidates(_blob_faces(gray_blob, hull, min_area), offset, side, config, long_side, known,
                                dice_set, lab_blob, calibrated)
    if not calibrated and unsure():
        # Weaker evidence than lightness: read, never sure, never a lone pip.
        per += [[replace(d, confidence=min(d.confidence, 0.75), doubts=(BY_COLOUR,)) for d in got if d.value > 1]
                for got in _read_candidates(_colour_pips(lab_blob, cands), offset, side, config, long_side, False,
                                            dice_set, lab_blob)]
    return per


def _read_candidates(cands, offset, side, config: ReaderConfig, long_side: int, known: bool,
                     dice_set: DiceSet = D6, lab=None, calibrated: bool = False) -> list[list[Die]]:
    """The dice read in each candidate split of a blob (see :func:`_blob_faces`);
    ``known``: ``side`` is the calibrated die side (faces far from it are not read);
    ``calibrated``: it was measured at calibration (not estimated from the dice read).
    ``dice_set`` and ``lab`` (the blob's Lab crop) as for :func:`vision.face._read_face`."""
    per = []
    for faces, pip_mask in cands:
        got = []
        for face in faces:
            for part in _split_touching(face, side):
                d = _read_face(part, pip_mask, offset, config, long_side, side if known else None, dice=dice_set,
                               lab=lab, calibrated=calibrated)
                if d is not None and d.confidence >= config.min_confidence:
                    got.append(d)
        per.append(got)
    return per


def _doubt_rivals(best: list[Die], pool: list[Die], sure: float = DEFAULT.sure) -> list[Die]:
    """Lower the confidence of a die another reading of the same place disagrees with.

    Each threshold may see a face differently (pips merged into a dark side
    face, or side-face pips taken in); when a reading in the same place with
    another value is itself plausible (confidence ≥ 0.6) and saw a pip the
    chosen reading did not (not merely fewer of its pips), the die chosen is
    not certain: its confidence drops by half the rival's, so the read is not
    sure and the players are asked rather than a value guessed.

    A die left under ``sure`` with any such rival (of any confidence in
    ``pool``) has the doubt :data:`RIVAL_READ`: the learned classifier's
    agreement does not make it sure.
    """
    out = []
    for b in best:
        rival = max((d.confidence for d in pool if d.value != b.value and _same_place(d, b)
                     and not _pips_within(d, b)), default=0.0)
        if rival >= 0.6:
            b = replace(b, confidence=round(b.confidence * (1 - 0.5 * rival), 3))
        if rival > 0 and b.confidence < sure and RIVAL_READ not in b.doubts:
            b = replace(b, doubts=b.doubts + (RIVAL_READ,))
        out.append(b)
    return out


def _same_place(d: Die, b: Die) -> bool:
    """True when two readings are of one die: centres closer than 0.6 of the larger side."""
    return math.hypot(d.center[0] - b.center[0], d.center[1] - b.center[1]) < 0.6 * max(d.size, b.size)


def _pips_within(d: Die, b: Die) -> bool:
    """True when every pip of ``d`` is one of ``b``'s (a reading that missed
    some of ``b``'s pips does not contradict it): within 0.2 of ``b``'s side of
    one. A face's pip places lie 0.27 side apart or more (``PIP_LAYOUT``), so a
    spot that near a pip is that pip seen shifted: run together with its shade
    or a glint, or with the pip beside it (renders 388, 409: a glossy five and
    six whose what-stands-out reading, ``hat_pips``, saw such spots)."""
    tol = 0.2 * b.size
    return all(any(math.hypot(x - u, y - v) < tol for u, v in b.pips) for x, y in d.pips)


def _side_faces(dice: list[Die], sure: float, *, plainly: bool = False, config: ReaderConfig = DEFAULT) -> list[Die]:
    """The dice of ``dice`` that are side faces of another: read unsurely
    (under ``sure``), seen at a steep slant (``config.faces.side_slant``), and within
    a die's side of a die read surely and seen square-on. Two top faces of
    dice of one size cannot lie closer than a side apart.

    ``plainly``: only those that can be nothing else. The top face is seen no
    flatter than 4:5 (``config.faces.front_slant``; a slanted top face may itself be a
    front face), and the side face is as foreshortened as a cube's side face
    is beside it (:func:`_side_slant_most`). A face less squashed than that
    (a two at 0.66 beside a one seen from straight above, on a webcam photo)
    may be a die of its own."""
    def beside(e: Die, d: Die) -> bool:
        if plainly and (d.slant < config.faces.front_slant or e.slant > _side_slant_most(d.slant, config=config)):
            return False
        return d.confidence >= sure and d.slant >= config.faces.side_slant and math.dist(d.center, e.center) < max(d.size, e.size)

    return [e for e in dice if e.slant < config.faces.side_slant and e.confidence < sure and any(beside(e, d) for d in dice)]
