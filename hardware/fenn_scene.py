"""Synthetic frames of a game of Fenn: the board, Miwin's dice with coloured pips, a hand.

The mock camera's Fenn scenes, for tests, benchmarks and the demo. A scene is
drawn top-down on the board's own plane (one unit = one field), then put into
the frame by a perspective transform, with a light gradient, a shadow, noise
and blur. The pips are drawn from :mod:`vision.diceset` (data, not the reader).

Example::

    >>> scene = FennScene(seed=1)
    >>> frame, truth = scene.frame(blue=(1, 5), red=(9, 5), black=6)
    >>> frame.shape, [(d["colour"], d["value"], d["field"]) for d in truth]
    ((1232, 1640, 3), [('blue', 5, 1), ('red', 5, 9), ('black', 6, None)])
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.diceset import MIWIN_LAYOUT, MIWIN_LAYOUT_ALT

__all__ = ["FennScene", "PIP_BGR", "BLACK_PLACE"]

#: Pip colours (BGR) by die.
PIP_BGR = {"blue": (190, 85, 25), "red": (35, 35, 195), "black": (28, 28, 30)}
#: The black die's marked place beside the board (F14): its centre on the board's plane (fields).
BLACK_PLACE = (4.5, 2.1)
#: Plane area drawn: x from -0.6 to 9.6 fields, y from -1.3 to 3.1.
_X0, _X1, _Y0, _Y1 = -0.6, 9.6, -1.3, 3.1


class FennScene:
    """One camera set-up over a Fenn board: table, board (wood or leather, with or
    without printed numbers), light, perspective and pip layout, drawn from
    ``seed``. :meth:`frame` draws the dice where asked.

    ``size``: the frame ``(width, height)`` px (1640×1232, the Pi camera's
    binned mode). ``layout``: ``"fenn"`` (fenn.md's 7, 8, 9), ``"alt"`` (another)
    or None (drawn from the seed).
    """

    def __init__(self, *, seed: int | None = None, size: tuple[int, int] = (1640, 1232), layout: str | None = None):
        rng = np.random.default_rng(seed)
        self.rng = rng
        self.size = size
        w, h = size
        self.leather = bool(rng.random() < 0.5)
        self.numbers = bool(rng.random() < 0.6)
        #: The dice's side as a share of a field (fenn.md: each field is the size of a die's face).
        self.die = float(rng.uniform(0.72, 0.92))
        self.layout = layout or ("alt" if rng.random() < 0.35 else "fenn")
        self.table = tuple(int(v) for v in rng.choice([(40, 55, 75), (45, 80, 45), (70, 70, 72), (30, 40, 60),
                                                        (60, 45, 35)]) + rng.integers(-12, 12, 3))
        self.board = ((40, 55, 95) if self.leather else (70, 110, 150)) + rng.integers(-12, 12, 3)
        self.body = np.array((165, 205, 232)) + rng.integers(-15, 12, 3)
        #: Pixels per field in the frame (about 0.8 of the width for the board).
        self.unit = w * rng.uniform(0.075, 0.088)
        ang = np.deg2rad(rng.uniform(-6, 6))
        cx, cy = w / 2 + rng.uniform(-0.04, 0.04) * w, h * rng.uniform(0.42, 0.5)
        corners = np.float32([[_X0, _Y0], [_X1, _Y0], [_X1, _Y1], [_X0, _Y1]])
        c, s = np.cos(ang), np.sin(ang)
        mid = np.array([4.5, 0.9])
        out = []
        for p in corners:
            d = (p - mid) * self.unit
            q = np.array([cx + c * d[0] - s * d[1], cy + s * d[0] + c * d[1]])
            out.append(q + rng.uniform(-0.22, 0.22, 2) * self.unit)  # perspective: the corners moved apart
        self.res = 96  # plane pixels per field
        src = np.float32([[(x - _X0) * self.res, (y - _Y0) * self.res] for x, y in corners])
        self.H = cv2.getPerspectiveTransform(src, np.float32(out))
        self.light = (rng.uniform(0.75, 0.95), rng.uniform(1.0, 1.15), rng.uniform(0, 2 * np.pi))
        self.noise = rng.uniform(2, 6)
        self.blur = rng.uniform(0, 1.1)

    def to_frame(self, x: float, y: float) -> tuple[float, float]:
        """A point of the board's plane (fields) in frame pixels ``(x, y)``."""
        p = np.float32([[[(x - _X0) * self.res, (y - _Y0) * self.res]]])
        q = cv2.perspectiveTransform(p, self.H)[0, 0]
        return float(q[0]), float(q[1])

    def board_corners(self) -> list[tuple[float, float]]:
        """The board's corners in the frame: field 1's outer end first, then along to field 9's, clockwise."""
        return [self.to_frame(x, y) for x, y in ((0, 0), (9, 0), (9, 1), (0, 1))]

    def frame(self, *, blue=(1, 5), red=(9, 5), black=6, hand: str | None = None, lifted: str | None = None,
              seed: int | None = None):
        """The frame with the blue and red dice at ``(field, top)`` and the black
        die showing ``black`` in its place (None: not there). ``hand``: a
        die's colour a hand is moving (over it, the die between fields), or
        None. ``lifted``: a die's colour that is off the table. Returns the
        frame (``H×W×3 uint8 BGR``) and the truth: one dict per die seen
        (``colour``, ``value``, ``field`` or None, ``center`` px)."""
        rng = np.random.default_rng(seed)
        R = self.res
        pw, ph = int((_X1 - _X0) * R), int((_Y1 - _Y0) * R)
        plane = np.empty((ph, pw, 3), np.float32)
        plane[:] = self.table
        plane += rng.normal(0, 4, (ph, pw, 1)).astype(np.float32)
        plane = np.clip(plane, 0, 255).astype(np.uint8)

        def px(x, y):
            return (x - _X0) * R, (y - _Y0) * R

        x0, y0 = px(0, 0)
        x1, y1 = px(9, 1)
        cv2.rectangle(plane, (int(x0 - 0.08 * R), int(y0 - 0.08 * R)), (int(x1 + 0.08 * R), int(y1 + 0.08 * R)),
                      tuple(float(v) for v in self.board), -1)
        for f in range(10):
            xa, _ = px(f, 0)
            cv2.line(plane, (int(xa), int(y0)), (int(xa), int(y1)), tuple(float(v) * 0.7 for v in self.board), 2)
        if self.numbers:
            for f in range(9):
                xa, ya = px(f + 0.08, 0.28)
                cv2.putText(plane, str(f + 1), (int(xa), int(ya)), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                            tuple(float(v) * 0.55 + 60 for v in self.board), 2, cv2.LINE_AA)
        bx, by = px(*BLACK_PLACE)
        half = 0.55 * R
        cv2.rectangle(plane, (int(bx - half), int(by - half)), (int(bx + half), int(by + half)), (150, 150, 150), 2)
        truth = []
        layout = MIWIN_LAYOUT if self.layout == "fenn" else MIWIN_LAYOUT_ALT
        places = []
        for colour, at in (("blue", blue), ("red", red)):
            if at is None or colour == lifted:
                continue
            field, top = at
            cx, cy = field - 0.5 + rng.uniform(-0.05, 0.05), 0.5 + rng.uniform(-0.05, 0.05)
            if colour == hand:
                cx += rng.choice([-0.5, 0.5])  # mid-move: between two fields
            places.append((colour, top, cx, cy, field))
        if black is not None and lifted != "black":
            places.append(("black", black, BLACK_PLACE[0] + rng.uniform(-0.08, 0.08),
                           BLACK_PLACE[1] + rng.uniform(-0.08, 0.08), None))
        for colour, value, cx, cy, field in places:
            self._die(plane, px(cx, cy), value, colour, layout, rng)
            truth.append({"colour": colour, "value": value, "field": field,
                          "center": [round(v, 1) for v in self.to_frame(cx, cy)]})
        if hand is not None:
            target = next((p for p in places if p[0] == hand), None)
            if target is not None:
                self._hand(plane, px(target[2], target[3]), rng)
        w, h = self.size
        frame = cv2.warpPerspective(plane, self.H, (w, h), flags=cv2.INTER_LINEAR,
                                    borderValue=tuple(int(v) for v in self.table))
        return self._finish(frame, rng), truth

    def _die(self, plane, centre, value, colour, layout, rng):
        R = self.res
        side = self.die * R * rng.uniform(0.97, 1.03)
        ang = rng.uniform(-14, 14)
        box = cv2.boxPoints(((centre[0], centre[1]), (side, side), ang))
        shadow = box + np.float32([0.06 * R, 0.07 * R])
        cv2.fillConvexPoly(plane, shadow.astype(np.int32), (10, 10, 10))
        body = np.clip(self.body + rng.integers(-8, 8, 3), 0, 255)
        cv2.fillConvexPoly(plane, box.astype(np.int32), tuple(float(v) for v in body), cv2.LINE_AA)
        cv2.polylines(plane, [box.astype(np.int32)], True, tuple(float(v) * 0.8 for v in body), 2, cv2.LINE_AA)
        th = np.deg2rad(ang)
        c, s = np.cos(th), np.sin(th)
        step = 0.26 * side
        r = (0.075 if value >= 7 else 0.088) * side
        pip = np.clip(np.array(PIP_BGR[colour], np.float32) + rng.integers(-15, 15, 3), 0, 255)
        for dx, dy in layout[value]:
            x = centre[0] + (c * dx - s * dy) * step
            y = centre[1] + (s * dx + c * dy) * step
            cv2.circle(plane, (int(round(x * 4)), int(round(y * 4))), int(round(r * 4)), tuple(float(v) for v in pip),
                       -1, cv2.LINE_AA, shift=2)

    def _hand(self, plane, centre, rng):
        R = self.res
        skin = np.clip(np.array((120, 150, 205), np.float32) + rng.integers(-20, 20, 3), 0, 255)
        cx, cy = centre
        palm = (int(cx + 0.2 * R), int(cy - 0.9 * R))
        cv2.ellipse(plane, palm, (int(0.75 * R), int(0.6 * R)), rng.uniform(-30, 30), 0, 360,
                    tuple(float(v) for v in skin), -1)
        for k in range(4):
            a = np.deg2rad(60 + 20 * k)
            fx, fy = palm[0] + np.cos(a) * 0.9 * R, palm[1] + np.sin(a) * 0.9 * R
            cv2.ellipse(plane, (int(fx), int(fy)), (int(0.14 * R), int(0.5 * R)), np.rad2deg(a) - 90, 0, 360,
                        tuple(float(v) for v in skin * 0.97), -1)

    def _finish(self, frame, rng):
        h, w = frame.shape[:2]
        lo, hi, ang = self.light
        yy, xx = np.mgrid[0:32, 0:32].astype(np.float32) / 31  # the light's gradient, small, then stretched
        t = ((xx - 0.5) * np.cos(ang) + (yy - 0.5) * np.sin(ang)) + 0.5
        gain = cv2.resize(lo + (hi - lo) * np.clip(t, 0, 1), (w, h), interpolation=cv2.INTER_LINEAR)
        out = frame.astype(np.float32) * gain[..., None].astype(np.float32)
        noise = np.empty((h, w, 3), np.float32)
        cv2.randn(noise, 0, self.noise)
        out = cv2.add(out, noise)
        out = np.clip(out, 0, 255).astype(np.uint8)
        if self.blur > 0.3:
            out = cv2.GaussianBlur(out, (0, 0), self.blur)
        return out
