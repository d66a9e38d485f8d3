"""Synthetic frames of a game of Fenn: a table, the board, Miwin's dice, clutter, a hand.

The mock camera's Fenn scenes, for tests, benchmarks and the demo, drawn from a
wide space of set-ups (issue 38): tables of light or dark wood with grain,
planks, checked or striped cloth, felt of any colour, plain white or grey;
boards of leather (dark brown, tan, black, burgundy) or light wood, 3–5 mm
thick (a visible side, a shadow), field lines light or dark, stitched or
printed, numbers or none, at any angle; a pin-hole camera like the Pi's
(focal 0.83 of the frame's width) 25–60 cm above, tilted up to 12°; light of
a colour and from a direction; dice of 18–25 mm against 25 mm fields, off
their fields' middles, with their height (the top face seen where the camera
sees it); the black die anywhere beside the board (F14); a cup, cards,
coins, a phone, sometimes a stray d6. The table is drawn top-down on its own
plane (one unit = one field = 25 mm), then put into the frame by the
camera's homography. The pips come from :mod:`vision.diceset` (data, not the
reader).

Example::

    >>> scene = FennScene(seed=1)
    >>> frame, truth = scene.frame(blue=(1, 5), red=(9, 5), black=6)
    >>> frame.shape, [(d["colour"], d["value"], d["field"]) for d in truth if d["colour"] != "stray"]
    ((1232, 1640, 3), [('blue', 5, 1), ('red', 5, 9), ('black', 6, None)])
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.diceset import MIWIN_LAYOUT, MIWIN_LAYOUT_ALT, PIP_LAYOUT

__all__ = ["FennScene", "PIP_BGR", "FOCAL", "TABLES"]

#: Pip colours (BGR) by die.
PIP_BGR = {"blue": (190, 85, 25), "red": (35, 35, 195), "black": (28, 28, 30)}
#: The camera's focal length as a share of the frame's width (the Pi camera v2: 3.04 mm over 3.68 mm).
FOCAL = 0.826

_LEATHER = {"dark brown": (35, 55, 85), "tan": (70, 125, 175), "black": (32, 30, 30), "burgundy": (45, 30, 100)}
_WOOD = (110, 160, 205)
#: A square's corners, in turn, as multiples of its half-side along its two axes.
_SQUARE = ((-1, -1), (1, -1), (1, 1), (-1, 1))
TABLES = _TABLES = ("light wood", "dark wood", "planks", "checked cloth", "striped cloth", "felt", "plain")


def _col(rng, base, spread=12):
    return np.clip(np.array(base, np.float32) + rng.uniform(-spread, spread, 3), 0, 255)


class FennScene:
    """One camera set-up over a Fenn board on a table, drawn from ``seed``: table,
    board, light, camera and clutter. :meth:`frame` draws the dice where asked.

    ``size``: the frame ``(width, height)`` px (1640×1232, the Pi camera's
    binned mode). ``layout``: ``"fenn"`` (fenn.md's 7, 8, 9), ``"alt"`` (another)
    or None (drawn from the seed). ``table`` (one of :data:`TABLES`) and
    ``board`` (``"dark brown"``, ``"tan"``, ``"black"``, ``"burgundy"``
    leather, ``"light wood"`` or ``"pine"``, the dice's own honey wood) fix those; None draws them from the seed.
    ``plain_dice``: the dice drawn with plain dark sides and no grain (the
    tests of refereeing; the family's dice show their sides' pips, as in the renders).
    Attributes a test may read: ``table``, ``board_kind``, ``unit`` (frame px
    per field, about), ``clutter``.
    """

    def __init__(self, *, seed: int | None = None, size: tuple[int, int] = (1640, 1232), layout: str | None = None,
                 table: str | None = None, board: str | None = None, plain_dice: bool = False):
        rng = np.random.default_rng(seed)
        self.rng, self.size, self.seed = rng, size, seed
        w, h = size
        self.layout = layout or ("alt" if rng.random() < 0.35 else "fenn")
        self.table = str(rng.choice(_TABLES))
        kind = str(rng.choice(list(_LEATHER) + ["light wood"], p=[0.2, 0.2, 0.2, 0.2, 0.2]))
        if table is not None or board is not None:
            if table not in (None, *_TABLES) or board not in (None, *_LEATHER, "light wood", "pine"):
                raise ValueError(f"no such table or board: {table!r}, {board!r}")
            self.table, kind = table or self.table, (board if board != "pine" else None) or kind
        self.board_kind = kind
        self.board_bgr = _col(rng, _LEATHER.get(kind, _WOOD), 14)
        self.thick = float(rng.uniform(0.12, 0.2))  # 3-5 mm in fields
        dark_lines = kind == "light wood" or rng.random() < 0.3
        self.line_bgr = self.board_bgr * 0.55 if dark_lines else np.clip(self.board_bgr * 0.4 + 150, 0, 255)
        self.stitched = bool(rng.random() < 0.5)
        self.numbers = bool(rng.random() < 0.5)
        #: The dice's side as a share of a field (18-25 mm dice on 25 mm fields).
        self.die = float(rng.uniform(0.72, 1.0))
        self.body = _col(rng, (140, 190, 225), 25)  # wood, light to honey
        self.pips = {c: _col(rng, v, 18) for c, v in PIP_BGR.items()}
        # The camera: height (fields) from the board's size in the frame, tilt, the board's angle.
        self.f = FOCAL * w * rng.uniform(0.97, 1.03)
        self.unit = float(rng.uniform(55, 135))
        self.angle = float(rng.uniform(0, 2 * np.pi))
        tilt, tdir = np.deg2rad(rng.uniform(0, 12)), rng.uniform(0, 2 * np.pi)
        self.K = np.array([[self.f, 0, w / 2], [0, self.f, h / 2], [0, 0, 1]])
        axis = np.array([np.cos(tdir), np.sin(tdir), 0.0])
        self.R = cv2.Rodrigues(axis * tilt)[0]
        for _ in range(40):  # a higher camera until the board and a hand's width round it are in view
            self.D = self.f / self.unit
            ray = self.R.T @ np.array([0, 0, 1.0])
            hit = ray[:2] * self.D / ray[2]
            self.C = np.array([-hit[0], -hit[1], -self.D]) + np.r_[rng.uniform(-1.5, 1.5, 2), 0]
            pts = [self._world_to_frame(*self._board_world(x, y)) for x, y in ((-1, -1.5), (10, -1.5), (10, 2.5),
                                                                                 (-1, 2.5))]
            if all(0 <= px < w and 0 <= py < h for px, py in pts):
                break
            self.unit *= 0.93
        self.light_dir = float(rng.uniform(0, 2 * np.pi))
        self.light_len = float(rng.uniform(0.15, 0.7))  # a shadow's length per field of height
        self.light_bgr = np.array([1.0, 1.0, 1.0]) + rng.uniform(-0.12, 0.12) * np.array([1.0, 0.0, -1.0])
        self.light = (rng.uniform(0.7, 0.95), rng.uniform(1.0, 1.15), rng.uniform(0, 2 * np.pi))
        self.noise = rng.uniform(2, 6)
        self.blur = rng.uniform(0, 1.1)
        self.clutter = [str(c) for c in ("cup", "cards", "coins", "phone") if rng.random() < 0.35]
        self.stray_chance = 0.25
        # Learnt from the renders (drawn last, so the draws above are as before): a wooden die's grain on
        # its faces, its sides nearly as light as its top, with pips; one board in five of the dice's own
        # honey wood (pine: a die on it stands out by its edges only).
        self.grain = bool(rng.random() < 0.5) and not plain_dice
        self.plain_dice = plain_dice
        self.side_shade = (float(rng.uniform(0.6, 0.8)), 0.97)
        if board is None and rng.random() < 0.2 or board == "pine":
            self.board_kind, self.board_bgr = "pine", _col(rng, self.body, 10)
            self.line_bgr = self.board_bgr * 0.55 if rng.random() < 0.7 else np.clip(self.board_bgr * 0.4 + 150, 0, 255)
        self._base = None

    # -- geometry ---------------------------------------------------------------
    def _board_world(self, x, y):
        """A point of the board's plane (fields, the board [0, 9]×[0, 1]) on the table (fields)."""
        c, s = np.cos(self.angle), np.sin(self.angle)
        dx, dy = x - 4.5, y - 0.5
        return c * dx - s * dy, s * dx + c * dy

    def _world_to_frame(self, X, Y, height=0.0):
        p = self.K @ self.R @ (np.array([X, Y, -height]) - self.C)
        return float(p[0] / p[2]), float(p[1] / p[2])

    def _H(self, height=0.0):
        """The homography from the table's plane (fields) at ``height`` to the frame."""
        m = np.column_stack([[1, 0, 0], [0, 1, 0], np.array([0, 0, -height]) - self.C])
        return self.K @ self.R @ m

    def _seen_at(self, X, Y, height):
        """Where on the table's plane the camera sees the point (X, Y) at ``height``: scaled from the nadir."""
        k = self.D / (self.D - height)
        return self.C[0] + (X - self.C[0]) * k, self.C[1] + (Y - self.C[1]) * k

    def to_frame(self, x: float, y: float, height: float | None = None) -> tuple[float, float]:
        """A point of the board's plane (fields) in frame pixels ``(x, y)``; ``height`` (fields) above
        the table, the board's top by default."""
        return self._world_to_frame(*self._board_world(x, y), self.thick if height is None else height)

    def region(self, x0: float, x1: float, y0: float = 0.0, y1: float = 1.0) -> np.ndarray:
        """A mask (``H×W`` bool, the frame's pixels) of the rectangle of the board's plane from ``x0`` to
        ``x1`` fields along and ``y0`` to ``y1`` across (0-1 the board's width; beyond it, the table at the
        board's height): where a test paints a hand, a shade or a shine over the board.

        >>> mask = FennScene(seed=0).region(4.2, 4.8, 0.3, 0.7)
        >>> mask.shape, bool(mask.any())
        ((1232, 1640), True)
        """
        mask = np.zeros(self.size[::-1], np.uint8)
        poly = [self.to_frame(x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        cv2.fillConvexPoly(mask, np.int32(np.round(poly)), 1)
        return mask > 0

    def board_corners(self) -> list[tuple[float, float]]:
        """The board's top corners in the frame: field 1's outer end first, then along to field 9's, clockwise."""
        return [self.to_frame(x, y) for x, y in ((0, 0), (9, 0), (9, 1), (0, 1))]

    # -- drawing ----------------------------------------------------------------
    def _canvas(self):
        """The table's plane under the frame: its extent (fields) and pixels per field."""
        w, h = self.size
        Hi = np.linalg.inv(self._H())
        pts = cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), Hi)[0]
        x0, y0 = pts.min(axis=0) - 0.5
        x1, y1 = pts.max(axis=0) + 0.5
        res = float(min(self.unit * 1.15, 4000 / max(x1 - x0, y1 - y0)))
        return float(x0), float(y0), res, (int((x1 - x0) * res), int((y1 - y0) * res))

    def _px(self, X, Y):
        x0, y0, res, _ = self._geo
        return (X - x0) * res, (Y - y0) * res

    def _poly(self, img, pts, colour, aa=True):
        p = np.array([self._px(X, Y) for X, Y in pts], np.float32)
        cv2.fillPoly(img, [np.round(p * 4).astype(np.int32)], tuple(float(v) for v in colour),
                     cv2.LINE_AA if aa else cv2.LINE_8, shift=2)

    def _shadow(self, img, pts, height, strength):
        """Darken ``img`` under the shadow of a flat shape ``pts`` (table fields) ``height`` above it."""
        dx, dy = np.cos(self.light_dir) * self.light_len * height, np.sin(self.light_dir) * self.light_len * height
        p = np.array([self._px(X + dx, Y + dy) for X, Y in pts] + [self._px(X, Y) for X, Y in pts], np.float32)
        sigma = max(1.0, self._geo[2] * 0.06)
        pad = int(3 * sigma) + 2
        x0, y0 = np.maximum(np.floor(p.min(axis=0)).astype(int) - pad, 0)
        x1, y1 = np.minimum(np.ceil(p.max(axis=0)).astype(int) + pad, (img.shape[1], img.shape[0]))
        if x1 <= x0 or y1 <= y0:
            return
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(m, cv2.convexHull(p - np.float32([x0, y0])).astype(np.int32), 255)
        soft = cv2.GaussianBlur(m, (0, 0), sigma).astype(np.float32) / 255
        img[y0:y1, x0:x1] *= (1 - strength * soft)[..., None]

    def _table(self, rng, shape):
        hh, ww = shape
        sh, sw = hh // 2 + 1, ww // 2 + 1
        res = self._geo[2] / 2
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32) / res  # fields
        kind = self.table
        if kind in ("light wood", "dark wood", "planks"):
            base = _col(rng, (120, 170, 215) if kind != "dark wood" else (40, 65, 100), 15)
            if kind == "planks":
                base = _col(rng, (90, 130, 175), 25)
            ga = rng.uniform(0, np.pi)
            u = xx * np.cos(ga) + yy * np.sin(ga)
            v = -xx * np.sin(ga) + yy * np.cos(ga)
            n = cv2.resize(rng.normal(0, 1, (max(2, sh // 60), max(2, sw // 60))).astype(np.float32), (sw, sh),
                           interpolation=cv2.INTER_CUBIC)
            table = np.cumsum(rng.normal(0, 1, 4096)).astype(np.float32)  # streaks across the grain
            table = (table - cv2.GaussianBlur(table[None], (0, 0), 40)[0]) / 6
            vv = v * rng.uniform(20, 40) + 8 * n
            idx = np.clip((vv - vv.min()).astype(np.int32), 0, 4095)
            streak = table[idx]
            rings = np.sin(2 * np.pi * (v * rng.uniform(0.3, 0.8) + 0.4 * n))
            grain = 0.6 * np.clip(streak, -2, 2) + 0.4 * rings
            img = base * (1 + rng.uniform(0.08, 0.16) * grain)[..., None]
            if kind == "planks":
                width = rng.uniform(3, 6)
                idx = np.floor(v / width)
                tone = (1 + 0.12 * np.sin(idx * 12.9898 + rng.uniform(0, 6)))[..., None]
                seam = (np.abs(v / width - np.round(v / width)) * width < 0.04)[..., None]
                img = np.where(seam, img * 0.45, img * tone)
        elif kind in ("checked cloth", "striped cloth"):
            a, b = _col(rng, rng.uniform(30, 230, 3), 0), _col(rng, rng.uniform(30, 230, 3), 0)
            if np.abs(a - b).sum() < 120:
                b = 255 - a
            ga, period = rng.uniform(0, np.pi), rng.uniform(0.5, 2.2)
            u = (xx * np.cos(ga) + yy * np.sin(ga)) / period
            v = (-xx * np.sin(ga) + yy * np.cos(ga)) / period
            if kind == "checked cloth":
                t = ((np.floor(u) + np.floor(v)) % 2)[..., None]
            else:
                t = (np.floor(u) % 2)[..., None] * (1 - 0.5 * (np.floor(u * 3) % 2)[..., None])
            img = a * t + b * (1 - t)
            img = img * (1 + 0.05 * rng.normal(0, 1, (sh, sw, 1)))
        else:
            base = _col(rng, rng.uniform(20, 200, 3), 0) if kind == "felt" else np.full(3, rng.uniform(150, 235))
            img = np.broadcast_to(base, (sh, sw, 3)) * (1 + 0.04 * rng.normal(0, 1, (sh, sw, 1)))
        img = cv2.resize(np.clip(img, 0, 255).astype(np.float32), (ww, hh), interpolation=cv2.INTER_LINEAR)
        return img

    def _draw_board(self, img, rng):
        t = self.thick
        top = [self._seen_at(*self._board_world(x, y), t) for x, y in ((0, 0), (9, 0), (9, 1), (0, 1))]
        base = [self._board_world(x, y) for x, y in ((0, 0), (9, 0), (9, 1), (0, 1))]
        self._shadow(img, base, t, 0.45)
        hull = cv2.convexHull(np.array([self._px(*p) for p in top + base], np.float32))
        cv2.fillConvexPoly(img, np.round(hull * 4).astype(np.int32), tuple(float(v) for v in self.board_bgr * 0.55),
                           cv2.LINE_AA, shift=2)
        # The top: drawn on the board's own plane, then put on the table's.
        r = 64
        bw, bh = 9 * r, r
        top_img = np.empty((bh, bw, 3), np.float32)
        top_img[:] = self.board_bgr
        top_img *= 1 + 0.05 * cv2.GaussianBlur(rng.normal(0, 1, (bh, bw)).astype(np.float32), (0, 0), 2)[..., None] * 3
        lc = tuple(float(v) for v in self.line_bgr)
        m = int(0.06 * r)
        for f in range(1, 9):
            if self.stitched:
                for yy in range(m, bh - m, 7):
                    cv2.line(top_img, (f * r, yy), (f * r, yy + 4), lc, 2)
            else:
                cv2.line(top_img, (f * r, 0), (f * r, bh), lc, 2)
        if self.stitched:  # a seam round the edge
            for x in range(m, bw - m, 7):
                for y in (m, bh - m):
                    cv2.line(top_img, (x, y), (x + 4, y), lc, 1)
        if self.numbers:
            text = np.zeros((bh, bw), np.uint8)
            for f in range(9):
                cv2.putText(text, str(f + 1), (f * r + int(0.1 * r), int(0.3 * r)), cv2.FONT_HERSHEY_SIMPLEX,
                            0.45, 255, 1, cv2.LINE_AA)
            a = text[..., None].astype(np.float32) / 255
            top_img = top_img * (1 - a) + np.float32(self.line_bgr) * a
        dst = np.float32([self._px(*p) for p in top])
        M = cv2.getPerspectiveTransform(np.float32([[0, 0], [bw, 0], [bw, bh], [0, bh]]), dst)
        shape = (img.shape[1], img.shape[0])
        warped = cv2.warpPerspective(top_img, M, shape, flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.ones((bh, bw), np.float32), M, shape, flags=cv2.INTER_LINEAR)[..., None]
        img[:] = img * (1 - mask) + warped * mask

    def _free(self, rng, taken, radius, near=(0.3, 4.0)):
        """A place on the table (fields) beside the board, ``radius`` clear of the board and of ``taken``, in view."""
        w, h = self.size
        for _ in range(200):
            side = rng.integers(4)
            gap = rng.uniform(*near) + radius
            if side < 2:
                x, y = rng.uniform(-1, 10), (-gap if side == 0 else 1 + gap)
            else:
                x, y = (-gap if side == 2 else 9 + gap), rng.uniform(-1.5, 2.5)
            X, Y = self._board_world(x, y)
            fx, fy = self._world_to_frame(X, Y)
            margin = (radius + 0.3) * self.unit
            if not (margin <= fx <= w - margin and margin <= fy <= h - margin):
                continue
            if all(np.hypot(X - a, Y - b) > radius + r + 0.3 for a, b, r in taken):
                return X, Y
        return None

    def _draw_clutter(self, img, rng, taken):
        for item in self.clutter:
            if item == "cup":
                at = self._free(rng, taken, 1.8, (0.6, 3))
                if at is None:
                    continue
                rim = [(at[0] + 1.6 * np.cos(a), at[1] + 1.6 * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 40)]
                self._shadow(img, rim, 3.5, 0.5)
                seen = [self._seen_at(x, y, 3.5) for x, y in rim]
                self._poly(img, seen, _col(rng, rng.uniform(40, 230, 3), 0))
                inner = [self._seen_at(at[0] + 1.35 * np.cos(a), at[1] + 1.35 * np.sin(a), 3.5)
                         for a in np.linspace(0, 2 * np.pi, 40)]
                self._poly(img, inner, _col(rng, (30, 45, 60), 10))
                taken.append((*at, 1.8))
            elif item == "cards":
                at = self._free(rng, taken, 2.2)
                if at is None:
                    continue
                a = rng.uniform(0, np.pi)
                for k in range(int(rng.integers(1, 4))):
                    a2 = a + rng.uniform(-0.4, 0.4)
                    c, s = np.cos(a2), np.sin(a2)
                    pts = [(at[0] + c * dx - s * dy + 0.2 * k, at[1] + s * dx + c * dy) for dx, dy in
                           ((-1.2, -1.75), (1.2, -1.75), (1.2, 1.75), (-1.2, 1.75))]
                    self._shadow(img, pts, 0.05, 0.3)
                    self._poly(img, pts, _col(rng, (235, 235, 240), 10))
                    mark = [(at[0] + 0.2 * k + 0.3 * np.cos(t), at[1] + 0.3 * np.sin(t)) for t in np.linspace(0, 6.3, 4)]
                    self._poly(img, mark, (40, 40, 190) if rng.random() < 0.5 else (30, 30, 30))
                taken.append((*at, 2.2))
            elif item == "coins":
                for _ in range(int(rng.integers(1, 5))):
                    r = rng.uniform(0.35, 0.55)
                    at = self._free(rng, taken, r)
                    if at is None:
                        continue
                    ring = [(at[0] + r * np.cos(a), at[1] + r * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 24)]
                    metal = _col(rng, (60, 140, 180) if rng.random() < 0.5 else (165, 165, 170), 20)
                    self._shadow(img, ring, 0.08, 0.35)
                    self._poly(img, ring, metal * 0.7)
                    self._poly(img, [(at[0] + (x - at[0]) * 0.82, at[1] + (y - at[1]) * 0.82) for x, y in ring], metal)
                    taken.append((*at, r))
            elif item == "phone":
                at = self._free(rng, taken, 3.3)
                if at is None:
                    continue
                a = rng.uniform(0, np.pi)
                c, s = np.cos(a), np.sin(a)
                pts = [(at[0] + c * dx - s * dy, at[1] + s * dx + c * dy) for dx, dy in
                       ((-1.4, -2.9), (1.4, -2.9), (1.4, 2.9), (-1.4, 2.9))]
                self._shadow(img, pts, 0.3, 0.4)
                self._poly(img, [self._seen_at(x, y, 0.3) for x, y in pts], _col(rng, (25, 25, 28), 6))
                taken.append((*at, 3.3))

    def _base_canvas(self):
        if self._base is None:
            rng = np.random.default_rng(None if self.seed is None else self.seed + 7919)
            self._geo = self._canvas()
            img = self._table(rng, (self._geo[3][1], self._geo[3][0]))
            self._draw_board(img, rng)
            taken = [(*self._board_world(x, 0.5), 0.9) for x in np.arange(0.5, 9, 1.0)]
            self._draw_clutter(img, rng, taken)
            self._base = (img, taken)
        return self._base

    def _die(self, img, X, Y, ang, side, value, pip, body, layout, stand=0.0, shadow=True, tilt=(0.0, 0.0),
             look=None, grain=False):
        """A die standing at (X, Y) on a surface ``stand`` high (or held there: ``tilt`` its two angles,
        radians, about the table's axes): shadow, then the die as a cube, each face the camera sees
        drawn with its pips (the top face showing ``value``, the sides other faces, pips seen at a slant,
        as in the renders). ``look``: the generator of the sides' shade and values (None: plain dark
        sides without pips); ``grain``: a wooden die's faint stripes on its top. Returns its top
        face's centre seen on the table's plane."""
        c, s = np.cos(ang), np.sin(ang)
        sq = [(X + c * dx - s * dy, Y + s * dx + c * dy) for dx, dy in
              ((-side / 2, -side / 2), (side / 2, -side / 2), (side / 2, side / 2), (-side / 2, side / 2))]
        if shadow:
            self._shadow(img, sq, side + max(0.0, stand - self.thick), 0.5)
        axes = cv2.Rodrigues(np.array([tilt[0], tilt[1], 0.0]))[0] @ np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
        centre = np.array([X, Y, stand + side / 2])
        cam = np.array([self.C[0], self.C[1], self.D])  # (x, y, height) fields

        def seen(p):
            return self._seen_at(p[0], p[1], p[2])

        faces = []
        for k in range(3):
            for sign in (1, -1):
                n = sign * axes[:, k]
                fc = centre + n * side / 2
                if np.dot(n, cam - fc) > 0:  # the camera sees this face
                    u, v = sign * axes[:, (k + 1) % 3], axes[:, (k + 2) % 3]
                    faces.append((n[2], fc, u, v))
        faces.sort(key=lambda f: f[0])  # the top face (most upward) last
        step, r = 0.26 * side, (0.075 if value >= 7 else 0.088) * side
        for i, (_nz, fc, u, v) in enumerate(faces):
            top = i == len(faces) - 1
            corners = [seen(fc + (a * u + b * v) * side / 2) for a, b in _SQUARE]
            if top:
                u, v = axes[:, 0], axes[:, 1]  # the top's layout turned as the die is
                self._poly(img, corners, body * 0.85)
                self._poly(img, [seen(fc + (a * u + b * v) * side * 0.45) for a, b in _SQUARE], body)
                if grain:  # a wooden die's grain: faint stripes across its top
                    for t in np.linspace(-0.4, 0.4, 7):
                        self._poly(img, [seen(fc + (a * 0.45 * u + (t + b) * v) * side) for a, b in
                                         ((-1, -0.012), (1, -0.012), (1, 0.012), (-1, 0.012))], body * 0.9)
                pips = layout[value]
            elif look is None:
                self._poly(img, corners, body * 0.62)
                continue
            else:
                self._poly(img, corners, body * look.uniform(*self.side_shade))
                pips = layout[int(look.integers(1, 7))]
            for dx, dy in pips:
                p = fc + (dx * u + dy * v) * step
                self._poly(img, [seen(p + r * (np.cos(a) * u + np.sin(a) * v))
                                 for a in np.linspace(0, 2 * np.pi, 16, endpoint=False)], pip)
        return seen(faces[-1][1])

    def frame(self, *, blue=(1, 5), red=(9, 5), black=6, hand: str | None = None, lifted: str | None = None,
              seed: int | None = None, stray: bool | str | None = None, off: dict | None = None):
        """The frame with the blue and red dice at ``(field, top)`` and the black
        die showing ``black`` somewhere beside the board (None: not there). ``hand``: a
        die's colour a hand is moving (over it, the die between fields), or
        None. ``lifted``: a die's colour that is held above its field (0.6-1 field up). ``stray``: a
        stray d6 on the table (None: drawn from ``seed``, one frame in four, one stray in five a wooden
        d6 of the set's size and pips; ``"set"``: such a one; ``"small"``: a wooden d6 with the set's
        black pips, 0.8 of its size, as a 16 mm d6 beside 20 mm dice). ``off``: ``{colour: fields}``, a die
        set that far along the board from its field's middle (-0.5-0.5; toward field 9 positive) instead
        of the drawn place (up to 0.2), as players set dice near a line between fields.
        Returns the frame (``H×W×3 uint8 BGR``) and the truth: one dict per die
        seen (``colour`` blue, red, black or ``"stray"``, ``value``, ``field`` or
        None, ``center`` px of its top face)."""
        rng = np.random.default_rng(seed)
        base, taken0 = self._base_canvas()
        img = base.copy()
        taken = list(taken0)
        truth = []
        layout = MIWIN_LAYOUT if self.layout == "fenn" else MIWIN_LAYOUT_ALT
        side = self.die
        # The dice's sides and a held die's tilt from a generator of their own: the rest of the frame
        # is drawn as before they were added.
        look = np.random.default_rng(None if seed is None else (seed, 38))
        sides = None if self.plain_dice else look
        slack = max(0.0, (1 - side) / 2) + 0.08  # off the middle, up to a little overhang
        # One set's dice are made to one size (±0.5 %: the renders draw one size; ±2 % before hid a
        # die held up, whose face a lift of 15 mm widens by 3 % seen from 60 cm).
        for colour, at in (("blue", blue), ("red", red)):
            if at is None:
                continue
            field, top = at
            x = field - 0.5 + rng.uniform(-min(slack, 0.2), min(slack, 0.2))  # drawn even when set by ``off``:
            if off and colour in off:  # the frame's other draws stay as they were
                x = field - 0.5 + float(off[colour])
            y = 0.5 + rng.uniform(-slack, slack)
            if colour == hand:
                x = field - 0.5 + rng.choice([-0.5, 0.5])  # mid-move: between two fields
            X, Y = self._board_world(x, y)
            # A lifted die is held 15-25 mm above its field (0.6-1 field): nearer the camera, its shadow apart.
            # Held by fingers, it is tilted too (up to ±8.6°, as in the renders), its top no longer flat.
            lift = rng.uniform(0.6, 1.0) if colour == lifted else 0.0
            tilt = look.uniform(-0.15, 0.15, 2) if lift else (0.0, 0.0)
            mid = self._die(img, X, Y, self.angle + rng.uniform(-0.3, 0.3), side * rng.uniform(0.995, 1.005), top,
                            self.pips[colour], _col(rng, self.body, 6), layout, stand=self.thick + lift,
                            tilt=tilt, look=sides, grain=self.grain)
            truth.append({"colour": colour, "value": top, "field": field,
                          "center": [round(v, 1) for v in self._world_to_frame(*mid)]})
            if colour == hand:
                self._hand(img, X, Y, rng)
        if black is not None and lifted != "black":
            at = self._free(rng, taken, side * 0.75, (0.2, 4.0))
            if at is not None:
                taken.append((*at, side * 0.75))
                mid = self._die(img, *at, rng.uniform(0, np.pi), side * rng.uniform(0.995, 1.005), black,
                                self.pips["black"], _col(rng, self.body, 6), layout, look=sides, grain=self.grain)
                truth.append({"colour": "black", "value": black, "field": None,
                              "center": [round(v, 1) for v in self._world_to_frame(*mid)]})
        if stray if stray is not None else rng.random() < self.stray_chance:
            d = rng.uniform(0.55, 0.72)  # an ordinary d6: 14-18 mm
            at = self._free(rng, taken, d * 0.75, (0.2, 4.0))
            if at is not None:
                body, pip = [((235, 235, 235), (25, 25, 25)), ((40, 40, 200), (240, 240, 240)),
                             ((60, 150, 40), (240, 240, 240)), ((30, 30, 30), (240, 240, 240)),
                             ((200, 235, 245), (30, 30, 170))][int(rng.integers(5))]
                value = int(rng.integers(1, 7))
                ang = rng.uniform(0, np.pi)
                pip, body = _col(rng, pip, 8), _col(rng, body, 8)
                # One stray in five (or ``stray="set"``) a wooden d6 of the set's size with black pips, as in
                # the renders (fenn-00149: it stood for the black die, a 2 not found): from a generator of
                # its own, so that the other frames are drawn as before.
                like = np.random.default_rng(None if seed is None else (seed, 149))
                own = stray in ("set", "small") or stray is None and like.random() < 0.2
                if own:
                    d = side * (0.8 if stray == "small" else like.uniform(0.97, 1.03))
                    body, pip = _col(like, self.body, 10), self.pips["black"]
                    at = self._free(like, taken, d * 0.75, (0.2, 4.0)) or at
                mid = self._die(img, *at, ang, d, value, pip, body, PIP_LAYOUT, look=sides, grain=self.grain and own)
                truth.append({"colour": "stray", "value": value, "field": None,
                              "center": [round(v, 1) for v in self._world_to_frame(*mid)]})
        w, h = self.size
        x0, y0, res, _ = self._geo
        S = np.array([[1 / res, 0, x0], [0, 1 / res, y0], [0, 0, 1]])
        frame = cv2.warpPerspective(img, self._H() @ S, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        return self._finish(frame, rng), truth

    def _hand(self, img, X, Y, rng):
        """A hand reaching to the die at (X, Y): palm and fingers over the board, its shadow."""
        skin = _col(rng, (105, 145, 200) if rng.random() < 0.7 else (60, 90, 130), 20)
        a = rng.uniform(0, 2 * np.pi)
        ca, sa = np.cos(a), np.sin(a)
        palm = (X + ca * 2.4, Y + sa * 2.4)
        ring = [(palm[0] + 1.7 * np.cos(t), palm[1] + 1.5 * np.sin(t)) for t in np.linspace(0, 2 * np.pi, 24)]
        self._shadow(img, ring, 2.5, 0.55)
        for k in range(4):  # fingers reaching to the die
            b = (k - 1.5) * 0.3
            tip = (X + ca * 0.1 + np.cos(a + np.pi / 2) * b, Y + sa * 0.1 + np.sin(a + np.pi / 2) * b)
            base = (palm[0] + np.cos(a + np.pi / 2) * b * 2.5, palm[1] + np.sin(a + np.pi / 2) * b * 2.5)
            finger = [(px - sa * 0.18 * sgn, py + ca * 0.18 * sgn) for (px, py), sgn in
                      ((base, 1), (tip, 1), (tip, -1), (base, -1))]
            self._shadow(img, finger, 1.2, 0.4)
            self._poly(img, [self._seen_at(x, y, 1.2) for x, y in finger], skin * rng.uniform(0.92, 1.0))
        self._poly(img, [self._seen_at(x, y, 2.5) for x, y in ring], skin)

    def _finish(self, frame, rng):
        h, w = frame.shape[:2]
        lo, hi, ang = self.light
        yy, xx = np.mgrid[0:32, 0:32].astype(np.float32) / 31  # the light's gradient, small, then stretched
        t = ((xx - 0.5) * np.cos(ang) + (yy - 0.5) * np.sin(ang)) + 0.5
        gain = cv2.resize(lo + (hi - lo) * np.clip(t, 0, 1), (w, h), interpolation=cv2.INTER_LINEAR)
        out = frame * gain[..., None].astype(np.float32) * self.light_bgr.astype(np.float32)
        noise = np.empty((h, w, 3), np.float32)
        # OpenCV's one global generator, seeded from the frame's own: the same frame whatever ran before.
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(noise, 0, self.noise)
        out = cv2.add(out.astype(np.float32), noise)
        out = np.clip(out, 0, 255).astype(np.uint8)
        if self.blur > 0.3:
            out = cv2.GaussianBlur(out, (0, 0), self.blur)
        return out
