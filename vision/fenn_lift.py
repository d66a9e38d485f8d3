"""How high a Fenn die stands: its pip pattern's size on the board's plane against the other dice's.

A die held up in mid-move is nearer the camera than the board, so its face
looks larger than the still dice's; :func:`held_up` compares them, each put
back to its own height above the board (on the board or beside it on the
table). Whether the pips counted on a face make a regular pattern (:func:`regular_pattern`), with
which the reader tells a face cut by its outline. Pure geometry on NumPy and OpenCV: no camera, no I/O.
"""

from __future__ import annotations

import cv2
import numpy as np

from .diceset import PIP_LAYOUT

__all__ = ["BOARD_THICK", "held_up", "pip_scale", "lift", "regular_pattern", "rigid", "tilt_fit"]

#: The board's thickness in fields (4 mm of a 25 mm field): a die on it stands this much higher.
BOARD_THICK = 0.16


def held_up(dice, to_plane, camera, size: float, thick: float = BOARD_THICK, tilt: float = 0.0,
            across: float = 0.0, along: float | None = None,
            unknown: float = 0.0, along_unknown: float = 0.0) -> tuple[float, tuple[tuple[float, float, float], ...]]:
    """How much nearer the camera than the others the highest die is: ``(ratio, patterns)``, ``ratio``
    the spread of its pips on the board's plane (``to_plane``: frame px → fields) against the other dice's,
    each put back to its own height (a die's top face ``size`` fields above the board, ``thick`` more on
    the board: the camera ``camera`` from :func:`camera_of` sees a face at height z
    larger by D / (D - z)); ``patterns`` each compared face's ``(scale, x, y)``: its pattern's size put
    back to the board's height, where it stands (fields along, across).
    ``dice``: ``(FennDie, pips N×2 frame px, on the board)``; only faces of 2-6 pips count (their
    layout is documented, fenn.md). ratio 1.0 when fewer than two dice can be compared; a die held a
    die's height above the board (in mid-move) comes out about 1.04 (a camera 60 cm above) to 1.09 (25 cm).
    A board found with no tilt in it (a strip one field wide shows a 10° tilt as 4 px across its
    width) leaves the dice's distances from the camera unequal: up to 5 % between dice 8 fields
    apart, as much as a lift (a still board found so may ask). Each die's spread is put back by
    ``along x + 1`` and ``across (y - 0.5) + 1``: the table's recession along and across the board that
    its plane does not show, measured at calibration from the still dice (:attr:`vision.fenn.BoardArea.along`,
    ``across``; :func:`tilt_fit`); where ``along`` is None, by ``tilt``, the recession along the board
    its field lines in this frame show (:meth:`vision.fenn_over.FieldLines.tilt`). ``unknown``: how far
    (a share per field) the tilt across may be off ``across`` (a board found in the frame:
    :attr:`vision.fenn.BoardArea.across_known`): the ratio is the least over tilts across within it, so
    a die beside the board is held up only where no such tilt puts it back among the others.
    ``along_unknown``: the same along the board, about ``along`` (or ``tilt``), where no calibration
    measured it (a board found in the frame: its pose along a few pixels off)."""
    if camera is None:
        return 1.0, ()
    patterns = []
    for d, pips, on_board in dice:
        got = pip_scale(d.value, pips, to_plane, camera, size + (thick if on_board else 0.0))
        if got is not None:
            patterns.append(got)
    a = tilt if along is None else along
    if len(patterns) < 2:
        return 1.0, tuple(patterns)

    def ratio(b: float, c: float) -> float:
        spans = sorted(s * (b * x + 1) * (c * (y - 0.5) + 1) for s, x, y in patterns)
        return spans[-1] / float(np.median(spans[:-1]))

    tilts = np.linspace(across - unknown, across + unknown, 21) if unknown > 0 else [across]
    alongs = np.linspace(a - along_unknown, a + along_unknown, 11) if along_unknown > 0 else [a]
    return min(ratio(float(b), float(c)) for b in alongs for c in tilts), tuple(patterns)


def tilt_fit(patterns, span: float, most: float, along_span: float = 3.0) -> tuple[float | None, float]:
    """How the table recedes under the board, from still dice's ``patterns`` (``(scale, x, y)`` from
    :func:`held_up`, the dice standing still, as at calibration): ``(along, across)``, the shares per
    field along (``x``) and across (``y``) the board by which a pattern one field further looks
    smaller, fitted so that all patterns come out one size (least squares on their logarithms), each
    within ``±most``: ``along`` where the dice spread ``along_span`` fields or more along the board,
    else None (each frame's field lines tell it); ``across`` where they spread ``span`` or more across
    it, else 0.0 (compared as found). Blue on field 1 and red on field 9 (F2) give the first; the black
    die beside the board, if it shows 2-6 pips, the second. Each is taken where it can be told: a tilt
    along alone may leave a die far across further off (the Fenn demo's board, whose black die showed
    no pattern at calibration), but put the dice right on more boards than it puts off (issue 38's
    measures: the mock family and the renders' whole game)."""
    s = np.log([p[0] for p in patterns]) if patterns else np.zeros(0)
    x = np.float64([p[1] for p in patterns])
    y = np.float64([p[2] for p in patterns])
    cols, names = [np.ones(len(s))], []
    if len(s) >= 2 and x.max() - x.min() >= along_span:
        cols.append(-x)
        names.append("along")
    if len(s) >= 2 and y.max() - y.min() >= span:
        cols.append(-(y - 0.5))
        names.append("across")
    if len(cols) == 1 or len(s) < len(cols):
        return None, 0.0
    sol = np.linalg.lstsq(np.column_stack(cols), s, rcond=None)[0]
    got = {n: float(np.clip(v, -most, most)) for n, v in zip(names, sol[1:])}
    return got.get("along"), got.get("across", 0.0)


def pip_scale(value: int, pips, to_plane, camera, z: float) -> tuple[float, float, float] | None:
    """How large a face's pip pattern is, put back to the board's height: ``(scale, x, y)``, ``scale`` the
    pips' spread on the board's plane (``to_plane``: frame px → fields) over their layout's in fenn.md
    (``PIP_LAYOUT``, ±1 a quarter side: a die of 1 field shows 0.25), times ``(D - z) / D`` for a face
    ``z`` fields above the board seen from ``D`` (``camera`` from :func:`camera_of`;
    None: not put back); ``x``, ``y`` where the face stands along and across the board, fields. None
    unless the face shows 2-6 pips (``pips``: N×2 frame px, one a pip), the values whose layout is documented: the
    size of a die's pattern is measured within a few hundredths (renders, issue 38), its outline's
    within a fifth."""
    if not 2 <= value <= 6 or len(pips) != value:
        return None
    ref = np.float64(PIP_LAYOUT[value])
    q = cv2.perspectiveTransform(np.float32([pips]), to_plane)[0].astype(np.float64)
    rms = np.sqrt(((q - q.mean(axis=0)) ** 2).sum(axis=1).mean())
    rms_ref = np.sqrt(((ref - ref.mean(axis=0)) ** 2).sum(axis=1).mean())
    height = 1.0 if camera is None else (camera[1] - z) / camera[1]
    return float(rms / rms_ref * height), float(q[:, 0].mean()), float(q[:, 1].mean())


def lift(camera, size: float, thick: float = BOARD_THICK) -> float:
    """How much wider (a share) a die's face looks held up by its own height ``size`` (fields) over the
    board than standing on it (``thick`` fields high), from the camera (:func:`camera_of`,
    not None): about 4 % from 60 cm, 9 % from 25 cm."""
    D = camera[1]
    z = size + thick
    return (D - z) / max(D - z - size, 1e-6) - 1


def rigid(to_frame, frame_size, focal: float) -> np.ndarray:
    """``to_plane`` (frame px → fields) of the pin-hole camera (focal length ``focal`` × the frame's
    width) nearest the board's homography ``to_frame``: its two axes made square and of one length.
    A board found a few pixels off bends the homography in ways no camera can see a flat board."""
    w, h = frame_size
    f = focal * w
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    A = np.linalg.inv(K) @ to_frame
    lam = 2 / (np.linalg.norm(A[:, 0]) + np.linalg.norm(A[:, 1]))
    u, _s, vt = np.linalg.svd(A[:, :2] * lam, full_matrices=False)
    H = K @ np.column_stack([u @ vt, A[:, 2] * lam])
    return np.linalg.inv(H)


def _spacing(pips: np.ndarray) -> float:
    """The pips' spacing (``N×2`` px, N ≥ 2): the median distance from a pip to its nearest, px."""
    d = np.hypot(*(pips[:, None] - pips[None]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    return float(np.median(d.min(axis=1)))


def _unpaired(pips: np.ndarray):
    """``(middle, k, spacing)`` where all of ``pips`` (N×2 px) but pip ``k`` pair up through one middle
    (each one's mirror image within 0.35 of their spacing of another; the middle of the pips and the
    midpoints of pairs that most pips mirror through), or None where more or none are left alone.
    ``spacing``: the median distance from a pip to its nearest."""
    spacing = _spacing(pips)
    i, j = np.triu_indices(len(pips), 1)
    middles = np.vstack([pips, (pips[i] + pips[j]) / 2])
    mirrored = 2 * middles[:, None] - pips[None]  # (middle, pip, xy)
    paired = np.linalg.norm(mirrored[:, :, None] - pips[None, None], axis=3).min(axis=2) <= 0.35 * spacing
    best = int(np.argmax(paired.sum(axis=1)))
    if paired[best].sum() != len(pips) - 1:
        return None
    return middles[best], int(np.flatnonzero(~paired[best])[0]), spacing


def regular_pattern(pips: np.ndarray, tolerance: float) -> bool:
    """Whether pips counted on a face (``N×2`` px, N ≥ 2) make a regular pattern: every pip's mirror
    image through their middle lies on another pip, within ``tolerance`` of their spacing. Every
    layout of fenn.md's 1-6 and of the 7-9 faces known (vision.diceset, the renders' third) is so; a
    face cut by its outline found too small (a 9 whose one column is half lost: 7) is not."""
    if len(pips) < 2:
        return True
    step = _spacing(pips)
    mirror = 2 * pips.mean(axis=0) - pips
    miss = np.hypot(*(mirror[:, None] - pips[None]).transpose(2, 0, 1)).min(axis=1)
    return bool(miss.max() <= tolerance * step)


def camera_of(to_frame: np.ndarray, frame_size, focal: float):
    """The camera over the board's plane: ``(nadir (x, y) in fields, height in fields)``, from the
    homography ``to_frame`` (board plane in fields → frame px) and a pin-hole camera of focal length
    ``focal`` × the frame's width with its centre in the middle; None when the homography is no
    camera's view."""
    w, h = frame_size
    f = focal * w
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    A = np.linalg.inv(K) @ to_frame
    lam = 2 / (np.linalg.norm(A[:, 0]) + np.linalg.norm(A[:, 1]))
    r1, r2, t = A[:, 0] * lam, A[:, 1] * lam, A[:, 2] * lam
    if t[2] < 0:
        r1, r2, t = -r1, -r2, -t
    r3 = np.cross(r1, r2)
    R = np.column_stack([r1, r2, r3])
    C = -R.T @ t
    if not 2 < abs(C[2]) < 200:
        return None
    return (float(C[0]), float(C[1])), float(abs(C[2]))


def standing_at(point, camera, height: float):
    """Where a point seen ``height`` fields above the board's plane at ``point`` (plane fields) stands:
    moved toward the nadir by the camera's height over its own (``camera`` from :func:`camera_of`)."""
    if camera is None:
        return point
    (nx, ny), D = camera
    k = (D - height) / D
    return nx + (point[0] - nx) * k, ny + (point[1] - ny) * k
