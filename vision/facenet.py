"""A small learned die-face classifier, run with NumPy alone.

It looks at a square crop round a point and says which of seven things it
shows: no die centred there (class 0), or the top face of a die showing 1-6.
The reader uses it as a second pair of eyes (see
:func:`vision.reader.read_throw`): it reads again the dice its classical
passes are unsure of, and looks for dice they missed where something
die-sized was left unread. It never makes a die sure by itself: a die it
finds or reads differently stays unsure; it can only confirm a value the
classical passes read too.

Example::

    >>> import numpy as np
    >>> from vision.facenet import FaceNet
    >>> net = FaceNet.load()
    >>> frame = np.full((200, 200, 3), 230, np.uint8)     # an empty light tray
    >>> probs = net.classify(frame, [(100.0, 100.0)], side=40.0)
    >>> probs.shape, int(probs[0].argmax())
    ((1, 7), 0)

The weights (``vision/models/face_net.npz``, well under 5 MB) are made by
``training/train_face_net.py`` from mock-camera renders and the MIT and BSD
licensed photos only (see ``training/README.md``). Training needs PyTorch
(the optional extra ``train``); running needs only NumPy and OpenCV.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .config import DEFAULT, LearnedConfig

#: Side of the network's input crop, pixels.
INPUT = 32
#: The crop covers this many die sides, so a die's face and a little of what lies round it are seen.
CROP_SIDES = 1.4
#: Where the weights live.
WEIGHTS = Path(__file__).with_name("models") / "face_net.npz"

_LAYERS = ("c1", "c2", "c3")


def face_crops(image: np.ndarray, centers, side: float) -> np.ndarray:
    """Cut the network's input crops from ``image``.

    ``image``: ``H×W×3 uint8 BGR``. ``centers``: positions ``(x, y)`` in pixels.
    ``side``: a die's side in pixels. Returns ``N×32×32×3 float32``, each crop
    scaled to zero mean and unit spread (so lighting and exposure drop out).
    Parts of a crop outside the picture repeat its edge pixels.
    """
    pts = np.asarray(list(centers), dtype=np.float64).reshape(-1, 2)
    out = np.empty((len(pts), INPUT, INPUT, 3), np.float32)
    scale = CROP_SIDES * float(side) / INPUT
    for i, (x, y) in enumerate(pts):
        m = np.array([[scale, 0.0, x - scale * (INPUT - 1) / 2.0],
                      [0.0, scale, y - scale * (INPUT - 1) / 2.0]])
        out[i] = cv2.warpAffine(image, m, (INPUT, INPUT), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REPLICATE)
    flat = out.reshape(len(pts), -1)
    mean = flat.mean(axis=1)[:, None, None, None]
    spread = flat.std(axis=1)[:, None, None, None] + 8.0
    return (out - mean) / spread


def _conv_relu_pool(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3×3 convolution (zero padding 1), ReLU, then 2×2 max pooling. ``x``: N×H×W×C."""
    n, h, wd, c = x.shape
    p = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    # One matrix product (im2col): every 3×3×C patch against every filter. The patches are the nine
    # shifted copies side by side (each C values contiguous, a quarter faster than gathering a sliding
    # window's strided view), so the filters are ordered (row, column, channel) to match.
    cols = np.concatenate([p[:, dy:dy + h, dx:dx + wd, :] for dy in range(3) for dx in range(3)], axis=3)
    y = cols.reshape(n * h * wd, 9 * c) @ w.transpose(0, 2, 3, 1).reshape(len(w), 9 * c).T + b
    np.maximum(y, 0.0, out=y)
    y = y.reshape(n, h, wd, -1)
    return np.maximum(np.maximum(y[:, 0::2, 0::2], y[:, 0::2, 1::2]), np.maximum(y[:, 1::2, 0::2], y[:, 1::2, 1::2]))


class FaceNet:
    """The classifier: weights loaded once, then :meth:`classify` any number of times.

    Raises ``FileNotFoundError`` from :meth:`load` when the weights file is missing,
    and ``ValueError`` when it does not hold this network's layers.
    """

    def __init__(self, weights: dict[str, np.ndarray]):
        try:
            self._w = {k: np.asarray(weights[k], np.float32) for k in
                       [f"{n}.{p}" for n in (*_LAYERS, "fc", "out") for p in ("weight", "bias")]}
        except KeyError as exc:
            raise ValueError(f"the face-net weights lack {exc}") from None

    @classmethod
    def load(cls, path: str | Path = WEIGHTS) -> "FaceNet":
        """Load weights saved by ``training/train_face_net.py``."""
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def logits(self, crops: np.ndarray) -> np.ndarray:
        """Raw scores, ``N×7``, for crops made by :func:`face_crops`."""
        x = crops.astype(np.float32, copy=False)
        for name in _LAYERS:
            x = _conv_relu_pool(x, self._w[f"{name}.weight"], self._w[f"{name}.bias"])
        # Flatten in PyTorch's order (channels first), as the weights were trained.
        x = x.transpose(0, 3, 1, 2).reshape(len(x), -1)
        x = np.maximum(x @ self._w["fc.weight"].T + self._w["fc.bias"], 0.0)
        return x @ self._w["out.weight"].T + self._w["out.bias"]

    def classify(self, image: np.ndarray, centers, side: float, *, turns: bool = False) -> np.ndarray:
        """Probabilities ``N×7`` for crops of ``image`` round ``centers`` (pixels ``(x, y)``).

        Column 0 is "no die centred here", columns 1-6 the face values. ``side``
        is a die's side in pixels. ``turns``: average over the crop turned by
        quarters and mirrored (eight looks, eight times the work). At the
        true centres of many-colours dice the network never saw (two-fold),
        this raised the share read right from 0.862 to 0.879, and of those it
        was sure of (a die 0.9, a value 0.9) from 0.96 to 0.98.
        """
        pts = list(centers)
        if not pts:
            return np.zeros((0, 7), np.float32)
        crops = face_crops(image, pts, side)
        if not turns:
            return _softmax(self.logits(crops))
        looks = [np.rot90(crops, k, axes=(1, 2)) for k in range(4)]
        looks += [c[:, :, ::-1] for c in looks]
        probs = _softmax(self.logits(np.concatenate(looks)))  # all eight looks at once
        return probs.reshape(len(looks), len(pts), 7).mean(axis=0)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)



def find_dice(image: np.ndarray, side: float, *, taken=(), net: "FaceNet | None" = None,
              mask: np.ndarray | None = None, value_share: float | None = None, memo: dict | None = None,
              config: LearnedConfig | None = None, refine=None, one_side: bool = False
              ) -> list[tuple[float, float, int, float, float]]:
    """Dice the network finds in ``image`` away from those already ``taken``.

    ``image``: ``H×W×3 uint8 BGR``. ``side``: a die's side, pixels. ``taken``:
    centres ``(x, y)`` pixels of dice already read; places within 0.75 side of
    one are not searched. ``mask``: optional ``H×W uint8``, nonzero where dice
    may lie (a tray's area). Only places that stand out from the smooth
    background (``config.search_density``; with ``refine``, ``config.search_density_short``) are tried, on a
    grid of a quarter side (with ``refine``, also round the places the network gives ``config.refine_from``
    of a die or more, half a step away: :func:`_refine`; a die found at such a place is taken only where
    ``refine(x, y, value, side)`` is true: a second reading agrees), and a die found must lie on the table, in light or in shade
    (:func:`_lies_on_the_table`): a key on a laptop does not.
    ``value_share``: the least share of the die probability its likeliest
    value must have (``config.learned.find_value``; ``config.learned.find_value_next`` for a
    second search after the first). ``memo``: an optional dict kept between
    searches of one ``image`` with one ``mask`` and ``net``: what a search at
    a side works out whatever is ``taken`` (the places that stand out, the
    table, the network's looks at each place) is kept there, so a second
    search at that side looks again only where the first did not.
    Of two dice found closer than ``config.found_apart`` of the smaller side they were read at, the surer is
    kept; with ``one_side`` (a calibrated tray: every die is ``side`` across, whatever size the network was
    surest at), closer than ``config.found_apart`` of ``side``: two dice's middles lie at least a side apart
    (held-out mock tray 1248: the two pips of a two, 0.79 side apart, found as two ones at 0.8 side).

    Returns ``(x, y, value, p, side)`` for each die found: its centre in
    pixels, its value 1-6, ``p`` 0-1, the network's probability of that value
    there, and the side in pixels it was read at: of ``side`` times each of
    ``config.find_sides``, the one where the network is surest of a die (the
    dice of a mixed set differ in size).
    Returns ``[]`` when more than ``config.most_crops`` places would be tried.
    """
    cfg = config or DEFAULT.learned
    if value_share is None:
        value_share = cfg.find_value
    if side <= 0:
        raise ValueError(f"die side must be positive, got {side!r}")
    net = net or _default_net()
    seen = memo.get(side) if memo is not None else None
    if seen is None:
        # With ``refine`` (a calibrated tray short of its count) fainter places are tried too: a die of the
        # felt's colour shows only its pips (mock tray 195).
        seen = _search_places(image, side, mask, cfg, min(cfg.search_density, cfg.search_density_short)
                              if refine is not None else cfg.search_density)
        if memo is not None:
            memo[side] = seen
    pts, table, probs, looks = seen["pts"], seen["table"], seen["probs"], seen["looks"]
    taken = np.asarray(list(taken), float).reshape(-1, 2)
    idx = np.flatnonzero(_away_from(pts, taken, side))
    if len(idx) == 0 or len(idx) > cfg.most_crops:
        return []
    new = [i for i in idx if i not in probs]
    for j in range(0, len(new), 256):
        batch = new[j:j + 256]
        probs.update(zip(batch, net.classify(image, pts[batch], side)))
    more = _refine(image, seen, idx, side, net, mask, cfg) if refine is not None else np.zeros(0, int)
    if len(more):
        pts = seen["pts"]
        idx = np.concatenate([idx, more[_away_from(pts[more], taken, side)]])
    die = np.array([1.0 - probs[i][0] for i in idx])
    found: list[tuple[float, float, int, float, float]] = []
    for o in np.argsort(-die):
        if die[o] < cfg.find_die:
            break
        i = idx[o]
        x, y = pts[i]
        if any(np.hypot(x - f[0], y - f[1]) < cfg.found_apart * (side if one_side else min(side, f[4]))
               for f in found):
            continue
        if i not in looks:
            looks[i] = _closer_look(net, image, x, y, side, cfg)
        v, share, at = looks[i]
        looked_round = i >= seen["grid"]  # a place only looked round, not the grid's
        if v == 0 and looked_round:
            # A one only where the search looked round: a crop centred on a pip of a two shows a one (the two's
            # other pip lies 0.85 side away, beyond the crop), and of the places round a two those on a pip are
            # surest (held-out mock trays 1102, 1199: a two found as a one, or as two ones).
            continue
        if share >= value_share and _lies_on_the_table(table, x, y, at, taken, cfg) and \
                (not looked_round or refine(float(x), float(y), v + 1, at)):
            # (A place only looked round is more chances of a die than the grid gives: trays-00075's five,
            # missed on the grid, read there as a four at 0.8 side; such a die must be confirmed.)
            found.append((float(x), float(y), v + 1, float(share * die[o]), at))
    return found


def _away_from(pts: np.ndarray, taken: np.ndarray, side: float) -> np.ndarray:
    """Which of ``pts`` (``N×2`` pixels ``(x, y)``) lie more than 0.75 ``side`` (pixels) from every one of
    ``taken`` (``M×2``, pixels; may be empty): a bool array of ``N``. Nearer, the crop would hold the die taken."""
    if not len(taken):
        return np.ones(len(pts), bool)
    near = np.hypot(pts[:, None, 0] - taken[None, :, 0], pts[:, None, 1] - taken[None, :, 1]).min(axis=1)
    return near > 0.75 * side


def _refine(image: np.ndarray, seen: dict, idx: np.ndarray, side: float, net: "FaceNet", mask, cfg: LearnedConfig
            ) -> np.ndarray:
    """The places looked at again round those of ``idx`` (indices into ``seen["pts"]``, a search of
    :func:`_search_places` for dice of ``side`` px in ``image``, ``H×W×3 uint8 BGR``) that the network gives a
    die probability of at least ``cfg.refine_from`` but under ``cfg.find_die``: the eight places half a grid
    step (an eighth of ``side``) round each, within the picture and ``mask`` (``H×W uint8``, nonzero where
    dice may lie; None: anywhere), added to ``seen`` (their looks in ``seen["probs"]``) and returned as
    indices. The network's die probability falls from 1.0 at a face's middle to about 0.5 a tenth of a side
    away, so a die whose middle falls between the grid's places may reach ``cfg.find_die`` at none (mock tray
    137: a three touching two dice, found at a side of 80 px, not at 84). Each place is looked round once a
    search (``seen["refined"]``), and places added are not looked round again. A one is not found at a place
    added (:func:`find_dice`): round a two, those on its pips look like ones."""
    probs, done = seen["probs"], seen.setdefault("refined", set())
    todo = [i for i in idx if i not in done and cfg.refine_from <= 1.0 - probs[i][0] < cfg.find_die]
    done.update(todo)
    if not todo:
        return np.zeros(0, int)
    h, w = image.shape[:2]
    half = max(1.0, side / 4.0) / 2
    offsets = np.array([(dx, dy) for dx in (-half, 0.0, half) for dy in (-half, 0.0, half) if dx or dy])
    around = (seen["pts"][todo][:, None, :] + offsets[None]).reshape(-1, 2)
    inside = (around[:, 0] >= 0) & (around[:, 0] < w) & (around[:, 1] >= 0) & (around[:, 1] < h)
    around = around[inside]
    if mask is not None:
        around = around[mask[around[:, 1].astype(int), around[:, 0].astype(int)] > 0]
    if not len(around):
        return np.zeros(0, int)
    first = len(seen["pts"])
    seen["pts"] = np.concatenate([seen["pts"], around])
    added = np.arange(first, first + len(around))
    done.update(added.tolist())
    for j in range(0, len(added), 256):
        batch = added[j:j + 256]
        probs.update(zip(batch.tolist(), net.classify(image, seen["pts"][batch], side)))
    return added


def _search_places(image: np.ndarray, side: float, mask: np.ndarray | None, cfg: LearnedConfig,
                   density_from: float) -> dict:
    """What a search of ``image`` (``H×W×3 uint8 BGR``) for dice of ``side`` px works out whatever
    is taken: ``pts``, the places (pixels ``(x, y)``, ``N×2``) on a grid of a quarter side where at least
    ``density_from`` (0-1) of the square 0.6 side round them stands out from the smoothed background within ``mask``;
    ``table``, ``H×W uint8`` nonzero on plain table (:func:`_plain_table`); two empty dicts,
    ``probs`` and ``looks``, for the network's look at each place and its closer look; and ``grid``, how many
    of ``pts`` are the grid's (:func:`_refine` adds places after them)."""
    h, w = image.shape[:2]
    step = max(1.0, side / 4.0)
    # Where the picture differs from its smoothed background (dice, and whatever else lies there).
    small_scale = min(1.0, 12.0 / side)
    small = cv2.resize(image, (max(8, round(w * small_scale)), max(8, round(h * small_scale))),
                       interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    k = max(3, (round(6 * side * small_scale)) | 1)
    bg = cv2.blur(cv2.medianBlur(small, min(k, 255)), (3, 3))
    diff = np.linalg.norm(lab - cv2.cvtColor(bg, cv2.COLOR_BGR2LAB).astype(np.float32), axis=2)
    fg = cv2.resize((diff > 20).astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
    mask_small = None
    if mask is not None:
        fg &= (mask > 0).astype(np.uint8)
        mask_small = cv2.resize(mask, small.shape[1::-1], interpolation=cv2.INTER_NEAREST)
    table = cv2.resize(_plain_table(lab, mask_small, cfg), (w, h), interpolation=cv2.INTER_NEAREST)
    density = cv2.blur(fg.astype(np.float32), (max(1, round(side * 0.6)),) * 2)
    ys, xs = np.mgrid[step / 2:h:step, step / 2:w:step]
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    pts = pts[density[pts[:, 1].astype(int), pts[:, 0].astype(int)] >= density_from]
    return {"pts": pts, "table": table, "probs": {}, "looks": {}, "grid": len(pts)}


def _closer_look(net: "FaceNet", image: np.ndarray, x: float, y: float, side: float, cfg: LearnedConfig
                 ) -> tuple[int, float, float]:
    """The value at ``(x, y)`` (pixels) from a closer look, turned and mirrored, at the side of
    ``config.find_sides`` times ``side`` (pixels) where the network is surest of a die (the dice of a
    mixed set differ in size; the first of equals). Returns ``(value - 1, that value's share of the
    die probability, the side looked at in pixels)``."""
    best = (-1.0, 0, 0.0, side)
    for k in cfg.find_sides:
        p = net.classify(image, [(x, y)], side * k, turns=True)[0]
        v = int(p[1:].argmax())
        if 1.0 - p[0] > best[0]:
            best = (float(1.0 - p[0]), v, float(p[1 + v] / p[1:].sum()), side * k)
    return best[1:]



def _lies_on_the_table(table, x, y, side, taken, cfg: LearnedConfig) -> bool:
    """True when the ring 0.8 side round ``(x, y)`` is at least ``config.on_table``
    plain table (nonzero in ``table``, ``H×W uint8``) or dice already read
    (``taken`` centres, within 0.6 side). A die-like thing in the middle of
    something larger (a key on a laptop, a mark on a box) fails it."""
    h, w = table.shape
    ang = np.linspace(0.0, 2 * np.pi, 24, endpoint=False)
    px, py = x + 0.8 * side * np.cos(ang), y + 0.8 * side * np.sin(ang)
    inside = (px >= 0) & (px < w) & (py >= 0) & (py < h)
    if not inside.any():
        return False
    px, py = px[inside], py[inside]
    free = table[py.astype(int), px.astype(int)] > 0
    known = np.asarray(taken, float).reshape(-1, 2)
    if len(known):
        d = np.hypot(px[:, None] - known[None, :, 0], py[:, None] - known[None, :, 1]).min(axis=1)
        free |= d < 0.6 * side
    return float(free.mean()) >= cfg.on_table



def _plain_table(lab: np.ndarray, mask_small, cfg: LearnedConfig) -> np.ndarray:
    """``H×W uint8``, nonzero where the picture (``lab``, ``H×W×3`` float32 CIELAB, OpenCV's 0-255
    scale) is the table's own colour (``config.table_near`` of the median colour of the picture, or of
    the area where ``mask_small`` is nonzero) or that colour in shade (``config.table_shade_l``)."""
    pix = lab.reshape(-1, 3) if mask_small is None else lab[mask_small > 0]
    if len(pix) == 0:
        pix = lab.reshape(-1, 3)
    table = np.median(pix, axis=0)
    plain = np.linalg.norm(lab - table, axis=2) < cfg.table_near
    darker = table[0] - lab[..., 0]
    chroma = np.hypot(lab[..., 1] - table[1], lab[..., 2] - table[2])
    plain |= (darker >= 0) & (darker <= cfg.table_shade_l) & (chroma < cfg.table_shade_chroma)
    return plain.astype(np.uint8)


class NullNet:
    """No face classifier: a reader given it (:data:`NO_NET`) reads with the
    classical passes only. It has no ``classify``; the reader never calls it."""

    def __repr__(self) -> str:
        return "NO_NET"


#: The null classifier: ``Reader(net=NO_NET)`` reads classically.
NO_NET = NullNet()

_NET: "FaceNet | None" = None


def _default_net() -> "FaceNet":
    """The shipped network, loaded on first use (or the weights the
    environment variable ``DICE_FACE_NET`` names, for measuring a model
    trained on part of the photos)."""
    global _NET
    if _NET is None:
        import os

        _NET = FaceNet.load(os.environ.get("DICE_FACE_NET") or WEIGHTS)
    return _NET
