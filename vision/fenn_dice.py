"""Finding dice anywhere in a Fenn frame by what they are: squares of a die's size with round pips.

Used by :mod:`vision.fenn` for the dice on the board, the black die wherever
it lies beside it (F14) and any other die on the table. Not "the lightest
things": a die is found from its pips first — small round marks darker or
lighter than what is round them (a black-hat and a top-hat of the size of a
pip) — and then its face, the region of one colour round those pips, parted
from the table by the edges round it (the die's rim, its side, its shadow),
which must be a square of about a die's size. A speck of a table's grain, a
cloth's check or a coin makes no such square.

:func:`camera_of` (in :mod:`vision.fenn_lift`, re-exported here) recovers the camera from the board (a pin-hole camera of
known focal length over a flat table), so that a die's top face, seen a die's
height above the table, is put back over the place it stands on.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .config import BoardConfig
from .fenn_lift import camera_of, standing_at
from .fenn_pips import _sparse_components

__all__ = ["Found", "find_dice", "camera_of", "standing_at"]

_UNIT = 34.0  # px per field the frame is searched at
#: The widest a face's pips spread, as a share of the set's die's side (``BoardConfig.die``): a 3's
#: or a 9's diagonal, 0.74 of a side, on the largest die (25 mm, against 21.5 mm expected).
_SPAN = 0.95
#: A 2's pips lie this share of their die's side apart (fenn.md's layout: each 0.26 of a side from the
#: middle both ways, 0.24 from two edges).
_TWO = 0.735
#: A 3's outline whose middle lies further than this share of a side from its middle pip took in more than
#: its face (a side of its colour, seen near the frame's edge): the square its pips fix is taken instead;
#: raising it keeps more such outlines (the side's pips then read with the top's).
_OFF = 0.15
#: The largest blot looked at again at three times the scale for pips run together, in pips' areas (a 9's
#: nine pips, their gaps and a little of their face).
_BLOT = 14.0
#: The largest blot, in pips' areas, taken for one pip where it is one round pip at three times the scale
#: (a die near a low camera, its pips 2.5-3 times as large as expected); raising it takes larger round
#: marks (a coin's shadow, a knot) for pips.
_BIG = 3.5
#: A pip this elongated (its long axis against its short) is a side's, seen at a slant; left out of faces.
_FLAT = 1.6
#: A face's outline turned more than this (degrees) from the square its four or more pips lie on (spread
#: over a third of its side both ways) took in its sides (a die near the frame's edge, its wooden sides of
#: its face's colour: fresh render 434's black 7, its outline 32° off; the renders' 9s within 24°): the
#: square its pips fix is taken; raising it keeps more such outlines.
_TURN = 30.0
#: Two pips are of one hue where their colours (Lab a*, b*) lie within about 37° (this cosine): a red
#: pip and a wooden body's orange mark beside it are not.
_HUE = 0.8


@dataclass(frozen=True)
class Found:
    """A die-like square: ``box`` its 4 corners (frame px), ``side`` px, ``body`` its face's Lab colour."""

    box: np.ndarray
    side: float
    body: tuple


def find_dice(frame: np.ndarray, unit: float, config: BoardConfig, *, chroma: float) -> list[Found]:
    """The dice in ``frame`` (``H×W×3 uint8 BGR``) where a field is ``unit`` px: every square of a
    die's size (from ``config.stray_size[0]`` of the set's dice up) with round pips inside. One or two
    pips whose face's outline is not seen count only when they are coloured (Lab a* or b* beyond
    ``chroma``, :class:`vision.config.ColourConfig`'s ``pip_chroma``): blue and red show a 1, the black
    die never does (fenn.md, F1), and a speck of a table is not blue or red."""
    s = min(1.0, _UNIT / max(unit, 1.0))
    small = _shrunk(frame, s)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    L = np.ascontiguousarray(lab[..., 0])
    side = config.die * unit * s  # the set's die, px here
    pr = 0.085 * side  # a pip's radius
    k = int(2.6 * 2 * pr) | 1
    kern = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    dark = cv2.morphologyEx(L, cv2.MORPH_BLACKHAT, kern)
    light = cv2.morphologyEx(L, cv2.MORPH_TOPHAT, kern)
    want = np.pi * pr * pr
    pts, areas, flat, kind, pipmask = [], [], [], [], np.zeros(L.shape, np.uint8)
    for sign, hat in ((1, dark), (-1, light)):  # dark pips on a light face; light pips on a dark die (a stray d6)
        stats, cents, elongation, (ys, xs, part) = _sparse_components((hat > config.pip_depth).astype(np.uint8))
        ok = _pip_like(stats, want)
        ok[0] = False  # the background
        keep = np.flatnonzero(ok)
        pts += list(cents[keep])
        areas += list(stats[keep, cv2.CC_STAT_AREA])
        flat += list(elongation[keep] > _FLAT)
        kind += [sign] * len(keep)
        # A 7's to 9's pips lie close: shrunk to the search's scale they run together into one blot.
        # A blot of pips' size (up to a die's) is looked at again at three times the scale, its pips parted.
        x0, y0, w, h, a = stats.T
        # Two pips run together make an oval (along a diagonal, filling less than half its box) of 1.6-2.5
        # pips' areas: looked at again too (a side's squashed pip, as elongated, is smaller than a pip).
        pair = (~ok | (elongation > _FLAT)) & (a > 1.6 * want) & (a <= 2.5 * want)
        blot = (~ok & (a > 2.5 * want) | pair) & (a <= _BLOT * want) & (np.maximum(w, h) <= 1.3 * side)
        blot[0] = False
        whole, parted = cents[keep], []
        for b in np.flatnonzero(blot):
            got = _finer(frame, s, (x0[b], y0[b], w[b], h[b]), pr, sign, config.pip_depth)
            # a pip found whole beside the blot, in its box, is no pip of the blot
            others = cents[keep[keep != b]] if ok[b] else whole
            got = [g for g in got if not len(others) or np.hypot(*(others - g[0]).T).min() > pr]
            big = not pair[b] and len(got) == 1 and a[b] <= _BIG * want and got[0][1] >= 0.6 * a[b] and \
                got[0][2] <= 1.3
            if not big and (len(got) < 2 or sum(area for _p, area, _e in got) < 0.5 * a[b]):
                blot[b] = False  # no pips run together (a die's edge, its shadow, a knot): most of it is no pip
                continue
            for p, area, e in got:
                if all(np.hypot(*(p - q)) > pr for q in parted):  # blots' boxes overlap: each pip once
                    parted.append(p)
                    pts.append(p)
                    areas.append(area)
                    flat.append(e > _FLAT)
                    kind.append(sign)
        on = (ok | blot)[part]
        pipmask[ys[on], xs[on]] = 1
    if not pts:
        return []
    pts, areas = np.array(pts), np.float64(areas)
    # A side's pips, seen at a slant (55° or more from straight on), are squashed ovals: they part no
    # face from its neighbours (the edges round them are left out) but make none: left out of the
    # pips that group into faces (the renders: a side's pips made the top's square too long).
    round_ = ~np.array(flat)
    pts, areas, kind = pts[round_], areas[round_], np.int8(kind)[round_]
    if not len(pts):
        return []
    edges = cv2.Canny(cv2.GaussianBlur(L, (3, 3), 0), 25, 60)
    edges = cv2.dilate(edges, np.ones((2, 2), np.uint8)) & ~(cv2.dilate(pipmask, np.ones((3, 3), np.uint8)) * 255)
    # Pips near each other belong to one die: single links shorter than a third of a side.
    hue = _tinted(frame, pts / s, chroma)
    groups = _faces(pts, areas, _groups(pts, 0.4 * side), side, hue)
    tinted = np.abs(hue).max(axis=1) > 0
    out: list[Found] = []
    done: set[int] = set()
    # A 2's two pips as one face first; where they make no die's square, each alone in its turn.
    todo = [(True, p) for p in _twos(pts, areas, [h for g in groups for h in _by_hue(g, hue)], side, hue)] + \
        [(False, g) for g in groups]
    for two, g in todo:
        if done & set(g):
            continue
        whole, g = g, _top_face(pts, areas, g, side)
        if not two and 0 < len(g) < len(whole):
            # Pips left out of the face (of another size, or beside its symmetric set) are tried on their
            # own: a top's 1 grouped with its side's squashed pips, which are more and of one size.
            todo.append((False, [i for i in whole if i not in g]))
        if tinted[g].any() and not tinted[g].all():
            if two:
                continue  # a 2's pips are of one colour
            # A face's pips are of one colour: the fewer are not its (a dark speck beside a red 1).
            major = tinted[g].sum() * 2 >= len(g)
            g = [i for i in g if tinted[i] == major]
        c = pts[g].mean(axis=0)
        near = np.hypot(*(pts - c).T) < side  # a 2's other pip lies 0.74 of its side away
        near[g] = False
        # Alone: coloured, and no pip like these round them (of their size, hue within about 37° and kind:
        # a blue die's pips beside a red 1 are not its, nor a mark of a wooden body's orange, nor a light
        # glint on its edge beside a dark pip).
        of_kind = kind == kind[g[0]]
        same = _same_hue(hue, hue[g].mean(axis=0)) & of_kind
        sized = near & (areas >= 0.6 * areas[g].max())
        alone = bool(tinted[g].all()) and not (sized & tinted & same).any()
        # A 3: three pips in a line with no like pip round them (a 6's or 9's column has its others); a
        # black die's pips are of no hue.
        like = sized & (same if tinted[g].any() else ~tinted & of_kind)
        three = len(g) == 3 and _in_line(pts[g]) and not like.any()
        f = _square(lab, pipmask, edges, pts[g], c, side, config, alone, two=two, three=three,
                    others=pts[same & ~np.isin(np.arange(len(pts)), g)])
        if f is None:
            continue
        box, sd, body = f
        mid = box.mean(axis=0)
        if two:
            done |= set(g)
        if any(np.hypot(*(mid - o.box.mean(axis=0) * s)) < 0.4 * side for o in out):
            continue  # the same die from another group of its pips (a 2's or 3's far pips)
        out.append(Found(box / s, sd / s, body))
    return out


def _pip_like(stats: np.ndarray, want: float) -> np.ndarray:
    """Which parts (``stats`` N×5 as ``cv2.connectedComponentsWithStats`` gives them) are a pip's
    size and shape where a pip is ``want`` px²: 0.35-2.5 times it, round-ish, filling its box."""
    a, w, h = (stats[:, k].astype(np.float64) for k in (cv2.CC_STAT_AREA, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
    return (0.35 * want <= a) & (a <= 2.5 * want) & (np.maximum(w, h) <= 1.8 * np.minimum(w, h) + 1) & \
        (a >= 0.45 * w * h)


def _finer(frame: np.ndarray, s: float, box, pr: float, sign: int, depth: float) -> list:
    """The pips in a blot seen at the search's scale ``s`` (``box`` x, y, w, h px there; ``pr`` a pip's
    radius there), looked at in ``frame`` (``H×W×3 uint8 BGR``) at three times that scale (at most the
    frame's own): ``sign`` 1 for dark pips, -1 for light, ``depth`` the hat's threshold (where fewer than
    two pips part at it, again at 1.6 and 2.5 times it, taking only round pips there). Returns
    ``(centre, area, elongation)`` of each pip whose centre lies in ``box``, centre px and area px² at the
    search's scale."""
    f = min(1.0, 3 * s) / s  # the finer scale against the search's
    x, y, w, h = (int(v) for v in box)
    pad = int(3 * pr) + 1
    X0, Y0 = max(0, int((x - pad) / s)), max(0, int((y - pad) / s))
    X1, Y1 = min(frame.shape[1], int((x + w + pad) / s) + 1), min(frame.shape[0], int((y + h + pad) / s) + 1)
    crop = _shrunk(frame[Y0:Y1, X0:X1], s * f)
    if min(crop.shape[:2]) < 3:
        return []
    L = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)[..., 0]
    k = int(1.6 * 2 * pr * f) | 1  # wider than a pip; a square one (OpenCV parts it in rows and columns: fast)
    kern = np.ones((k, k), np.uint8)
    hat = cv2.morphologyEx(L, cv2.MORPH_BLACKHAT if sign > 0 else cv2.MORPH_TOPHAT, kern)
    # The blot's own box in the crop, at the finer scale.
    sf = s * f
    bx0, by0 = max(0, int((x / s - X0) * sf)), max(0, int((y / s - Y0) * sf))
    bx1, by1 = int(((x + w) / s - X0) * sf) + 1, int(((y + h) / s - Y0) * sf) + 1
    first, whole = None, None
    # Pips still run together at the threshold (a small die's 8, its columns' gaps a pixel wide) are
    # parted at a higher one: their middles are darker than the gaps between them.
    for thr in (depth, 1.6 * depth, 2.5 * depth):
        mask = (hat > thr).astype(np.uint8)
        stats, cents, elongation, _ = _sparse_components(mask)
        ok = _pip_like(stats, np.pi * (pr * f) ** 2)
        ok[0] = False
        c = cents / f + np.float64([X0, Y0]) * s
        ok &= (c[:, 0] >= x) & (c[:, 0] <= x + w) & (c[:, 1] >= y) & (c[:, 1] <= y + h)  # the blot's own
        inside = float(mask[by0:by1, bx0:bx1].sum())
        whole = whole or inside
        # Pips found at a higher threshold are smaller than at the search's: their areas are put back
        # in proportion to the blot's, as the pips found whole beside them were measured.
        grow = whole / max(inside, 1.0)
        got = [(c[i], stats[i, cv2.CC_STAT_AREA] * grow / (f * f), elongation[i]) for i in np.flatnonzero(ok)]
        first = got if first is None else first
        if len(got) >= 2 and (thr == depth or all(e <= _FLAT for _c, _a, e in got)):
            return got  # at a higher threshold, only round pips (no die's edge or side pips in a row)
    return first


def _tinted(frame: np.ndarray, pts: np.ndarray, chroma: float) -> np.ndarray:
    """Each pip's colour at ``pts`` (N×2 px of ``frame``, ``H×W×3 uint8 BGR``): its middle's Lab a*, b*
    less 128 (the darkest of the 3×3 pixels there, the pip's own), N×2, zeros where neither is beyond
    ``chroma`` (no colour). Taken at the frame's own size: shrunk, a small pip's colour runs into its
    face's."""
    h, w = frame.shape[:2]
    at = []
    for x, y in pts:
        x, y = min(max(int(round(x)), 1), w - 2), min(max(int(round(y)), 1), h - 2)
        box = frame[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3)
        at.append(box[int(np.argmin(box.astype(np.int32).sum(axis=1)))])
    ab = cv2.cvtColor(np.uint8(at).reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3)[:, 1:].astype(np.float64) - 128
    ab[np.abs(ab).max(axis=1) <= chroma] = 0
    return ab


def _shrunk(frame: np.ndarray, s: float) -> np.ndarray:
    """``frame`` scaled by ``s`` (≤ 1): averaged over whole blocks of pixels (OpenCV's fast path for a
    whole factor), then the rest of the way linearly (an area resize by any factor costs 8 times more)."""
    if s >= 1:
        return frame
    n = int(1 / s)
    h, w = frame.shape[:2]
    if n >= 2:
        frame = cv2.resize(frame, (w // n, h // n), interpolation=cv2.INTER_AREA)
    size = (max(1, int(round(w * s))), max(1, int(round(h * s))))
    return cv2.resize(frame, size, interpolation=cv2.INTER_LINEAR) if frame.shape[1::-1] != size else frame


def _groups(pts: np.ndarray, reach: float) -> list[list[int]]:
    n = len(pts)
    parent = list(range(n))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    for i, j in zip(*np.nonzero(np.triu(d < reach, 1))):
        parent[root(i)] = root(j)
    out: dict[int, list[int]] = {}
    for i in range(n):
        out.setdefault(root(i), []).append(i)
    return [g for g in out.values() if len(g) <= 14]


def _largest_symmetric(p: np.ndarray, side: float) -> list[int]:
    """The largest set of the points ``p`` (N×2 px) point-symmetric about one middle (a pip's or two
    pips' middle), each within 0.09 of a ``side`` (a third of the pips' spacing) of another's mirror
    image and within half the widest span of a face (``_SPAN``) of the middle: indices into ``p``."""
    best: list[int] = []
    for a in range(len(p)):
        for b in range(a, len(p)):
            m = (p[a] + p[b]) / 2
            mirror = 2 * m - p
            near = np.hypot(*(mirror[:, None] - p[None]).transpose(2, 0, 1)).min(axis=1) <= 0.09 * side
            near &= np.hypot(*(p - m).T) <= _SPAN / 2 * side
            if near.sum() > len(best):
                best = list(np.nonzero(near)[0])
    return best


def _pip_area(areas: np.ndarray, group: list[int]) -> float:
    """The area (px²) of a face's pips among ``group`` (indices into ``areas``): the largest with
    another of like area (0.6-1.67 times it) in the group and at least half as many like it as the
    area most alike, else the largest. A dark blot beside a face (a die's edge in its own shadow, a
    knot of the table) grouped with its pips is larger than any of them and like none (the renders: a
    9's pips with a blot twice their size read as a 1); a cloth's mark 1.6 times a pip's size, like
    the two largest pips only, is not the nine's (fresh render fenn-00427: a 9 taken as three pips)."""
    a = np.float64(areas[group])
    like = ((a[None, :] >= 0.6 * a[:, None]) & (a[None, :] <= a[:, None] / 0.6)).sum(axis=1)
    ok = (like > 1) & (2 * like >= like.max())
    return float(a[ok].max() if ok.any() else a.max())


def _like(areas: np.ndarray, group, ref: float, ratio: float = 0.6) -> list[int]:
    """The pips of ``group`` of a face's pips' size ``ref`` (px²): ``ratio`` to 1/``ratio`` times it,
    0.6-1.67 by default (a side's pips, seen at a slant, are squashed smaller; a blot larger)."""
    return [i for i in group if ratio * ref <= areas[i] <= ref / ratio]


def _same_hue(hue: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Which of the pips' colours ``hue`` (N×2 Lab a*, b*, as :func:`_tinted` gives them) are of the hue of
    ``ref`` (a*, b*): within about 37° of it (``_HUE``); a colourless one (zeros) is of none."""
    return hue @ ref > _HUE * np.linalg.norm(hue, axis=1) * np.linalg.norm(ref)


def _faces(pts: np.ndarray, areas: np.ndarray, groups: list[list[int]], side: float,
           hue: np.ndarray) -> list[list[int]]:
    """``groups`` of pips joined where three or more of them, from several groups, make one face: pips
    of one size (:func:`_pip_area`) less than a side apart, the largest set point-symmetric about one
    middle (every face is). A 4's pips lie farther apart (half a side) than the links that group pips,
    so each was a group of its own; a side's pip or a blot beside them is left out. ``hue``: each
    pip's colour (N×2 Lab a*, b*, as :func:`_tinted` gives it): a pip left out of a face, of
    another hue than the face's, is free to join another face later (another die's)."""
    groups = list(groups)
    size = [_pip_area(areas, g) for g in groups]
    mids = [pts[g].mean(axis=0) for g in groups]
    used = [False] * len(groups)
    out = []
    a = -1
    while a + 1 < len(groups):
        a += 1
        if used[a]:
            continue
        mine = _like(areas, groups[a], size[a])
        close = np.nonzero(np.hypot(*(np.float64(mids) - mids[a]).T) < 2.5 * side)[0]  # the rest lie far apart
        joined = {}
        for b in close:
            if b == a or used[b]:
                continue
            got = [i for i in _like(areas, groups[b], size[a])
                   if np.hypot(*(pts[mine] - pts[i]).T).min() < side]
            if got:
                joined[b] = got
        u = mine + [i for got in joined.values() for i in got]
        u = _like(areas, u, _pip_area(areas, u))  # of one size among themselves too
        sub = [u[i] for i in _largest_symmetric(pts[u], side)] if joined and len(u) <= 14 else []
        if len(sub) >= 3 and not set(sub) <= set(groups[a]):
            rest = [i for b in [a, *joined] for i in groups[b] if i not in sub]
            for b in [a, *joined]:
                used[b] = True
            out.append(sub)
            # Each pip left out stands alone; one of another hue than the face's is another die's, grouped
            # with this face for lying near it,
            # and is free to join its own face later (a red 4's pip beside a blue 6: a 4's pips lie
            # farther apart than the group's links). One of the face's hue stays alone (a 9's pips
            # the symmetric set left out are no second face of it).
            other = ~_same_hue(hue[rest], hue[sub].mean(axis=0)) & (np.abs(hue[rest]).max(axis=1) > 0)
            out += [[i] for i, o in zip(rest, other) if not o]
            rest = [i for i, o in zip(rest, other) if o]
            groups += [[i] for i in rest]
            size += [float(areas[i]) for i in rest]
            mids += [pts[i] for i in rest]
            used += [False] * len(rest)
    return out + [g for a, g in enumerate(groups) if not used[a]]


def _by_hue(group: list[int], hue: np.ndarray) -> list[list[int]]:
    """``group`` (indices into ``hue``, N×2 Lab a*, b* as :func:`_tinted` gives it) parted by colour: the
    colourless pips, and those of each hue (within about 37°, ``_HUE``), each a list, none empty. A 2's
    pips are of one colour: a red pip grouped with a dark blot beside it (a shadow's edge over its face,
    fresh render fenn-00402) is a lone pip for :func:`_twos`, not the blot's smaller neighbour."""
    parts: list[list[int]] = [[i for i in group if not np.abs(hue[i]).max() > 0]]
    left = [i for i in group if np.abs(hue[i]).max() > 0]
    while left:
        mine = _same_hue(hue[left], hue[left[0]])
        mine[0] = True
        parts.append([i for i, m in zip(left, mine) if m])
        left = [i for i, m in zip(left, mine) if not m]
    return [g for g in parts if g]


def _twos(pts: np.ndarray, areas: np.ndarray, groups: list[list[int]], side: float,
          hue: np.ndarray) -> list[list[int]]:
    """Two lone pips of ``groups`` (indices into ``pts`` px, ``areas`` px²) paired where they may be a
    2 of the set: of one size (0.75-1.33 times the other's area; a side's pips, squashed, are
    smaller), as far apart as a 2's pips (``_TWO``) on a die of 0.75-1.3 times the set's ``side`` (px;
    dice of 18-25 mm against 21.5 expected, a little more near the camera, a little less where a tilted
    camera sees the table farther than the board's middle: fresh render fenn-00407's 18 mm black 2 at
    0.78), and no third pip of their size (0.6-1.67 times theirs) and colour on the square face whose
    diagonal they lie on (a larger face's pips are grouped already; a side's pips seen at a slant lie
    beside it; a dark blot of another colour over a red 2's face is no pip of it: ``hue``, each pip's
    Lab a*, b* as :func:`_tinted` gives it). A 2's
    pips lie farther apart than the links that group pips, so each was a group of its own. A pip may
    be in several pairs, the nearest a 2's spacing first: the first whose face is seen is the die.
    A pip grouped only with smaller ones (a side's pips, squashed, beside it: below 0.75 of its area) is lone
    (the renders' fenn-00112: a top pip of 16 px² beside a side's of 10), and so is each of two grouped
    pips of like size: two pips less than 0.4 of a side apart are no face's whole (a 2's lie 0.74 apart),
    but a top's pip and a side's seen less slanted (the renders' fenn-00150, -00065; mock 2s)."""
    tops = [_like(areas, g, _pip_area(areas, g), 0.75) for g in groups]
    lone = [i for t in tops if len(t) <= 2 for i in t]
    if len(lone) < 2:
        return []
    p = pts[lone]
    d = np.hypot(p[:, None, 0] - p[None, :, 0], p[:, None, 1] - p[None, :, 1])
    pairs = []
    for a, b in sorted(zip(*np.nonzero(np.triu((d >= _TWO * 0.75 * side) & (d <= _TWO * 1.3 * side), 1))),
                       key=lambda ab: abs(d[ab] - _TWO * side)):
        i, j = lone[a], lone[b]
        if not 0.75 < areas[i] / areas[j] < 1 / 0.75:
            continue
        mid = (pts[i] + pts[j]) / 2
        # The 2's face: the square whose diagonal they lie on. A third pip of their size on it makes them
        # a 3's, 4's or larger face's; one beside it (a side's pips seen at a slant, a die next to it) not.
        w = (pts[j] - pts[i]) / d[a, b]
        axes = np.array([[w[0] - w[1], w[0] + w[1]], [w[0] + w[1], w[1] - w[0]]]) / np.sqrt(2)
        on_face = (np.abs((pts - mid) @ axes.T) < 0.45 * d[a, b] / _TWO).all(axis=1)
        tint = hue[[i, j]].mean(axis=0)
        of_colour = _same_hue(hue, tint) if np.abs(tint).max() > 0 else ~(np.abs(hue).max(axis=1) > 0)
        like = on_face & (areas >= 0.6 * min(areas[i], areas[j])) & (areas <= max(areas[i], areas[j]) / 0.6) & of_colour
        if like.sum() > 2 or _a_side_of_four(pts, areas, i, j):
            continue
        pairs.append([i, j])
    return pairs


def _a_side_of_four(pts: np.ndarray, areas: np.ndarray, i: int, j: int) -> bool:
    """Whether pips ``i`` and ``j`` (indices into ``pts`` px, ``areas`` px²) are one side of a square of
    four pips of their size: two more lie where the pair moved square to itself by its own length puts
    them (within 0.2 of it), on one side. A 4's (5's, 6's) two neighbouring pips lie 0.5 of its side
    apart, as far as a 2's of a die 0.7 its size: mock Fenn scene 10122 (calibrated on a start frame of
    its own) read a black 4 as a sure 2 so, the square found about the pair turned 45° to the face."""
    v = pts[j] - pts[i]
    n = np.array([-v[1], v[0]])
    size = min(areas[i], areas[j])
    sized = (areas >= 0.6 * size) & (areas <= max(areas[i], areas[j]) / 0.6)
    for k in (n, -n):
        if all((np.hypot(*(pts[sized] - (pts[e] + k)).T) <= 0.2 * np.hypot(*v)).any() for e in (i, j)):
            return True
    return False


def _top_face(pts: np.ndarray, areas: np.ndarray, group: list[int], side: float) -> list[int]:
    """The pips of ``group`` (indices into ``pts`` px, ``areas`` px²) on one die's top face. A die's
    sides, seen at a slant, show their pips too (the renders: a side's pips grouped with the top's
    made a square too long): a side's pips are squashed (at most about half a top pip's area, the
    side seen 55° or more from straight on), and a face's pips are point-symmetric about its middle
    (every layout known), so where the group spreads wider than a face the largest set of pips
    mirrored through one middle is kept."""
    g = _like(areas, group, _pip_area(areas, group))
    if len(g) < 3 or max(cv2.minAreaRect(np.float32(pts[g]))[1]) <= _SPAN * side:
        return g
    return [g[i] for i in _largest_symmetric(pts[g], side)] or g


def _in_line(pts: np.ndarray) -> bool:
    """Whether the pips ``pts`` (N×2 px) lie in a line: their least spread across under 0.3 of along."""
    r = cv2.minAreaRect(np.float32(pts))
    return min(r[1]) < 0.3 * max(r[1])


def _square(lab, pipmask, edges, pts, c, side, config: BoardConfig, alone: bool = True, two: bool = False,
            three: bool = False, others: np.ndarray | None = None):
    """The face round the pips ``pts`` (px) near ``c`` in ``lab`` (the frame in Lab): the region of the
    colour round them, within the edges, as ``(box 4×2, side, body Lab)``, or None when it is no die's
    square. ``alone``: no other pip of their size lies round them and they are coloured (one or two pips may then be a face
    whose outline is not seen); ``two``: they are a 2's two pips (:func:`_twos`), whose square they fix;
    ``three``: they are a 3's (three in a line, no like pip round them), whose middle pip is its face's;
    ``others``: the other round pips found of their hue and kind (``N×2`` px), which a lone pip's outline
    may hold (a 2's other pip; a touching die's pips of another colour are not its)."""
    h, w = lab.shape[:2]
    r = int(1.1 * side)
    x0, y0, x1, y1 = max(0, int(c[0]) - r), max(0, int(c[1]) - r), min(w, int(c[0]) + r), min(h, int(c[1]) + r)
    if x1 - x0 < side * 0.5 or y1 - y0 < side * 0.5:
        return None
    win = lab[y0:y1, x0:x1].astype(np.float32)
    pm = pipmask[y0:y1, x0:x1]
    # The body's colour: just round the pips (a pip lies a sixth of a side inside its face's edge).
    ring = cv2.dilate(pm, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(0.16 * side) | 1,) * 2)) & ~pm
    near_pips = np.zeros_like(pm)
    for px, py in pts - [x0, y0]:
        cv2.circle(near_pips, (int(px), int(py)), int(0.2 * side), 1, -1)
    sel = (ring & near_pips) > 0
    if sel.sum() < 5:
        return None
    body = np.median(win[sel], axis=0)
    dist = np.linalg.norm(win - body, axis=2)
    pips_in = cv2.dilate(pm, np.ones((3, 3), np.uint8))
    free = (edges[y0:y1, x0:x1] == 0).astype(np.uint8)
    at = (np.clip(pts[:, 1].astype(int) - y0, 0, y1 - y0 - 1), np.clip(pts[:, 0].astype(int) - x0, 0, x1 - x0 - 1))
    lo = (config.stray_size[0] * 0.85) ** 2
    rect = seen = None
    for tol in (1.0, 0.7, 0.5):  # tighter until the face stands alone (a table or side of its colour)
        same = ((dist < config.body_colour * tol).astype(np.uint8) | pips_in) & free
        same = cv2.morphologyEx(same, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, labels, _stats, _ = cv2.connectedComponentsWithStats(same)
        on = labels[at]
        on = on[on > 0]
        if len(on) == 0:
            continue
        region = (labels == int(np.bincount(on).argmax())).astype(np.uint8)
        cnts, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(max(cnts, key=cv2.contourArea))
        r = seen = cv2.minAreaRect(hull)
        rw, rh = r[1]
        if rw * rh > 2.3 * side * side:
            continue  # ran into the table: tighter
        if rw * rh >= lo * side * side and max(rw, rh) <= config.square_aspect * min(rw, rh) and \
                cv2.contourArea(hull) >= 0.75 * rw * rh:
            rect = r
        break
    mid = pts.mean(axis=0) - [x0, y0]  # the pips' middle, px in the window
    off = rect is not None and np.hypot(*(np.float64(rect[0]) - mid)) > _OFF * side
    if three and off:
        rect = None  # a 3's middle pip is its face's: the outline took in a side of its colour too
    elif rect is not None and len(pts) >= 4 and min((spread := cv2.minAreaRect(np.float32(pts)))[1]) >= 0.35 * side \
            and _turned(spread[2], rect[2]) > _TURN:
        rect = None  # pips spread both ways lie square to their face: the outline took in its sides, turned
    elif off and alone and len(pts) == 1 and _plain_round(dist < config.body_colour, pips_in, mid, side) and \
            not (others is not None and len(others) and
                 any(cv2.pointPolygonTest(cv2.boxPoints(rect), (float(u - x0), float(v - y0)), False) >= 0
                     for u, v in others)):
        # A 1's pip is its face's middle: the outline took in a side (or a touching die) of its colour
        # (renders fenn-00112, -00197). Only on a plain face round the pip and with no other round pip
        # of its hue in the outline (a large die's 2: its other pip, mock scene 29); else the outline
        # stands (a speck on a die's face).
        rect = (tuple(mid), (side, side), rect[2])
    if two:  # a 2's pips lie on its face's diagonal about its middle, 0.735 of a side apart
        d = pts[1] - pts[0]
        diagonal, own = float(np.degrees(np.arctan2(d[1], d[0]))), float(np.hypot(*d)) / _TWO
    if two and rect is not None:
        turn = (diagonal - rect[2]) % 90
        if np.hypot(*(np.float64(rect[0]) - mid)) > 0.1 * own or abs(turn - 45) > 12 \
                or not 0.8 * own <= min(rect[1]) <= max(rect[1]) <= 1.35 * own:
            rect = None  # the outline took in more than the face (or is another's): the square the pips fix
    if rect is None:
        # The face's outline not seen whole (a shadow across it, a side or a board of its colour): the
        # square of the die's size round its pips, turned as they are (three or more pips not in a line
        # fix both; in a line, a 2 or 3, they lie along its diagonal; a lone pip's face turned as the
        # region round it) — for one or two pips only on a plain face of the body's colour round them.
        if len(pts) >= 3:
            pr = cv2.minAreaRect(np.float32(pts - [x0, y0]))
            if max(pr[1]) > _SPAN * side or max(pr[1]) < 0.3 * side:
                return None
            angle = pr[2] + (45 if _in_line(pts) else 0)
        elif two:  # a 2 of any colour: the square its pips fix, a plain face framed by what is not
            angle = diagonal + 45
            if not _framed(dist < config.body_colour, pips_in, mid, own, angle, edges[y0:y1, x0:x1] > 0):
                return None
            side = own
        elif alone and _plain_round(dist < config.body_colour, pips_in, mid, side):
            d = pts[-1] - pts[0]
            angle = np.degrees(np.arctan2(d[1], d[0])) + 45 if len(pts) == 2 else seen[2] if seen else 0.0
        else:
            return None
        rect = (tuple(mid), (side, side), angle)
    box = cv2.boxPoints(((rect[0][0] + x0, rect[0][1] + y0), rect[1], rect[2]))
    return box.astype(np.float64), float(np.sqrt(rect[1][0] * rect[1][1])), tuple(float(v) for v in body)


def _turned(a: float, b: float) -> float:
    """How far apart two squares' turns ``a`` and ``b`` (degrees) are, 0-45: a square turned 90° is itself."""
    d = (a - b) % 90
    return min(d, 90 - d)


def _framed(body: np.ndarray, pips: np.ndarray, mid, side: float, angle: float,
            edges: np.ndarray | None = None) -> bool:
    """Whether the square of ``side`` px round ``mid`` (px in the window), turned ``angle`` degrees, is
    a die's face: of its body's colour (``body``: mask) within (90 % of it between 0.1 and 0.45 of a
    side from the middle, pips left out: ``pips`` mask, and 80 % toward each side) and bounded.
    Bounded: not of its colour outside on at least two of its sides (at most 60 % of the band from
    0.58 to 0.75 of a side from the middle: a die shows at most two of its sides, which may be of its
    colour; the table or its shadow shows round the others), or outlined on all four: each side not of
    its colour outside or with an edge (``edges``: mask) along 70 % of its length within 0.4-0.65 of
    a side from the middle (a wooden die on a wooden table: the face's rounded rim and its shaded
    sides outline it where the table beyond is of its colour; the renders' fenn-00019)."""
    t = np.radians(angle)
    u, v = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    ys, xs = np.mgrid[0:body.shape[0], 0:body.shape[1]]
    a = (xs - mid[0]) * u[0] + (ys - mid[1]) * u[1]
    b = (xs - mid[0]) * v[0] + (ys - mid[1]) * v[1]
    m = np.maximum(np.abs(a), np.abs(b)) / side
    inner = (m > 0.1) & (m < 0.45) & (pips == 0)
    band = (m > 0.58) & (m < 0.75)
    rim = (m > 0.4) & (m < 0.65)
    if inner.sum() < 0.1 * side * side or body[inner].mean() < 0.9:
        return False
    outside = outlined = 0
    for sel, along in ((a > np.abs(b), b), (-a > np.abs(b), b), (b > np.abs(a), a), (-b > np.abs(a), a)):
        one, within = band & sel, inner & sel
        if not within.any() or body[within].mean() < 0.8:
            return False  # a side of the square off the face (a pip and a speck of the table beside it)
        out = bool(one.any() and body[one].mean() <= 0.6)
        outside += out
        if edges is not None and not out:
            at = along[rim & sel & edges] / side  # where along the side its outline is seen
            seen = np.unique(np.floor((at[np.abs(at) < 0.4] + 0.4) * 10)).size
            out = seen >= 0.7 * 8
        outlined += out
    return outside >= 2 or outlined == 4


def _plain_round(body: np.ndarray, pips: np.ndarray, mid, side: float) -> bool:
    """Whether round ``mid`` (px in the window) a die's face of its body's colour (``body``: mask) lies
    between the pips (``pips``: mask): 0.14-0.38 of a side from its middle, 85 % of it, pips left out
    (round a 2's or a 3's corner pip, 0.24 of a side from two edges, the table or the board shows)."""
    ring = np.zeros(body.shape, np.uint8)
    cv2.circle(ring, (int(round(mid[0])), int(round(mid[1]))), max(2, int(0.38 * side)), 1, -1)
    cv2.circle(ring, (int(round(mid[0])), int(round(mid[1]))), int(0.14 * side), 0, -1)
    sel = (ring > 0) & (pips == 0)
    return bool(sel.sum() > 0.1 * side * side and body[sel].mean() >= 0.85)
