"""Fenn on the camera: the board of 9 fields and Miwin's dice on it, read from a frame.

Two steps. Calibration finds the board (:func:`find_board`, or
:meth:`BoardArea.from_ends` from its two ends touched on the screen) and
keeps it as a :class:`BoardArea`. Then :func:`read_fenn` looks at the board's
own plane (a perspective warp, one field = ``config.board.res`` px) and finds
the dice there as light squares of the die's size: the die finder for a
board. Each face is read by the reader's one face stage
(:func:`vision.face._read_face`, the same that reads the tray's d6) with the
dice set as data (:data:`vision.diceset.MIWIN`): 1-6 fitted to their
layouts, 7-9 counted (fenn.md documents no layout of them), the die named by
its pips' colour. A die stands on the field under its centre; the black die
lies beside the board (F14).

A read is sure only when all three dice are found, once each, every face
read with confidence at least ``sure`` and nothing else is seen: never with a
value the die does not carry (F1), a die between two fields, or something
(a hand) over the board.

Example::

    >>> from hardware.fenn_scene import FennScene
    >>> scene = FennScene(seed=4)
    >>> start, _ = scene.frame(blue=(1, 5), red=(9, 5), black=6, seed=1, stray=False)
    >>> board = find_board(start)  # the players set up (F2), then calibrate
    >>> frame, _ = scene.frame(blue=(3, 7), red=(8, 1), black=6, seed=2, stray=False)
    >>> r = read_fenn(frame, board)
    >>> r.sure, [(d.colour, d.value, d.field) for d in r.dice]
    (True, [('blue', 7, 3), ('red', 1, 8), ('black', 6, None)])
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .config import DEFAULT, ReaderConfig
from .diceset import MIWIN, MIWIN_SWAPPED, DiceSet
from .face import _read_face as read_face
from .fenn_board import find_strips
from .fenn_dice import _FLAT, camera_of, find_dice, standing_at
from .fenn_lift import BOARD_THICK, _unpaired, held_up, lift, pip_scale, regular_pattern, rigid, tilt_fit
from .fenn_over import FieldLines, board_plane, something_over
from .fenn_pips import _elongations, _like_pips, _rim_pair, _rim_pip
from .reasons import FennReason

__all__ = ["BoardArea", "FennDie", "FennRead", "FennReason", "BoardError", "find_board", "measure_tilt", "read_fenn",
           "held_up", "pip_scale", "regular_pattern", "BOARD_FILE"]

#: The stored board's file name in the data folder.
BOARD_FILE = "board.json"


class BoardError(ValueError):
    """No board found, ends that make no board, or a board file that cannot be read."""


@dataclass(frozen=True)
class BoardArea:
    """The board in a frame: ``corners`` (``(x, y)`` px) of field 1's outer end,
    then along the board to field 9's end, clockwise; ``frame_size`` ``(w, h)``;
    ``across`` and ``along`` the table's tilt under the board that its corners do
    not show (a strip one field wide found a few pixels off is nearly a
    parallelogram): the shares per field across and along by which a die further
    off looks smaller, measured at calibration from the still dice
    (:func:`measure_tilt`; ``across`` 0.0 and ``along`` None: not measured). ``across_known``: False for
    corners found (:func:`find_board`) or touched (:meth:`from_ends`), no tilt across measured: a strip one
    field wide found a pixel or two off tilts its plane across by up to ten degrees (issue 38's renders),
    so a die beside it is compared within ``config.board.across_unknown`` (:func:`vision.fenn_lift.held_up`).
    ``lines``: how much its lines between fields stood out at calibration (:attr:`FennRead.lines`; 0.0 not
    measured), held against those a later frame shows when the dice and a hand hide most of them."""

    corners: tuple[tuple[float, float], ...]
    frame_size: tuple[int, int]
    across: float = 0.0
    along: float | None = None
    across_known: bool = True
    lines: float = 0.0

    def to_plane(self) -> np.ndarray:
        """The 3×3 homography from frame pixels to the board's plane (fields; the board is [0, 9]×[0, 1])."""
        src = np.float32(self.corners)
        dst = np.float32([[0, 0], [9, 0], [9, 1], [0, 1]])
        return cv2.getPerspectiveTransform(src, dst)

    def field_of(self, point) -> int | None:
        """The field (1-9) under ``point`` (frame px), or None beside the board."""
        x, y = cv2.perspectiveTransform(np.float32([[point]]), self.to_plane())[0, 0]
        return int(x) + 1 if 0 <= x < 9 and 0 <= y <= 1 else None

    def scaled(self, frame_size: tuple[int, int]) -> "BoardArea":
        """The same board in a frame of another size."""
        sx, sy = frame_size[0] / self.frame_size[0], frame_size[1] / self.frame_size[1]
        return replace(self, corners=tuple((x * sx, y * sy) for x, y in self.corners), frame_size=tuple(frame_size))

    def to_dict(self) -> dict:
        """JSON-ready form (``corners`` px, ``frame_size``; ``across``, ``along``, ``lines`` when measured;
        ``across_known`` when false)."""
        d = {"corners": [[round(x, 1), round(y, 1)] for x, y in self.corners], "frame_size": list(self.frame_size)}
        return d | ({"across": round(self.across, 5)} if self.across else {}) | \
            ({"along": round(self.along, 5)} if self.along is not None else {}) | \
            ({} if self.across_known else {"across_known": False}) | \
            ({"lines": round(self.lines, 4)} if self.lines else {})

    @classmethod
    def from_dict(cls, d: dict) -> "BoardArea":
        """Raises :class:`BoardError` for a malformed board."""
        try:
            corners = tuple((float(x), float(y)) for x, y in d["corners"])
            size = (int(d["frame_size"][0]), int(d["frame_size"][1]))
            across = float(d.get("across", 0.0))
            along = None if d.get("along") is None else float(d["along"])
            known = d.get("across_known", True)
            if not isinstance(known, bool):
                raise ValueError(f"across_known is {known!r}, not true or false")
            lines = d.get("lines", 0.0)
            if isinstance(lines, bool) or not -255.0 <= float(lines) <= 255.0:
                raise ValueError(f"lines is {lines!r}, not a share of the board's lightness (-255 to 255)")
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise BoardError(f"not a board: {e}") from None
        if len(corners) != 4:
            raise BoardError("a board has 4 corners")
        for name, v in (("across", across), ("along", 0.0 if along is None else along)):
            if not abs(v) <= 0.2 or isinstance(d.get(name), bool):
                raise BoardError(f"not a board: its tilt {name}, {d.get(name)!r}, is not a share below 0.2")
        return cls(corners, size, across, along, known, float(lines))

    @classmethod
    def from_ends(cls, end1, end9, frame_size) -> "BoardArea":
        """The board from the centres of fields 1 and 9 touched on the screen (px): fields are square."""
        a, b = np.float64(end1), np.float64(end9)
        along = (b - a) / 8.0  # one field along the board
        if np.hypot(*along) < 4:
            raise BoardError("the two ends are too close to make a board")
        across = np.array([-along[1], along[0]])
        c1 = a - along / 2 - across / 2
        c9 = b + along / 2 - across / 2
        return cls(tuple(map(tuple, (c1, c9, c9 + across, c1 + across))), tuple(frame_size), across_known=False)


@dataclass(frozen=True)
class FennDie:
    """A die read: ``colour`` (blue, red, black; None when unclear), ``value``
    (pips counted), ``center`` px ``(x, y)`` (its top face), ``size`` px (its side),
    ``field`` (1-9, None beside the board), ``confidence`` 0-1; ``at`` where its foot
    stands on the board's plane, fields ``(along, across)`` (field 1's outer end at 0
    along, field 9's at 9; the board's sides at 0 and 1 across), None for a stray."""

    colour: str | None
    value: int
    center: tuple[float, float]
    size: float
    field: int | None
    confidence: float
    at: tuple[float, float] | None = None

    def to_dict(self) -> dict:
        """The die as ``companion read --game fenn --json`` prints it (``at`` where known)."""
        return {"colour": self.colour, "value": self.value, "center": [round(v, 1) for v in self.center],
                "size": round(self.size, 1), "field": self.field, "confidence": round(self.confidence, 3)} | \
            ({"at": [round(v, 3) for v in self.at]} if self.at is not None else {})


@dataclass(frozen=True)
class FennRead:
    """A frame read: ``dice`` (blue, red, black first, then any other), ``reasons``
    (why not sure; empty when sure), ``ms`` the time taken."""

    dice: tuple[FennDie, ...]
    reasons: tuple[FennReason, ...] = ()
    ms: float = 0.0
    strays: tuple[FennDie, ...] = ()
    #: The surely read faces of 2-6 pips the held-up test compared: ``(scale, x, y)`` each, the pip
    #: pattern's size put back to the board's height (:func:`vision.fenn_lift.held_up`), where it stands
    #: (fields along, across). What calibration measures the table's tilt by (:func:`measure_tilt`).
    patterns: tuple[tuple[float, float, float], ...] = ()
    #: How much the board's lines between fields stand out in this frame where no die stands, as a share of
    #: the board's median lightness (negative: darker lines); 0.0 where fewer than four show
    #: (:attr:`vision.fenn_over.FieldLines.contrast`). What calibration keeps (:attr:`BoardArea.lines`).
    lines: float = 0.0

    @property
    def sure(self) -> bool:
        """True when all three dice are read and nothing doubts the read (a stray die beside the
        board, :attr:`FennReason.STRAY_DIE`, is a note, not a doubt)."""
        return len(self.dice) == 3 and all(r is FennReason.STRAY_DIE for r in self.reasons)

    def die(self, colour: str) -> FennDie | None:
        """The die with pips of ``colour`` (``"blue"``, ``"red"``, ``"black"``), or None."""
        return next((d for d in self.dice if d.colour == colour), None)

    def to_dict(self) -> dict:
        """The read as ``companion read --game fenn --json`` prints it (without the image)."""
        return {"dice": [d.to_dict() for d in self.dice], "sure": self.sure,
                "reasons": [str(r) for r in self.reasons], "ms": round(self.ms, 1),
                "strays": [d.to_dict() for d in self.strays]}


# -- calibration ---------------------------------------------------------------
def find_board(frame: np.ndarray, *, dice: DiceSet = MIWIN, config: ReaderConfig = DEFAULT) -> BoardArea:
    """Find the board (a long strip of 9 fields) in ``frame`` (``H×W×3 uint8 BGR``).

    The board is found by what it is (:func:`vision.fenn_board.find_strip`:
    two long straight sides, nine square fields of one colour parted by
    lines), on any table and with dice standing on it; where too few of its
    lines show for that (dark lines on black leather), or blue and red do
    not both stand on the strip found so (a checked cloth's row of squares), a
    strip showing ``config.board.fallback_lines`` of them is the board only
    where blue and red read surely on its fields (F2). Which end is field 1:
    the end where the blue die stands when the dice are set up for the start
    (F2: blue on field 1, red on 9), else the end nearer the frame's left (or
    top). Raises :class:`BoardError` when none is found, or blue and red do
    not both stand on the one found (the players touch the two ends instead:
    :meth:`BoardArea.from_ends`).
    """
    if frame is None or getattr(frame, "ndim", 0) != 3:
        raise BoardError("not a colour image")
    strong, weak = find_strips(frame, config.board, least_lines=config.board.fallback_lines)
    if strong:
        first = _as_board(frame, strong[0], dice, config)
        if {d.colour for d in first[1].dice if d.field is not None} >= {"blue", "red"}:
            return first[0]
        # Not both game's dice on it (F2: blue and red stand on the board): a checked cloth's row of squares
        # (fresh renders 442 and 457, at the start), a plank's grain across the board's end (456's start),
        # where a weak strip may be the board with both on it; else none is found, and the players touch
        # its ends (457, 456: no strip of its own).
    # Lines that hardly show (dark lines on black leather): a strip with fewer is the board only where the
    # game's dice, blue and red, read surely, stand on its fields (F2; not near a line between two, as on a
    # strip of the table beside a board hidden by a hand), as on no table's planks or stripes.
    for quad in weak:
        board, r = _as_board(frame, quad, dice, config)
        game = [d for d in r.dice if d.colour in ("blue", "red")]
        if sorted(d.colour for d in game) == ["blue", "red"] and \
                not {FennReason.BETWEEN_FIELDS, FennReason.OFF_BOARD} & set(r.reasons) and \
                all(d.field is not None and d.confidence >= config.sure for d in game):
            return board
    if strong:
        raise BoardError("no board found: blue and red do not both stand on the strip of 9 fields seen (set up "
                         "for the start, blue on field 1 and red on 9, or touch the board's two ends)")
    raise BoardError("no board found: a strip of 9 fields, about 9 times as long as wide")


def _as_board(frame: np.ndarray, quad, dice: DiceSet, config: ReaderConfig):
    """``(board, read)``: the strip ``quad`` (:func:`vision.fenn_board.find_strip`'s corners) as the board,
    field 1 at the end where blue stands (F2) or else nearer the frame's left (or top), and the read on it."""
    h, w = frame.shape[:2]
    cyc = [np.asarray(p, np.float64) for p in quad]  # end A, along a long side to end B, across, back
    end_a, end_b = cyc[0] + cyc[3], cyc[1] + cyc[2]
    if end_a.sum() > end_b.sum():  # field 1 at the end nearer the left (or top)
        cyc = [cyc[1], cyc[0], cyc[3], cyc[2]]
    board, r = _one_field_off(frame, _clockwise(cyc, (w, h)), dice, config)
    blue, red = r.die("blue"), r.die("red")
    if blue and blue.field == 9 or red and red.field == 1 and not (blue and blue.field == 1):
        c = board.corners
        board = _clockwise([np.array(c[1]), np.array(c[0]), np.array(c[3]), np.array(c[2])], (w, h))
    return board, r


def _one_field_off(frame: np.ndarray, board: BoardArea, dice: DiceSet, config: ReaderConfig):
    """``(board, read)``: ``board`` moved one field along itself when that puts more of the blue and red
    dice on it (one lay just beyond an end), with the read on the board kept.

    The game's dice stand on the board (F2), and where dice and their shadows hide the field lines
    near an end, the finder's comb of lines may sit one field off; the dice read on it would then be
    sure of the wrong fields."""
    r = read_fenn(frame, board, dice=dice, config=config)
    game = [d for d in r.dice if d.colour in ("blue", "red")]
    if not game:
        return board, r
    to_plane = board.to_plane()
    c = np.float64(board.corners)
    unit = float(np.hypot(*(c[1] - c[0]))) / 9
    camera = camera_of(np.linalg.inv(to_plane), board.frame_size, config.board.focal)
    mids = cv2.perspectiveTransform(np.float32([[d.center for d in game]]), to_plane)[0]
    feet = np.array([standing_at((float(m[0]), float(m[1])), camera, d.size / unit) for m, d in zip(mids, game)])
    x = feet[np.abs(feet[:, 1] - 0.5) < 0.8, 0]  # along the board's line, not beside it

    def on(shift: float) -> int:
        return int(((x - shift >= 0) & (x - shift <= 9)).sum())

    shift = max((-1.0, 1.0), key=on)
    if on(shift) <= on(0.0):
        return board, r
    ends = np.float32([[[shift, 0], [9 + shift, 0], [9 + shift, 1], [shift, 1]]])
    moved = cv2.perspectiveTransform(ends, np.linalg.inv(to_plane))[0]
    board = replace(board, corners=tuple((float(px), float(py)) for px, py in moved))
    return board, read_fenn(frame, board, dice=dice, config=config)


def measure_tilt(frame: np.ndarray, board: BoardArea, *, dice: DiceSet = MIWIN,
                 config: ReaderConfig = DEFAULT) -> BoardArea:
    """``board`` with the table's tilt under it (:attr:`BoardArea.across`, ``along``) measured from the
    dice standing still in ``frame`` (``H×W×3 uint8 BGR``): the start position as the players calibrate
    (F2: blue on field 1, red on field 9, the black die beside the board). The tilt is what makes their
    pip patterns one size (:func:`vision.fenn_lift.tilt_fit`, at most ``config.board.tilt_most`` a
    field): along where faces of 2-6 pips read surely lie ``config.board.along_span`` fields or more
    apart along the board (else ``along`` None: each frame's field lines tell it), across where they lie
    ``config.board.across_span`` or more apart across it (else ``across`` 0.0: compared as found). A board
    found, or touched at its ends, shows no tilt across and only roughly along; without it still dice a
    few fields apart can seem held up (issue 38). It also keeps how much the board's lines between fields
    stand out (:attr:`BoardArea.lines`; 0.0 where fewer than four show).

    >>> from hardware.fenn_scene import FennScene
    >>> start, _ = FennScene(seed=4).frame(blue=(1, 5), red=(9, 5), black=6, seed=1, stray=False)
    >>> board = measure_tilt(start, find_board(start))
    >>> abs(board.across) <= DEFAULT.board.tilt_most
    True

    Raises ``ValueError`` for an image that is not a colour image."""
    flat = replace(board, across=0.0, along=None, lines=0.0)
    r = read_fenn(frame, flat, dice=dice, config=config)
    along, across = tilt_fit(r.patterns, config.board.across_span, config.board.tilt_most,
                             config.board.along_span)
    return replace(flat, across=across, along=along, across_known=board.across_known or across != 0.0,
                   lines=r.lines)


def _clockwise(c, size) -> BoardArea:
    u, v = c[1] - c[0], c[3] - c[0]
    if u[0] * v[1] - u[1] * v[0] < 0:  # clockwise on screen (y down)
        c = [c[3], c[2], c[1], c[0]]
    return BoardArea(tuple((float(x), float(y)) for x, y in c), tuple(size), across_known=False)


# -- reading -------------------------------------------------------------------
def read_fenn(frame: np.ndarray, board: BoardArea, *, dice: DiceSet = MIWIN,
              config: ReaderConfig = DEFAULT) -> FennRead:
    """Read Miwin's dice in ``frame`` (``H×W×3 uint8 BGR``) on ``board``.

    Every die in view is found by what it is (:func:`vision.fenn_dice.find_dice`)
    and its face read by the one face stage; its place is where its top face,
    a die's height above the board, stands (:func:`vision.fenn_dice.standing_at`).
    Blue and red stand on the board; the black die lies anywhere beside it
    (F14); any other die (a stray d6: smaller than the set's, or of another
    body) is reported in ``strays`` with :attr:`FennReason.STRAY_DIE`.

    ``dice``: the dice set (faces and pip colours by die, :data:`vision.diceset.MIWIN`).
    ``config``: the reader's one config (:class:`vision.config.ReaderConfig`:
    ``board`` for finding the dice, ``faces`` and ``colours`` for reading
    them, ``sure``). Returns a :class:`FennRead`. Raises ``ValueError`` for an
    image that is not a colour image.
    """
    if frame is None or getattr(frame, "ndim", 0) != 3 or frame.shape[2] != 3:
        raise ValueError("not a colour image (H×W×3 uint8 BGR)")
    t0 = time.perf_counter()
    h, w = frame.shape[:2]
    if tuple(board.frame_size) != (w, h):
        board = board.scaled((w, h))
    bc = config.board
    to_plane = board.to_plane()
    to_frame = np.linalg.inv(to_plane)
    c = np.float64(board.corners)
    unit = float(np.mean([np.hypot(*(c[1] - c[0])), np.hypot(*(c[2] - c[3]))]) / 9)
    camera = camera_of(to_frame, (w, h), bc.focal)
    reasons: set[FennReason] = set()
    plane = board_plane(frame, to_frame)
    board_colour = np.median(plane.reshape(-1, 3), axis=0)
    seen = []
    for f in find_dice(frame, unit, bc, chroma=config.colours.pip_chroma):
        mid = cv2.perspectiveTransform(np.float32([[f.box.mean(axis=0)]]), to_plane)[0, 0]
        local = _local_unit(to_frame, mid)
        d, pips = _read_face(frame, f.box, np.eye(3), 0, dice, config)
        if d.value >= 2 and not dice.carries(d.colour, d.value):
            # Pips read, but no face of the die: the square may be found smaller than the die (a die near
            # the camera) or off its middle, its pips at the rim cut off. Read in a wider square: more
            # pips, in a regular pattern of a face the die has.
            at = f.box.mean(axis=0)
            wide, wide_pips = _read_face(frame, at + (f.box - at) * _WIDER, np.eye(3), 0, dice, config)
            if wide.value > d.value and dice.carries(wide.colour, wide.value) and \
                    regular_pattern(wide_pips, bc.pip_symmetry):
                d, pips = replace(wide, center=d.center, size=d.size), wide_pips
        if d.value == 0:
            continue  # no pips read: no die
        k = bc.die * local / max(float(np.hypot(*(f.box[1] - f.box[0]))), 1.0)  # the set's die's side over the square's
        if d.confidence < config.sure and d.colour and len(pips) and k <= 1 / bc.reread_large:
            # Read unsurely in a square far larger than the die (its shadow or a side taken in): read again in
            # a square of the die's size round its pips, kept where it reads the same surer (config).
            at = f.box.mean(axis=0)
            again, again_pips = _read_face(frame, pips.mean(axis=0) + (f.box - at) * k, np.eye(3), 0, dice, config)
            if (again.colour, again.value) == (d.colour, d.value) and again.confidence > d.confidence and \
                    regular_pattern(again_pips, bc.pip_symmetry):
                d, pips = replace(again, center=d.center, size=d.size), again_pips
        x, y = standing_at((float(mid[0]), float(mid[1])), camera, f.side / local)
        on = -bc.edge_margin <= y <= 1 + bc.edge_margin and -bc.edge_margin <= x <= 9 + bc.edge_margin
        if on and (d.colour not in ("blue", "red") or d.confidence <= 0) and \
                np.linalg.norm(np.float64(f.body) - board_colour) < bc.field_colour:
            continue  # a field of the board with its number: a square of a die's size, the board's colour
            # (a burgundy board's own colour taken for a red pip: nothing of a face round it)
        if on and d.colour is None and d.value == 1:
            continue  # a lone pip of no die's colour on the board: a number's loop (6, 8, 9); a 1 is blue or red (F1)
        if on and d.colour is None and d.confidence < bc.no_colour_die:
            continue  # marks of no die's colour in no face's pattern on the board: a field's stitches
        if d.colour in (None, "black") and d.value == 1 and d.confidence <= 0:
            continue  # a lone mark with nothing of a face round it, of no die's colour or dark: a cloth's speck
        seen.append((d, f, x, y, f.side / local, on, pips))
    # Two squares overlapping are one die (its top face and a side face with pips seen at a slant):
    # the surer read is kept.
    seen.sort(key=lambda t: (-t[0].confidence, -t[1].side))
    kept = []
    for t in seen:
        if all(np.hypot(*(t[1].box.mean(axis=0) - k[1].box.mean(axis=0))) >= 0.8 * max(t[1].side, k[1].side)
               for k in kept):
            kept.append(t)
    seen = kept
    # The set's dice: their faces' colour and size from those on the board (blue, red), else the config.
    ref = [t for t in seen if t[5] and t[0].colour in ("blue", "red")]
    size = float(np.median([t[4] for t in ref])) if ref else bc.die
    body = np.median([t[1].body for t in ref], axis=0) if ref else None
    plain = rigid(to_frame, (w, h), bc.focal) if camera is not None else to_plane

    def scale(t) -> float | None:  # the pip pattern's size, surely read faces only
        got = pip_scale(t[0].value, t[6], plain, camera, size + (BOARD_THICK if t[5] else 0.0))
        return got[0] if got is not None and t[0].confidence >= config.sure else None

    scales = [x for x in map(scale, ref) if x is not None]
    pattern = float(np.median(scales)) if scales else None

    def off_set(t) -> bool:
        """Whether a die's pip pattern is surely not of the set's size (``bc.stray_pattern`` off)."""
        a = scale(t)
        return pattern is not None and a is not None and abs(a / pattern - 1) > bc.stray_pattern

    def unlike(t) -> float:
        """How unlike the set's dice a die is (0: like them; above 1: another die)."""
        if body is None:
            b = 0.0
        else:  # lightness counts a third: the light falls unevenly over the table, a colour is the die's own
            b = float(_unlit(np.float64(t[1].body) - body)) / bc.stray_body
        return max(b, bc.stray_size[1] * size / max(t[4], 1e-6))

    def told_apart(stray, taken) -> bool:
        """Whether a die set aside as a stray is surely not the game's die ``taken`` in its stead: the
        taken one's pip pattern is of the set's size and the stray's is not (a d6 with black pips
        beside the black die; both showing 2-6 pips, the set's dice's pattern known). Only lifts the
        doubt: through a board found askew the patterns differ more, and the doubt stays."""
        return taken is not None and scale(taken) is not None and not off_set(taken) and off_set(stray)

    found, strays, spread = [], [], []
    def the_games(t) -> bool:
        """Whether a die is surely the game's: blue or red on the board (F2), or showing more pips than
        a d6 has, read surely, a value its die carries."""
        d = t[0]
        return t[5] and d.colour in ("blue", "red") or \
            d.value > 6 and d.confidence >= config.sure and dice.carries(d.colour, d.value)

    # The game's dice first, then those showing a value their die carries, each the most like the set
    # first: a die of a taken die's colour beside the board is a stray, and a doubt only when it might
    # be the game's instead (F14: the black die lies anywhere beside the board).
    certain: set = set()
    taken: dict = {}  # colour -> the die taken for it
    for t in sorted(seen, key=lambda t: (not the_games(t), not dice.carries(t[0].colour, t[0].value), off_set(t),
                                         unlike(t))):
        d, _f, x, y, _s, on, pips = t
        mine = [e for e in found if e.colour == d.colour and d.colour is not None]
        if not on and (unlike(t) > 1 and not the_games(t) or d.colour in ("blue", "red", "black") and mine):
            strays.append(replace(d, colour=None, field=None))  # a stray d6 (or a second, less like the set)
            if the_games(t) or unlike(t) <= 1 and d.colour not in certain and not told_apart(t, taken.get(d.colour)) \
                    and (dice.carries(d.colour, d.value) or d.confidence < config.sure):
                reasons.add(FennReason.COLOURS)  # as like the set as the one taken (or the game's misread): which?
            continue
        if the_games(t):
            certain.add(d.colour)
        taken.setdefault(d.colour, t)
        on_board = 0 <= y <= 1 and 0 <= x < 9
        # Blue and red stand on the board (F2): one a little beyond its side or end overhangs it (or the
        # board was found or touched a little off) and stands on the field beside it.
        m = bc.edge_margin
        stands = on_board or d.colour in ("blue", "red") and -m <= y <= 1 + m and -m <= x < 9 + m
        found.append(replace(d, field=min(max(int(np.floor(x)), 0), 8) + 1 if stands else None,
                             at=(float(x), float(y))))
        if d.confidence >= config.sure:  # a face misread (its pips spread unlike its value's) tells no height
            spread.append((found[-1], pips, stands))
        if d.colour == "black" and on_board or d.colour in ("blue", "red") and not stands:
            reasons.add(FennReason.OFF_BOARD)
        if d.colour in ("blue", "red") and stands and min(abs(x - k) for k in range(1, 9)) < bc.line_margin:
            reasons.add(FennReason.BETWEEN_FIELDS)  # near a line between two fields (not the board's ends)
        if d.confidence < config.sure:
            reasons.add(FennReason.HARD_TO_READ)
    if strays:
        reasons.add(FennReason.STRAY_DIE)
    out: list[FennDie] = []
    for colour in ("blue", "red", "black"):
        mine = [d for d in found if d.colour == colour]
        if len(mine) > 1:
            reasons.add(FennReason.COLOURS)
        out += mine
    out += [d for d in found if d.colour is None]
    if any(d.colour is None for d in found):
        reasons.add(FennReason.COLOURS)
    if len(found) < 3:
        reasons.add(FennReason.MISSING_DIE)
    lines = FieldLines(frame, to_frame, [t[1] for t in seen], known=board.lines)
    # The tilt along, where no calibration measured it and the lines do not tell it, is not known on a board
    # found in the frame or touched: its corners a few pixels off, nine fields apart along it (one across).
    told = lines.tilt_told()
    ratio, patterns = held_up(spread, plain, camera, size, tilt=told or 0.0, across=board.across,
                              along=board.along, unknown=0.0 if board.across_known else bc.across_unknown,
                              along_unknown=bc.across_unknown / 9 if board.along is None and told is None
                              and not board.across_known else 0.0)
    if something_over(plane, lines, bc) or camera is not None and ratio > 1 + bc.held_up * lift(camera, size):
        reasons.add(FennReason.FOREIGN)  # a hand, a cup over the board, or a die held up (in mid-move)
    wrong = [d for d in out if d.colour and not dice.carries(d.colour, d.value)]
    if wrong:
        reasons.add(FennReason.NOT_A_FACE)
        other = MIWIN_SWAPPED if dice is MIWIN else MIWIN
        if all(other.carries(d.colour, d.value) for d in out if d.colour):
            reasons.add(FennReason.OTHER_SET)
    ms = (time.perf_counter() - t0) * 1000
    return FennRead(tuple(out), tuple(sorted(reasons, key=lambda r: list(FennReason).index(r))), ms,
                    tuple(strays), patterns, lines.contrast)


def _unlit(dlab: np.ndarray) -> np.ndarray:
    """The distance of Lab differences ``dlab`` (``...×3``: L*, a*, b*) with lightness counting a third:
    light and shadow change a colour's lightness, the colour is the die's or the board's own
    (``...``, the shape less its last axis)."""
    dl, da, db = np.moveaxis(dlab, -1, 0)
    return np.sqrt((dl / 3) ** 2 + da * da + db * db)


def _local_unit(to_frame, at) -> float:
    """Frame px per field at plane point ``at``."""
    p = cv2.perspectiveTransform(np.float32([[at, (at[0] + 1, at[1]), (at[0], at[1] + 1)]]), to_frame)[0]
    return float((np.hypot(*(p[1] - p[0])) + np.hypot(*(p[2] - p[0]))) / 2)


_PATCH = 72
#: How much larger than the die's square the patch read is (the whole face, and the board around it).
_GROW = 1.25
#: A die's square read again this much wider when no face of the die was read in it.
_WIDER = 1.35


def _read_face(frame, box, back, R, dice: DiceSet, config: ReaderConfig):
    """One die's face, straightened: the finder's part is its face and pips
    (the face's own colour from its middle, pips the marks unlike it inside
    its outline); the reader's one face stage reads them with the dice set.
    Returns ``(FennDie, pips N×2 frame px)``."""
    mid = box.mean(axis=0)
    box = mid + (box - mid) * _GROW  # the whole face and some of the board around it
    corners = cv2.perspectiveTransform(np.float32([box]), back)[0]  # frame px
    P = _PATCH
    M = cv2.getPerspectiveTransform(np.float32(corners), np.float32([[0, P], [0, 0], [P, 0], [P, P]]))
    patch = cv2.warpPerspective(frame, M, (P, P), flags=cv2.INTER_LINEAR)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)
    inner = lab.astype(np.float32)
    q = P // 4
    body = np.median(inner[q:-q, q:-q].reshape(-1, 3), axis=0)  # the face's own colour, from its middle
    dist = np.linalg.norm(inner - body, axis=2)
    half = P / _GROW / 2 * 1.08
    keep = np.zeros((P, P), np.uint8)
    keep[int(P / 2 - half):int(np.ceil(P / 2 + half)), int(P / 2 - half):int(np.ceil(P / 2 + half))] = 1

    def masks(dist):
        """The face: the body-coloured region around the middle, its pips' holes filled, no farther than
        the die's square found (:func:`vision.fenn_dice.find_dice`; a board of the face's colour); and
        its pips, the marks unlike it inside it."""
        near = (dist <= config.board.pip_contrast).astype(np.uint8)
        nb, blabels, bstats, _bc = cv2.connectedComponentsWithStats(near)
        main = int(np.argmax(bstats[1:, cv2.CC_STAT_AREA])) + 1 if nb > 1 else 0
        face = np.zeros_like(near)
        outline, _ = cv2.findContours((blabels == main).astype(np.uint8), cv2.RETR_EXTERNAL,
                                      cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(face, outline, -1, 255, thickness=cv2.FILLED)
        face &= keep * 255
        return face, ((dist > config.board.pip_contrast) & (face > 0)).astype(np.uint8) * 255

    face, pipmask = masks(dist)

    def pips_of(d) -> np.ndarray:
        return np.float64(d.pips).reshape(-1, 2)

    def regular(d) -> bool:
        return regular_pattern(pips_of(d), config.board.pip_symmetry)

    die = read_face(face, pipmask, (0, 0), config, None, P / _GROW, dice=dice, lab=lab, found=True)
    used = (face, pipmask)  # the masks the read came from
    if die is not None and die.value >= 6 and not regular(die):
        grown = _rim_pip(face, pipmask, pips_of(die), dist, config.board)
        if grown is not None:
            again = read_face(grown[0], grown[1], (0, 0), config, None, P / _GROW, dice=dice, lab=lab)
            if again is not None and again.value == die.value + 1 and regular(again):
                die, used = again, grown
    dropped = False
    if die is not None and die.value >= 7 and not regular(die):
        # One mark more than a regular pattern (a side's pip, a speck beside the face): the value read
        # without it, when its pips are regular and the die carries it; never sure (renders: a 6 read 7).
        pips = pips_of(die)
        got = _unpaired(pips)
        if got is not None:
            cut = pipmask.copy()
            cv2.circle(cut, tuple(int(round(v)) for v in pips[got[1]]), max(2, int(round(0.3 * got[2]))), 0, -1)
            again = read_face(face, cut, (0, 0), config, None, P / _GROW, dice=dice, lab=lab, found=True)
            if again is not None and again.value == die.value - 1 and again.die == die.die and \
                    dice.carries(again.die, again.value) and regular(again):
                die, dropped, used = again, True, (face, cut)
    unread = die is None or not dice.carries(die.die, die.value)
    if unread or die.confidence < config.sure:
        # No face of the die read, or none surely: a shadow may fall across the face (another die's, a
        # hand's), so that the part in it lies beyond the contrast from its middle's colour and its pips
        # there are cut off (what is left may be a value the die carries: a blue 7 half in shadow, a 5).
        # A shadow darkens and keeps the colour: read again with lightness counting a third, the surer
        # regular read kept.
        face2, pip2 = masks(_unlit(inner - body))
        again = read_face(face2, pip2, (0, 0), config, None, P / _GROW, dice=dice, lab=lab, found=True)
        if again is not None and dice.carries(again.die, again.value) and regular(again) and \
                (unread or again.confidence > die.confidence):
            die, dropped, used = again, False, (face2, pip2)
    if die is not None and die.value >= 2:
        # A side's pips, seen at a slant near the frame's edge, are squashed ovals; a top's are round
        # (read right, at most 1.45 long in the mock family and the renders): a square taking in a side's
        # pips reads them with the top's (fenn-00408's black 4 and two pips of its side, a regular 6).
        # Read without them, when what is left is regular and the die carries it; never sure.
        long, at, marks = _elongations(used[1], pips_of(die))
        flat = long > _FLAT
        if flat.any():
            cut = used[1].copy()
            cut[np.isin(marks, at[flat])] = 0
            again = read_face(used[0], cut, (0, 0), config, None, P / _GROW, dice=dice, lab=lab, found=True)
            if again is not None and again.value == die.value - int(flat.sum()) and again.die == die.die and \
                    dice.carries(again.die, again.value) and regular(again):
                die = again
            dropped = True
    cx, cy = corners.mean(axis=0)
    size = float(np.mean([np.hypot(*(corners[i] - corners[(i + 1) % 4])) for i in range(4)])) / _GROW
    if die is None:
        return FennDie(None, 0, (float(cx), float(cy)), size, None, 0.0), np.zeros((0, 2))
    confidence = die.confidence if not (die.doubts or dropped) else min(die.confidence, config.faces.not_sure_most)
    pips = pips_of(die)
    if die.value > 6 and not regular(die):
        confidence = min(confidence, config.faces.not_sure_most)  # pips counted in no regular pattern
    if die.value >= 6 and die.die in ("blue", "red") and _rim_pair(_like_pips(inner, body, pips), keep, pips, P / _GROW):
        confidence = min(confidence, config.faces.not_sure_most)  # two rim pips left out (mock 10195: not black)
    frame_pips = cv2.perspectiveTransform(np.float32([pips]), np.linalg.inv(M))[0] if len(pips) else pips
    return FennDie(die.die, die.value, (float(cx), float(cy)), size, None, confidence), np.float64(frame_pips)


def load_board(path: str) -> BoardArea:
    """The board stored at ``path`` (JSON). Raises :class:`BoardError` naming the file."""
    try:
        with open(path, encoding="utf-8") as f:
            return BoardArea.from_dict(json.load(f))
    except (OSError, ValueError) as e:
        raise BoardError(f"{path}: {e}") from None
