"""Tables and clutter for the mock tray scenes (:class:`hardware.render.TrayScene`).

A table is drawn as a ``H×W×3 float32 BGR`` image of one of the kinds a café
or a kitchen has (:data:`TABLES`): light or dark wood with grain, planks,
checked or striped cloth, felt of any colour, plain white or grey. Clutter
(:data:`CLUTTER`) is what lies beside a tray: a cup, playing cards, coins, a
phone (a stray die is drawn by the scene itself, as a die).

Example::

    >>> import numpy as np
    >>> img = table("checked", (640, 480), np.random.default_rng(1))
    >>> img.shape, img.dtype
    ((480, 640, 3), dtype('float32'))
"""

from __future__ import annotations

import math

import cv2
import numpy as np

__all__ = ["TABLES", "CLUTTER", "table", "draw_clutter", "spot_beside", "camera_view", "draw_sides", "wall_shadow",
           "draw_hand"]

#: The kinds of table :func:`table` draws.
TABLES = ("light-wood", "dark-wood", "planks", "checked", "striped", "felt", "plain")
#: The things :func:`draw_clutter` draws beside a tray ("die", a stray die, is the scene's).
CLUTTER = ("cup", "cards", "coins", "phone", "die")

_WOODS = {"light-wood": ((120, 165, 205), (80, 120, 165)), "dark-wood": ((45, 70, 105), (25, 40, 65))}


def _smooth(rng: np.random.Generator, shape: tuple[int, int], cell: int) -> np.ndarray:
    """A smooth random field of ``shape`` ``(h, w)``, about unit spread, varying over ``cell`` px."""
    h, w = shape
    f = rng.normal(0, 1, (max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    return cv2.resize(f, (w, h), interpolation=cv2.INTER_CUBIC)


def _grain(rng: np.random.Generator, size: tuple[int, int], base, dark, period: float) -> np.ndarray:
    """Wood along x: bands of ``base`` and ``dark`` BGR whose phase wanders, and fine streaks."""
    w, h = size
    yy = np.arange(h, dtype=np.float32)[:, None]
    wander = _smooth(rng, (h, w), 90) * period * 0.8 + _smooth(rng, (h, w), 400) * period * 2
    bands = 0.5 + 0.5 * np.sin(2 * math.pi * (yy + wander) / period)
    streak = cv2.resize(rng.normal(0, 1, (h, max(2, w // 40))).astype(np.float32), (w, h))
    t = np.clip(bands ** 3 * 0.7 + 0.12 * streak, 0, 1)
    base, dark = np.float32(base), np.float32(dark)
    return base + (dark - base) * t[..., None]


def table(kind: str, size: tuple[int, int], rng: np.random.Generator, colour=None) -> np.ndarray:
    """A table of ``kind`` (one of :data:`TABLES`) as a ``H×W×3 float32 BGR`` image, ``size``
    ``(width, height)`` px. ``colour``: BGR of felt, cloth or plain tables (drawn when None).
    Raises ``ValueError`` for an unknown kind."""
    w, h = size
    if kind in _WOODS:
        base, dark = _WOODS[kind]
        img = _grain(rng, size, base, dark, rng.uniform(12, 40))
    elif kind == "planks":
        wood = _WOODS["light-wood" if rng.random() < 0.5 else "dark-wood"]
        img = _grain(rng, size, *wood, rng.uniform(10, 30))
        width = rng.uniform(0.12, 0.25) * h
        y = rng.uniform(-width, 0)
        while y < h:  # each plank its own shade, a dark joint between planks
            y0, y1 = max(0, int(y)), min(h, int(y + width))
            img[y0:y1] *= rng.uniform(0.85, 1.12)
            img[max(0, y1 - 2):min(h, y1 + 2)] *= 0.45
            y += width
    elif kind in ("checked", "striped"):
        colour = colour if colour is not None else tuple(rng.integers(20, 200, 3).tolist())
        cell = rng.uniform(0.02, 0.06) * w
        big = int(math.hypot(w, h)) + 4
        uu = np.arange(big, dtype=np.float32)
        across = ((uu // cell) % 2).astype(np.float32)
        if kind == "checked":  # gingham: coloured stripes both ways over white, darker where they cross
            t = (across[None, :] + across[:, None]) / 2
        else:
            t = np.repeat(across[None, :], big, axis=0)
        white = np.float32((235, 238, 240))
        pat = white + (np.float32(colour) - white) * t[..., None]
        m = cv2.getRotationMatrix2D((big / 2, big / 2), float(rng.uniform(0, 180)), 1.0)
        m[:, 2] += (w / 2 - big / 2, h / 2 - big / 2)
        img = cv2.warpAffine(pat, m, (w, h), flags=cv2.INTER_LINEAR)
        img += _smooth(rng, (h, w), 4)[..., None] * 4  # the weave
    elif kind == "felt":
        colour = colour if colour is not None else tuple(rng.integers(15, 210, 3).tolist())
        img = np.empty((h, w, 3), np.float32)
        img[:] = colour
        img += _smooth(rng, (h, w), 3)[..., None] * 7
    elif kind == "plain":
        grey = colour if colour is not None else (float(rng.uniform(150, 245)),) * 3
        img = np.empty((h, w, 3), np.float32)
        img[:] = grey
        img += _smooth(rng, (h, w), 6)[..., None] * 2
    else:
        raise ValueError(f"unknown table {kind!r}: one of {', '.join(TABLES)}")
    return img


def spot_beside(rng: np.random.Generator, size: tuple[int, int], tray, reach: float):
    """A point ``(x, y)`` px on the table outside the rectangle ``tray`` (x0, y0, x1, y1), its
    centre ``reach`` px or more from the tray's edge where the margin allows; None when no margin."""
    w, h = size
    x0, y0, x1, y1 = tray
    sides = [s for s, room in (("l", x0), ("r", w - x1), ("t", y0), ("b", h - y1)) if room > reach * 0.6]
    if not sides:
        return None
    side = sides[rng.integers(len(sides))]
    if side == "l":
        return rng.uniform(min(reach, x0 / 2), max(x0 - reach, x0 / 2)), rng.uniform(0, h)
    if side == "r":
        return rng.uniform(min(x1 + reach, (x1 + w) / 2), max(w - reach, (x1 + w) / 2)), rng.uniform(0, h)
    if side == "t":
        return rng.uniform(0, w), rng.uniform(min(reach, y0 / 2), max(y0 - reach, y0 / 2))
    return rng.uniform(0, w), rng.uniform(min(y1 + reach, (y1 + h) / 2), max(h - reach, (y1 + h) / 2))


def _shadowed(img, draw, offset, strength=0.6):
    """Draw a soft shadow of what ``draw(target, colour_of)`` draws, ``offset`` px away, then the thing."""
    mask = np.zeros(img.shape[:2], np.float32)
    draw(mask, lambda c: 1.0, offset)
    mask = cv2.GaussianBlur(mask, (0, 0), 6)
    img *= (1 - (1 - strength) * mask)[..., None]
    draw(img, lambda c: c, (0, 0))


def draw_clutter(img: np.ndarray, kind: str, tray, die: float, rng: np.random.Generator) -> tuple[float, float] | None:
    """Draw a ``kind`` of :data:`CLUTTER` (not "die") on the table ``img`` (``H×W×3 float32 BGR``,
    drawn in place) beside the rectangle ``tray`` (x0, y0, x1, y1) px, sized from the die side ``die``
    px. Returns where it lies ``(x, y)`` px, or None when the table has no room beside the tray."""
    h, w = img.shape[:2]
    spot = spot_beside(rng, (w, h), tray, die * 0.8)
    if spot is None:
        return None
    cx, cy = spot
    off = (die * 0.12, die * 0.15)

    def P(x, y):  # a point, drawn 4 bits sub-pixel
        return round(x * 16), round(y * 16)

    if kind == "cup":
        r = die * rng.uniform(1.1, 1.6)
        col = tuple(rng.integers(30, 240, 3).tolist())

        def cup(t, c, o):
            cv2.circle(t, P(cx + o[0] * 2, cy + o[1] * 2), round(r * 16), c(col), -1, cv2.LINE_AA, 4)
            cv2.circle(t, P(cx + o[0] * 2, cy + o[1] * 2), round(r * 0.8 * 16), c(tuple(v * 0.8 for v in col)), -1,
                       cv2.LINE_AA, 4)
            cv2.circle(t, P(cx + o[0] * 2, cy + o[1] * 2), round(r * 0.72 * 16), c((25, 45, 70)), -1, cv2.LINE_AA, 4)
        _shadowed(img, cup, off)
    elif kind == "cards":
        for _ in range(int(rng.integers(1, 4))):
            ang = rng.uniform(0, 180)
            box = cv2.boxPoints(((cx + rng.uniform(-1, 1) * die * 0.5, cy + rng.uniform(-1, 1) * die * 0.5),
                                 (die * 1.9, die * 2.7), ang))
            suit = (30, 30, 200) if rng.random() < 0.5 else (30, 30, 30)

            def card(t, c, o, box=box, suit=suit, ang=ang):
                cv2.fillPoly(t, [np.round((box + o) * 16).astype(np.int32)], c((238, 240, 242)), cv2.LINE_AA, 4)
                if t.ndim == 3:  # the suit's marks: small round blots, like pips
                    mx, my = box.mean(axis=0)
                    for k in range(int(rng.integers(1, 7))):
                        a = math.radians(ang)
                        u, v = (k % 2 - 0.5) * die * 0.8, (k // 2 - 1) * die * 0.7
                        cv2.circle(t, P(mx + u * math.cos(a) - v * math.sin(a), my + u * math.sin(a) + v * math.cos(a)),
                                   round(die * 0.09 * 16), suit, -1, cv2.LINE_AA, 4)
            _shadowed(img, card, (3, 4), 0.75)
    elif kind == "coins":
        for _ in range(int(rng.integers(1, 5))):
            x, y = cx + rng.uniform(-1, 1) * die, cy + rng.uniform(-1, 1) * die
            r = die * rng.uniform(0.3, 0.45)
            col = (90, 170, 200) if rng.random() < 0.5 else (175, 178, 180)

            def coin(t, c, o, x=x, y=y, r=r, col=col):
                cv2.circle(t, P(x + o[0], y + o[1]), round(r * 16), c(col), -1, cv2.LINE_AA, 4)
                cv2.circle(t, P(x + o[0], y + o[1]), round(r * 0.8 * 16), c(tuple(v * 0.85 for v in col)), 2,
                           cv2.LINE_AA, 4)
            _shadowed(img, coin, (3, 4), 0.7)
    elif kind == "phone":
        ang = rng.uniform(0, 180)
        body = cv2.boxPoints(((cx, cy), (die * 2.2, die * 4.4), ang))
        screen = cv2.boxPoints(((cx, cy), (die * 2.0, die * 3.9), ang))
        shade = float(rng.uniform(35, 90))

        def phone(t, c, o):
            cv2.fillPoly(t, [np.round((body + o) * 16).astype(np.int32)], c((20, 20, 22)), cv2.LINE_AA, 4)
            cv2.fillPoly(t, [np.round((screen + o) * 16).astype(np.int32)], c((shade, shade * 0.95, shade * 0.9)),
                         cv2.LINE_AA, 4)
        _shadowed(img, phone, off)
    else:
        raise ValueError(f"unknown clutter {kind!r}: one of {', '.join(CLUTTER[:-1])}")
    return cx, cy


def camera_view(size: tuple[int, int], tray, tilt: float, turn: float, towards: float) -> np.ndarray:
    """The 3×3 homography from the table seen straight from above to a camera leaning ``tilt`` degrees
    towards ``towards`` degrees, the tray turned ``turn`` degrees, the tray's middle kept in the frame's
    middle and the tray scaled to keep its size. ``size``: frame ``(width, height)`` px."""
    w, h = size
    f = 0.85 * w  # the Pi camera's focal length in px (62° across)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
    t, a = math.radians(tilt), math.radians(towards)
    axis = np.array([-math.sin(a), math.cos(a), 0.0]) * t
    rot, _ = cv2.Rodrigues(axis)
    m = k @ rot @ np.linalg.inv(k)
    m = np.vstack([cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0), [0, 0, 1]]) @ m
    x0, y0, x1, y1 = tray
    corners = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]).reshape(-1, 1, 2)
    seen = cv2.perspectiveTransform(corners, m).reshape(-1, 2)
    mid = seen.mean(axis=0)
    grow = math.sqrt((x1 - x0) * (y1 - y0) / max(1.0, cv2.contourArea(seen)))
    fit = min(1.0, *(0.47 * np.array([w, h]) / np.abs(seen - mid).max(axis=0)))  # the tray stays in view
    move = np.array([[1, 0, w / 2], [0, 1, h / 2], [0, 0, 1]]) @ np.diag([grow * fit, grow * fit, 1]) @ \
        np.array([[1, 0, -mid[0]], [0, 1, -mid[1]], [0, 0, 1]])
    return move @ m


def draw_sides(img: np.ndarray, corners, rise, body, pip, value: int, rng: np.random.Generator,
               layout) -> None:
    """The side faces a camera close above sees of a die away from the picture's middle (a 3D die in
    perspective, as in the Blender renders): each face whose outward side looks towards the camera's
    foot is a parallelogram from the top face's edge to that edge moved by ``rise``, shaded darker than
    the top, with the pips of a face next to ``value`` drawn as the perspective squeezes them.

    ``img``: ``H×W×3 float32 BGR``, drawn on in place, before the top face. ``corners``: the top face's
    four corners ``(x, y)`` px in order round it; ``rise``: ``(dx, dy)`` px from the top face down to
    the die's foot as seen (the die's height times its distance from the camera's foot over the
    camera's height: 0 straight below the camera); ``body``, ``pip``: BGR; ``layout``: the pips of each
    value, ``vision.diceset.PIP_LAYOUT``'s form (``(u, v)`` in -1..1)."""
    c = np.asarray(corners, np.float64)
    d = np.asarray(rise, np.float64)
    if np.hypot(*d) < 0.5:
        return
    mid = c.mean(axis=0)
    seen = []
    for k in range(4):
        a, b = c[k], c[(k + 1) % 4]
        normal = (a + b) / 2 - mid
        if float(normal @ d) > 0:
            seen.append((a, b, float(normal @ d) / (np.hypot(*normal) * np.hypot(*d))))
    values = [k for k in range(1, 7) if k not in (value, 7 - value)]
    for a, b, facing in seen:
        quad = np.array([a, b, b + d, a + d])
        shade = rng.uniform(0.45, 0.75)
        cv2.fillPoly(img, [np.round(quad * 16).astype(np.int32)], tuple(x * shade for x in body), cv2.LINE_AA, 4)
        side_value = int(values.pop(int(rng.integers(len(values)))))
        values = [k for k in values if k != 7 - side_value]
        if facing * np.hypot(*d) < 2.5:  # too thin a strip for its pips to show
            continue
        t = np.linspace(0, 2 * np.pi, 16, endpoint=False)
        for u, v in layout[side_value]:
            ring_a = 0.5 * u + 0.17 * np.cos(t)
            ring_b = 0.5 * v + 0.17 * np.sin(t)
            ring = (a + b) / 2 + np.outer(ring_a, (b - a) / 2) + np.outer((ring_b + 1) / 2, d)
            cv2.fillPoly(img, [np.round(ring * 16).astype(np.int32)], tuple(x * (0.6 + 0.4 * shade) for x in pip),
                         cv2.LINE_AA, 4)
        if not values:
            break


def wall_shadow(size: tuple[int, int], tray, light, depth: float, dark: float,
                edge: float | None = None) -> np.ndarray | None:
    """The walls' shadow in the tray, ``H×W float32`` brightness factors for a frame of ``size``
    ``(width, height)`` px (1 outside the shadow; None when ``depth`` < 1 px): a band ``depth`` px deep
    along each wall on the light's side, ``dark`` (0-1, lower darker) at the wall, fading to none; or,
    with ``edge`` (px, its blur: a sun's shadow is sharp, a lamp's soft), as dark throughout up to a
    sharp edge, as a wall casts it (the Blender renders' trays). It falls on the felt and on whatever
    lies there (a die in the band is shaded as deep).
    ``tray``: ``(x0, y0, x1, y1)`` px; ``light``: the dice's shadow offset ``(x, y)`` (away from the light)."""
    x0, y0, x1, y1 = tray
    if depth < 1:
        return None
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    shade = np.ones_like(xx)
    lx, ly = light
    for dist, weight in ((xx - x0, lx), (x1 - xx, -lx), (yy - y0, ly), (y1 - yy, -ly)):
        if weight > 0:
            k = min(1.0, 4 * weight)
            fall = np.clip(1 - dist / (depth * k), 0, 1)
            shade = np.minimum(shade, 1 - (1 - dark) * (fall ** 1.5 if edge is None else fall > 0))
    out = np.ones((size[1], size[0]), np.float32)
    out[y0:y1, x0:x1] = shade
    if edge is not None:
        out = cv2.GaussianBlur(out, (0, 0), max(1.0, edge))
    return out


def draw_hand(img: np.ndarray, at: tuple[float, float], die: float) -> None:
    """A hand reaching in from the bottom edge of ``img`` (``H×W×3`` BGR, drawn in place) with its
    fingertips at ``at`` ``(x, y)`` px; ``die``: the die side, px (the hand's scale)."""
    hx, hy = at
    h = img.shape[0]
    skin = (120, 150, 205)
    cv2.ellipse(img, (round(hx), round(hy + 2.2 * die)), (round(1.4 * die), round(1.9 * die)), 0, 0, 360, skin, -1)
    cv2.rectangle(img, (round(hx - 0.9 * die), round(hy + 2.2 * die)), (round(hx + 0.9 * die), h), skin, -1)
    for k in range(4):
        fx = hx + (k - 1.5) * 0.55 * die
        cv2.ellipse(img, (round(fx), round(hy + 0.5 * die)), (round(0.22 * die), round(0.8 * die)), 0, 0, 360, skin, -1)
