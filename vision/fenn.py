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
    >>> frame, _ = scene.frame(blue=(3, 7), red=(8, 1), black=6)
    >>> board = find_board(frame)
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

from .config import DEFAULT, BoardConfig, ReaderConfig
from .diceset import MIWIN, MIWIN_SWAPPED, DiceSet
from .face import _read_face as read_face
from .reasons import FennReason

__all__ = ["BoardArea", "FennDie", "FennRead", "FennReason", "BoardError", "find_board", "read_fenn",
           "BOARD_FILE"]

#: The stored board's file name in the data folder.
BOARD_FILE = "board.json"


class BoardError(ValueError):
    """No board found, ends that make no board, or a board file that cannot be read."""


@dataclass(frozen=True)
class BoardArea:
    """The board in a frame: ``corners`` (``(x, y)`` px) of field 1's outer end,
    then along the board to field 9's end, clockwise; ``frame_size`` ``(w, h)``."""

    corners: tuple[tuple[float, float], ...]
    frame_size: tuple[int, int]

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
        return BoardArea(tuple((x * sx, y * sy) for x, y in self.corners), tuple(frame_size))

    def to_dict(self) -> dict:
        """JSON-ready form (``corners`` px, ``frame_size``)."""
        return {"corners": [[round(x, 1), round(y, 1)] for x, y in self.corners], "frame_size": list(self.frame_size)}

    @classmethod
    def from_dict(cls, d: dict) -> "BoardArea":
        """Raises :class:`BoardError` for a malformed board."""
        try:
            corners = tuple((float(x), float(y)) for x, y in d["corners"])
            size = (int(d["frame_size"][0]), int(d["frame_size"][1]))
        except (KeyError, TypeError, ValueError) as e:
            raise BoardError(f"not a board: {e}") from None
        if len(corners) != 4:
            raise BoardError("a board has 4 corners")
        return cls(corners, size)

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
        return cls(tuple(map(tuple, (c1, c9, c9 + across, c1 + across))), tuple(frame_size))


@dataclass(frozen=True)
class FennDie:
    """A die read: ``colour`` (blue, red, black; None when unclear), ``value``
    (pips counted), ``center`` px ``(x, y)``, ``size`` px (its side),
    ``field`` (1-9, None beside the board), ``confidence`` 0-1."""

    colour: str | None
    value: int
    center: tuple[float, float]
    size: float
    field: int | None
    confidence: float

    def to_dict(self) -> dict:
        """The die as ``companion read --game fenn --json`` prints it."""
        return {"colour": self.colour, "value": self.value, "center": [round(v, 1) for v in self.center],
                "size": round(self.size, 1), "field": self.field, "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class FennRead:
    """A frame read: ``dice`` (blue, red, black first, then any other), ``reasons``
    (why not sure; empty when sure), ``ms`` the time taken."""

    dice: tuple[FennDie, ...]
    reasons: tuple[FennReason, ...] = ()
    ms: float = 0.0

    @property
    def sure(self) -> bool:
        """True when all three dice are read and nothing doubts the read."""
        return not self.reasons and len(self.dice) == 3

    def die(self, colour: str) -> FennDie | None:
        """The die with pips of ``colour`` (``"blue"``, ``"red"``, ``"black"``), or None."""
        return next((d for d in self.dice if d.colour == colour), None)

    def to_dict(self) -> dict:
        """The read as ``companion read --game fenn --json`` prints it (without the image)."""
        return {"dice": [d.to_dict() for d in self.dice], "sure": self.sure,
                "reasons": [str(r) for r in self.reasons], "ms": round(self.ms, 1)}


# -- calibration ---------------------------------------------------------------
def find_board(frame: np.ndarray) -> BoardArea:
    """Find the board (a long strip of 9 fields) in ``frame`` (``H×W×3 uint8 BGR``).

    The board is the largest region unlike the table around it whose outline is
    about 9 times as long as wide. Field 1 is taken at the end nearer the
    frame's left (or top). Raises :class:`BoardError` when none is found.
    """
    if frame is None or frame.ndim != 3:
        raise BoardError("not a colour image")
    h, w = frame.shape[:2]
    k = 400 / max(w, h)
    small = cv2.resize(frame, (int(w * k), int(h * k)), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2LAB)
    table = _table_colour(lab)
    dist = np.linalg.norm(lab.astype(np.float32) - table, axis=2)
    mask = (dist > max(9.0, 3 * float(np.median(dist)))).astype(np.uint8) * 255
    best = None
    for cut in (9, 15, 21):  # cut bridges (a shadow, a die beside the board) ever wider until the strip stands alone
        opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (cut, cut)))
        contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for c in sorted(contours, key=cv2.contourArea, reverse=True)[:5]:
            (cx, cy), (rw, rh), _a = cv2.minAreaRect(c)
            long, short = max(rw, rh), min(rw, rh)
            if short >= 5 and 6 <= long / short <= 13 and cv2.contourArea(c) >= 0.75 * rw * rh:
                best = c
                break
        if best is not None:
            break
    if best is None:
        raise BoardError("no board found: a strip of 9 fields, about 9 times as long as wide")
    quad = cv2.boxPoints(cv2.minAreaRect(best)).astype(np.float64)  # then each side fitted to the outline
    for _ in range(2):
        quad = _refine(quad, best.reshape(-1, 2).astype(np.float64))
    quad /= k
    # Order: the two short sides are the ends; field 1's end is the one nearer the left (or top).
    if cv2.contourArea(quad.astype(np.float32)) < 0:
        quad = quad[::-1]
    i = min(range(4), key=lambda j: np.hypot(*(quad[(j + 1) % 4] - quad[j])))  # a short side: i, i+1
    cyc = [quad[(i + 1 + j) % 4] for j in range(4)]  # end A, along a long side to end B, across, back
    end_a, end_b = cyc[0] + cyc[3], cyc[1] + cyc[2]
    if end_a.sum() > end_b.sum():  # field 1 at the end nearer the left (or top)
        cyc = [cyc[2], cyc[3], cyc[0], cyc[1]]
    corners = cyc
    u, v = corners[1] - corners[0], corners[3] - corners[0]
    if u[0] * v[1] - u[1] * v[0] < 0:  # clockwise on screen (y down)
        corners = [corners[3], corners[2], corners[1], corners[0]]
    return BoardArea(tuple((float(x), float(y)) for x, y in corners), (w, h))


def _table_colour(lab: np.ndarray) -> np.ndarray:
    """The table's colour at every pixel (``H×W×3`` float Lab): a smooth surface
    (quadratic in x and y) fitted to the frame, what is not table left out by
    refitting, so light gradients cancel and the board stands out."""
    h, w = lab.shape[:2]
    gy, gx = np.mgrid[0:h:4, 0:w:4]
    x, y = gx.ravel() / w - 0.5, gy.ravel() / h - 0.5
    A = np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=1)
    v = lab[0:h:4, 0:w:4].reshape(-1, 3).astype(np.float64)
    keep = np.ones(len(v), bool)
    for _ in range(3):
        coef, *_ = np.linalg.lstsq(A[keep], v[keep], rcond=None)
        resid = np.linalg.norm(v - A @ coef, axis=1)
        keep = resid < max(4.0, 2.5 * np.median(resid[keep]))
    fy, fx = np.mgrid[0:h, 0:w]
    X, Y = fx.ravel() / w - 0.5, fy.ravel() / h - 0.5
    full = np.stack([np.ones_like(X), X, Y, X * X, Y * Y, X * Y], axis=1) @ coef
    return full.reshape(h, w, 3).astype(np.float32)


def _refine(quad: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """The quadrilateral's sides fitted to the outline's points near each (a robust
    line fit), and the corners where they meet: corners to a fraction of a pixel
    rather than wherever a polygon's simplification put them."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = np.hypot(*d)
        t = ((pts - a) @ d) / (length ** 2)
        dist = np.abs(d[0] * (pts[:, 1] - a[1]) - d[1] * (pts[:, 0] - a[0])) / length
        near = pts[(dist < 4) & (t > 0.1) & (t < 0.9)]
        if len(near) < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    out = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        m = np.array([u, -v]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return quad
        s, _t = np.linalg.solve(m, q - p)
        out.append(p + s * u)
    return np.array(out)


# -- reading -------------------------------------------------------------------
_X0, _X1, _Y0, _Y1 = -0.7, 9.7, -2.4, 3.4  # the plane read: the board and both sides of it (fields)


def read_fenn(frame: np.ndarray, board: BoardArea, *, dice: DiceSet = MIWIN,
              config: ReaderConfig = DEFAULT) -> FennRead:
    """Read Miwin's dice in ``frame`` (``H×W×3 uint8 BGR``) on ``board``.

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
    R = config.board.res
    to_plane = board.to_plane()
    shift = np.array([[R, 0, -_X0 * R], [0, R, -_Y0 * R], [0, 0, 1]], np.float64)
    Hp = shift @ to_plane
    pw, ph = int((_X1 - _X0) * R), int((_Y1 - _Y0) * R)
    plane = cv2.warpPerspective(frame, Hp, (pw, ph), flags=cv2.INTER_LINEAR)
    lab = cv2.cvtColor(plane, cv2.COLOR_BGR2LAB)
    L = cv2.GaussianBlur(lab[..., 0], (5, 5), 0)
    # The dice's bodies are the lightest things there: halfway from the board's lightness to theirs.
    board_rows = L[int(-_Y0 * R):int((1 - _Y0) * R), int(-_X0 * R):int((9 - _X0) * R)]
    top = float(np.percentile(L, 99.0))
    level = (float(np.median(board_rows)) + top) / 2
    light = (L > level).astype(np.uint8) * 255
    # The pips' holes filled (each outline drawn full), then thin lines (a marked place) opened away.
    outlines, _ = cv2.findContours(light, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(light, outlines, -1, 255, thickness=cv2.FILLED)
    light = cv2.morphologyEx(light, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))
    # Dice on neighbouring fields touch: part them along the lines between the fields.
    rows = slice(int(-_Y0 * R), int((1 - _Y0) * R))
    for f in range(1, 9):
        xl = int((f - _X0) * R)
        light[rows, xl - 1:xl + 2] = 0
    n, labels, stats, cents = cv2.connectedComponentsWithStats(light)
    side = config.board.die * R
    want = side * side
    reasons: set[FennReason] = set()
    found: list[FennDie] = []
    back = np.linalg.inv(Hp)
    for k in range(1, n):
        area = stats[k, cv2.CC_STAT_AREA]
        if area < 0.3 * want:
            continue
        x, y, bw, bh = stats[k, 0], stats[k, 1], stats[k, 2], stats[k, 3]
        mask = (labels[y:y + bh, x:x + bw] == k).astype(np.uint8)
        for rect in _squares(mask, want, config.board):
            if rect is None:
                reasons.add(FennReason.FOREIGN)  # die-sized or larger but not a die: a hand, a die being moved
                continue
            box = cv2.boxPoints(((rect[0][0] + x, rect[0][1] + y), rect[1], rect[2]))
            found.append(_read_face(frame, box, back, R, dice, config))
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
    placed = []
    for d in out:
        x, y = cv2.perspectiveTransform(np.float32([[d.center]]), to_plane)[0, 0]
        on = 0 <= y <= 1 and 0 <= x <= 9
        d = replace(d, field=int(min(x, 8.999)) + 1 if on else None)
        placed.append(d)
        if d.colour == "black" and on or d.colour in ("blue", "red") and not on:
            reasons.add(FennReason.OFF_BOARD)
        if d.colour in ("blue", "red") and on and min(x % 1, 1 - x % 1) < config.board.line_margin:
            reasons.add(FennReason.BETWEEN_FIELDS)
        if d.confidence < config.sure:
            reasons.add(FennReason.HARD_TO_READ)
    out = placed
    wrong = [d for d in out if d.colour and not dice.carries(d.colour, d.value)]
    if wrong:
        reasons.add(FennReason.NOT_A_FACE)
        other = MIWIN_SWAPPED if dice is MIWIN else MIWIN
        if all(other.carries(d.colour, d.value) for d in out if d.colour):
            reasons.add(FennReason.OTHER_SET)
    ms = (time.perf_counter() - t0) * 1000
    return FennRead(tuple(out), tuple(sorted(reasons, key=lambda r: list(FennReason).index(r))), ms)


_PATCH = 72
#: How much larger than the die's square the patch read is (the whole face, and the board around it).
_GROW = 1.25


def _is_square(area: float, rect, want: float, config: BoardConfig) -> bool:
    rw, rh = rect[1]
    lo, hi = config.square_area
    return (lo * want <= area <= hi * want and max(rw, rh) <= config.square_aspect * min(rw, rh)
            and area >= 0.8 * rw * rh)


def _squares(mask: np.ndarray, want: float, config: BoardConfig) -> list:
    """The dice in one light region (``mask``, uint8 0/1) as rotated rects: the
    region itself when it is one die's square; else dice touching each other,
    parted by eroding until each part is a die's core; None for a part that is
    no die (a hand)."""
    area = float(mask.sum())
    rect = cv2.minAreaRect(cv2.findNonZero(mask))
    if _is_square(area, rect, want, config):
        return [rect]
    if area < config.square_area[1] * want:
        return [None]
    side = want ** 0.5
    for k in (int(side * 0.2) | 1, int(side * 0.35) | 1):
        core = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(core)
        if n - 1 < 2:
            continue
        out = []
        for j in range(1, n):
            part = (labels == j).astype(np.uint8)
            grown = cv2.dilate(part, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))) & mask
            a = float(grown.sum())
            r = cv2.minAreaRect(cv2.findNonZero(grown))
            out.append(r if _is_square(a, r, want, config) else None)
        return out
    return [None]


def _read_face(frame, box, back, R, dice: DiceSet, config: ReaderConfig) -> FennDie:
    """One die's face, straightened: the finder's part is its face and pips
    (the face's own colour from its middle, pips the marks unlike it inside
    its outline); the reader's one face stage reads them with the dice set."""
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
    # The face: the body-coloured region around the middle, its pips' holes filled.
    near = (dist <= config.board.pip_contrast).astype(np.uint8)
    nb, blabels, bstats, _bc = cv2.connectedComponentsWithStats(near)
    main = int(np.argmax(bstats[1:, cv2.CC_STAT_AREA])) + 1 if nb > 1 else 0
    face = np.zeros_like(near)
    outline, _ = cv2.findContours((blabels == main).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(face, outline, -1, 255, thickness=cv2.FILLED)
    pipmask = ((dist > config.board.pip_contrast) & (face > 0)).astype(np.uint8) * 255
    die = read_face(face, pipmask, (0, 0), config, None, P / _GROW, dice=dice, lab=lab)
    cx, cy = corners.mean(axis=0)
    size = float(np.mean([np.hypot(*(corners[i] - corners[(i + 1) % 4])) for i in range(4)])) / _GROW
    if die is None:
        return FennDie(None, 0, (float(cx), float(cy)), size, None, 0.0)
    confidence = die.confidence if not die.doubts else min(die.confidence, config.faces.not_sure_most)
    return FennDie(die.die, die.value, (float(cx), float(cy)), size, None, confidence)


def load_board(path: str) -> BoardArea:
    """The board stored at ``path`` (JSON). Raises :class:`BoardError` naming the file."""
    try:
        with open(path, encoding="utf-8") as f:
            return BoardArea.from_dict(json.load(f))
    except (OSError, ValueError) as e:
        raise BoardError(f"{path}: {e}") from None
