"""Finding Fenn's board in a frame by what it is: a long strip of nine equal fields.

The board (fenn.md: a leather strip 2.5 × 23 cm, fields 2.5 cm) has two long
straight sides and, between its ends, nine square fields of one colour parted
by lines. :func:`find_strip` looks for exactly that, so a table's grain, a
cloth's checks or stripes and dice standing on the board (fields 1 and 9 at
the start) do not fool it:

1. Straight edges (Canny on lightness and colour) and the long straight
   segments in them (the probabilistic Hough transform), merged into lines.
2. Every pair of nearly parallel lines a board's width apart is a candidate
   strip; the frame is sampled along it (straightened).
3. Along the strip, the board's ten edges across it (its two ends and the
   eight lines between fields) lie one field apart: a comb of ten teeth is
   slid along the strip's edges across it, for each field length near the
   strip's width (fields are square, the sides seen may include the board's
   thickness); the ends must stand out from the table.
4. The nine fields so placed must be one colour (at least ``min_fields`` of
   them: a die covers a field), unlike a check's alternating colours, and
   the strip must differ from the table beside it.

The best strip's corners are then refined on the board's own straightened
plane (:func:`refine`). Raises :class:`BoardError` (from :mod:`vision.fenn`)
when no strip passes: the players touch the two ends on the screen instead.
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import BoardConfig

__all__ = ["find_strip"]

_SIZE = 640  # the longer side the frame is searched at, px
_Q = 16  # strip samples per board width


def _lines(lab: np.ndarray, config: BoardConfig) -> list[tuple]:
    """Long straight lines in ``lab`` (small frame): ``(p0, u, smin, smax, weight)`` — a point, the
    unit direction, the extent along it and the total length of its segments (px)."""
    L = cv2.GaussianBlur(lab[..., 0], (3, 3), 0)
    edges = cv2.Canny(L, 30, 80)
    for c in (1, 2):
        edges |= cv2.Canny(cv2.GaussianBlur(lab[..., c], (3, 3), 0), 12, 30)
    segs = cv2.HoughLinesP(edges, 1, np.pi / 360, 22, minLineLength=max(12, int(_SIZE * config.min_side)),
                           maxLineGap=4)
    if segs is None:
        return []
    segs = segs.reshape(-1, 4).astype(np.float64)
    d = segs[:, 2:] - segs[:, :2]
    length = np.hypot(d[:, 0], d[:, 1])
    theta = np.mod(np.arctan2(d[:, 1], d[:, 0]), np.pi)
    nx, ny = -np.sin(theta), np.cos(theta)
    rho = segs[:, 0] * nx + segs[:, 1] * ny
    order = np.argsort(-length)
    used = np.zeros(len(segs), bool)
    lines = []
    for i in order:
        if used[i]:
            continue
        dt = np.abs(np.mod(theta - theta[i] + np.pi / 2, np.pi) - np.pi / 2)
        same = (~used) & (dt < np.deg2rad(1.5)) & (np.abs(segs[:, 0] * nx[i] + segs[:, 1] * ny[i] - rho[i]) < 2.5) \
            & (np.abs(segs[:, 2] * nx[i] + segs[:, 3] * ny[i] - rho[i]) < 2.5)
        used |= same
        pts = np.concatenate([segs[same, :2], segs[same, 2:]])
        vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        u = np.array([vx, vy], np.float64)
        p0 = np.array([x0, y0], np.float64)
        s = (pts - p0) @ u
        lines.append((p0, u, float(s.min()), float(s.max()), float(length[same].sum())))
    lines.sort(key=lambda t: -t[4])
    return lines[:config.max_lines]


def _strip(lab, a, b, q=_Q):
    """The frame sampled along the strip between lines ``a`` and ``b``: an image whose rows run across
    (``t`` from -0.6 to 1.6 widths, ``q`` rows per width) and columns along (``q`` per width), with the
    affine map from strip px to frame px; or None."""
    p0, u, s0, s1, _ = a
    q0, v, t0, t1, _ = b
    if u @ v < 0:
        v, t0, t1 = -v, -t1, -t0
    u = (u + v) / np.hypot(*(u + v))
    n = np.array([-u[1], u[0]])
    width = (q0 - p0) @ n
    if width < 0:
        n, width = -n, -width
    # Along: both lines' extents, two widths beyond.
    sq = (q0 - p0) @ u
    lo, hi = min(s0, t0 + sq) - 2.2 * width, max(s1, t1 + sq) + 2.2 * width
    h, w = lab.shape[:2]
    k = q / width
    cols = int((hi - lo) * k)
    if cols < 9 * q or cols > 60 * q:
        return None
    origin = p0 + lo * u - 0.6 * width * n
    A = np.array([[u[0] / k, n[0] / k, origin[0]], [u[1] / k, n[1] / k, origin[1]]])  # strip px -> frame px
    img = cv2.warpAffine(lab, A, (cols, int(2.2 * q)), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    valid = cv2.warpAffine(np.ones((h, w), np.uint8), A, (cols, int(2.2 * q)),
                           flags=cv2.WARP_INVERSE_MAP | cv2.INTER_NEAREST)
    return img.astype(np.float32), valid, A, width


def _best_in_strip(img, valid, config: BoardConfig, q=_Q):
    """The best board along a straightened strip: ``(score, start, field)`` in strip columns, or None.

    A board's evidence, each field length and start tried: the eight lines between fields (edges
    across the strip, one field apart), the two long sides present along its nine fields and absent
    beyond its ends (where dice at fields 1 and 9 may hide the ends themselves), its fields of one
    colour, and the table beside it of another."""
    inside = img[int(0.75 * q):int(1.45 * q)]  # rows across the board, away from its sides
    Lg = np.abs(np.diff(inside[..., 0], axis=1)) + 0.5 * np.abs(np.diff(inside[..., 1:], axis=1)).sum(axis=2)
    G = np.median(Lg, axis=0)
    G = np.maximum(G, np.r_[G[1:], 0])  # an edge between two samples counts at either
    G = np.maximum(G, np.r_[0, G[:-1]])
    ok = valid.min(axis=0)[:-1] > 0
    G[~ok] = 0
    if not ok.any():
        return None
    base = float(np.median(G[ok])) + 1.0
    gy = np.abs(np.diff(img[..., 0], axis=0)) + 0.5 * np.abs(np.diff(img[..., 1:], axis=0)).sum(axis=2)
    top = gy[int(0.6 * q) - 3:int(0.6 * q) + 3].max(axis=0)
    bottom = gy[int(1.6 * q) - 3:int(1.6 * q) + 3].max(axis=0)
    sides = cv2.blur(np.minimum(top, bottom)[None].astype(np.float32), (5, 1))[0]
    above = np.median(img[int(0.1 * q):int(0.45 * q)], axis=0)
    below = np.median(img[int(1.75 * q):int(2.1 * q)], axis=0)
    n = len(G)
    csum = np.r_[0, np.cumsum(sides)]
    best = None
    for field in np.arange(0.8, 1.26, 0.025) * q:
        starts = np.arange(int(field), n - 10 * field - 1)
        if len(starts) == 0:
            continue
        idx = (starts[:, None] + field * np.arange(10)[None, :]).round().astype(int)
        comb = G[idx]
        lines = np.minimum(comb[:, 1:9], 4 * base).mean(axis=1) / base  # capped: a die's edge counts once
        ends = np.minimum(comb[:, [0, 9]], 4 * base).mean(axis=1) / base
        a, b = idx[:, 0], idx[:, 9]
        f = int(field)
        on = (csum[b] - csum[a]) / (b - a)
        off = ((csum[a] - csum[np.maximum(a - f, 0)]) + (csum[np.minimum(b + f, n)] - csum[b])) / (2 * f)
        ends_clear = np.clip((on - off) / (on + 1.0), 0, 1)
        score = lines * (1 + 0.3 * ends) * ends_clear
        for s in np.argsort(-score)[:3]:
            if lines[s] < 1.6:
                break
            start = float(starts[s])
            if not ok[int(start):int(start + 9 * field)].all():
                continue  # the board wholly in view
            blocks = [inside[:, int(start + (k + 0.2) * field):int(start + (k + 0.8) * field) + 1].reshape(-1, 3)
                      for k in range(9)]
            fields = np.array([np.median(c, axis=0) for c in blocks])
            spread = np.array([np.median(np.linalg.norm(c - f, axis=1)) for c, f in zip(blocks, fields)])
            board = np.median(fields, axis=0)
            same = int(((np.linalg.norm(fields - board, axis=1) < config.field_colour)
                        & (spread < config.field_colour / 2)).sum())  # one colour, each field plain
            if same < config.min_fields:
                continue
            a0, b0 = int(start), int(start + 9 * field)
            side = max(float(np.median(np.linalg.norm(above[a0:b0] - board, axis=1))),
                       float(np.median(np.linalg.norm(below[a0:b0] - board, axis=1))))
            if side < config.field_colour * 0.5:
                continue  # no different from the table beside it
            total = float(score[s]) * same / 9 * (1 + min(side, 60) / 60)
            if best is None or total > best[0]:
                best = (total, start, float(field))
    return best


def find_strip(frame: np.ndarray, config: BoardConfig) -> np.ndarray | None:
    """The board's four corners (frame px, ``4×2``: one end's two corners, then the other's, in order
    round the strip) in ``frame`` (``H×W×3 uint8 BGR``), or None when no strip of nine fields is seen."""
    h, w = frame.shape[:2]
    k = _SIZE / max(w, h)
    small = cv2.resize(frame, (int(round(w * k)), int(round(h * k))), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    cv2.setRNGSeed(38)  # the probabilistic Hough transform samples edge points: the same frame, the same board
    lines = _lines(lab, config)
    lo, hi = config.width_range
    best = None
    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            a, b = lines[i], lines[j]
            if abs(a[1] @ b[1]) < np.cos(np.deg2rad(3.0)):
                continue
            n = np.array([-a[1][1], a[1][0]])
            width = abs((b[0] - a[0]) @ n)
            if not lo * _SIZE <= width <= hi * _SIZE:
                continue
            # Their extents overlap by at least a few fields.
            sb = sorted((((b[0] - a[0]) @ a[1]) + b[2] * (a[1] @ b[1]), ((b[0] - a[0]) @ a[1]) + b[3] * (a[1] @ b[1])))
            if min(a[3], sb[1]) - max(a[2], sb[0]) < 3 * width:
                continue
            got = _strip(lab, a, b)
            if got is None:
                continue
            img, valid, A, _width = got
            found = _best_in_strip(img, valid, config)
            if found is not None and (best is None or found[0] > best[0]):
                best = (*found, A)
    if best is None:
        return None
    _score, start, field, A = best
    q = _Q
    pts = np.array([[start, 0.6 * q], [start + 9 * field, 0.6 * q], [start + 9 * field, 1.6 * q],
                    [start, 1.6 * q]])
    corners = (A[:, :2] @ pts.T).T + A[:, 2]
    corners = corners / k
    for _ in range(3):
        corners = refine(frame, corners)
    return corners


def refine(frame: np.ndarray, corners: np.ndarray, res: int = 40) -> np.ndarray:
    """The corners (``4×2`` frame px, in order round the strip, the first two along one long side)
    moved to the board's edges seen on its own straightened plane: each side to the strongest edge
    within a fifth of a field, and the ends to where the comb of the field lines fits best."""
    src = np.float32(corners)
    m = 0.6
    dst = np.float32([[m, m], [9 + m, m], [9 + m, 1 + m], [m, 1 + m]]) * res
    H = cv2.getPerspectiveTransform(src, dst)
    W, Hh = int((9 + 2 * m) * res), int((1 + 2 * m) * res)
    plane = cv2.warpPerspective(frame, H, (W, Hh), flags=cv2.INTER_LINEAR)
    L = cv2.GaussianBlur(cv2.cvtColor(plane, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32), (3, 3), 0)
    gy = np.abs(np.diff(L, axis=0))  # edges along the board
    gx = np.abs(np.diff(L, axis=1))  # edges across it
    mid = slice(int((m + 0.5) * res), int((m + 8.5) * res))
    rows = np.median(gy[:, mid], axis=1)
    r = int(0.2 * res)

    def peak(profile, at):
        a, b = max(0, at - r), min(len(profile), at + r + 1)
        return a + int(np.argmax(profile[a:b])) + 0.5

    top, bottom = peak(rows, int(m * res)), peak(rows, int((m + 1) * res))
    band = slice(int(top + 0.2 * (bottom - top)), int(bottom - 0.2 * (bottom - top)))
    cols = np.median(gx[band], axis=0)
    # The ten edges across the board, each near where the comb puts it; a straight fit through them.
    ks = np.arange(1, 9)  # the lines between fields (the ends may hide under dice)
    c = cv2.GaussianBlur(cols[None].astype(np.float32), (0, 0), 1.0)[0]
    best = (-1.0, 0.0, 1.0)
    for scale in np.arange(0.94, 1.061, 0.01):  # the comb of eight lines slid and stretched
        for shift in np.arange(-0.45, 0.451, 0.025):
            at = ((m + 4.5 + (ks - 4.5) * scale + shift) * res).round().astype(int)
            if at.min() < 0 or at.max() >= len(c):
                continue
            v = float(np.minimum(c[at], 3 * np.median(c)).sum())
            if v > best[0]:
                best = (v, shift, scale)
    _v, shift, scale = best
    r = int(0.1 * res)
    xs = np.array([peak(cols, int(round((m + 4.5 + (k - 4.5) * scale + shift) * res))) for k in ks])
    wts = np.array([cols[int(x)] for x in xs]) + 1e-3
    keep = np.ones(len(ks), bool)
    for _ in range(2):  # x = (a k + b) / (c k + 1): the lines' spacing shrinks along a tilted view
        A = np.column_stack([ks, np.ones(len(ks)), -ks * xs])[keep] * wts[keep, None]
        (a, b, cc), *_ = np.linalg.lstsq(A, xs[keep] * wts[keep], rcond=None)
        fit = (a * ks + b) / (cc * ks + 1)
        keep = np.abs(fit - xs) < 0.08 * res  # a die's edge taken for a line: left out
        if keep.sum() < 5:
            keep[:] = True
    x0, x9 = b, (9 * a + b) / (9 * cc + 1)
    got = np.float32([[[x0, top], [x9, top], [x9, bottom], [x0, bottom]]])
    return cv2.perspectiveTransform(got, np.linalg.inv(H))[0].astype(np.float64)
