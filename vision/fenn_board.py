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

from collections.abc import Iterator

import cv2
import numpy as np

from .config import BoardConfig

__all__ = ["find_strip", "find_strips"]

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
    # The board's sides part it from the table: rank lines by the contrast across them (a grain's or a
    # check's many long lines are fainter, or shorter), their length counting up to two board lengths.
    blur = cv2.GaussianBlur(lab, (3, 3), 0).astype(np.float32)
    for i, (p0, u, s0, s1, weight) in enumerate(lines):
        n = np.array([-u[1], u[0]])
        pts = (p0[None] + np.arange(s0, s1 + 1.0)[:, None] * u[None]).astype(np.float32)
        near, far = (cv2.remap(blur, np.float32(pts[:, 0] + k * n[0])[None], np.float32(pts[:, 1] + k * n[1])[None],
                               cv2.INTER_LINEAR)[0] for k in (2.5, -2.5))
        contrast = float(np.median((np.abs(near - far) * (1.0, 1.5, 1.5)).sum(axis=1)))
        lines[i] = (p0, u, s0, s1, min(weight, 0.12 * _SIZE) * contrast)
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


def _best_in_strip(img, valid, config: BoardConfig, least: int, q=_Q):
    """The best boards along a straightened strip: ``[with, fewer]``, each ``(score, start, field)`` in strip
    columns or None, ``with`` the best showing ``config.min_lines`` lines between fields or more, ``fewer``
    the best showing ``least`` to fewer than that (two tries on each comb, not six).

    A board's evidence, each field length and start tried:

    - the eight lines between its fields: thin lines across, all lighter or all darker than the
      fields beside them (a ridge in the lightness along the strip, unlike the step of a die's or a
      check's edge), one field apart; at least ``min_lines`` of them clear of the fields' own
      texture (dice and their shadows may hide the rest);
    - the two long sides present along its nine fields and absent beyond its ends;
    - its fields of one colour: their hue, as light and shadow along a leather board change its
      lightness (at least ``min_fields``: dice stand on the rest);
    - the table beside it of another colour, or its sides' edges clear where the table is of its
      colour (a beech board on a beech table)."""
    inside = img[int(0.75 * q):int(1.45 * q)]  # rows across the board, away from its sides
    ok = valid.min(axis=0) > 0
    if ok.sum() < 9 * q:
        return [None, None]
    P = inside[..., 0].mean(axis=0)  # lightness along the strip
    n = len(P)
    gy = np.abs(np.diff(img[..., 0], axis=0)) + 0.5 * np.abs(np.diff(img[..., 1:], axis=0)).sum(axis=2)
    top = gy[int(0.6 * q) - 3:int(0.6 * q) + 3].max(axis=0)
    bottom = gy[int(1.6 * q) - 3:int(1.6 * q) + 3].max(axis=0)
    sides = cv2.blur(np.minimum(top, bottom)[None].astype(np.float32), (5, 1))[0]
    csum = np.r_[0, np.cumsum(sides)]
    C = np.median(inside, axis=0)  # colour along the strip
    above = np.median(img[int(0.1 * q):int(0.45 * q)], axis=0)
    below = np.median(img[int(1.75 * q):int(2.1 * q)], axis=0)
    best = [None, None]
    along = {}  # per half-width d: the lightness's ridges and steps, the colour's steps
    for field in np.arange(0.8, 1.26, 0.025) * q:
        d = max(2, int(round(0.25 * field)))
        if d not in along:
            pad = np.pad(P, d, mode="edge")
            r = P - (pad[:-2 * d] + pad[2 * d:]) / 2  # a thin line: lighter (or darker) than both sides
            step = np.abs(pad[2 * d:] - pad[:-2 * d]) / 2  # unlike an edge: as light on both sides
            padc = np.pad(C, ((d, d), (0, 0)), mode="edge")
            across = np.linalg.norm(padc[2 * d:] - padc[:-2 * d], axis=1)  # the colour across a board's end
            along[d] = (r, step, _either(r, -1e9), _either(-r, -1e9), _either(across, 0.0))
        r, step, up, down, end_step = along[d]
        starts = np.arange(int(field), n - 10 * field - 1)
        if len(starts) == 0:
            continue
        idx = (starts[:, None] + field * np.arange(10)[None, :]).round().astype(int)
        mids = (starts[:, None] + field * (np.arange(9)[None, :] + 0.5)).round().astype(int)
        noise = np.median(np.abs(np.concatenate([r[mids], r[np.minimum(mids + d // 2 + 1, n - 1)],
                                                 r[np.maximum(mids - d // 2 - 1, 0)]], axis=1)), axis=1)
        floor = np.maximum(3 * noise, config.line_contrast)[:, None]
        teeth = idx[:, 1:9]
        score_s = []
        for ridge in (up, down):
            v = ridge[teeth] - step[teeth]
            score_s.append(((v > floor).sum(axis=1), np.minimum(np.clip(v, 0, None) / floor, 3).sum(axis=1)))
        count = np.maximum(score_s[0][0], score_s[1][0])
        lines = np.maximum(score_s[0][1], score_s[1][1]) / 8
        a, b = idx[:, 0], idx[:, 9]
        f = int(field)
        on = (csum[b] - csum[a]) / (b - a)
        off = ((csum[a] - csum[np.maximum(a - f, 0)]) + (csum[np.minimum(b + f, n)] - csum[b])) / (2 * f)
        ends_clear = np.clip((on - off) / (on + 1.0), 0, 1)
        ends = np.minimum(end_step[idx[:, [0, 9]]], 25).mean(axis=1) / 25
        score = lines * (0.4 + ends) * (0.15 + ends_clear)
        for k, (fewest, most, tries) in enumerate(((config.min_lines, 9, 6), (least, config.min_lines, 2))):
            scored = np.where((count >= fewest) & (count < most), score, 0.0)  # weaker evidence: fewer tried
            for s in np.argsort(-scored)[:tries]:
                if scored[s] <= 0:
                    break
                start = float(starts[s])
                got = _fields_at(inside, ok, above, below, start, field, config)
                if got is None:
                    continue
                same, beyond, side = got
                if side < config.field_colour * 0.5 and ends_clear[s] < 0.5:
                    continue  # neither a colour of its own nor sides of its own
                total = float(scored[s]) * same / 9 * (1 + min(side, 60) / 60) * 0.5 ** beyond
                if best[k] is None or total > best[k][0]:
                    best[k] = (total, start, float(field))
    return best


def _either(x: np.ndarray, fill: float) -> np.ndarray:
    """``x`` (1-D) at each sample or either neighbour, whichever is largest (``fill`` past the ends):
    a thin line or an edge between two samples counts at both."""
    return np.maximum.reduce([np.r_[x[1:], fill], x, np.r_[fill, x[:-1]]])


def _fields_at(inside, ok, above, below, start: float, field: float, config: BoardConfig):
    """The fields of a board starting at strip column ``start``, ``field`` columns long: ``(same, beyond,
    side)`` — how many of the nine are plain and of one hue, how many of the two places one field beyond
    its ends look like its fields (a comb one field off), and how far (Lab) the table beside it lies from
    its colour; or None where it is no board (not wholly in view, too few fields of one hue)."""
    a0, b0 = int(start), int(start + 9 * field)
    if not ok[a0:b0 + 1].all():
        return None  # the board wholly in view
    blocks = [inside[:, max(0, int(start + (k + 0.2) * field)):int(start + (k + 0.8) * field) + 1].reshape(-1, 3)
              for k in range(-1, 10)]  # the nine fields and one beyond each end
    colours = np.array([np.median(c, axis=0) for c in blocks])
    spread = np.array([np.median(np.linalg.norm(c[:, 1:] - f[1:], axis=1)) for c, f in zip(blocks, colours)])
    board = np.median(colours[1:10], axis=0)
    hue = np.linalg.norm(colours[:, 1:] - board[1:], axis=1)
    plain = (hue < config.field_colour / 2) & (spread < config.field_colour / 3)
    same = int(plain[1:10].sum())  # fields of one hue (light and shadow change their lightness), each plain
    if same < config.min_fields:
        return None
    # Beyond each end lies no field: one of the board's colour and lightness there is its field 1 or 9,
    # and this comb one field off (a die hides the lines near that end).
    f = int(field)
    beyond = int((plain[[0, 10]] & (np.abs(colours[[0, 10], 0] - board[0]) < config.field_colour)
                  & ok[[max(0, a0 - f), min(len(ok) - 1, b0 + f)]]).sum())
    side = max(float(np.median(np.linalg.norm(above[a0:b0] - board, axis=1))),
               float(np.median(np.linalg.norm(below[a0:b0] - board, axis=1))))
    return same, beyond, side


def find_strip(frame: np.ndarray, config: BoardConfig) -> np.ndarray | None:
    """The board's four corners (frame px, ``4×2``: one end's two corners, then the other's, in order
    round the strip) in ``frame`` (``H×W×3 uint8 BGR``), or None when no strip of nine fields is seen, or
    the best gives less evidence than ``config.min_evidence`` (a table's grain, not a board)."""
    strong, _weak = find_strips(frame, config, least_lines=config.min_lines)
    return strong[0] if strong else None


def find_strips(frame: np.ndarray, config: BoardConfig, *, least_lines: int,
                most: int = 3) -> tuple[list[np.ndarray], Iterator[np.ndarray]]:
    """The strips of nine fields in ``frame`` (``H×W×3 uint8 BGR``) most like a board, each as
    :func:`find_strip` gives its corners (frame px, ``4×2``), best first, with ``config.min_evidence`` at
    least: ``(strong, weak)``, the best one showing ``config.min_lines`` of the eight lines between
    fields or more (a list), and the ``most`` best showing from ``least_lines`` to fewer than that (an
    iterator: each strip's corners are refined, which takes time, only as it is taken). A table's planks
    or a cloth's stripes show as few as a board whose lines hardly show (black leather with dark printed
    lines): the caller must tell which weak strip is the board (:func:`vision.fenn.find_board`: the game's
    dice stand on it). Both empty when none passes."""
    h, w = frame.shape[:2]
    k = _SIZE / max(w, h)
    small = cv2.resize(frame, (int(round(w * k)), int(round(h * k))), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    cv2.setRNGSeed(38)  # the probabilistic Hough transform samples edge points: the same frame, the same board
    lines = _lines(lab, config)
    lo, hi = config.width_range
    strips: tuple[list, list] = ([], [])
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
            for kind, found in zip(strips, _best_in_strip(img, valid, config, least_lines)):
                # one too weakly a board is none (fresh render 306: a plank's grain, 0.02)
                if found is not None and found[0] >= config.min_evidence:
                    kind.append((*found, A))
    def refined(found) -> np.ndarray:
        _score, start, field, A = found
        q = _Q
        pts = np.array([[start, 0.6 * q], [start + 9 * field, 0.6 * q], [start + 9 * field, 1.6 * q],
                        [start, 1.6 * q]])
        corners = _slid(frame, ((A[:, :2] @ pts.T).T + A[:, 2]) / k)
        for step in range(3):  # the ends first; then the shrink along the board, bounded once (not compounded)
            corners = refine(frame, corners, most=config.tilt_most if step == 2 else 0.0,
                             square=config.square_within)
        return _slid(frame, corners, either=True)

    strong, weak = (sorted(kind, key=lambda t: -t[0]) for kind in strips)
    return [refined(t) for t in strong[:1]], (refined(t) for t in weak[:most])


def _straightened(frame: np.ndarray, corners: np.ndarray, res: int, along: float, across: float, flags: int):
    """The board's plane at ``res`` px a field with ``along`` fields beyond each end and ``across`` beside
    each side: ``(H, L)``, ``H`` the homography from frame px (``corners`` as :func:`refine` takes them)
    to the plane's px, ``L`` its lightness (Lab L, float32, a 3×3 Gaussian blur). ``flags``: the warp's
    interpolation."""
    dst = np.float32([[along, across], [9 + along, across], [9 + along, 1 + across], [along, 1 + across]]) * res
    H = cv2.getPerspectiveTransform(np.float32(corners), dst)
    plane = cv2.warpPerspective(frame, H, (int((9 + 2 * along) * res), int((1 + 2 * across) * res)), flags=flags)
    return H, cv2.GaussianBlur(cv2.cvtColor(plane, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32), (3, 3), 0)


def _slid(frame: np.ndarray, corners: np.ndarray, res: int = 20, either: bool = False) -> np.ndarray:
    """The corners (as :func:`refine` takes them) slid one field along the board where its two long
    sides show beyond one end and not within the other: the comb of field lines fits one field off as
    well where dice hide the lines near an end, and the strip then reaches onto the table at one end
    (no sides there) and leaves field 1 or 9 out at the other (its sides seen). A field's sides: the
    edge along the board at each side, the weaker of the two (``either``: the stronger), its median over
    the field. :func:`find_strip` looks once so before its corners are refined and once, ``either``, after:
    a die standing on an end field hides a side (its sides then seen, one of them), and a field that shows
    neither is the table (Fenn render 353: the refined strip one field onto a wooden table, a die on
    its other end field; the weaker side on the strip first found, before the refinement, moves the
    start position of mock scene 10101 back where ``either`` would not)."""
    m = 2
    H, L = _straightened(frame, corners, res, m, 1, cv2.INTER_AREA)
    gy = np.abs(np.diff(L, axis=0))
    near = lambda row: gy[row - 2:row + 2].max(axis=0)  # noqa: E731
    sides = (np.maximum if either else np.minimum)(near(res), near(2 * res))
    field = [float(np.median(sides[(m + f) * res + res // 5:(m + f + 1) * res - res // 5])) for f in range(-m, 9 + m)]
    inner = np.median(field[m + 2:m + 7])  # the board's own sides, away from its ends
    seen = [v >= 0.5 * inner for v in field]
    a, b = seen[m], seen[m + 8]  # the strip's first and last field
    before, after = seen[m - 1], seen[m + 9]  # one field beyond each end
    if not a and after and b and not before:
        d = 1
    elif not b and before and a and not after:
        d = -1
    else:
        return corners
    moved = np.float32([[[m + d, 1], [9 + m + d, 1], [9 + m + d, 2], [m + d, 2]]]) * res
    return cv2.perspectiveTransform(moved, np.linalg.inv(H))[0].astype(np.float64)


def _square_width(corners: np.ndarray) -> float:
    """The board's width its fields being square would give, as a share of the width its corners
    (``4×2`` frame px, the first two along one long side) give: the length of its long sides over nine,
    over the mean length of its ends."""
    c = np.asarray(corners, np.float64)
    length = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
    width = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
    return length / 9 / max(width, 1e-6)


def refine(frame: np.ndarray, corners: np.ndarray, res: int = 40, *, most: float = 0.0,
           square: float | None = None) -> np.ndarray:
    """The corners (``4×2`` frame px, in order round the strip, the first two along one long side)
    moved to the board's edges seen on its own straightened plane: each side to the strongest edge
    within a fifth of a field, the ends to where the comb of the field lines fits best, and the width
    at each end as the lines' spacing shrinks along the board (a view from a camera tilted or off to
    one side; at most ``most`` of it a field, :class:`vision.config.BoardConfig`'s ``tilt_most``; 0: the
    width kept). Where the two sides so found lie further than ``square`` (a share;
    :class:`vision.config.BoardConfig`'s ``square_within``; None: never) from the width square fields
    give (the length over nine: fenn.md, a strip 2.5 × 23 cm, each field a die's face), they are lines
    along the board inside its sides, stitched or printed: the sides are put that width apart about
    their middle (issue 38's renders: strips found 0.78-0.93 as wide as the board, their length within
    1 %; on such a plane a die's pips spread unlike the others' by how it is turned)."""
    m = 0.6
    H, L = _straightened(frame, corners, res, m, m, cv2.INTER_LINEAR)
    gy = np.abs(np.diff(L, axis=0))  # edges along the board
    gx = np.abs(np.diff(L, axis=1))  # edges across it
    mid = slice(int((m + 0.5) * res), int((m + 8.5) * res))
    rows = np.median(gy[:, mid], axis=1)
    r = int(0.2 * res)

    def peak(profile, at):
        a, b = max(0, at - r), min(len(profile), at + r + 1)
        return a + int(np.argmax(profile[a:b])) + 0.5

    top, bottom = peak(rows, int(m * res)), peak(rows, int((m + 1) * res))
    wide = _square_width(corners) * res  # the width square fields give, px of this plane
    if square is not None and abs((bottom - top) / wide - 1.0) > square:
        top, bottom = (top + bottom - wide) / 2, (top + bottom + wide) / 2
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
    # The same view's shrink across the board: its width, measured along the middle, at each end (a
    # strip's ends are too narrow to tell it: found a pixel off, fields 4-6 lay 0.1 field off). Only
    # from six lines or more and a shrink a camera gives (``most`` a field; a die's edge taken for a line).
    cc_w = cc if abs(cc) <= most and keep.sum() >= 6 else 0.0
    mid_y, half = (top + bottom) / 2, (bottom - top) / 2 * (4.5 * cc_w + 1)
    h0, h9 = half, half / (9 * cc_w + 1)
    got = np.float32([[[x0, mid_y - h0], [x9, mid_y - h9], [x9, mid_y + h9], [x0, mid_y + h0]]])
    return cv2.perspectiveTransform(got, np.linalg.inv(H))[0].astype(np.float64)
