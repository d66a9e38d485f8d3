"""Read the pips of real dice in a photo with classical OpenCV.

The reader works in three steps:

1. **Die faces.** The table is modelled as a smooth background (a large median
   of the picture); dice stand out from it in colour or brightness. The
   foreground is split into top faces: within each foreground blob the face is
   the majority class of an Otsu split of its brightness, and touching faces
   are separated along the distance transform of that face mask.
2. **Pips.** Pips are the holes in a face: blobs of the minority class fully
   enclosed by the face, round and of one size. This works for light dice with
   dark pips and for dark or coloured dice with light pips alike.
3. **Checks.** A face with 1-6 pips whose size and layout match a die face is a
   die; the fit gives its confidence. Pip-like marks outside a face (a speck on
   the table) are not counted as pips of that face.
4. **Pips first.** Where no face stood out (a wooden die on wood, a die in a
   shadow, a one seen at a slant), dice are found from groups of pips that
   make a face's pattern on a plain face that ends (:mod:`vision.pipfirst`).
   After a calibration this runs only while the read is in doubt.

Example::

    >>> import numpy as np
    >>> from vision.reader import read_dice
    >>> read_dice(np.zeros((480, 640, 3), np.uint8))
    []
"""

from __future__ import annotations

import functools
import math
import statistics
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .reasons import Reason

__all__ = [
    "Die",
    "ReaderConfig",
    "UnreadableImage",
    "read_dice",
    "read_throw",
    "Read",
    "PIP_LAYOUT",
    "annotate",
    "load_image",
]


#: Pip centres of each face of a standard die, in units of the pip spacing
#: (x right, y down; the outer pips sit a quarter side from the centre, so
#: ±1 is a quarter side). The renderer draws faces from it; the reader fits it.
PIP_LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


#: A face whose pips' short axis is under this share of their long one is
#: seen at a steep slant (pips squashed flatter than 2:3): it may be a die's
#: side face, not its top, and is never sure.
SIDE_SLANT = 0.67

#: A face squashed flatter than this (4:5) may be a die's front face seen
#: from a low camera, below its top face: it is sure only when nothing of a
#: die lies just above it (:mod:`vision.pipfirst`), and the learned
#: classifier, which sees pips but not which face is on top, confirms it only
#: at :data:`CONFIRM_SLANTED`.
FRONT_SLANT = 0.8

#: A die's doubt (``Die.doubts``): its pips were told from its face by colour
#: alone (red pips on a blue die), not lightness. Such a read is never sure.
BY_COLOUR = "by colour"
#: A die's doubt: something of a die lies just above this face (seen at a
#: slant, flatter than :data:`FRONT_SLANT`): it may be that die's front face.
FRONT_FACE = "front face"
#: A die's doubt: a lone pip found without its face's outline whose face
#: does not lie whole round it (:mod:`vision.pipfirst`): it may be a corner
#: pip of a two or three whose other pips are hidden.
OFF_CENTRE = "off centre"
#: A die's doubt: another reading of its place, of another value, saw a pip
#: this one did not (see :func:`_doubt_rivals`): the classical passes
#: disagree. A four split from two dice it touched read as a two at 0.5 (a
#: rival three saw a third pip); the classifier, 0.996 sure of a two there,
#: confirmed it, and the throw was sure and wrong (a mock tray).
RIVAL_READ = "rival reading"
#: A die's doubt: a two, three or four whose pips fit its face's outline
#: loosely, and a place its value leaves free shows a pip-like mark (see
#: :func:`_free_places_empty`): it may be part of a larger face whose other
#: pips are hidden. A blue five against a yellow die, two of its pips half
#: covered, read as a three at 0.43; the classifier, 0.95 sure of a three,
#: confirmed it, and the throw was sure and wrong (a mock tray, session 17).
MORE_PIPS = "more pips"


class UnreadableImage(ValueError):
    """An image that cannot be read: not a file, not an image, or the wrong shape."""


@dataclass(frozen=True)
class Die:
    """One die read from an image.

    ``value``: the pips on its top face, 1-6. ``center``: ``(x, y)`` pixels in
    the input image. ``size``: the face's side length in pixels. ``corners``:
    the face's four corner points, pixels ``(x, y)``, clockwise.
    ``confidence``: 0-1, how well the face and its pips match a die face.
    ``pips``: the pip centres, pixels ``(x, y)``. ``slant``: how square-on
    the face is seen, 0-1: its pips' short axis over their long axis (1 seen
    from straight above; under :data:`SIDE_SLANT`, it may be a side face).
    ``doubts``: why the classical passes kept it under the sure confidence,
    where the learned classifier cannot lift that doubt: :data:`BY_COLOUR`
    (its pips differ from the face in colour only), :data:`FRONT_FACE`
    (something of a die lies just above it: it may be that die's front face),
    :data:`OFF_CENTRE` (a lone pip off its face's middle),
    :data:`RIVAL_READ` (another reading of its place saw other pips) or
    :data:`MORE_PIPS` (a place its value leaves free shows a pip-like mark).
    ``inner``: for a die read from its face's outline, the face's side from the
    widest circle inside that outline, pixels (at most ``size``; 0 where not
    measured). Where the outline takes in side faces (a close or oblique
    camera), its box, and so ``size``, is longer than the top face; ``inner``
    is not.
    """

    value: int
    center: tuple[float, float]
    size: float
    corners: tuple[tuple[float, float], ...]
    confidence: float
    pips: tuple[tuple[float, float], ...] = field(default=(), repr=False)
    slant: float = field(default=1.0, repr=False)
    doubts: tuple[str, ...] = field(default=(), repr=False)
    inner: float = field(default=0.0, repr=False)

    def to_dict(self) -> dict:
        """JSON-ready form: value, center, size, corners, confidence (rounded)."""
        return {
            "value": self.value,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "size": round(self.size, 1),
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True)
class ReaderConfig:
    """Tunable numbers of the reader (plain data, like picamera2's configurations).

    ``work_size``: the longer image side, pixels, the reader works at (larger
    images are shrunk first). ``min_contrast``: the colour distance (Lab units)
    a die must stand out from the table by. ``min_die``/``max_die``: the
    plausible die side as a fraction of the longer image side.
    ``min_confidence``: dice read with less are dropped. ``sure_confidence``:
    every die of a sure read has at least this. ``work_die``: with a known die
    size, the image is scaled so a die is this many pixels wide.
    """

    work_size: int = 1024
    min_contrast: float = 22.0
    min_die: float = 0.012
    max_die: float = 0.25
    min_confidence: float = 0.3
    sure_confidence: float = 0.8
    work_die: float = 56.0


def load_image(path: str) -> np.ndarray:
    """Read an image file as ``H×W×3 uint8 BGR``.

    Raises :class:`UnreadableImage` when the file is missing or not an image.
    """
    data = np.fromfile(path, dtype=np.uint8) if _exists(path) else None
    if data is None:
        raise UnreadableImage(f"{path}: no such file")
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise UnreadableImage(f"{path}: not an image OpenCV can decode")
    return img


def _exists(path: str) -> bool:
    import os

    return os.path.isfile(path)


def _check_image(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray):
        raise UnreadableImage(f"an image is a numpy array, not {type(image).__name__}")
    if image.dtype != np.uint8:
        raise UnreadableImage(f"an image is uint8, not {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise UnreadableImage(f"an image is H×W×3 BGR, not shape {image.shape}")
    if image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if min(image.shape[:2]) < 16:
        raise UnreadableImage(f"image of {image.shape[1]}×{image.shape[0]} px is too small")
    return image


# --------------------------------------------------------------------------
# The pipeline
# --------------------------------------------------------------------------


def read_dice(image: np.ndarray, config: ReaderConfig = ReaderConfig()) -> list[Die]:
    """Read every die's top face in ``image``.

    ``image``: ``H×W×3 uint8 BGR`` (grey ``H×W`` and BGRA are accepted too).
    Returns the dice found, left to right; positions and sizes are pixels of
    the input image. Raises :class:`UnreadableImage` for anything that is not
    an image. :func:`read_throw` gives the same dice plus whether the reader
    is sure of them.
    """
    return list(read_throw(image, config=config).dice)


@dataclass(frozen=True)
class Read:
    """The dice of one throw, and whether the reader is sure of them.

    ``dice``: the :class:`Die` list, left to right. ``sure``: True only when
    every die's confidence is at least ``ReaderConfig.sure_confidence``, the
    dice are of one size, nothing die-sized in the picture is left
    unexplained, and (when a count was expected) the count is right.
    ``reasons``: why not sure, as :class:`vision.reasons.Reason` codes (empty
    when sure); :mod:`companion.prompts` puts them into words.
    ``die_size``: the die side used, pixels of the input image (None when no
    die was found and none was given).
    """

    dice: tuple[Die, ...]
    sure: bool
    reasons: tuple[str, ...] = ()
    die_size: float | None = None

    @property
    def values(self) -> tuple[int, ...]:
        """The values read, left to right."""
        return tuple(d.value for d in self.dice)


def read_throw(
    image: np.ndarray,
    *,
    expect: int | None = None,
    area=None,
    die_size: float | None = None,
    config: ReaderConfig = ReaderConfig(),
    learned: bool = True,
) -> Read:
    """Read a throw and say whether the reader is sure of it.

    ``image``: ``H×W×3 uint8 BGR``. ``expect``: the number of dice known to be
    in the throw (the rules know it: 8, 7, 6 or 5), or None; a read of
    another number is not sure, and after a calibration it also has the
    reader look for dice by their pips (:mod:`vision.pipfirst`). ``area``: a
    :class:`vision.calibrate.TrayArea` (or any object with ``polygon``, a
    list of ``(x, y)`` pixels): only dice whose centre lies inside it are
    read, dice set aside outside it are ignored. ``die_size``: the die side in
    pixels from calibration; it fixes the working scale (the die is shrunk to
    ``config.work_die`` pixels, which keeps a 1640×1232 frame fast) and the
    size a face must have. ``learned``: where the classical passes leave
    something die-sized unread, or read fewer dice than ``expect``, let the
    learned face classifier (:mod:`vision.facenet`) look for the missing dice
    (at the size of the dice read, or, where none was, of what is unread;
    first for values it is sure of, then for values only likelier:
    :data:`vision.facenet.FIND_VALUE_NEXT`); a die it alone finds, or reads
    as another value, scores at most :data:`LEARNED_MOST`, so such a read is
    never sure; a weak die it reads the same, with :data:`CONFIRM_SURE`, is
    confirmed (see :func:`_rejudge`).
    False reads with the classical passes only.

    Raises :class:`UnreadableImage` for anything that is not an image.
    """
    image = _check_image(image)
    h, w = image.shape[:2]
    ox = oy = 0
    poly = None
    if area is not None:
        poly = np.asarray(area.polygon, np.float32).reshape(-1, 2)
        x0, y0 = np.floor(poly.min(axis=0)).astype(int)
        x1, y1 = np.ceil(poly.max(axis=0)).astype(int)
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(w, x1), min(h, y1)
        if x1 - x0 >= 16 and y1 - y0 >= 16:
            image, ox, oy = image[y0:y1, x0:x1], x0, y0
            h, w = image.shape[:2]
        if die_size is None:
            die_size = getattr(area, "die_size", None)
    if die_size:
        scale = config.work_die / die_size
        scale = min(scale, config.work_size / max(h, w), 1.5)
    else:
        scale = min(1.0, config.work_size / max(h, w))
    if abs(scale - 1.0) < 1e-3:
        work, scale = image, 1.0
    else:
        work = _shrink(image, scale)
        scale = work.shape[1] / w
    # Without an area the picture's edge cuts dice, and a die not wholly in
    # the picture is not part of the throw read; a tray's area keeps them in.
    edge = poly is None
    dice, unexplained, foreign, side, lab = _read_work(work, config, die_size * scale if die_size else None, edge,
                                                       calibrated=bool(die_size), expect=expect)
    small = _read_size(dice, inner=False)
    if not die_size and small and small < 0.7 * config.work_die and scale >= 0.999:
        # Small dice (a wide view): their pips are a few pixels, so read again
        # with the image enlarged to the working die size of the dice found.
        side = small
        up = min(2.0, config.work_die / side)
        work = cv2.resize(image, (round(w * up), round(h * up)), interpolation=cv2.INTER_CUBIC)
        scale = work.shape[1] / w
        dice, unexplained, foreign, side, lab = _read_work(work, config, side * up, edge, calibrated=False)
    if poly is not None and side:
        inside = np.zeros(work.shape[:2], np.uint8)
        cv2.fillPoly(inside, [np.round((poly - (ox, oy)) * scale).astype(np.int32)], 255)
        foreign += _foreign(lab, dice, side, config, inside)
    s = 1.0 / scale
    out = []
    for d in dice:
        cx, cy = d.center[0] * s + ox, d.center[1] * s + oy
        if poly is not None and cv2.pointPolygonTest(poly, (float(cx), float(cy)), False) < 0:
            continue
        out.append(replace(d, center=(cx, cy), size=d.size * s, inner=d.inner * s,
                           corners=tuple((x * s + ox, y * s + oy) for x, y in d.corners),
                           pips=tuple((x * s + ox, y * s + oy) for x, y in d.pips)))
    reasons = []
    # The learned classifier looks at the median size of the dice read.
    learned_side = float(np.median([d.size for d in out])) if learned and out else 0.0
    if learned and not out and unexplained and side:
        # Nothing read, but something die-sized is there (dark dice with red
        # pips on a light table): the classifier looks for dice of the size
        # the faces' outlines gave. On the many-colours photos (session 23),
        # 3 such photos of 1-2 dice: 2 read exactly, one die of the other found.
        learned_side = side * s
    if learned and out and poly is None and not die_size:
        # Without a tray (any camera, any dice), a die read surely whose value
        # the classifier all but rules out is doubted. Not in a tray, seen
        # from above, where the classical passes read every die right and the
        # classifier once ruled out a sure four (a tray photo).
        out, doubted = _vetoed(image, out, learned_side, config, ox, oy)
        if doubted:
            reasons.append(Reason.VETOED)
    if learned and any(d.confidence < config.sure_confidence for d in out):
        # A calibrated die size fixes the side the classifier looks at; without one, the dice's
        # outlines decide it, and a mixed set's may take in part of a face only.
        out, changed, gone = _rejudge(image, out, learned_side, config, ox, oy,
                                      sides=(1.0,) if die_size else REJUDGE_SIDES)
        if changed:
            reasons.append(Reason.REREAD)
        if gone:
            reasons.append(Reason.NO_DIE)
    # The learned classifier looks only where the passes above say a die may
    # be missing: something die-sized is unread, or fewer dice than thrown.
    if learned and learned_side and (unexplained or (expect is not None and len(out) < expect)):
        from vision.facenet import FIND_VALUE, FIND_VALUE_NEXT

        extra = []
        memo: dict = {}  # each size's search, kept for the second search (find_dice's memo)
        unread = expect is None and unexplained and not die_size
        for value_share in (FIND_VALUE, FIND_VALUE_NEXT):
            if expect is not None and len(out) + len(extra) >= expect:
                break
            # The dice whose values the classifier is sure of first, at every size; then, where
            # none was found, those whose values are only likelier (see FIND_VALUE_NEXT).
            extra += _learned_dice(image, out + extra, learned_side, poly, ox, oy, value_share, memo)
            for larger in LEARNED_LARGER:
                # Still short of the dice thrown, or, with no count known and no calibration to fix
                # the dice's size, something die-sized still unread: dice larger than those read (a
                # mixed set) are looked for too.
                short = expect is not None and len(out) + len(extra) < expect
                if short or unread:
                    found = _learned_dice(image, out + extra, learned_side * larger, poly, ox, oy, value_share,
                                          memo)
                    # With no count to check it against, a one (a round spot in a square: a key's
                    # symbol, a button) at a size far from the dice read is not taken.
                    extra += found if short or larger <= LEARNED_ONES_UPTO else [d for d in found if d.value >= 2]
        if extra:
            out += extra
            reasons.append(Reason.LEARNED_ONLY)
    shows = [_shows_pips(image, (d.center[0] - ox, d.center[1] - oy), d.size) for d in out]
    if not all(shows):
        reasons.append(Reason.NO_PIPS)
        out = [d for d, pips in zip(out, shows) if pips]
    out.sort(key=lambda d: (d.center[0], d.center[1]))
    weak = [d for d in out if d.confidence < config.sure_confidence]
    if weak:
        reasons.append(Reason.HARD_TO_READ)
    if len(out) >= 2:
        if not _all_one_size(out):
            reasons.append(Reason.MIXED_SIZES)
        sure = [d.size for d in out if d.confidence >= config.sure_confidence]
        if len(sure) >= 2:
            # A weak reading under half the sure dice's size is a speck or a
            # pip, not a die: left out (the read stays unsure, for the sizes).
            least = 0.5 * float(np.median(sure))
            out = [d for d in out if d.confidence >= 0.5 or d.size >= least]
    if unexplained:
        reasons.append(Reason.UNEXPLAINED)
    if foreign and area is not None:
        reasons.append(Reason.FOREIGN)
    if expect is not None and len(out) != expect:
        reasons.append(Reason.WRONG_COUNT)
    if not out and expect is None:
        reasons.append(Reason.NO_DICE)
    size_px = side * s if side else (float(die_size) if die_size else None)
    return Read(tuple(out), not reasons, tuple(reasons), size_px)


#: Every face of a die shows pips: within 0.4 side of a die's centre, the 99th percentile of the colour
#: distance (CIELAB, OpenCV's 0-255 scale) from the face's median colour is at least this. A blank
#: round thing, such as a hole in a tray's corner, a counter or a coin, is no die. On the many-colours
#: photos (session 20, a fold model that never saw half 1) the tray's corner holes read as dice gave
#: 4-7, every die read 27 or more; a rendered one (the least pip there is) 70 or more.
PIPS_SHOW = 15.0


#: :func:`_shows_pips` looks at the face shrunk to this many pixels across (at most): the pips of a one
#: (0.17 side across) still cover some 4% of it, and a big die costs no more than a small one.
PIPS_LOOK = 24


def _shows_pips(image: np.ndarray, center, side: float) -> bool:
    """Whether the face of a die of ``side`` px centred at ``center`` ``(x, y)`` px in ``image``
    (``H×W×3 uint8 BGR``) shows any mark: some colour within 0.4 side of the centre differs from the
    face's median colour by :data:`PIPS_SHOW` (the 99th percentile of the pixels there, the face shrunk
    to :data:`PIPS_LOOK` px across). A place wholly outside the picture shows none."""
    h, w = image.shape[:2]
    r = 0.4 * side
    x, y = center
    x0, y0 = max(0, int(x - r)), max(0, int(y - r))
    x1, y1 = min(w, int(np.ceil(x + r)) + 1), min(h, int(np.ceil(y + r)) + 1)
    if x1 <= x0 or y1 <= y0:
        return False
    crop = image[y0:y1, x0:x1]
    k = min(1.0, PIPS_LOOK / (2.0 * r))
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
    return float(np.percentile(spread, 99)) >= PIPS_SHOW


def _all_one_size(dice: list[Die]) -> bool:
    """Whether every die of ``dice`` is 0.75-1.33 times their median size
    (``Die.size``), by its outline's box or, where that box took in side
    faces, by the widest circle inside the outline (``Die.inner``)."""
    sizes = np.array([d.size for d in dice])
    inner = np.array([d.inner or d.size for d in dice])
    med = float(np.median(sizes))
    return not np.any(((sizes < 0.75 * med) | (sizes > 1.33 * med)) & ((inner < 0.75 * med) | (inner > 1.33 * med)))


#: A die found by the learned classifier alone scores at most this: under
#: ``ReaderConfig.sure_confidence``, so such a read is never sure.
LEARNED_MOST = 0.6


#: While a read is short of the dice thrown, the learned classifier looks for
#: dice this many times the size of those read, too. It was trained on crops
#: scaled 0.85-1.15 to the die, so 1, 1.3 and 1.7 cover dice up to twice the
#: size. On the many-colours photos (mixed sets), with the session-10 models
#: that never saw them: 31 more dice right, 35 fewer missed, 4 more with the
#: wrong value, 1 more false die, and 0.391 -> 0.431 of the photos read
#: exactly; nothing changed on the other photos.
#: With no count known and no calibrated die size, it looks for them too
#: where something die-sized is left unread, and takes the dice of two pips
#: or more it finds there (a laptop's dark key with a light round symbol
#: read as a one at 1.7 times the size). On the many-colours photos read
#: without the count, with the session-13 fold models that never saw them:
#: 21 more dice right, 23 fewer missed, 2 more with the wrong value, 1 more
#: false die (0.425 -> 0.443 exact); the webcam photos' reads did not
#: change. Taking ones too gave 9 more right and 1 more exact photo. A
#: further look at 0.75 the size found 12 more dice but read 9 more wrongly
#: and 5 more false, and lost a webcam photo: not taken.
LEARNED_LARGER = (1.3, 1.7)
#: With no count known and no calibrated size, a one the learned classifier
#: finds at up to this multiple of the dice's size is taken; at larger looks
#: (1.7) it is not (the laptop key above). On the many-colours photos of half
#: 1, read without the count by a fold model that never saw them (session
#: 19): 40 -> 41 exact, 426 -> 428 right, 38 -> 36 missed, the same 22 wrong
#: and 6 false (taking ones at 1.7 too: 24 wrong, 34 missed, 41 exact); the
#: webcam photos (shipped model) 0.972 -> 0.976 exact, precision 0.995 ->
#: 0.996. The ones looked at (white ones on a light tray, which the
#: classical passes missed) were found at 1.3 times the dice's median size
#: only: on these photos the dice read are smaller than their faces.
LEARNED_ONES_UPTO = 1.3


#: A weak die the learned classifier is this sure is no die (a speck, a
#: mark, part of a face) is left out, and the read is not sure. On the
#: many-colours photos, with the session-10 models that never saw them, 38
#: readings were left out: 35 where no die was, 3 inside a die's box (a
#: second reading of a die read; no die went missing), and the false dice
#: read fell from 57 to 20.
NO_DIE_SURE = 0.97
#: The learned classifier re-reads a weak die only when it is this sure that a
#: die is there (1 - its "no die" probability) and of the value it gives.
REJUDGE_SURE = 0.9
#: As :data:`REJUDGE_SURE`, for a die read with a classical confidence under
#: 0.5, whose value is mostly wrong: a die likelier than none, and that value
#: likelier than all others together, is enough. Measured on the many-colours
#: photos with the session-10 models that never saw them: where the
#: classifier was 0.5-0.9 sure of another value for such a die, it was right
#: 18 times where the classical value was wrong, and wrong once where it was
#: right (9 times both were wrong). For dice read 0.5 or more, 10 right and
#: 3 wrong; and on synthetic faces out of its training (red pips on a blue
#: die, pips on wood), wrong.
#: It holds too for a die the classical reader itself doubts for a pip-like
#: mark where its value has none (:data:`MORE_PIPS`): a two of a smoky die
#: whose other pips are faint. On the many-colours photos read without the
#: count (session 23): with the shipped model 139 -> 141 photos exact, 13 ->
#: 11 wrong; with fold models on the halves they never saw, 101 -> 102 exact,
#: 53 -> 50 wrong; no die read right changed.
REJUDGE_FAINT = 0.5
#: A weak die's value is looked at again at these multiples of the side the
#: classifier searched (the dice's median size), and the look surest of a
#: die and of one value gives the value that may replace the classical one
#: (:func:`_rejudge`). The classical outline of a die of a mixed set is often
#: part of its face (a two read as a one where a pip was taken for the face),
#: and the median outline on the many-colours photos is about 0.8 of the face
#: their boxes give (the network learned crops of 0.85-1.15 times the face).
#: On the 73 many-colours photos of half 1, read without the count by a fold
#: model that never saw them (session 19): 39 -> 40 exact, 421 -> 426 dice
#: right, 27 -> 22 wrong, the same 38 missed and 6 false; (1, 1.25, 1.5)
#: gave the same, (1, 1.25) 39 exact and 24 wrong. At 1.5 times, a die fills
#: two thirds of what the network learned, and it read a flat five (a face
#: seen at a slant, 80×60 px) 0.95 surely as a three. Only the value comes
#: from these looks: leaving a die out and confirming one still use the look
#: at the searched side. Not after a calibration, which fixes the dice's size:
#: there a larger look read a four on wood, found by its pips, as a two.
REJUDGE_SIDES = (1.0, 1.2, 1.4)
#: A weak die seen square-on (slant at least :data:`FRONT_SLANT`) that the
#: classifier gives the same value, this sure of a die and of that value, is
#: confirmed: two readers that work differently agree. On the many-colours
#: photos, with models that never saw them, 37 weak dice were given the same
#: value 0.95 surely, none of them wrongly (29 at 0.99); with the wider models
#: of session 10, 50 dice were confirmed, one wrongly (a one centred on one
#: pip of a two, where the dice were taken for 26 px, not about 38; the read
#: was not sure for other reasons).
CONFIRM_SURE = 0.95
#: As :data:`CONFIRM_SURE`, for a face seen at a slant (from
#: :data:`SIDE_SLANT` to :data:`FRONT_SLANT`): it may be a die's front face,
#: which the classifier cannot tell from a top face, so only its surest
#: agreement confirms it.
CONFIRM_SLANTED = 0.99
#: A weak die is confirmed by the classifier's look at the die's own size
#: (its classical outline, ``Die.size``) when that lies within these shares
#: of the dice's median size, and at the median size otherwise (the network
#: was trained on crops scaled 0.85-1.15 to the die). Its values and
#: "no die" still come from the look at the median size: a die overruled by
#: the classifier is one whose outline is in doubt too. The case: a wooden
#: six on wood (table-phone, 227 px against a median of 224), which the
#: session-13 model gave 0.922 at the median size and 0.997 at its own. On
#: all 446 photos, with the shipped model and with fold models that never saw
#: them, the looks at the dice's own sizes made one read sure each (both
#: right) and changed nothing else; on the 2000 mock trays, 2 fewer reads
#: were sure (1437 -> 1435), none wrong either way.
CONFIRM_OWN_SIZE = (0.8, 1.25)


def _rejudge(image: np.ndarray, dice: list[Die], side: float, config: ReaderConfig, ox: int, oy: int, *,
             sides: tuple[float, ...] = REJUDGE_SIDES) -> tuple[list[Die], int, int]:
    """Dice under ``config.sure_confidence`` read again by the learned classifier.

    Where the classifier is sure (:data:`REJUDGE_SURE`) of a die and of
    another value, at the surest of its looks at ``sides`` (multiples of
    ``side``, 1.0 among them; :data:`REJUDGE_SIDES` unless the read was
    calibrated), that value replaces the classical one, with confidence at
    most :data:`LEARNED_MOST` (the read stays unsure). Measured on the
    many-colours photos with a model that never saw them, such dice were right
    14 times in 122 (classical confidence under 0.5) and 67 in 116 (0.5-0.8);
    where the classifier was sure, it was right 26 of 27 and 49 of 51 times
    (session 8, at 0.9). A die read under 0.5, or with the doubt
    :data:`MORE_PIPS`, needs only :data:`REJUDGE_FAINT`. Where it is
    :data:`NO_DIE_SURE` sure there is no die, the reading is left out (and
    counted, so the read is not sure).

    Where it gives the same value, and its look at the die's own size
    (:data:`CONFIRM_OWN_SIZE`) is :data:`CONFIRM_SURE` sure of a die and of
    that value (:data:`CONFIRM_SLANTED` for a face seen flatter than
    :data:`FRONT_SLANT`, which may be a die's front face), the die is
    confirmed: its confidence is raised to ``config.sure_confidence``; not a
    face seen flatter than :data:`SIDE_SLANT`, which may be a side face to
    both readers, nor one within 0.6 side of the picture's edge, which may be
    part of a larger face cut by the edge (neither reader sees beyond it),
    nor a die with ``doubts`` the classifier cannot lift: pips told by colour
    alone (by this reader's rule never sure, whoever agrees), a possible
    front face (the classifier sees pips, not which face is on top), a lone
    pip off its face's middle (a crop round a two's corner pip can look like
    a one), a rival reading of its place that saw other pips (the
    classical passes disagree among themselves), or a pip-like mark in a
    place its value leaves free (part of a larger face may be hidden).
    The classifier alone never makes a die sure; it can only agree with the
    classical passes.
    Measured with models that never saw the photo (two-fold on
    webcam-clutter; table-phone never used in training), 10 reads unsure only
    for such dice became sure at 0.99, all 10 right; 0.95 for faces seen
    square-on made 2 more sure (table-phone), both right.

    ``side``: the die side the classifier looks at, pixels. ``image`` is the
    (area-cropped) picture whose top-left corner lies at ``(ox, oy)`` in the
    input. Returns the dice, how many changed value and how many were left
    out."""
    from vision.facenet import _default_net

    weak = [i for i, d in enumerate(dice) if d.confidence < config.sure_confidence]
    h, w = image.shape[:2]
    net = _default_net()
    at = [(dice[i].center[0] - ox, dice[i].center[1] - oy) for i in weak]
    looks = np.stack([net.classify(image, at, side * k, turns=True) for k in sides])  # sides×N×7
    probs = looks[sides.index(1.0)]
    # Each look's sureness: of a die, and of its likeliest value among the six (that value's share).
    values = looks[..., 1:]
    shares = values.max(axis=2) / np.maximum(values.sum(axis=2), 1e-9)
    sureness = np.minimum(1.0 - looks[..., 0], shares)
    best = sureness.argmax(axis=0)
    n = np.arange(len(weak))
    out, changed = list(dice), 0
    gone = set()
    for i, p, q, sure, share in zip(weak, probs, looks[best, n], sureness[best, n], shares[best, n]):
        d = dice[i]
        value = int(q[1:].argmax()) + 1
        faint = d.confidence < 0.5 or MORE_PIPS in d.doubts
        if p[0] >= NO_DIE_SURE:
            gone.add(i)
        elif sure >= (REJUDGE_FAINT if faint else REJUDGE_SURE) and value != d.value:
            # The classical pips belong to the old value: dropped.
            out[i] = replace(d, value=value, pips=(), confidence=round(
                min(LEARNED_MOST, d.confidence, float(share) * (1.0 - float(q[0]))), 3))
            changed += 1
        elif (int(p[1:].argmax()) + 1 == d.value and d.slant >= SIDE_SLANT and not d.doubts
              and _clear_of_edge(d.center[0] - ox, d.center[1] - oy, d.size, w, h)):
            own = p
            if CONFIRM_OWN_SIZE[0] * side <= d.size <= CONFIRM_OWN_SIZE[1] * side:
                own = net.classify(image, [(d.center[0] - ox, d.center[1] - oy)], d.size, turns=True)[0]
            agree = min(1.0 - float(own[0]), float(own[d.value] / own[1:].sum()))
            if agree >= (CONFIRM_SURE if d.slant >= FRONT_SLANT else CONFIRM_SLANTED):
                out[i] = replace(d, confidence=max(d.confidence, config.sure_confidence))
    return [d for i, d in enumerate(out) if i not in gone], changed, len(gone)


#: A die read surely is doubted when the learned classifier gives its value
#: under this share of the die's probability (the turned looks). On the
#: many-colours photos, with the session-10 models that never saw them, this
#: doubted 11 of the 20 dice read surely but wrongly, and 3 of 749 read
#: surely and rightly (measured on the turned looks alone).
VETO_SHARE = 0.1
#: A doubted die keeps at most this confidence: under the sure confidence,
#: and at least 0.5, so the classifier re-reads it only when
#: :data:`REJUDGE_SURE` sure.
VETOED_MOST = 0.6


def _vetoed(image: np.ndarray, dice: list[Die], side: float, config: ReaderConfig, ox: int, oy: int
            ) -> tuple[list[Die], int]:
    """Dice read surely that the learned classifier all but rules out, made weak.

    Each die of at least ``config.sure_confidence`` is looked at once; where
    that look gives its value under 0.3 of the die's probability, the turned
    looks decide: under :data:`VETO_SHARE`, its confidence falls to at most
    :data:`VETOED_MOST` (so :func:`_rejudge` may read it again, and the read
    is not sure). The classifier can only doubt a sure die here, never make
    one. ``side``, ``image``, ``ox``, ``oy``: as for :func:`_rejudge`.
    Returns the dice and how many were doubted."""
    from vision.facenet import _default_net

    sure = [i for i, d in enumerate(dice) if d.confidence >= config.sure_confidence]
    if not sure:
        return dice, 0
    net = _default_net()
    at = [(dice[i].center[0] - ox, dice[i].center[1] - oy) for i in sure]

    def own_share(probs, idx):
        return [float(p[dice[i].value] / max(1e-9, p[1:].sum())) for p, i in zip(probs, idx)]

    first = own_share(net.classify(image, at, side), sure)
    again = [(i, xy) for i, xy, share in zip(sure, at, first) if share < 0.3]
    if not again:
        return dice, 0
    idx = [i for i, _ in again]
    closer = own_share(net.classify(image, [xy for _, xy in again], side, turns=True), idx)
    out, doubted = list(dice), 0
    for i, share in zip(idx, closer):
        if share < VETO_SHARE:
            out[i] = replace(dice[i], confidence=min(dice[i].confidence, VETOED_MOST))
            doubted += 1
    return out, doubted


def _clear_of_edge(x: float, y: float, side: float, w: int, h: int) -> bool:
    """True when all within 0.6 ``side`` of ``(x, y)`` (pixels) lies in a
    ``w×h`` px picture: a face there, whatever its turn (its corners reach
    0.71 side), is not one cut by the picture's edge and seen in part."""
    r = 0.6 * side
    return r <= x <= w - r and r <= y <= h - r


def _learned_dice(image: np.ndarray, dice: list[Die], side: float, poly, ox: int, oy: int,
                  value_share: float, memo: dict | None = None) -> list[Die]:
    """Dice the learned classifier (:func:`vision.facenet.find_dice`) finds
    away from ``dice``, dice of ``side`` px whose likeliest value has at
    least ``value_share`` of the die probability (see
    :func:`vision.facenet.find_dice`, as is ``memo``). ``image`` is the
    (area-cropped) ``H×W×3 uint8 BGR`` picture whose top-left corner lies at
    ``(ox, oy)`` in the input; ``poly`` the area's polygon in input pixels, or
    None. Returned dice are squares as wide as the side each was read at, with
    confidence at most :data:`LEARNED_MOST`. Without an area the picture's
    edge cuts dice, and a die found closer to it than 0.6 of the side it was
    read at (:func:`_clear_of_edge`) is no die wholly in the picture, so no part of the throw read (as with
    the classical passes)."""
    from vision.facenet import find_dice

    h, w = image.shape[:2]
    mask = None
    if poly is not None:
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.round(poly - (ox, oy)).astype(np.int32)], 255)
    taken = [(d.center[0] - ox, d.center[1] - oy) for d in dice]
    out = []
    for x, y, v, p, at in find_dice(image, side, taken=taken, mask=mask, value_share=value_share,
                                   memo=memo):
        if poly is None and not _clear_of_edge(x, y, at, w, h):
            continue
        cx, cy, r = x + ox, y + oy, at / 2
        out.append(Die(value=v, center=(cx, cy), size=at,
                       corners=((cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)),
                       confidence=round(min(LEARNED_MOST, p), 3)))
    return out


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


def _read_work(img: np.ndarray, config: ReaderConfig, die_side: float | None = None, edge: bool = False, *,
               calibrated: bool = False, expect: int | None = None):
    """Dice in a working-scale image: ``(dice, die-like parts unexplained (and
    readings left out in doubt), large parts unexplained, die side px, the
    image in Lab)``. ``edge``: the
    image's edge is the picture's, and die-like parts cut by it are not
    counted as unexplained. ``calibrated``: ``die_side`` comes from a
    calibration of the tray. ``expect``: the dice known to be in the image
    (a calibrated read short of them looks for dice by their pips; with it,
    a reading left out at the picture's edge leaves the read sure, for the
    count tells whether a die was lost)."""
    h, w = img.shape[:2]
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    gray = lab[..., 0]
    fg = _foreground(lab, config)
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
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area > max_area or (die_side and area > 12 * die_side * die_side):
            huge += 1  # far too big for dice: a hand, an arm, a box
            continue
        if area < min_area:
            continue
        pad = 2
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(w, x + bw + pad), min(h, y + bh + pad)
        comp = (labels[y0:y1, x0:x1] == i).astype(np.uint8) * 255
        cands = _blob_faces(gray[y0:y1, x0:x1], comp, min_area)
        blobs.append(((x0, y0), cands, comp, gray[y0:y1, x0:x1], lab[y0:y1, x0:x1]))
    # Pass 2: the die size, from faces that look like one square die.
    side = die_side if die_side else _die_side([f for _, cands, _, _, _ in blobs for faces, _ in cands for f in faces])
    # Pass 3: read every candidate split of every blob, and read it other
    # ways while no reading is sure (see _read_blob).
    reads = [_read_blob(blob, side, min_area, config, long_side, die_side, calibrated) for blob in blobs]
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
    from vision.pipfirst import add_pip_dice, pip_dice, pip_scale  # here: it imports this module

    if not calibrated:
        pip_side = pip_scale(gray, dice, long_side)
        if pip_side:
            dice = add_pip_dice(dice, pip_dice(gray, dice, pip_side))
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
    sides = _side_faces(dice, config.sure_confidence)
    plainly = _side_faces(dice, config.sure_confidence, plainly=True)
    dice = [d for d in dice if d not in sides]
    doubted += any(e not in plainly for e in sides)
    if not measured:
        # Pass 4 once more, over every die read: where no face stood out whole
        # (wood on wood), pass 2's guess is a pip's or the grain's size, and
        # the dice found by their pips tell the die's.
        side = _read_die_side(dice) or side

    def leftovers(dice):
        unexplained, foreign = doubted, huge
        # Where no die size was measured (one die read, or none surely),
        # what is die-sized is judged by the dice read: each by the circle
        # inside its face where its box took in side faces (a camera at a
        # slant). Else nothing was judged, and a second die whose outline
        # ran into its side faces went unread while the read was sure (a
        # webcam photo).
        at = side or _read_size(dice)
        if at:
            for offset, _, comp, _, _ in blobs:
                die_like, large = _leftover(comp, offset, dice, at, (w, h) if edge else None, gray=gray)
                unexplained += die_like
                foreign += large
        return unexplained, foreign

    def by_pips(dice):
        return add_pip_dice(dice, pip_dice(gray, dice, die_side, same_kind=True))

    doubt = any(d.confidence < config.sure_confidence for d in dice) or (expect is not None and len(dice) != expect)
    if calibrated and doubt:
        dice = by_pips(dice)
    unexplained, foreign = leftovers(dice)
    if calibrated and unexplained and not doubt:
        dice = by_pips(dice)
        unexplained, foreign = leftovers(dice)
    return dice, unexplained, foreign, side, lab


def _read_size(dice, *, inner: bool = True) -> float | None:
    """The median side, pixels, of the dice read with confidence 0.5 or
    more; with ``inner``, each the smaller of its box's side and its
    inscribed size (``Die.inner``: the box of a face seen at a slant takes
    in its side faces), else its box's side (``Die.size``). None when no
    die is read that surely."""
    sizes = [min(d.size, d.inner or d.size) if inner else d.size for d in dice if d.confidence >= 0.5]
    return float(np.median(sizes)) if sizes else None


def _read_die_side(dice) -> float | None:
    """The die side, pixels, from dice read: the median size of those read
    surely (0.85) showing two pips or more (a glint in one pip can make the
    pip itself look like a die showing 1); None when fewer than two."""
    sizes = [d.size for d in dice if d.confidence >= 0.85 and d.value >= 2]
    return float(np.median(sizes)) if len(sizes) >= 2 else None


def _read_blob(blob, side, min_area, config: ReaderConfig, long_side: int, die_side, calibrated: bool):
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
    per = _read_candidates(cands, offset, side, config, long_side, known)

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
        swapped = _read_candidates(flipped, offset, side, config, long_side, known)
        per += [[d for d in got if d.value > 1] for got in swapped]
    # A calibrated tray was measured with its dice standing out whole, so its
    # ragged specks are not re-read.
    hull = None if calibrated else _ragged_hull(comp)
    die_sized = hull is not None and (side is None or 0.6 * side * side <= cv2.countNonZero(hull) <= 2.5 * side * side)
    if die_sized and unsure():
        per += _read_candidates(_blob_faces(gray_blob, hull, min_area), offset, side, config, long_side, known)
    if not calibrated and unsure():
        # Weaker evidence than lightness: read, never sure, never a lone pip.
        per += [[replace(d, confidence=min(d.confidence, 0.75), doubts=(BY_COLOUR,)) for d in got if d.value > 1]
                for got in _read_candidates(_colour_pips(lab_blob, cands), offset, side, config, long_side, False)]
    return per


def _read_candidates(cands, offset, side, config: ReaderConfig, long_side: int, known: bool) -> list[list[Die]]:
    """The dice read in each candidate split of a blob (see :func:`_blob_faces`);
    ``known``: ``side`` is the calibrated die side (faces far from it are not read)."""
    per = []
    for faces, pip_mask in cands:
        got = []
        for face in faces:
            for part in _split_touching(face, side):
                d = _read_face(part, pip_mask, offset, config, long_side, side if known else None)
                if d is not None and d.confidence >= config.min_confidence:
                    got.append(d)
        per.append(got)
    return per


def _doubt_rivals(best: list[Die], pool: list[Die], sure: float = ReaderConfig.sure_confidence) -> list[Die]:
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
    some of ``b``'s pips does not contradict it)."""
    tol = 0.12 * b.size
    return all(any(math.hypot(x - u, y - v) < tol for u, v in b.pips) for x, y in d.pips)


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


#: How far a pip's measured slant may fall short of its face's: the pips of
#: faces seen from straight above measure 0.9-1.0 (the tray photos).
_SLANT_ERROR = 0.1


def _side_slant_most(top_slant: float) -> float:
    """The least squashed a side face is seen beside a top face seen at
    ``top_slant`` (0-1, :func:`_slant`). A cube whose top is seen at slant
    ``s`` (the cosine of the view's angle from straight above) shows its side
    faces at most at ``sqrt(1 - s²)``; ``s`` is taken :data:`_SLANT_ERROR`
    lower, for the error of its measure and a close camera's perspective (on
    a table-phone photo, a side face at 0.377 beside a top face at 0.963)."""
    s = max(0.0, top_slant - _SLANT_ERROR)
    return math.sqrt(1.0 - s * s)


def _side_faces(dice: list[Die], sure: float, *, plainly: bool = False) -> list[Die]:
    """The dice of ``dice`` that are side faces of another: read unsurely
    (under ``sure``), seen at a steep slant (:data:`SIDE_SLANT`), and within
    a die's side of a die read surely and seen square-on. Two top faces of
    dice of one size cannot lie closer than a side apart.

    ``plainly``: only those that can be nothing else. The top face is seen no
    flatter than 4:5 (:data:`FRONT_SLANT`; a slanted top face may itself be a
    front face), and the side face is as foreshortened as a cube's side face
    is beside it (:func:`_side_slant_most`). A face less squashed than that
    (a two at 0.66 beside a one seen from straight above, on a webcam photo)
    may be a die of its own."""
    def beside(e: Die, d: Die) -> bool:
        if plainly and (d.slant < FRONT_SLANT or e.slant > _side_slant_most(d.slant)):
            return False
        return d.confidence >= sure and d.slant >= SIDE_SLANT and math.dist(d.center, e.center) < max(d.size, e.size)

    return [e for e in dice if e.slant < SIDE_SLANT and e.confidence < sure and any(beside(e, d) for d in dice)]


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
              gray: np.ndarray | None = None) -> tuple[int, int]:
    """What of a blob the dice read in it do not explain: ``(die-like parts, large parts)``.

    Each die explains its face grown by 60% (its side faces and shadow). A
    left-over part is die-like when it is about a face's area and compact; it
    is large when it covers more than 2.5 faces and is not a thin arc (the
    inner wall of a round tray is one). With ``edge`` (the image's ``(w, h)``,
    px), a die-like part touching the image's edge is not counted: it is no
    die wholly in the picture. With ``gray`` (the image's lightness, ``H×W
    uint8``, in the dice's pixels), a die-like part that is a read die's side
    face seen under a close camera (:func:`_side_face_part`) is not counted.
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
            if aspect >= 0.5 and fill >= 0.55:
                die_like += gray is None or not _side_face_part(c + np.array(offset, c.dtype), gray, near, side)
        else:
            large += aspect >= 0.35 and fill >= 0.4
    return die_like, large


#: A round dark spot covering this share of a face (side²) or more is a top
#: face's pip: the least pip :func:`vision.pipfirst.pip_dice` looks for. A
#: top face's pips cover 0.02-0.04 (diameter 0.15-0.22 side).
_TOP_PIP_LEAST = 0.006


def _side_face_part(cnt: np.ndarray, gray: np.ndarray, dice: list[Die], side: float) -> bool:
    """Whether a part of a blob no die explains is a read die's side face.

    ``cnt``: the part's contour (``N×1×2``, px ``(x, y)`` in ``gray``'s
    pixels); ``gray``: the image's lightness, ``H×W uint8``; ``side``: the die
    side, px. A close camera sees a die's side faces beyond the 60% margin a
    die explains round its face (on the table-phone photos, parts whose middle
    lay 0.9-1.4 sides from the die's centre, their pips squashed to 0.08-0.41
    and 0.005-0.013 of a face). The part is one when it lies within 1.6 sides of a
    die read seen square-on (slant at least :data:`FRONT_SLANT`) and its dark
    spots say so: at least one pip squashed as a side face's beside that die
    (:func:`_side_slant_most`, and flatter than :data:`SIDE_SLANT`) with its
    short axis within 45° of the line from that die (foreshortened towards
    it), and no spot of a top face's pip: less squashed, and at least
    :data:`_TOP_PIP_LEAST` of a face. An unread die's top face beside a die
    seen square-on is seen about square-on too, its pips round.
    """
    pts = cnt.reshape(-1, 2).astype(np.float64)
    mid = pts.mean(axis=0)
    near = [d for d in dice if d.slant >= FRONT_SLANT and math.dist(d.center, mid) <= 1.6 * d.size]
    if not near:
        return False
    die = min(near, key=lambda d: math.dist(d.center, mid))
    toward = (mid - np.asarray(die.center)) / max(1e-6, math.dist(die.center, mid))
    from vision.pipfirst import _PIP_CONTRAST, _rect  # here: it imports this module

    x, y, bw, bh = cv2.boundingRect(cnt)
    h, w = gray.shape[:2]
    pad = int(0.3 * side) + 1
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
    # Dark spots as vision.pipfirst finds pips: a black-hat of about half a die.
    resp = cv2.morphologyEx(gray[y0:y1, x0:x1], cv2.MORPH_BLACKHAT, _rect(0.45 * side))
    inside = np.zeros(resp.shape, np.uint8)
    cv2.drawContours(inside, [(cnt - np.array([x0, y0], cnt.dtype)).astype(np.int32)], -1, 255, -1)
    dark = cv2.bitwise_and(cv2.threshold(resp, _PIP_CONTRAST, 255, cv2.THRESH_BINARY)[1], inside)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    flat = 0
    for i in range(1, n):
        a = stats[i, cv2.CC_STAT_AREA] / (side * side)
        if not 0.002 <= a <= 0.08:
            continue
        shape = _blob_shape(labels, stats[i], i)
        if _slant(shape) > min(SIDE_SLANT, _side_slant_most(die.slant)):
            if a >= _TOP_PIP_LEAST:
                return False  # a top face's pip: maybe an unread die
            continue
        xx, xy, yy = shape
        short = np.linalg.eigh(np.array([[xx, xy], [xy, yy]]))[1][:, 0]
        flat += abs(float(short @ toward)) >= math.cos(math.radians(45))
    return flat > 0


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
    dist2 = _lab_dist2(lab, np.median(pixels, axis=0), _CHROMA_TWICE)
    other = cv2.bitwise_and((dist2 > (2 * config.min_contrast) ** 2).astype(np.uint8) * 255, inside)
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


#: A face read but never sure (its pips may be part of a larger face, or it
#: may be a side face) scores at most this: just under
#: ``ReaderConfig.sure_confidence``.
_FACE_NOT_SURE = 0.79

#: The widest circle inside a face's outline, over the outline box's side,
#: for a face seen alone: 0.95 (median of the tray and table-phone dice read
#: from their faces; 0.90-1.0).
_INSCRIBED = 0.95


def _read_face(face: np.ndarray, pip_mask: np.ndarray, offset, config: ReaderConfig, long_side: int,
               known_side: float | None = None) -> Die | None:
    """Read one face mask (uint8 0/255) with the pips in ``pip_mask``: a
    :class:`Die` in the mask's pixels plus ``offset``, or None. With
    ``known_side`` (the calibrated die side, px), faces far from that size are
    refused before their pips are looked at."""
    cnts, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cnts:
        return None
    cnt = max(cnts, key=cv2.contourArea)
    rect = cv2.minAreaRect(cnt)
    (cx, cy), (rw, rh), ang = rect
    if min(rw, rh) < config.min_die * long_side or max(rw, rh) > config.max_die * long_side:
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
    # Glints on glossy pips leave bright specks inside them: close and fill.
    holes = _fill_holes(cv2.morphologyEx(holes, cv2.MORPH_CLOSE, _ELLIPSE3))
    n, labels, stats, cents = cv2.connectedComponentsWithStats(holes, connectivity=8)
    pips = []
    for i in range(1, n):
        a = stats[i, cv2.CC_STAT_AREA]
        bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        rel = math.sqrt(a) / side
        if rel < 0.06 or rel > 0.35:
            continue
        if min(bw, bh) / max(bw, bh) < 0.45:
            continue
        if a / float(bw * bh) < 0.45:
            continue
        pips.append((float(cents[i][0]), float(cents[i][1]), float(a), _blob_shape(labels, stats[i], i)))
    if not pips:
        return None
    deepest = _deepest(face)
    pips = _top_face_pips(pips, deepest)
    if not 1 <= len(pips) <= 6:
        return None
    areas = [p[2] for p in pips]
    mean_area = sum(areas) / len(areas)
    size_spread = math.sqrt(sum((a - mean_area) ** 2 for a in areas) / len(areas)) / max(1.0, mean_area)
    outline = max(0.0, min(1.0, (aspect - 0.5) / 0.35)) * max(0.0, min(1.0, (fill - 0.5) / 0.3))
    conf = max(0.2, 1.0 - max(0.0, size_spread - 0.25))
    spread = _spread_fit(pips, (cx, cy), side)
    layout = _layout_fit(_face_coords(cnt, rect, pips))
    # A two, three or four whose free layout places show no pip (see
    # :func:`_free_places_empty`) is no part of a three, five or six; one
    # whose free places show a pip-like mark may be (MORE_PIPS).
    loose = 2 <= len(pips) <= 4 and layout < 1.0
    whole = loose and _free_places_empty(pips, pip_mask, side, ang, rect)
    marked = loose and not whole
    if len(pips) == 2 and whole:
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
    if 2 <= len(pips) <= 4 and not whole and layout < 0.9:
        # Pips that may be part of a larger face (a pip in a place they
        # leave free, two rows of a six), in an outline they fit only
        # loosely: read, never sure. Two rows of a six whose third row
        # merged with the face's edge where it touched another die read as
        # a sure four at 0.81 (a mock tray); no photo's read changed its
        # values or its sureness.
        conf = min(conf, _FACE_NOT_SURE)
    # A face seen at an angle has an outline that takes in its side faces, so
    # it is neither square nor solid and its pips spread less than its side
    # would have them; two or more pips in a whole face's pattern are evidence
    # enough that it is a die, and the outline counts less.
    conf *= (outline * spread) ** 0.3 if len(pips) >= 2 and layout >= 0.9 else outline * spread
    if len(pips) == 1:
        conf *= _lone_pip_fit(pips[0], face, pip_mask)
    slant = _slant([statistics.fmean(float(p[3][k]) for p in pips) for k in range(3)])
    # The face's side from the widest circle inside its outline, which side
    # faces beside the top face (a close or oblique camera sees them) do not
    # widen as they lengthen the outline's box.
    inner = 2.0 * deepest[0] / _INSCRIBED
    if slant < SIDE_SLANT:
        # Pips squashed flatter than 2:3: a face seen at a steep slant, which
        # may be a die's side face, not its top. Read, never sure.
        conf = min(conf, _FACE_NOT_SURE)
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
        doubts=(MORE_PIPS,) if marked else (),
        inner=round(min(inner, side), 1),
    )


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


# --------------------------------------------------------------------------
# Annotation
# --------------------------------------------------------------------------


def annotate(image: np.ndarray, dice: list[Die], *, highlight: tuple[int, ...] = (),
             confidence: bool = True) -> np.ndarray:
    """Draw each die's outline, value and (with ``confidence``) confidence on a copy of ``image``.

    ``image``: ``H×W×3 uint8 BGR``; ``dice``: from :func:`read_dice` on that
    image; ``highlight``: indices into ``dice`` drawn in a second colour (the
    dice that formed the target). Returns a new ``H×W×3 uint8 BGR`` image.
    """
    out = _check_image(image).copy()
    scale = max(out.shape[:2]) / 1000.0
    thick = max(1, round(2 * scale))
    for i, d in enumerate(dice):
        colour = (0, 200, 255) if i in highlight else (60, 220, 60)
        if d.confidence < 0.5:
            colour = (0, 0, 255)
        pts = np.array(d.corners, np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, colour, thick + (1 if i in highlight else 0), cv2.LINE_AA)
        for px, py in d.pips:
            cv2.circle(out, (round(px), round(py)), max(2, round(d.size * 0.05)), colour, -1, cv2.LINE_AA)
        label = f"{d.value} {d.confidence:.2f}" if confidence else str(d.value)
        org = (round(d.center[0] - d.size / 2), round(d.center[1] - d.size / 2 - 4 * scale))
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale + 0.2, (0, 0, 0), thick + 2, cv2.LINE_AA)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale + 0.2, colour, thick, cv2.LINE_AA)
    return out
