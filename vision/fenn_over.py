"""Something over the Fenn board: a hand, a cup, an arm reaching over it, seen on the board's own
plane away from the dice (:func:`something_over`). The reader (:func:`vision.fenn.read_fenn`) then
doubts the read with :attr:`vision.reasons.FennReason.FOREIGN`.

Two cues: a part of the board unlike its colour, larger than fingers, through which the lines
between fields do not show (a shine or a shadow lets them); and a line between fields hidden where
no die stands while the others are seen (something of the board's own colour).
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import BoardConfig

__all__ = ["FieldLines", "board_plane", "something_over"]

_RES = 20  # plane px per field where the board is looked over


def board_plane(frame, to_frame) -> np.ndarray:
    """The board's top, straightened: ``_RES`` px per field, ``H×W×3`` float Lab."""
    S = np.array([[_RES, 0, 0], [0, _RES, 0], [0, 0, 1]], np.float64)
    plane = cv2.warpPerspective(frame, S @ np.linalg.inv(to_frame), (9 * _RES, _RES), flags=cv2.INTER_AREA)
    return cv2.cvtColor(plane, cv2.COLOR_BGR2LAB).astype(np.float32)


def something_over(lab, lines: "FieldLines", config: BoardConfig) -> bool:
    """Whether something (a hand, a cup) covers part of the board away from the dice: a region of
    at least ``config.foreign_area`` fields² unlike the board's colour, the board's lines, stitching
    and numbers (thin) opened away, each die's square and its shadow left out (``lines.free``); or a
    line between fields hidden where no die stands (:meth:`FieldLines.hidden`). A region lighter
    or darker than the board through which the lines between fields still show
    (``config.line_seen``) is a lamp's shine or a shadow on the board, not something over it (a
    region with no line under it cannot show that, and counts, unless it is lighter in the board's own hue
    as a gloss is: :func:`_shine`); one along a long side no wider across than
    ``config.foreign_edge`` of a field is the board's edge or the table beside it (a hand or a cup
    over the board covers more of its width). ``lab``: the board from :func:`board_plane`;
    ``lines``: the board's lines between fields (:class:`FieldLines`)."""
    res = _RES
    H, W = lab.shape[:2]
    free = lines.free
    if free.sum() < 0.2 * W * H:
        return False
    if lines.hidden(config.line_seen):
        return True
    lab = _light_evened(lab, free, config)
    colour = np.median(lab[free > 0], axis=0)
    far = ((np.linalg.norm(lab - colour, axis=2) > config.foreign_colour) & (free > 0)).astype(np.uint8)
    k = max(3, int(0.22 * res)) | 1
    far = cv2.morphologyEx(far, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(far)
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < config.foreign_area * res * res:
            continue
        top, tall = stats[i, cv2.CC_STAT_TOP], stats[i, cv2.CC_STAT_HEIGHT]
        if (top == 0 or top + tall == H) and tall <= config.foreign_edge * res:
            continue  # a strip along one side: the board's edge, or the table beyond a side found inside it
        region = labels == i
        if lines.seen_through(region, config.line_seen):
            continue  # a shine or a shade: the lines show through it
        if _shine(np.median(lab[region], axis=0), colour, config):
            continue
        return True
    return False


def _shine(seen: np.ndarray, board: np.ndarray, config: BoardConfig) -> bool:
    """Whether a part of the board of colour ``seen`` (Lab, OpenCV's 8-bit scale) is a lamp's shine on a board
    of colour ``board``: lighter, a share ``t`` (at most ``config.shine_most``) of the way to white, and of
    the board's own hue, its a, b off the board's times ``1 - t`` by at most ``config.shine_hue`` across the
    board's hue and by at most ``config.shine_grey`` toward grey (none more colourful). A gloss reflects the
    lamp's light over the board's own colour; a hand, a sleeve or a cup has a hue of its own. Not on a
    board of so little colour that the mix shows less than ``config.shine_chroma`` (black leather: a grey
    thing there has its hue)."""
    t = (float(seen[0]) - float(board[0])) / max(255.0 - float(board[0]), 1.0)
    own = board[1:].astype(np.float64) - 128
    chroma = float(np.hypot(*own))
    if not 0 < t <= config.shine_most or chroma * (1 - t) < config.shine_chroma:
        return False
    u = own / chroma
    d = seen[1:].astype(np.float64) - 128 - own * (1 - t)
    across, toward = abs(u[0] * d[1] - u[1] * d[0]), float(u @ d)
    return bool(across <= config.shine_hue and -config.shine_grey <= toward <= config.shine_hue)


def _light_evened(lab: np.ndarray, free: np.ndarray, config: BoardConfig) -> np.ndarray:
    """``lab`` (the board's plane, ``H×W×3`` float Lab) with its lightness's fall across the board taken out:
    a plane in the lightness along and across the board fitted to the free pixels (``free``, ``H×W``
    nonzero) by least squares, three times, each without those more than three median deviations off the
    last fit (the first off the median: a shade, a hand or a cup over a third of the board, a line or a
    number), and the lightness made even. Not where over ``config.even_other`` of the free pixels lie
    ``config.even_chroma`` or more (a, b) from their median colour: a hand or a cup of another colour may
    cover much of the board and tilt the fit (``config``: a :class:`vision.config.BoardConfig`). A lamp
    to one side lights a board's one end or side up to 70 Lab units lighter than the other (render
    fenn-00368: black leather under two area lamps), which no part of a board's colour may be; a hand or a
    cup stands out of a plane."""
    ys, xs = np.nonzero(free)
    if len(xs) < 10:
        return lab
    chroma = lab[ys, xs, 1:].astype(np.float64)
    if np.mean(np.linalg.norm(chroma - np.median(chroma, axis=0), axis=1) > config.even_chroma) > config.even_other:
        return lab  # two colours on the board's free part (a hand, a cup over it): no one board to even
    light = lab[ys, xs, 0].astype(np.float64)
    cols = np.column_stack([np.ones(len(xs)), xs, ys]).astype(np.float64)
    off = light - np.median(light)  # from an even board: a shade or a hand over a third of it is left out
    keep = np.ones(len(xs), bool)
    for _ in range(3):
        keep = np.abs(off) <= 3 * max(1.0, float(np.median(np.abs(off[keep]))))
        fit = np.linalg.lstsq(cols[keep], light[keep], rcond=None)[0]
        off = light - cols @ fit
    h, w = lab.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    out = lab.copy()
    out[..., 0] = lab[..., 0] - (fit[1] * xx + fit[2] * yy) + float(fit[1] * xs.mean() + fit[2] * ys.mean())
    return out


def _free(to_frame: np.ndarray, found) -> np.ndarray:
    """The board's plane at ``_RES`` px a field, 1 where no die (``found``: squares in frame px) nor its
    side and shadow (the square grown 1.9 times) lies, else 0."""
    res = _RES
    Hp = np.array([[res, 0, 0], [0, res, 0], [0, 0, 1]], np.float64) @ np.linalg.inv(to_frame)
    free = np.ones((res, 9 * res), np.uint8)
    for f in found:
        mid = f.box.mean(axis=0)
        grown = mid + (f.box - mid) * 1.9  # the die, its side and its shadow
        q = cv2.perspectiveTransform(np.float32([grown]), Hp)[0]
        cv2.fillConvexPoly(free, np.round(q).astype(np.int32), 0)
    return free


_LINE_RES = 80  # plane px per field where the lines between fields are looked for (a stitch is ~1/40 field)


class FieldLines:
    """The lines between fields as seen on the board's plane at ``_LINE_RES`` px a field, where no die
    stands. ``frame``: ``H×W×3 uint8 BGR``; ``to_frame``: the board's plane (fields) to frame px;
    ``found``: the dice's squares (:class:`vision.fenn_dice.Found`, frame px), each grown to take in
    its side and shadow (``free``: ``_RES`` px a field, 1 where none lies). A line is a thin ridge
    across the board, all of one sign (light lines or dark), looked for within 0.3 field of its place;
    the board has lines when at least four, whole or in part beside a die, stand out by 12 of 255 in
    lightness or more (their median: ``typical``).

    ``known``: the lines' stand-out measured at calibration (:attr:`contrast`, 0.0 unknown). Where fewer
    than four lines show in this frame (the dice and a hand over the rest), the board is taken to have
    lines of that stand-out, in proportion to the board's lightness now, and those seen are held to it
    (:meth:`hidden`; fresh render fenn-00471: two dice turned on fields 4-7 and a hand over field 9 left
    two clear lines).

    >>> import numpy as np
    >>> lines = FieldLines(np.zeros((90, 900, 3), np.uint8), np.diag([100.0, 90.0, 1.0]), [])
    >>> lines.there, lines.tilt(), lines.contrast
    (False, 0.0, 0.0)
    """

    def __init__(self, frame: np.ndarray, to_frame: np.ndarray, found, *, known: float = 0.0):
        res = _LINE_RES
        self.free = _free(to_frame, found)
        S = np.array([[res, 0, 0], [0, res, 0], [0, 0, 1]], np.float64)
        top = cv2.warpPerspective(frame, S @ np.linalg.inv(to_frame), (9 * res, res), flags=cv2.INTER_AREA)
        self.L = cv2.cvtColor(top, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32)
        free = cv2.resize(self.free, (9 * res, res), interpolation=cv2.INTER_NEAREST)
        middle = np.zeros(res, bool)
        middle[int(0.2 * res):int(0.8 * res)] = True  # away from the board's sides (a border, stitching)
        whole, part = [], []  # (k, ridge): lines clear of dice, and lines with a die near (their free part)
        mostly = []  # the part lines two thirds free or more
        for k in range(1, 9):
            rows = middle & (free[:, self._span(k)].min(axis=1) > 0)
            if rows.sum() == middle.sum():
                whole.append((k, self._ridge(k, rows)))
            elif rows.sum() >= middle.sum() / 3:
                part.append((k, self._ridge(k, rows)))
                if rows.sum() >= 2 * middle.sum() / 3:
                    mostly.append(part[-1])
        ridges = [r for _k, r in whole + part]
        self.sign, self.seen, self.typical = 1.0, np.zeros(0), 0.0
        self.mostly = np.zeros(0)
        self.places: list = []  # (k, where it is seen in fields, how much it stands out)
        self.told: list = []  # with too few lines seen, those seen: (how much it stands out, how much it should)
        on = free[middle] > 0  # the board's lightness where no die stands, away from its sides
        self._light = float(np.median(self.L[middle][on])) if on.any() else 0.0
        if len(ridges) < 4 and known:
            s = float(np.sign(known))
            self.told = [(float(np.max(s * r)), abs(known) * self._light) for _k, r in whole + part]
        if len(ridges) >= 4:
            self.sign = float(np.sign(np.median([r[np.argmax(np.abs(r))] for r in ridges])))
            self.seen = np.array([float(np.max(self.sign * r)) for _k, r in whole])
            self.mostly = np.array([float(np.max(self.sign * r)) for _k, r in mostly])
            self.typical = float(np.median([np.max(self.sign * r) for r in ridges]))
            for k, r in whole + part:
                i = int(np.argmax(self.sign * r))
                self.places.append((k, k + (i - 3 * res // 10) / res, float(self.sign * r[i])))

    def tilt(self) -> float:
        """How the board recedes along itself, as the board's plane does not show it (a board touched at
        its ends or found carries no tilt): ``c`` of the lines between fields seen at ``x_k = (a k + b) /
        (c k + 1)`` on its plane, so that a thing at ``x`` fields lies at a depth in proportion to
        ``c x + 1`` and looks that much smaller. 0.0 where fewer than five lines are seen clearly (half
        the median line, 3 of 255 at least) or they fit no such curve within 0.06 field; at most 0.03
        either way (a camera tilted 12° along the board)."""
        told = self.tilt_told()
        return 0.0 if told is None else told

    def tilt_told(self) -> float | None:
        """:meth:`tilt`, or None where the lines do not tell it (fewer than five seen clearly, or no such
        curve fits them): the tilt along the board is then not known."""
        got = [(k, x) for k, x, v in self.places if v >= max(0.5 * self.typical, 3.0)]
        if len(got) < 5:
            return None
        k, x = np.float64(got).T
        (a, b, c), *_ = np.linalg.lstsq(np.column_stack([k, np.ones(len(k)), -k * x]), x, rcond=None)
        fit = (a * k + b) / (c * k + 1)
        if np.abs(fit - x).max() > 0.06:
            return None  # a die's edge or a stitch taken for a line: no tilt told
        return float(np.clip(c, -0.03, 0.03))

    @staticmethod
    def _span(k: int) -> slice:
        res, d = _LINE_RES, _LINE_RES // 4
        return slice(k * res - 3 * res // 10 - d, k * res + 3 * res // 10 + 1 + d)

    def _ridge(self, k: int, rows: np.ndarray) -> np.ndarray:
        """Line ``k``'s ridge over ``rows`` (a mask): how much lighter (or darker) than both sides."""
        d = _LINE_RES // 4
        P = self.L[rows][:, self._span(k)].mean(axis=0)
        return P[d:-d] - (P[:-2 * d] + P[2 * d:]) / 2

    @property
    def there(self) -> bool:
        """Whether the board has lines to look at (four seen, whole or in part where a die stands near,
        standing out by 12 of 255 or more)."""
        return self.typical >= 12.0

    @property
    def contrast(self) -> float:
        """How much the lines between fields stand out in this frame, as a share of the board's median
        lightness where no die stands, negative for lines darker than the board; 0.0 where the board shows no lines
        (:attr:`there`). What calibration keeps (:attr:`vision.fenn.BoardArea.lines`)."""
        return self.sign * self.typical / max(self._light, 1.0) if self.there else 0.0

    def hidden(self, share: float) -> bool:
        """Whether a line, where no die stands, stands out less than ``share`` times as much as the
        median line while four or more are seen whole or two thirds whole (a die's square near it): a
        hand or a cup of the board's own colour over it (its colour alone does not tell it; fresh render
        fenn-00422: a hand over three fields of a light wooden board, one line two thirds free under it).
        With fewer seen and the stand-out known from calibration, whether a line seen whole or a third
        whole stands out less than ``share`` times the calibrated stand-out at the board's lightness now."""
        if self.told:  # too few lines seen to tell their stand-out: each held to the calibrated one
            return any(v < share * want for v, want in self.told)
        got = np.concatenate([self.seen, self.mostly])
        return self.there and len(got) >= 4 and bool(got.min() < share * self.typical)

    def seen_through(self, region: np.ndarray, share: float) -> bool:
        """Whether the lines between fields that ``region`` (``_RES`` px a field, a mask) lies over, on a
        quarter of the board's width or more, stand out there at least ``share`` times the median line:
        what lies over them is a light on the board, not a thing (False with no such line)."""
        if not self.there:
            return False
        over = 0
        for k in range(1, 9):
            on = region[:, k * _RES - 2] & region[:, k * _RES + 2]  # on both sides of it
            if on.mean() < 1 / 4:
                continue
            rows = np.repeat(on, _LINE_RES // _RES)
            if float(np.max(self.sign * self._ridge(k, rows))) < share * self.typical:
                return False
            over += 1
        return over > 0
