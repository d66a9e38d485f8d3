"""Stage 5, the learned second look: the face classifier
(:mod:`vision.facenet`) confirms weak dice, rereads or drops them, vetoes a
sure die whose value it all but rules out, and looks for dice the classical
passes missed. A die it alone reads otherwise is never sure; a die it alone
finds is sure only in a calibrated tray, where the classical pips at its
place, counted and laid out, say the same value (:func:`vision.pip_test.pips_confirm`).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from .config import DEFAULT, ReaderConfig
from .dice import Die
from .reasons import LIFTED_BY_CONFIRMATION, Doubt


def agreement(probs, value: int) -> float:
    """How sure the face classifier's look ``probs`` (7 probabilities: no die, then values 1-6) is of a
    die showing ``value``: the least of its probability of a die and ``value``'s share among the six
    values, 0-1. The classical reading is confirmed where this reaches ``config.learned.confirm_sure``."""
    return min(1.0 - float(probs[0]), float(probs[value] / max(float(probs[1:].sum()), 1e-9)))


def _rejudge(image: np.ndarray, dice: list[Die], side: float, config: ReaderConfig, ox: int, oy: int, *,
             sides: tuple[float, ...] | None = None, net=None, hold=None) -> tuple[list[Die], int, int]:
    """Dice under ``config.sure_confidence`` read again by the learned classifier.

    Where the classifier is sure (``config.learned.rejudge_sure``) of a die and of
    another value, at the surest of its looks at ``sides`` (multiples of
    ``side``, 1.0 among them; ``config.learned.rejudge_sides`` unless the read was
    calibrated), that value replaces the classical one, with confidence at
    most ``config.learned.most`` (the read stays unsure); given ``hold``, the classical
    pip test (:func:`vision.pip_test.pips_confirm`, passed in a calibrated read: a tray seen
    from above, the dice's size known), not where it reads the die's own value, all its pips read, and not the
    classifier's (:func:`_pips_hold`; on the many-colours photos, dice of 20-35
    px read without a tray, that guard lost 3 right reads for 1). Measured on the
    many-colours photos with a model that never saw them, such dice were right
    14 times in 122 (classical confidence under 0.5) and 67 in 116 (0.5-0.8);
    where the classifier was sure, it was right 26 of 27 and 49 of 51 times
    (session 8, at 0.9). A die read under 0.5, or with the doubt
    ``Die.free_mark``, needs only ``config.learned.rejudge_faint``. Where it is
    ``config.learned.no_die_sure`` sure there is no die, the reading is left out (and
    counted, so the read is not sure).

    Where it gives the same value, and its look at the die's own size
    (``config.learned.confirm_own_size``) is ``config.learned.confirm_sure`` sure of a die and of
    that value (``config.learned.confirm_slanted`` for a face seen flatter than
    ``config.faces.front_slant``, which may be a die's front face), the die is
    confirmed: its confidence is raised to ``config.sure_confidence``; not a
    face seen flatter than ``config.faces.side_slant``, which may be a side face to
    both readers, nor one within 0.6 side of the picture's edge, which may be
    part of a larger face cut by the edge (neither reader sees beyond it),
    nor a die with ``doubts`` the classifier cannot lift: pips told by colour
    alone (by this reader's rule never sure, whoever agrees), a possible
    front face (the classifier sees pips, not which face is on top), a lone
    pip off its face's middle (a crop round a two's corner pip can look like
    a one), a rival reading of its place that saw other pips (the
    classical passes disagree among themselves), or a pip-like mark in a
    place its value leaves free (part of a larger face may be hidden).
    The classifier alone never makes a die sure; it can only agree with the
    classical passes.
    Measured with models that never saw the photo (two-fold on
    webcam-clutter; table-phone never used in training), 10 reads unsure only
    for such dice became sure at 0.99, all 10 right; 0.95 for faces seen
    square-on made 2 more sure (table-phone), both right.

    ``side``: the die side the classifier looks at, pixels. ``image`` is the
    (area-cropped) picture whose top-left corner lies at ``(ox, oy)`` in the
    input. Returns the dice, how many changed value and how many were left
    out."""
    if sides is None:
        sides = config.learned.rejudge_sides
    from vision.facenet import _default_net

    weak = [i for i, d in enumerate(dice) if d.confidence < config.sure_confidence]
    h, w = image.shape[:2]
    net = net or _default_net()
    at = [(dice[i].center[0] - ox, dice[i].center[1] - oy) for i in weak]
    looks = np.stack([net.classify(image, at, side * k, turns=True) for k in sides])  # sides×N×7
    probs = looks[sides.index(1.0)]
    # Each look's sureness: of a die, and of its likeliest value among the six (that value's share).
    values = looks[..., 1:]
    shares = values.max(axis=2) / np.maximum(values.sum(axis=2), 1e-9)
    sureness = np.minimum(1.0 - looks[..., 0], shares)
    best = sureness.argmax(axis=0)
    n = np.arange(len(weak))
    out, changed = list(dice), 0
    gone = set()
    for i, p, q, sure, share in zip(weak, probs, looks[best, n], sureness[best, n], shares[best, n]):
        d = dice[i]
        value = int(q[1:].argmax()) + 1
        faint = d.confidence < 0.5 or d.free_mark
        if p[0] >= config.learned.no_die_sure:
            gone.add(i)
        elif (sure >= (config.learned.rejudge_faint if faint else config.learned.rejudge_sure) and value != d.value
              and not (hold and _pips_hold(image, d, value, ox, oy, config, hold))):
            # The classical pips belong to the old value: dropped.
            out[i] = replace(d, value=value, pips=(), doubts=d.doubts + (Doubt.LEARNED,), confidence=round(
                min(config.learned.most, d.confidence, float(share) * (1.0 - float(q[0]))), 3))
            changed += 1
        elif (int(p[1:].argmax()) + 1 == d.value and d.slant >= config.faces.side_slant
              and not set(d.doubts) - LIFTED_BY_CONFIRMATION and not d.free_mark
              and _clear_of_edge(d.center[0] - ox, d.center[1] - oy, d.size, w, h)):
            own = p
            if config.learned.confirm_own_size[0] * side <= d.size <= config.learned.confirm_own_size[1] * side:
                own = net.classify(image, [(d.center[0] - ox, d.center[1] - oy)], d.size, turns=True)[0]
            agree = agreement(own, d.value)
            if agree >= (config.learned.confirm_sure if d.slant >= config.faces.front_slant else config.learned.confirm_slanted):
                out[i] = replace(d, confidence=max(d.confidence, config.sure_confidence),
                                 doubts=tuple(x for x in d.doubts if x not in LIFTED_BY_CONFIRMATION))
    return [d for i, d in enumerate(out) if i not in gone], changed, len(gone)




def _pips_hold(image: np.ndarray, d: Die, value: int, ox: int, oy: int, config: ReaderConfig, pips_confirm) -> bool:
    """Whether the classical pip test (:func:`vision.pip_test.pips_confirm`) at ``d``'s place reads
    ``d``'s own value, every pip of it read, and not the classifier's ``value``: then the classical
    read stands (render trays-00063: a glossy red four, its four pips found round its sheen, that the
    classifier took for a six). Not for a die with doubts of its own or a pip-like mark where its value
    has none (``Die.free_mark``): mock trays 90, 249, 1160, 1218 (a loose fit and such a mark: a six's
    or a four's pips read in part) and 1039 (pips only) were right by the classifier. ``image``,
    ``ox``, ``oy``: as for :func:`_rejudge`; ``pips_confirm`` the pip test (passed in: it imports
    the stages that import this module)."""
    if not 2 <= d.value <= 6 or len(d.pips) != d.value or d.doubts or d.free_mark:
        return False
    x, y = d.center[0] - ox, d.center[1] - oy
    return (pips_confirm(image, x, y, d.size, d.value, config) is not None
            and pips_confirm(image, x, y, d.size, value, config) is None)


def _vetoed(image: np.ndarray, dice: list[Die], side: float, config: ReaderConfig, ox: int, oy: int, *,
            net=None) -> tuple[list[Die], int]:
    """Dice read surely that the learned classifier all but rules out, made weak.

    Each die of at least ``config.sure_confidence`` is looked at once; where
    that look gives its value under 0.3 of the die's probability, the turned
    looks decide: under ``config.learned.veto_share``, its confidence falls to at most
    ``config.learned.vetoed_most`` (so :func:`_rejudge` may read it again, and the read
    is not sure). The classifier can only doubt a sure die here, never make
    one. ``side``, ``image``, ``ox``, ``oy``: as for :func:`_rejudge`.
    Returns the dice and how many were doubted."""
    from vision.facenet import _default_net

    sure = [i for i, d in enumerate(dice) if d.confidence >= config.sure_confidence]
    if not sure:
        return dice, 0
    net = net or _default_net()
    at = [(dice[i].center[0] - ox, dice[i].center[1] - oy) for i in sure]

    def own_share(probs, idx):
        return [float(p[dice[i].value] / max(1e-9, p[1:].sum())) for p, i in zip(probs, idx)]

    first = own_share(net.classify(image, at, side), sure)
    again = [(i, xy) for i, xy, share in zip(sure, at, first) if share < 0.3]
    if not again:
        return dice, 0
    idx = [i for i, _ in again]
    closer = own_share(net.classify(image, [xy for _, xy in again], side, turns=True), idx)
    out, doubted = list(dice), 0
    for i, share in zip(idx, closer):
        if share < config.learned.veto_share:
            out[i] = replace(dice[i], confidence=min(dice[i].confidence, config.learned.vetoed_most),
                             doubts=dice[i].doubts + (Doubt.VETOED,))
            doubted += 1
    return out, doubted


def _clear_of_edge(x: float, y: float, side: float, w: int, h: int) -> bool:
    """True when all within 0.6 ``side`` of ``(x, y)`` (pixels) lies in a
    ``w×h`` px picture: a face there, whatever its turn (its corners reach
    0.71 side), is not one cut by the picture's edge and seen in part."""
    r = 0.6 * side
    return r <= x <= w - r and r <= y <= h - r


def _learned_dice(image: np.ndarray, dice: list[Die], side: float, poly, ox: int, oy: int,
                  value_share: float, memo: dict | None = None, *, config: ReaderConfig = DEFAULT,
                  net=None, confirm=None, refine: bool = False) -> list[Die]:
    """Dice the learned classifier (:func:`vision.facenet.find_dice`) finds
    away from ``dice``, dice of ``side`` px whose likeliest value has at
    least ``value_share`` of the die probability (see
    :func:`vision.facenet.find_dice`, as is ``memo``). ``image`` is the
    (area-cropped) ``H×W×3 uint8 BGR`` picture whose top-left corner lies at
    ``(ox, oy)`` in the input; ``poly`` the area's polygon in input pixels, or
    None. Returned dice are squares as wide as the side each was read at, with
    confidence at most ``config.learned.most``. Without an area the picture's
    edge cuts dice, and a die found closer to it than 0.6 of the side it was
    read at (:func:`_clear_of_edge`) is no die wholly in the picture, so no part of the throw read (as with
    the classical passes). ``confirm`` (in a calibrated tray, where ``side`` is the measured die's):
    ``confirm(x, y, side, value, owned=pips)`` gives the pips ``((x, y), ...)`` the classical pip test
    reads there as ``value``, or None (:func:`vision.pip_test.pips_confirm`), every point px of the input
    (counted in the picture as it was, not ``image``: a die against a wall may reach over it beyond the
    area, a pip there painted over or cut off, render trays-00866); a die the classifier
    gives ``config.learned.confirm_found`` or more that it confirms keeps the classifier's
    confidence and no doubt: two independent readings agree (a die whose body is the felt's colour, or whose side faces spoil
    its outline, shows no face to the classical passes but its pips). ``refine``: with ``confirm``, the
    search also looks round its places (:func:`vision.facenet.find_dice`), a die found only there taken where
    ``confirm`` confirms it (the reader looks round only where a count is due and the read is short of it)."""
    from vision.facenet import find_dice

    h, w = image.shape[:2]
    mask = None
    if poly is not None:
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.round(poly - (ox, oy)).astype(np.int32)], 255)
    taken = [(d.center[0] - ox, d.center[1] - oy) for d in dice]
    owned = [p for d in dice for p in d.pips]  # the dice read's pips (px of the input), not a found die's
    checked: dict = {}  # (x, y, side, value) -> the pips ``confirm`` read there with only ``owned`` owned

    def confirmed_round(x, y, v, at):
        """find_dice's check of a die found only round its places: its pips confirm it (kept in
        ``checked``, the first pass of the confirmation below asks the same)."""
        checked[(x, y, at, v)] = pips = confirm(x + ox, y + oy, at, v, owned=owned)
        return pips is not None

    finds = [f for f in find_dice(image, side, taken=taken, mask=mask, value_share=value_share, net=net,
                                  config=config.learned, memo=memo,
                                  refine=confirmed_round if refine and confirm else None,
                                  # In a calibrated tray every die is ``side`` across (held-out mock 1248: a two's
                                  # pips found as two ones, each confirming the other's pip owned).
                                  one_side=confirm is not None)
             if poly is not None or _clear_of_edge(f[0], f[1], f[4], w, h)]
    confirmed: dict = {}  # a find's index -> its pips, px of the input
    # A die confirmed lends its pips to the dice read (``owned``): a one found beside a three found in the
    # same search has the three's corner pip within reach, and is tried again once the three is confirmed.
    while confirm:
        more = {i: pips for i, (x, y, v, p, at) in enumerate(finds) if i not in confirmed and
                p >= config.learned.confirm_found and
                (pips := checked[(x, y, at, v)] if not confirmed and (x, y, at, v) in checked else
                 confirm(x + ox, y + oy, at, v, owned=owned + [q for c in confirmed.values() for q in c]))}
        if not more:
            break
        confirmed.update(more)
    out = []
    for i, (x, y, v, p, at) in enumerate(finds):
        cx, cy, r = x + ox, y + oy, at / 2
        corners = ((cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r))
        if i in confirmed:
            out.append(Die(value=v, center=(cx, cy), size=at, corners=corners, confidence=round(p, 3),
                           pips=confirmed[i]))
        else:
            out.append(Die(value=v, center=(cx, cy), size=at, corners=corners,
                           confidence=round(min(config.learned.most, p), 3), doubts=(Doubt.LEARNED,)))
    return out

