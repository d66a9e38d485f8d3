"""Render synthetic frames of thrown dice, for the mock camera, tests and the demo.

The renderer draws a tray seen from above: a background with a lighting
gradient, dice with rounded faces, a darker side face and a soft shadow, each
rotated at random, white dice with dark pips or coloured dice with light pips,
optionally touching (and, when a style asks for them, marbled or translucent
smoky dice and dice leaning to show a side face's pips), then a mild
perspective tilt, sensor noise, and a few pip-like specks on the tray that are
not dice. The true values and centres are
returned with the frame.

Example::

    >>> from hardware.render import render_throw
    >>> frame, truth = render_throw([6, 4, 1, 2, 3, 5, 5, 2], seed=1)
    >>> frame.shape, frame.dtype, sorted(t.value for t in truth)
    ((616, 820, 3), dtype('uint8'), [1, 2, 2, 3, 4, 5, 5, 6])
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.diceset import PIP_LAYOUT  # the faces as data, shared with the reader

__all__ = ["RenderedDie", "RenderStyle", "render_throw", "render_empty", "PIP_LAYOUT", "TrayScene", "PlacedDie",
           "MIXED_SET", "SMOKY_SET", "WIDE_SET"]

# (body BGR, pip BGR) pairs: white dice with black pips, coloured dice with light pips.
_WHITE = ((232, 238, 240), (25, 25, 25))
_COLOURED = [
    ((40, 40, 200), (245, 245, 245)),  # red
    ((180, 90, 30), (245, 245, 245)),  # blue
    ((60, 150, 40), (245, 245, 245)),  # green
    ((30, 30, 30), (240, 240, 240)),  # black
    ((40, 200, 230), (30, 30, 30)),  # yellow, dark pips
]

#: A palette for :attr:`RenderStyle.palette`: the kinds of dice in a mixed set (the many-colours
#: photos): dark, bright and marbled bodies with red, white, yellow or black pips. Red pips on a dark
#: body hardly differ from it in grey; only colour tells them apart.
MIXED_SET = (
    ((60, 60, 62), (50, 45, 205)),  # dark grey, red pips
    ((28, 28, 30), (50, 45, 205)),  # black, red pips
    ((120, 70, 25), (50, 45, 205)),  # blue, red pips
    ((45, 35, 60), (50, 45, 205)),  # dark brown, red pips
    ((110, 40, 75), (240, 240, 240)),  # purple, white pips
    ((40, 40, 200), (240, 240, 240)),  # red, white pips
    ((35, 30, 150), (235, 235, 235)),  # dark red, white pips
    ((60, 120, 30), (60, 215, 240)),  # green, yellow pips
    ((40, 120, 170), (25, 25, 25)),  # amber, black pips
    ((28, 28, 30), (240, 240, 240)),  # black, white pips
    ((150, 95, 40), (240, 240, 240)),  # blue, white pips
    ((232, 238, 240), (25, 25, 25)),  # white, black pips
)

_SWIRL_BODY = (190, 115, 35)  # bright blue, BGR

#: The ``(body BGR, pip BGR)`` pairs of smoky dice (:attr:`RenderStyle.smoky`): translucent grey,
#: brown and near-black bodies with red pips, the dice the many-colours photos hold most of and the
#: face classifier read worst (training/README.md, session 20).
SMOKY_SET = (
    ((72, 68, 76), (55, 45, 200)),  # smoky grey
    ((58, 58, 82), (60, 50, 210)),  # smoky brown
    ((46, 43, 50), (50, 40, 190)),  # smoky black
    ((95, 70, 60), (60, 50, 205)),  # smoky blue-grey
    (_SWIRL_BODY, (60, 50, 205)),  # bright blue swirled with black (see SWIRLED)
)

#: The bodies of :data:`SMOKY_SET` swirled with near-black veins, as the photos' blue dice are.
SWIRLED = (_SWIRL_BODY,)


@dataclass(frozen=True)
class RenderedDie:
    """A die in a rendered frame: its value and centre ``(x, y)`` in pixels, side in pixels."""

    value: int
    center: tuple[float, float]
    size: float


@dataclass(frozen=True)
class RenderStyle:
    """How frames look (plain data).

    ``size``: frame ``(width, height)`` px. ``die_size``: die side, px.
    ``tray``: tray colour BGR. ``coloured``: share of coloured dice 0-1.
    ``touching``: share of dice placed against another die 0-1.
    ``tilt``: perspective strength 0-1. ``noise``: sensor noise sigma (grey levels).
    ``gradient``: lighting fall-off across the frame 0-1. ``specks``: pip-like
    marks on the tray that are not dice. ``palette``: the ``(body BGR, pip BGR)``
    pairs coloured dice are drawn from (``None``: red, blue, green, black and
    yellow dice; :data:`MIXED_SET` for a mixed set). ``marbled``: share of
    dice 0-1 whose faces carry lighter veins, as marbled dice do (in
    :func:`render_throw`'s frames; a :class:`TrayScene` draws its dice anew
    each frame, and fresh veins would look like motion). ``smoky``: share of
    dice 0-1 drawn as translucent smoky dice of :data:`SMOKY_SET` (mottled
    body, lighter rim, soft red pips, the hidden face's pips faintly showing
    through, sometimes a glint of light). ``side_faces``: share of dice 0-1
    leaning so that one side face shows, with its own pips (only the top face
    counts). Both only in :func:`render_throw`'s frames, as ``marbled``.

    The scene of a :class:`TrayScene` (the defaults keep its classic look):
    ``table``: ``"wood"`` (the classic light wood) or a kind of
    :data:`hardware.tray_table.TABLES`, ``table_colour`` its BGR (drawn when
    None); ``tray_inset``: the table's margin round the tray, a share of the
    frame (a higher camera shows more table); ``light``: the shadow's offset
    ``(x, y)`` in die sides, away from the light; ``shadow``: the shadow's
    brightness factor (lower: darker); ``soft``: the shadow's blur in die
    sides (0: hard); ``tint``: the light's colour, BGR factors;
    ``camera_tilt``: degrees the camera leans from straight down (a
    perspective; 0-12); ``turn``: degrees the tray is turned in the picture;
    ``clutter``: things beside the tray (:data:`hardware.tray_table.CLUTTER`:
    a cup, cards, coins, a phone, a stray ``"die"``); ``translucent``: share
    of dice 0-1 whose bodies let the tray show through a little;
    ``camera_height``: the camera's height in die sides (0: far; near, a die
    away from the middle shows its side faces and their pips, as in 3D);
    ``wall_shade``: how deep the walls' shadow reaches into the tray, die sides, falling on the dice
    in it too, fading from ``shadow``'s brightness; ``wall_dark`` > 0: cast sharp-edged instead, as
    dark as that throughout; ``to_wall``: the least distance of a die's centre from a wall, die sides
    (0: 1.04); ``own_colour``: share of dice 0-1 of the felt's colour (a shade lighter).
    """

    size: tuple[int, int] = (820, 616)
    die_size: float = 56.0
    tray: tuple[int, int, int] = (70, 60, 45)
    coloured: float = 0.3
    touching: float = 0.3
    tilt: float = 0.5
    noise: float = 4.0
    gradient: float = 0.35
    specks: int = 4
    palette: tuple | None = None
    marbled: float = 0.0
    smoky: float = 0.0
    side_faces: float = 0.0
    table: str = "wood"
    table_colour: tuple | None = None
    tray_inset: float = 0.12
    light: tuple[float, float] = (0.10, 0.12)
    shadow: float = 0.55
    soft: float = 0.0
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    camera_tilt: float = 0.0
    turn: float = 0.0
    clutter: tuple = ()
    translucent: float = 0.0
    camera_height: float = 0.0
    wall_shade: float = 0.0
    wall_dark: float = 0.0
    to_wall: float = 0.0
    own_colour: float = 0.0


def _colours(rng: np.random.Generator, share: float, palette) -> tuple:
    """A die's ``(body BGR, pip BGR)``: with chance ``share`` a pair drawn from
    ``palette`` (``None``: the default coloured dice), else a white die."""
    palette = _COLOURED if palette is None else palette
    return palette[rng.integers(len(palette))] if rng.random() < share else _WHITE


def _background(rng: np.random.Generator, style: RenderStyle) -> np.ndarray:
    w, h = style.size
    img = np.empty((h, w, 3), np.float32)
    img[:] = style.tray
    # Lighting gradient: brighter towards a random point.
    gx, gy = rng.uniform(0, w), rng.uniform(0, h)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.sqrt((xx - gx) ** 2 + (yy - gy) ** 2) / math.hypot(w, h)
    light = 1.0 + style.gradient * (0.6 - d)
    img *= light[..., None]
    # Felt texture.
    tex = rng.normal(0, 6, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
    tex = cv2.resize(cv2.GaussianBlur(tex, (0, 0), 1.5), (w, h))
    img += tex[..., None]
    return img


def _place(rng: np.random.Generator, n: int, style: RenderStyle) -> list[tuple[float, float, float]]:
    """Centres and angles of ``n`` dice inside the frame, some touching."""
    w, h = style.size
    s = style.die_size
    margin = s * 1.3
    placed: list[tuple[float, float, float]] = []
    tries = 0
    while len(placed) < n:
        tries += 1
        if tries > 5000:
            raise ValueError(f"cannot fit {n} dice of {s:.0f} px in a {w}×{h} frame")
        ang = rng.uniform(0, 90)
        if placed and rng.random() < style.touching:
            # Against a random earlier die, side by side, nearly aligned.
            bx, by, bang = placed[rng.integers(len(placed))]
            ang = bang + rng.uniform(-4, 4)
            dirn = math.radians(bang + 90 * rng.integers(4))
            gap = s * rng.uniform(1.02, 1.08)
            off = rng.uniform(-0.3, 0.3) * s
            x = bx + gap * math.cos(dirn) - off * math.sin(dirn)
            y = by + gap * math.sin(dirn) + off * math.cos(dirn)
            min_d = s * 0.98
        else:
            x, y = rng.uniform(margin, w - margin), rng.uniform(margin, h - margin)
            min_d = s * 1.6
        if not (margin * 0.8 < x < w - margin * 0.8 and margin * 0.8 < y < h - margin * 0.8):
            continue
        if all(math.hypot(x - px, y - py) >= min_d for px, py, _ in placed):
            placed.append((x, y, ang))
    return placed


def _draw_die(img: np.ndarray, value: int, cx: float, cy: float, ang: float, s: float,
              body, pip, rng: np.random.Generator, *, marbled: bool = False, smoky: bool = False,
              lean: bool = False, light=(0.10, 0.12), dark: float = 0.55, soft: float = 0.0,
              alpha: float = 1.0, rise=None) -> None:
    """Draw a die showing ``value`` at ``(cx, cy)`` px, turned ``ang`` degrees, side ``s`` px, on ``img``
    (``H×W×3 float32 BGR``, in place). ``light``: the shadow's offset ``(x, y)`` in die sides (away from
    the light); ``dark``: the shadow's brightness factor; ``soft``: its blur in die sides (0: hard);
    ``alpha``: the body's opacity (below 1 a translucent body); ``rise``: ``(dx, dy)`` px from the top face
    to the foot as a near camera sees it (:func:`hardware.tray_table.draw_sides`; None: a plain darker edge)."""
    ss = 8  # sub-pixel drawing shift
    f = 1 << ss

    def pts(corners):
        return (np.array(corners) * f).round().astype(np.int32).reshape(-1, 1, 2)

    a = math.radians(ang)
    ca, sa = math.cos(a), math.sin(a)

    def to_img(u, v):
        return (cx + u * ca - v * sa, cy + u * sa + v * ca)

    half = s / 2
    r = s * 0.14  # rounded corner radius
    # Rounded square outline.
    outline = []
    for qx, qy, a0 in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        for k in range(6):
            t = math.radians(a0 + k * 18)
            outline.append(to_img(qx * (half - r) + r * math.cos(t), qy * (half - r) + r * math.sin(t)))
    # Shadow and side face: the body offset away from the light, darker.
    sx, sy = s * light[0], s * light[1]
    shadow = [(x + sx * 1.6, y + sy * 1.6) for x, y in outline]
    if soft > 0:  # a soft shadow: the outline's shade blurred, darkening what lies under it
        _soft_shadow(img, np.array(shadow), s * soft, dark)
    else:
        under = img[int(cy) % img.shape[0], int(cx) % img.shape[1]].tolist()
        cv2.fillPoly(img, [pts(shadow)], tuple(c * dark for c in under), cv2.LINE_AA, ss)
    if rise is None:
        side = [(x + sx * 0.5, y + sy * 0.5) for x, y in outline]
        cv2.fillPoly(img, [pts(side)], tuple(c * 0.7 for c in body), cv2.LINE_AA, ss)
    else:
        from .tray_table import draw_sides
        draw_sides(img, [to_img(qx * half, qy * half) for qx, qy in ((1, 1), (-1, 1), (-1, -1), (1, -1))], rise,
                   body, pip, value, rng, PIP_LAYOUT)
    if lean:
        _side_face(img, value, to_img, s, body, pip, rng)
    shade = rng.uniform(0.9, 1.05)
    box = _box(img, np.array(outline), 1)
    under_face = img[box[1]:box[3], box[0]:box[2]].copy() if alpha < 1 else None
    cv2.fillPoly(img, [pts(outline)], tuple(min(255.0, c * shade) for c in body), cv2.LINE_AA, ss)
    if under_face is not None:  # a translucent body: what lies under the face shows through
        patch = img[box[1]:box[3], box[0]:box[2]]
        patch *= alpha
        patch += (1 - alpha) * under_face
    if marbled:
        _marble(img, outline, body, rng)
    if smoky:
        _smoky_face(img, value, outline, to_img, s, body, pip, rng)
        return
    pr = s * 0.085
    for u, v in PIP_LAYOUT[value]:
        px, py = to_img(u * s * 0.25, v * s * 0.25)
        cv2.circle(img, (round(px * f), round(py * f)), round(pr * f), pip, -1, cv2.LINE_AA, ss)


def _soft_shadow(img: np.ndarray, outline: np.ndarray, blur: float, dark: float) -> None:
    """Darken ``img`` (in place) under the polygon ``outline`` (``N×2`` ``(x, y)`` px) blurred by ``blur`` px,
    to ``dark`` times its brightness where the shadow is full."""
    x0, y0, x1, y1 = _box(img, outline, int(3 * blur) + 2)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round((outline - (x0, y0)) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, blur))
    img[y0:y1, x0:x1] *= (1 - (1 - dark) * mask)[..., None]


def _box(img: np.ndarray, xy: np.ndarray, pad: int) -> tuple[int, int, int, int]:
    """The pixel box ``(x0, y0, x1, y1)`` (``x1``, ``y1`` exclusive) round the points ``xy`` (``N×2``,
    ``(x, y)`` px), ``pad`` px wider on each side, clipped to ``img``."""
    h, w = img.shape[:2]
    x0, y0 = np.maximum(np.floor(xy.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(xy.max(axis=0)).astype(int) + 1 + pad, (w, h))
    return int(x0), int(y0), int(x1), int(y1)


def _side_face(img: np.ndarray, value: int, to_img, s: float, body, pip, rng: np.random.Generator) -> None:
    """A side face beside the top face, as a leaning die shows it: a strip 0.15-0.35 side wide along one
    edge, darker than the body, with the pips of a face next to ``value`` squeezed across the strip.
    ``to_img(u, v)``: die coordinates (px from the top face's centre) to image ``(x, y)`` px."""
    half = s / 2
    wide = s * rng.uniform(0.15, 0.35)
    turn = int(rng.integers(4))  # which edge: the strip lies along +u, +v, -u or -v

    def at(across, along):  # across: 0 at the top face's edge, 1 at the strip's far edge
        d = half + across * wide
        u, v = ((d, along), (along, d), (-d, along), (along, -d))[turn]
        return to_img(u, v)

    strip = np.array([at(0, -half), at(0, half), at(1, half * 0.9), at(1, -half * 0.9)], np.float32)
    cv2.fillPoly(img, [np.round(strip * 256).astype(np.int32)], tuple(c * rng.uniform(0.55, 0.85) for c in body),
                 cv2.LINE_AA, 8)
    side_value = int(rng.choice([k for k in range(1, 7) if k not in (value, 7 - value)]))
    x0, y0 = at(0, 0)
    x1, y1 = at(1, 0)
    ang = math.degrees(math.atan2(y1 - y0, x1 - x0))
    pr = s * 0.085
    for a, b in PIP_LAYOUT[side_value]:
        cx, cy = at(0.5 + a * 0.25, b * s * 0.25)
        cv2.ellipse(img, (round(cx * 256), round(cy * 256)), (max(64, round(pr * wide / s * 256)), round(pr * 256)),
                    ang, 0, 360, pip, -1, cv2.LINE_AA, 8)


def _smoky_face(img: np.ndarray, value: int, outline, to_img, s: float, body, pip,
                rng: np.random.Generator) -> None:
    """The top face of a translucent smoky die inside ``outline`` (``(x, y)`` px), drawn over its plain
    body: mottled, a lighter rim, the hidden face's pips (``7 - value``) faint and shifted as seen through
    the body, soft red pips of ``value`` 0.9-1.25 times the usual size, and sometimes a glint of light."""
    xy = np.array(outline)
    x0, y0, x1, y1 = _box(img, xy, 2)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return
    if tuple(body) in SWIRLED:
        _marble(img, outline, body, rng, tint=(30, 25, 28), width=1.5)
    patch = img[y0:y1, x0:x1]
    face = np.zeros(patch.shape[:2], np.float32)
    cv2.fillPoly(face, [np.round(xy - (x0, y0)).astype(np.int32)], 1.0, cv2.LINE_AA)
    # Mottling: a smooth field darkens and lightens the body by up to a quarter.
    field = rng.normal(0, 1, (max(2, (y1 - y0) // 6), max(2, (x1 - x0) // 6))).astype(np.float32)
    field = cv2.resize(cv2.GaussianBlur(field, (0, 0), 1.0), (x1 - x0, y1 - y0), interpolation=cv2.INTER_CUBIC)
    patch *= (1.0 + 0.25 * np.clip(field, -1.5, 1.5) * face)[..., None]
    # A lighter rim, where the bevel catches the light.
    rim = np.zeros_like(face)
    cv2.polylines(rim, [np.round(xy - (x0, y0)).astype(np.int32)], True, 1.0, max(1, round(s * 0.05)), cv2.LINE_AA)
    rim = cv2.GaussianBlur(rim, (0, 0), max(0.5, s * 0.02)) * face * rng.uniform(0.3, 0.7)
    light = np.minimum(np.asarray(body, np.float32) * 1.8 + 40.0, 255.0)
    patch += (light - patch) * rim[..., None]

    def pips(layout_value, radius, shift, mirror):
        m = np.zeros_like(face)
        for u, v in PIP_LAYOUT[layout_value]:
            px, py = to_img((-u if mirror else u) * s * 0.25 + shift[0], v * s * 0.25 + shift[1])
            cv2.circle(m, (round((px - x0) * 16), round((py - y0) * 16)), round(radius * 16), 1.0, -1, cv2.LINE_AA, 4)
        return m

    # The hidden face's pips, seen through the body: faint, larger, blurred, shifted.
    ghost = pips(7 - value, s * 0.1, rng.uniform(-0.08, 0.08, 2) * s, True)
    ghost = cv2.GaussianBlur(ghost, (0, 0), max(0.7, s * 0.04)) * face * rng.uniform(0.15, 0.4)
    patch += (np.asarray(pip, np.float32) - patch) * ghost[..., None]
    top = pips(value, s * 0.085 * rng.uniform(0.9, 1.25), (0.0, 0.0), False)
    top = cv2.GaussianBlur(top, (0, 0), max(0.5, s * rng.uniform(0.01, 0.03)))
    tint = np.asarray(pip, np.float32) * rng.uniform(0.75, 1.0)
    patch += (tint - patch) * top[..., None]
    if rng.random() < 0.5:  # a glint: a short bright streak
        glint = np.zeros_like(face)
        gx, gy = to_img(*(rng.uniform(-0.35, 0.35, 2) * s))
        cv2.ellipse(glint, (round((gx - x0) * 16), round((gy - y0) * 16)),
                    (round(s * rng.uniform(0.06, 0.14) * 16), round(s * 0.025 * 16) + 8),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1, cv2.LINE_AA, 4)
        glint = cv2.GaussianBlur(glint, (0, 0), 0.6) * face * rng.uniform(0.5, 0.9)
        patch += (235.0 - patch) * glint[..., None]


def _marble(img: np.ndarray, outline, body, rng: np.random.Generator, *, tint=None, width: float = 0.5) -> None:
    """Veins over the face inside ``outline`` (``(x, y)`` px): where a smooth random field crosses
    zero, the face is blended towards ``tint`` (BGR; ``None``: a lighter tint of ``body``). ``width``:
    how broad the veins are, in the field's standard deviations."""
    xy = np.array(outline)
    x0, y0, x1, y1 = _box(img, xy, 0)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round(xy - (x0, y0)).astype(np.int32)], 1.0)
    field = rng.normal(0, 1, (max(2, (y1 - y0) // 4), max(2, (x1 - x0) // 4))).astype(np.float32)
    field = cv2.resize(cv2.GaussianBlur(field, (0, 0), 0.8), (x1 - x0, y1 - y0), interpolation=cv2.INTER_CUBIC)
    veins = np.clip(1.0 - np.abs(field) / (field.std() * width + 1e-6), 0.0, 1.0) * mask * rng.uniform(0.4, 0.8)
    if tint is None:
        tint = np.minimum(np.asarray(body, np.float32) * rng.uniform(1.6, 2.6) + 30.0, 255.0)
    tint = np.asarray(tint, np.float32)
    patch = img[y0:y1, x0:x1]
    patch += (tint - patch) * veins[..., None]


def render_empty(*, seed: int | None = None, style: RenderStyle = RenderStyle()) -> np.ndarray:
    """An empty tray: ``H×W×3 uint8 BGR``, ``H×W`` from ``style.size``."""
    rng = np.random.default_rng(seed)
    return _finish(_background(rng, style), rng, style)


def _finish(img: np.ndarray, rng: np.random.Generator, style: RenderStyle, truth=None):
    w, h = style.size
    # Mild perspective: corners pulled in by up to 6% of the frame.
    k = 0.06 * style.tilt
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + np.float32(rng.uniform(-k, k, (4, 2)) * [w, h])
    m = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(img, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    img += rng.normal(0, style.noise, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if truth is None:
        return out
    moved = []
    for d in truth:
        p = cv2.perspectiveTransform(np.float32([[d.center]]), m)[0, 0]
        moved.append(RenderedDie(d.value, (float(p[0]), float(p[1])), d.size))
    return out, moved


def render_throw(values, *, seed: int | None = None, style: RenderStyle = RenderStyle()):
    """Render a frame of dice showing ``values`` (each 1-6).

    Returns ``(frame, truth)``: ``frame`` is ``H×W×3 uint8 BGR`` with ``H×W``
    from ``style.size``; ``truth`` a list of :class:`RenderedDie` in the order of
    ``values``. Raises ``ValueError`` for a value outside 1-6 or more dice than
    fit in the frame.
    """
    values = list(values)
    for v in values:
        if v not in PIP_LAYOUT:
            raise ValueError(f"die value {v!r} is not 1-6")
    rng = np.random.default_rng(seed)
    img = _background(rng, style)
    s = style.die_size
    w, h = style.size
    spots = _place(rng, len(values) + style.specks, style)
    truth = []
    for v, (x, y, ang) in zip(values, spots):
        size = s * rng.uniform(0.95, 1.05)
        body, pip = _colours(rng, style.coloured, style.palette)
        # (No draw for marbling unless asked for, so the default style's frames stay as they were.)
        marbled = style.marbled > 0 and rng.random() < style.marbled
        smoky = style.smoky > 0 and rng.random() < style.smoky
        if smoky:
            body, pip = SMOKY_SET[rng.integers(len(SMOKY_SET))]
        lean = style.side_faces > 0 and rng.random() < style.side_faces
        _draw_die(img, v, x, y, ang, size, body, pip, rng, marbled=marbled, smoky=smoky, lean=lean)
        truth.append(RenderedDie(v, (x, y), size))
    # Pip-like specks on the tray, away from the dice.
    for x, y, _ in spots[len(values):]:
        cv2.circle(img, (round(x), round(y)), max(2, round(s * 0.08)), (20, 20, 20), -1, cv2.LINE_AA)
    return _finish(img, rng, style, truth)


# Scenes: a tray on a table, dice placed explicitly, for frame sequences

@dataclass(frozen=True)
class PlacedDie:
    """A die lying in a :class:`TrayScene`: ``value`` 1-6, ``center`` ``(x, y)``
    pixels, ``angle`` degrees, ``size`` (side) pixels, ``colours`` ``(body BGR, pip BGR)``,
    ``alpha`` the body's opacity (below 1: translucent). Positions are on the table seen
    straight from above; :meth:`TrayScene.seen` maps them into a tilted camera's frame."""

    value: int
    center: tuple[float, float]
    angle: float
    size: float
    colours: tuple = _WHITE
    alpha: float = 1.0


#: The dice bodies of a wider world (:attr:`RenderStyle.palette` for varied trays): white, cream,
#: red, black, green, honey wood, blue, yellow and ivory-on-brown, each with its usual pips.
WIDE_SET = (
    ((232, 238, 240), (25, 25, 25)),  # white, black pips
    ((190, 222, 238), (30, 30, 30)),  # cream, black pips
    ((40, 40, 195), (240, 240, 240)),  # red, white pips
    ((28, 28, 30), (235, 235, 235)),  # black, white pips
    ((55, 140, 40), (240, 240, 240)),  # green, white pips
    ((70, 140, 195), (25, 30, 45)),  # honey wood, dark pips
    ((170, 85, 30), (240, 240, 240)),  # blue, white pips
    ((40, 200, 230), (30, 30, 30)),  # yellow, dark pips
    ((40, 60, 95), (215, 230, 240)),  # brown, ivory pips
)


class TrayScene:
    """A dice tray on a table seen from above, for frame sequences.

    Unlike :func:`render_throw`, positions stay put from frame to frame (no
    random perspective), so a sequence can show dice rolling in, settling, a
    hand passing, a die set aside outside the tray. ``style.size`` is the
    frame ``(width, height)`` px; the tray is the rectangle ``tray`` (x0, y0,
    x1, y1) px on the table, by default inset ``style.tray_inset`` (12%) from
    the frame edges, on a light wooden table. ``style``'s scene fields (the
    table, light, shadows, camera tilt, clutter: see :class:`RenderStyle`)
    widen the look; a tilted camera sees the table through :attr:`homography`.

    Example::

        >>> s = TrayScene(seed=1)
        >>> dice = s.place([3, 5])
        >>> s.frame(dice).shape
        (616, 820, 3)
    """

    TABLE = (120, 160, 200)  # light wood, BGR

    def __init__(self, *, seed: int | None = None, style: RenderStyle = RenderStyle(tilt=0.0, specks=0),
                 tray: tuple[int, int, int, int] | None = None):
        from .tray_table import camera_view, draw_clutter, spot_beside, table, wall_shadow

        self.style = style
        self.rng = np.random.default_rng(seed)
        look = np.random.default_rng(None if seed is None else [seed, 38])  # the wider look's own draws
        w, h = style.size
        if tray is None:
            mx, my = round(w * style.tray_inset), round(h * style.tray_inset)
            tray = (mx, my, w - mx, h - my)
        self.tray = tray
        if style.table == "wood":
            img = np.empty((h, w, 3), np.float32)
            img[:] = self.TABLE
            tex = self.rng.normal(0, 5, (h, w // 8 + 1)).astype(np.float32)
            img += cv2.resize(tex, (w, h))[..., None]
        else:
            img = table(style.table, (w, h), look, style.table_colour)
        self.clutter: list[tuple[str, tuple[float, float]]] = []
        self.stray: list[PlacedDie] = []
        for kind in style.clutter:
            if kind == "die":
                s = style.die_size
                at = spot_beside(look, (w, h), tray, s * 0.8)
                if at is not None and min(at[0], w - at[0], at[1], h - at[1]) > s * 0.75:
                    body, pip = _colours(look, style.coloured, style.palette)
                    d = PlacedDie(int(look.integers(1, 7)), at, float(look.uniform(0, 90)), s, (body, pip))
                    _draw_die(img, d.value, *d.center, d.angle, s, body, pip, look, **self._light())
                    self.stray.append(d)
                    self.clutter.append((kind, at))
            else:
                at = draw_clutter(img, kind, tray, style.die_size, look)
                if at is not None:
                    self.clutter.append((kind, at))
        x0, y0, x1, y1 = tray
        inner = _background(self.rng, RenderStyle(size=(x1 - x0, y1 - y0), tray=style.tray, gradient=style.gradient))
        img[y0:y1, x0:x1] = inner
        #: The walls' shadow on the felt and the dice in it (``H×W`` factors, applied per frame), or None.
        self.shade = wall_shadow((w, h), tray, style.light, style.wall_shade * style.die_size, style.wall_dark or
                                 style.shadow, edge=style.soft * style.die_size if style.wall_dark else None)
        cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), tuple(c * 0.6 for c in style.tray), max(2, round(w / 200)))
        if style.table != "wood" and style.gradient:  # the room's light falls off across the table too
            gx, gy = look.uniform(0, w), look.uniform(0, h)
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            img *= (1.0 + style.gradient * (0.6 - np.hypot(xx - gx, yy - gy) / math.hypot(w, h)))[..., None]
        self.base = img
        #: 3×3 homography from the table seen straight down to the frame (None: straight down).
        self.homography = None
        if style.camera_tilt or style.turn:
            self.homography = camera_view((w, h), tray, style.camera_tilt, style.turn, float(look.uniform(0, 360)))

    def _light(self) -> dict:
        st = self.style
        return {"light": st.light, "dark": st.shadow, "soft": st.soft}

    def seen(self, point: tuple[float, float]) -> tuple[float, float]:
        """Where a point ``(x, y)`` px of the table lies in the frame (the tilted camera's view)."""
        if self.homography is None:
            return (float(point[0]), float(point[1]))
        p = cv2.perspectiveTransform(np.float64([[point]]), self.homography)[0, 0]
        return (float(p[0]), float(p[1]))

    @property
    def polygon(self) -> list[tuple[float, float]]:
        """The tray's corners in the frame, ``(x, y)`` px, clockwise from top left."""
        x0, y0, x1, y1 = self.tray
        return [self.seen(p) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]

    def place(self, values, *, coloured: float | None = None, touching: float | None = None) -> list[PlacedDie]:
        """Random resting places in the tray for dice showing ``values``; ``coloured`` and ``touching``
        override the style's shares (``touching=0``: dice apart, as set-up asks for)."""
        x0, y0, x1, y1 = self.tray
        touching = self.style.touching if touching is None else touching
        pad = (1.04 - self.style.to_wall) * self.style.die_size if self.style.to_wall else 0.0  # nearer the walls
        x0, y0, x1, y1 = x0 - pad, y0 - pad, x1 + pad, y1 + pad
        inner = RenderStyle(size=(round(x1 - x0), round(y1 - y0)), die_size=self.style.die_size, touching=touching)
        spots = _place(self.rng, len(list(values)), inner)
        share = self.style.coloured if coloured is None else coloured
        out = []
        for v, (x, y, ang) in zip(values, spots):
            colours = _colours(self.rng, share, self.style.palette)
            if self.style.own_colour and self.rng.random() < self.style.own_colour:  # the felt's colour
                body = tuple(float(c) for c in np.minimum(255.0, np.float64(self.style.tray) * self.rng.uniform(1, 1.3)))
                colours = (body, (25, 25, 25) if sum(self.style.tray) > 360 else (235, 235, 235))
            see_through = self.style.translucent and self.rng.random() < self.style.translucent
            alpha = float(self.rng.uniform(0.6, 0.8)) if see_through else 1.0
            out.append(PlacedDie(int(v), (x + x0, y + y0), ang, self.style.die_size * self.rng.uniform(0.95, 1.05),
                                 colours, alpha))
        return out

    def frame(self, dice, *, hand: tuple[float, float] | None = None) -> np.ndarray:
        """One frame, ``H×W×3 uint8 BGR``: the table, the tray, ``dice`` (a list of
        :class:`PlacedDie`) and, when ``hand`` is a point ``(x, y)`` px, a hand
        reaching in from the bottom edge with its fingertips there."""
        img = self.base.copy()
        w, h = self.style.size
        near = self.style.camera_height
        if near:  # the farthest from the camera's foot first: a die's side face lies under its neighbour's top
            dice = sorted(dice, key=lambda d: -math.hypot(d.center[0] - w / 2, d.center[1] - h / 2))
        for d in dice:
            if d.value not in PIP_LAYOUT:
                raise ValueError(f"die value {d.value!r} is not 1-6")
            rise = ((w / 2 - d.center[0]) / near, (h / 2 - d.center[1]) / near) if near else None
            _draw_die(img, d.value, d.center[0], d.center[1], d.angle, d.size, d.colours[0], d.colours[1], self.rng,
                      alpha=d.alpha, rise=rise, **self._light())
        img *= 1.0 if self.shade is None else self.shade[..., None]
        if hand is not None:
            from .tray_table import draw_hand
            draw_hand(img, hand, self.style.die_size)
        if self.homography is not None:
            img = cv2.warpPerspective(img, self.homography, self.style.size, flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REFLECT)
        if self.style.tint != (1.0, 1.0, 1.0):
            img *= np.float32(self.style.tint)
        img = cv2.GaussianBlur(img, (0, 0), 0.7)
        img += self.rng.normal(0, self.style.noise, img.shape).astype(np.float32)
        return np.clip(img, 0, 255).astype(np.uint8)

    def rolling(self, dice, frames: int) -> list[list[PlacedDie]]:
        """``frames`` placements of ``dice`` rolling in from the bottom edge of the
        tray to where they rest (the last placement is ``dice`` itself)."""
        x0, y0, x1, y1 = self.tray
        out = []
        starts = [(self.rng.uniform(x0, x1), y1 - self.style.die_size) for _ in dice]
        for k in range(1, frames + 1):
            t = k / frames
            ease = 1 - (1 - t) ** 2
            step = []
            for d, (sx, sy) in zip(dice, starts):
                x = sx + (d.center[0] - sx) * ease
                y = sy + (d.center[1] - sy) * ease
                ang = d.angle + (1 - t) * 200
                value = d.value if k == frames else int(self.rng.integers(1, 7))
                step.append(PlacedDie(value, (x, y), ang, d.size, d.colours))
            out.append(step)
        return out
