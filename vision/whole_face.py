"""The whole face of a die read from part of its pips, in a calibrated tray.

A glossy die's sheen, a touching die or the felt's colour can hide some of a face's pips from the
face stage and the pip-first stage: two neighbouring pips of a four are then read as a two (renders
trays-00388, -00413, -00416), doubted by :func:`vision.verdict.part_of_face` (its pips span less
than a whole face's) and asked about. :func:`whole_face` looks for the face they are part of round
them with the classical pip test that confirms the classifier's finds
(:func:`vision.pip_test.pips_confirm`: counted, laid out as the face's, alone) and has the face
classifier read it there; where both say the same value, the face is read whole and surely (two
independent readings agree, as for the classifier's finds). :func:`one_of_two` reads a two whose pips
lie closer than a face's corners as the one whose pip is one of them, the other its side face's (renders
trays-00569, -00572, -00584: a one beside its side face's pip, read as a loose two).
:func:`cluster_faces` reads the dice not read surely as the whole faces the pips round them make
(render trays-00602: three touching red dice read as four, none surely). :func:`one_in_two` reads
a sure two whose pip the classifier reads as a one's as that one, or doubts it (renders trays-00658,
-00689). Pure NumPy and OpenCV: no camera, no I/O.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from .config import DEFAULT, ReaderConfig
from .dice import Die, is_sure
from .learned import agreement
from .pip_test import at_work_size, pip_spots, pips_confirm
from .reasons import LIFTED_BY_CONFIRMATION, Doubt
from .verdict import pip_span

__all__ = ["cluster_faces", "one_in_two", "one_of_two", "whole_face"]

#: How far from the middle of the pips read the whole face's middle is looked for, in die sides (and at
#: that middle itself: a five's middle and a corner): a four's or a six's two neighbouring pips lie 0.25
#: side from the face's middle line, a three's corner and middle pip 0.18 side from the face's middle
#: (the pip test takes a middle within 0.3 side of where it looks).
_OFF = 0.3


def whole_face(image: np.ndarray, die: Die, side: float, *, others=(), origin=(0, 0), net=None,
               config: ReaderConfig = DEFAULT) -> Die | None:
    """``die`` read as the whole face its pips are part of, or None.

    ``image``: ``H×W×3 uint8 BGR``, the tray's crop whose corner lies at ``origin`` (``(x, y)`` px of
    the input); ``die``: a :class:`vision.dice.Die` of two to four pips (``pips``, px of the input)
    read as part of a face; ``side``: the dice's side, px; ``others``: the other dice read (their pips
    are theirs, and none may lie within 0.7 side of the face found). The pip test
    (:func:`vision.pip_test.pips_confirm`) is made round the pips' middle and places 0.3 side from
    it, along and across each pair of its pips, for every value above
    the pips read; each reading must hold every pip read (within 0.12 side). All readings must give
    one value and one face (middles within 0.12 side), and the face classifier (``net``, a
    :class:`vision.facenet.FaceNet`; None: the shipped one), looking at the face's middle at
    ``side``, must give that value with at least ``config.learned.confirm_sure`` (of a die, and of
    that value's share). The face found is sure: its confidence at least ``config.sure``, its doubts
    lifted by a confirmation and ``LOOSE_FIT`` gone; its outline an upright square of ``side`` round
    its pips' middle, its ``size`` ``side``.
    """
    if not 2 <= len(die.pips) <= 4:
        return None
    ox, oy = origin
    own = np.array(die.pips, np.float64) - (ox, oy)
    mx, my = own.mean(axis=0)
    owned = [(x - ox, y - oy) for o in others for x, y in o.pips]
    # Along and across each pair of pips read (two neighbouring pips of a four: the face's middle lies
    # square to their line; a three's corner and middle: along it).
    pairs = [math.atan2(q[1] - p[1], q[0] - p[0]) for i, p in enumerate(own) for q in own[i + 1:]]
    places = [(mx, my)] + [(mx + _OFF * side * math.cos(a + k * np.pi / 2), my + _OFF * side * math.sin(a + k * np.pi / 2))
                           for a in pairs for k in range(4)]
    found = []
    for cx, cy in places:
        for value in range(len(own) + 1, 7):
            pips = pips_confirm(image, cx, cy, side, value, config=config, owned=owned, glint=True)
            if pips:  # one count at a place
                if all(min(math.dist(p, q) for q in pips) <= 0.12 * side for p in own):
                    found.append((value, pips))
                break
    if not found or len({v for v, _ in found}) > 1:
        return None
    middles = np.array([np.mean(p, axis=0) for _, p in found])
    if np.hypot(*(middles - middles[0]).T).max() > 0.12 * side:
        return None
    value, pips = found[0]
    return _sure_face(image, die, value, pips, side, origin, others, net, config)


def one_of_two(image: np.ndarray, die: Die, side: float, *, others=(), origin=(0, 0), net=None,
               config: ReaderConfig = DEFAULT) -> Die | None:
    """``die``, a two read as part of a face, read as a one at one of its pips, or None.

    ``image``: ``H×W×3 uint8 BGR``, the tray's crop whose corner lies at ``origin`` (``(x, y)`` px of
    the input); ``die``: a :class:`vision.dice.Die` of two pips (``pips``, px of the input) closer than a
    face's corners (:func:`vision.verdict.part_of_face`); ``side``: the dice's side, px; ``others``: the
    other dice read (their pips are theirs, and none may lie within 0.7 side of the one found). A near
    camera shows a one's side faces with their pips beside its top face; a side face's pip and the
    one's pip read as a two spanning 0.5-0.6 side (renders trays-00569, -00572, -00584), where a two's
    corners lie 0.55-0.85 side apart (renders 481-600). The pip test (:func:`vision.pip_test.pips_confirm`: counted,
    alone, a side face's flattened pip not counted) is made round each of the two pips for a one; it
    must say one at exactly one of them, and the face classifier (``net``; None: the shipped one),
    looking there at ``side``, must read a one with at least ``config.learned.confirm_sure``. The one
    found is sure as :func:`whole_face`'s faces are: its outline an upright square of ``side`` round its
    pip.
    """
    if len(die.pips) != 2:
        return None
    ox, oy = origin
    owned = [(x - ox, y - oy) for o in others for x, y in o.pips]
    found = [pips for pips in (pips_confirm(image, x - ox, y - oy, side, 1, config=config, owned=owned, glint=True)
                               for x, y in die.pips) if pips]
    if len(found) != 1:
        return None
    return _sure_face(image, die, 1, found[0], side, origin, others, net, config)


def one_in_two(image: np.ndarray, die: Die, side: float, *, others=(), origin=(0, 0), net=None,
               config: ReaderConfig = DEFAULT) -> Die | None:
    """``die``, a two read surely, read as a one at one of its pips or doubted; None where the two stands.

    ``image``: ``H×W×3 uint8 BGR``, the tray's crop whose corner lies at ``origin`` (``(x, y)`` px of the
    input); ``die``: a :class:`vision.dice.Die` of two pips (px of the input) read surely; ``side``: the
    dice's side, px; ``others``: the other dice read. A one's pip and its side face's pip (a near camera)
    can lie 0.55-0.6 side apart, as far as a small two's corners, and be read as a sure two (renders
    trays-00658, -00689). Where the face classifier (``net``; None: the shipped one), looking at ``side``,
    agrees with the two at its pips' middle less than ``config.learned.one_in_two`` and reads a one at
    exactly one of its pips with ``config.learned.confirm_sure`` (:func:`vision.learned.agreement`; the
    two's agreement 0.0 and 0.27 in renders 689 and 658, 0.93 for mock tray 0's real two), and the pip
    test (:func:`vision.pip_test.pips_confirm`, without and then with a glint's cut) reads a one there
    too, the die is that one, read surely as
    :func:`one_of_two`'s ones are; where the pip test does not, the two is doubted ``RIVAL_READ`` (two
    readings disagree: the players are asked). A two's pip looked at alone may show no other pip (a
    two's corners 0.7 side apart, render trays-00689's black two), so the two's middle decides first."""
    if len(die.pips) != 2:
        return None
    from .facenet import _default_net

    net = net or _default_net()
    ox, oy = origin
    at = [(x - ox, y - oy) for x, y in die.pips]
    if agreement(net.classify(image, [tuple(np.mean(at, axis=0))], side, turns=True)[0], 2) >= config.learned.one_in_two:
        return None  # the two's middle decides first: most twos are agreed there, and their pips are not looked at
    agree = [agreement(p, 1) for p in net.classify(image, at, side, turns=True)]
    ones = [i for i, a in enumerate(agree) if a >= config.learned.confirm_sure]
    if len(ones) != 1:
        return None
    (x, y), owned = at[ones[0]], [(u - ox, v - oy) for o in others for u, v in o.pips]
    for glint in (False, True):
        pips = pips_confirm(image, x, y, side, 1, config=config, owned=owned, glint=glint)
        if pips:
            face = _sure_face(image, die, 1, pips, side, origin, others, net, config, agreed=agree[ones[0]])
            if face is not None:
                return face
    return replace(die, doubts=die.doubts + (Doubt.RIVAL_READ,))


def cluster_faces(image: np.ndarray, dice: list[Die], sides, expect: int, *, net=None,
                  config: ReaderConfig = DEFAULT) -> list[Die] | None:
    """``dice`` with those not read surely read again as the whole faces their pips make, or None.

    ``image``: ``H×W×3 uint8 BGR``, the frame the dice were read in (their places px of it); ``dice``:
    the dice read (:class:`vision.dice.Die`); ``sides``: the dice's sides to try, px, in turn (the
    calibrated size, then the dice read's: outlines that take in a glossy die's sides or a touching
    die measure more than the faces); ``expect``: the dice due.
    Touching dice hide their outlines from each other, and a cluster of them is read as pieces of faces
    (render trays-00602: three touching red dice, a four and two fives, read as four dice, none surely).
    Round each die not read surely (within 0.8 side of it) the pips are found as the pip test finds them
    (:func:`vision.pip_test.pip_spots`, light pips and dark ones each in turn), and at each pip and each
    middle of two pips 0.45-0.8 side apart (a face's opposite corners) the pip test
    (:func:`vision.pip_test.pips_confirm`) reads a face, if any; the faces the classifier confirms there
    (:func:`_sure_face`) are taken best agreed first, none within 0.85 side of another or of a die read
    surely, none sharing a pip. They replace the dice not read surely when they hold every such pip (but
    those of the dice read surely), each such die lies within 0.75 side of one, and with the dice read
    surely they make ``expect``: two readings agree on every face, and every pip is a face's."""
    weak = [d for d in dice if not is_sure(d, config.sure)]
    keep = [d for d in dice if is_sure(d, config.sure)]
    if not weak or len(keep) >= expect:
        return None
    from .facenet import _default_net

    net = net or _default_net()
    for side in sides:
        whole = _cluster_at(image, weak, keep, side, expect, net, config)
        if whole is not None:
            return whole
    return None


def _cluster_at(image: np.ndarray, weak: list[Die], keep: list[Die], side: float, expect: int, net,
                config: ReaderConfig) -> list[Die] | None:
    """:func:`cluster_faces` at one die ``side`` (px): the dice read surely ``keep`` and the faces that
    replace the dice not read surely ``weak``, or None."""
    spans = [pip_span(d) for d in keep if 2 <= d.value == len(d.pips)]
    xs = [d.center[0] for d in weak]
    ys = [d.center[1] for d in weak]
    reach = 0.8 * side
    box = (min(xs) - reach - side, min(ys) - reach - side, max(xs) + reach + side, max(ys) + reach + side)
    owned = [p for d in keep for p in d.pips]
    spots_in, confirm = _pip_test_at(image, box, side, config)
    for light in (False, True):
        spots = spots_in(light, owned)
        mine = [p[:2] for p in spots if min(math.dist(p[:2], d.center) for d in weak) <= reach]
        if not mine:
            continue
        places = list(mine) + [((p[0] + q[0]) / 2, (p[1] + q[1]) / 2) for i, p in enumerate(mine) for q in mine[i + 1:]
                               if 0.45 * side <= math.dist(p, q) <= 0.8 * side]
        faces = []
        for x, y in places:
            for value in range(1, 7):
                pips = confirm(x, y, value, owned, light)
                if pips:
                    mid = tuple(np.mean(pips, axis=0))
                    if not any(v == value and math.dist(mid, m) <= 0.12 * side for v, _p, m, _a in faces):
                        probs = net.classify(image, [mid], side, turns=True)[0]
                        faces.append((value, pips, mid, agreement(probs, value)))
                    break  # one count at a place
        chosen = []
        for value, pips, mid, agree in sorted(faces, key=lambda f: (-f[3], -f[0])):
            if agree < config.learned.confirm_sure or not _spans_whole(pips, spans, side, config):
                continue
            if any(math.dist(mid, o.center) < 0.85 * side for o in keep + chosen):
                continue
            if any(math.dist(p, q) <= config.pip_test.owned * side for o in chosen for p in pips for q in o.pips):
                continue
            die = min(weak, key=lambda d: math.dist(d.center, mid))
            face = _sure_face(image, die, value, pips, side, (0, 0), keep + chosen, net, config, agreed=agree)
            if face is not None:  # a face read anew: the doubts of the reading it replaces are not its own
                chosen.append(replace(face, doubts=(), free_mark=False, slant=1.0))
        held = [q for o in chosen for q in o.pips]
        if (len(keep) + len(chosen) == expect
                and all(any(math.dist(p, q) <= config.pip_test.owned * side for q in held) for p in mine)
                and all(any(math.dist(d.center, o.center) <= 0.75 * side for o in chosen) for d in weak)):
            return keep + chosen
    return None


def _pip_test_at(image: np.ndarray, box, side: float, config: ReaderConfig):
    """The pip test round ``box`` (``(x0, y0, x1, y1)`` px of ``image``) for dice of ``side`` px, as two
    functions in px of ``image``: ``spots(light, owned)`` (:func:`vision.pip_test.pip_spots` in the box) and
    ``confirm(x, y, value, owned, light)`` (:func:`vision.pip_test.pips_confirm`, a glint's cut taken).
    Dice over ``config.work_die`` px are tested shrunk to that side, as :func:`vision.pip_test.more_pips`
    tests them: the test's morphology grows with the side's cube (mock dice of 70-160 px: the cluster's
    test cost a read 200 ms, medianly, unshrunk)."""
    f, x0, y0 = 1.0, 0, 0
    if side > config.work_die:
        m = 1.4 * side  # the pip test looks 1.3 side round a place
        x0, y0 = max(0, int(box[0] - m)), max(0, int(box[1] - m))
        image, f = at_work_size(image, (x0, y0, int(box[2] + m) + 1, int(box[3] + m) + 1), side, config)

    def inward(p):
        return ((p[0] - x0) * f, (p[1] - y0) * f)

    def outward(p):
        return (p[0] / f + x0, p[1] / f + y0)

    def spots(light, owned):
        a, b = inward(box[:2]), inward(box[2:])
        return [(*outward(p[:2]), p[2] / f ** 2)
                for p in pip_spots(image, (*a, *b), side * f, light, config, glint=True, owned=[inward(q) for q in owned])]

    def confirm(x, y, value, owned, light):
        pips = pips_confirm(image, *inward((x, y)), side * f, value, config=config, owned=[inward(q) for q in owned],
                            light=light, glint=True)
        return tuple(outward(p) for p in pips) if pips else None

    return spots, confirm


def _spans_whole(pips, spans, side: float, config: ReaderConfig) -> bool:
    """Whether a face of ``pips`` (``(x, y)`` px; one pip: always) spans what a whole face does: its
    farthest two pips as far apart as ``config.faces.part_span`` to ``config.faces.whole_span`` of the
    median of ``spans`` (:func:`vision.verdict.pip_span` of the dice read surely as whole faces, px), with
    fewer than two of those at least ``config.faces.corners_apart`` of ``side`` (as
    :func:`vision.verdict.part_of_face` and :func:`vision.verdict.beyond_face` judge a die read). Mock
    tray 18: a four's two opposite pips, its other two lost in its shadow's edge, spanned 0.47 side, a two
    to the pip test and the classifier."""
    if len(pips) < 2:
        return True
    span = max(math.dist(p, q) for i, p in enumerate(pips) for q in pips[i + 1:])
    if len(spans) >= 2:
        med = float(np.median(spans))
        return config.faces.part_span * med <= span <= config.faces.whole_span * med
    return span >= config.faces.corners_apart * side


def _sure_face(image, die: Die, value: int, pips, side: float, origin, others, net, config: ReaderConfig,
               agreed: float | None = None) -> Die | None:
    """``die`` read surely as ``value`` with ``pips`` (px of the crop ``image`` whose corner lies at
    ``origin``), or None where another of ``others`` lies within 0.7 side of the pips' middle or the face
    classifier (``net``; None: the shipped one), looking there at ``side``, agrees with ``value`` less than
    ``config.learned.confirm_sure``: the face found by :func:`whole_face`, :func:`one_of_two` and
    :func:`cluster_faces`, its confidence at least ``config.sure``, its doubts lifted by a confirmation and
    ``LEARNED`` gone, its outline an upright square of ``side`` round its pips' middle. ``agreed``: the
    classifier's agreement there (:func:`vision.learned.agreement`) where it has looked already."""
    ox, oy = origin
    fx, fy = (float(v) for v in np.mean(pips, axis=0))
    cx, cy = fx + ox, fy + oy
    if any(math.dist(o.center, (cx, cy)) < 0.7 * side for o in others):
        return None
    if agreed is None:
        from .facenet import _default_net

        net = net or _default_net()
        agreed = agreement(net.classify(image, [(fx, fy)], side, turns=True)[0], value)
    if agreed < config.learned.confirm_sure:
        return None
    half = side / 2
    lifted = LIFTED_BY_CONFIRMATION | {Doubt.LEARNED}
    return replace(die, value=value, center=(cx, cy), size=side, inner=0.0, pips=tuple((x + ox, y + oy) for x, y in pips),
                   corners=((cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)),
                   confidence=max(die.confidence, config.sure), doubts=tuple(x for x in die.doubts if x not in lifted))
