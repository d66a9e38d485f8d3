"""What the reader gives: a :class:`Die`, a :class:`Read`, and the image checks.

Also the slant limits and the doubts a die can carry (their codes are
:class:`vision.reasons.Doubt` values), and small measures over a list of dice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .config import DEFAULT, ReaderConfig
from .reasons import Doubt

#: A die's doubt (``Die.doubts``): its pips were told from its face by colour
#: alone (red pips on a blue die), not lightness. Such a read is never sure.
BY_COLOUR = Doubt.BY_COLOUR


#: A die's doubt: something of a die lies just above this face (seen at a
#: slant, flatter than ``config.faces.front_slant``): it may be that die's front face.
FRONT_FACE = Doubt.FRONT_FACE


#: A die's doubt: a lone pip found without its face's outline whose face
#: does not lie whole round it (:mod:`vision.pipfirst`): it may be a corner
#: pip of a two or three whose other pips are hidden.
OFF_CENTRE = Doubt.OFF_CENTRE


#: A die's doubt: another reading of its place, of another value, saw a pip
#: this one did not (see :func:`_doubt_rivals`): the classical passes
#: disagree. A four split from two dice it touched read as a two at 0.5 (a
#: rival three saw a third pip); the classifier, 0.996 sure of a two there,
#: confirmed it, and the throw was sure and wrong (a mock tray).
RIVAL_READ = Doubt.RIVAL_READ




class UnreadableImage(ValueError):
    """An image that cannot be read: not a file, not an image, or the wrong shape."""


@dataclass(frozen=True)
class Die:
    """One die read from an image.

    ``value``: the pips on its top face (1-6 on a standard die). ``center``: ``(x, y)`` pixels in
    the input image. ``size``: the face's side length in pixels. ``corners``:
    the face's four corner points, pixels ``(x, y)``, clockwise.
    ``confidence``: 0-1, how well the face and its pips match a die face.
    ``pips``: the pip centres, pixels ``(x, y)``. ``slant``: how square-on
    the face is seen, 0-1: its pips' short axis over their long axis (1 seen
    from straight above; under ``config.faces.side_slant``, it may be a side face).
    ``doubts``: why it is never sure, whatever its confidence, as
    :class:`vision.reasons.Doubt` members (its pips differ from the face in
    colour only, it may be a front or side face, a lone pip off its face's
    middle, a rival reading, a loose fit,
    found from pips alone, found or reread by the classifier alone, vetoed by
    it). A die is sure only with ``confidence >= config.sure`` and no doubt
    (:func:`is_sure`).
    ``free_mark``: a two, three or four whose pips fit its outline loosely,
    with a pip-like mark in a place its value leaves free: it may be part of
    a larger face. Not a doubt by itself (a well-fitting face with a speck
    stays sure), but the learned classifier rereads it as readily as a faint
    die and never confirms it (a blue five, two pips half covered, read as a
    three at 0.43 and confirmed by the classifier was sure and wrong; a mock
    tray, session 17).
    ``inner``: for a die read from its face's outline, the face's side from the
    widest circle inside that outline, pixels (at most ``size``; 0 where not
    measured). Where the outline takes in side faces (a close or oblique
    camera), its box, and so ``size``, is longer than the top face; ``inner``
    is not.
    ``die``: which die of a set whose dice differ by their pips' colour
    (:attr:`vision.diceset.DiceSet.by_colour`, Miwin's ``"blue"``, ``"red"``,
    ``"black"``); None for a standard die, or where the colour is unclear.
    """

    value: int
    center: tuple[float, float]
    size: float
    corners: tuple[tuple[float, float], ...]
    confidence: float
    pips: tuple[tuple[float, float], ...] = field(default=(), repr=False)
    slant: float = field(default=1.0, repr=False)
    doubts: tuple[Doubt, ...] = field(default=(), repr=False)
    inner: float = field(default=0.0, repr=False)
    free_mark: bool = field(default=False, repr=False)
    die: str | None = field(default=None, repr=False)

    def to_dict(self) -> dict:
        """JSON-ready form: value, center, size, corners, confidence (rounded)."""
        return {
            "value": self.value,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "size": round(self.size, 1),
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "confidence": round(self.confidence, 3),
        }


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


def _all_one_size(dice: list[Die]) -> bool:
    """Whether every die of ``dice`` is 0.75-1.33 times their median size
    (``Die.size``), by its outline's box or, where that box took in side
    faces, by the widest circle inside the outline (``Die.inner``). A die
    with no outline (``inner`` 0: its size taken from its pips' spread by the
    layout's 0.27 side, as :mod:`vision.pipfirst` does, or the side the
    classifier looked at) may be 0.6-1.67 times: pips lie nearer or farther
    from a face's middle as dice are made (the renders' dice 0.25 side; render
    380's six, read by its pips, came out 0.72 of the dice read by their outlines)."""
    sizes = np.array([d.size for d in dice])
    inner = np.array([d.inner or d.size for d in dice])
    lo = np.where([d.inner > 0 for d in dice], 0.75, 0.6)
    med = float(np.median(sizes))
    return not np.any(((sizes < lo * med) | (sizes > med / lo)) & ((inner < lo * med) | (inner > med / lo)))


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



def _side_slant_most(top_slant: float, *, config: ReaderConfig = DEFAULT) -> float:
    """The least squashed a side face is seen beside a top face seen at
    ``top_slant`` (0-1, :func:`_slant`). A cube whose top is seen at slant
    ``s`` (the cosine of the view's angle from straight above) shows its side
    faces at most at ``sqrt(1 - s²)``; ``s`` is taken ``config.faces.slant_error``
    lower, for the error of its measure and a close camera's perspective (on
    a table-phone photo, a side face at 0.377 beside a top face at 0.963)."""
    s = max(0.0, top_slant - config.faces.slant_error)
    return math.sqrt(1.0 - s * s)



def is_sure(die: Die, sure: float) -> bool:
    """True when ``die`` is sure: its confidence is at least ``sure`` (the
    config's sure threshold, 0-1) and it carries no doubt, so no threshold
    can make a doubted die sure."""
    return die.confidence >= sure and not die.doubts
