"""Read the pips of real dice in a photo with classical OpenCV.

The reader works in three steps:

1. **Die faces.** The table is modelled as a smooth background (a large median
   of the picture); dice stand out from it in colour or brightness. The
   foreground is split into top faces: within each foreground blob the face is
   the majority class of an Otsu split of its brightness, and touching faces
   are separated along the distance transform of that face mask.
2. **Pips.** Pips are the holes in a face: blobs of the minority class fully
   enclosed by the face, round and of one size. This works for light dice with
   dark pips and for dark or coloured dice with light pips alike.
3. **Checks.** A face with 1-6 pips whose size and layout match a die face is a
   die; the fit gives its confidence. Pip-like marks outside a face (a speck on
   the table) are not counted as pips of that face.
4. **Pips first.** Where no face stood out (a wooden die on wood, a die in a
   shadow, a one seen at a slant), dice are found from groups of pips that
   make a face's pattern on a plain face that ends (:mod:`vision.pipfirst`).
   After a calibration this runs only while the read is in doubt.

Example::

    >>> import numpy as np
    >>> from vision.reader import read_dice
    >>> read_dice(np.zeros((480, 640, 3), np.uint8))
    []
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import partial

import cv2
import numpy as np

from .candidates import _foreign, _shrink, along_walls
from .choose import _read_work
from .config import DEFAULT, ReaderConfig
from .dice import (  # noqa: F401
    Die,
    Read,
    UnreadableImage,
    _all_one_size,
    _check_image,
    _read_size,
    is_sure,
    load_image,
)
from .diceset import D6, PIP_LAYOUT, DiceSet  # noqa: F401
from .facenet import NO_NET, NullNet
from .felt_dice import felt_dice
from .learned import (
    _learned_dice,
    _rejudge,
    _vetoed,
)
from .pip_test import more_pips, pips_confirm
from .reasons import LIFTED_BY_CONFIRMATION, Doubt, Reason
from .verdict import _shows_pips, beyond_face, part_of_face, pip_beside, pip_span
from .whole_face import cluster_faces, one_in_two, one_of_two, whole_face

__all__ = [
    "Reader",
    "NO_NET",
    "Die",
    "ReaderConfig",
    "UnreadableImage",
    "read_dice",
    "read_throw",
    "Read",
    "PIP_LAYOUT",
    "annotate",
    "load_image",
]




class Reader:
    """A dice reader: the tuned numbers, the dice set and the face classifier, chosen once.

    ``config``: a :class:`vision.config.ReaderConfig` (the defaults when
    omitted). ``net``: the learned face classifier, a
    :class:`vision.facenet.FaceNet`; None loads the shipped one on first use,
    :data:`vision.facenet.NO_NET` reads with the classical passes only.
    ``dice``: the dice set (:class:`vision.diceset.DiceSet`, data: the values
    each die carries, their layouts, their pips' colours); standard d6 for
    Durchmarsch, :data:`vision.diceset.MIWIN` for Fenn. One pipeline reads
    both: a die finder for the scene (loose dice in a tray: :meth:`read`; dice
    on a board of fields: :meth:`read_board`) hands faces to the one face
    stage (:mod:`vision.face`), which reads them as the set says.

    Example::

        >>> import numpy as np
        >>> from vision.facenet import NO_NET
        >>> r = Reader(net=NO_NET).read(np.zeros((480, 640, 3), np.uint8), expect=2)
        >>> r.dice, r.sure, [str(x) for x in r.reasons]
        ((), False, ['wrong_count'])
    """

    def __init__(self, config: ReaderConfig = DEFAULT, net=None, *, dice: DiceSet = D6):
        if not isinstance(config, ReaderConfig):
            raise TypeError(f"config must be a ReaderConfig, not {type(config).__name__}")
        if not isinstance(dice, DiceSet):
            raise TypeError(f"dice must be a DiceSet, not {type(dice).__name__}")
        self.config = config
        self.net = net
        self.dice = dice

    def read(self, image: np.ndarray, *, expect: int | None = None, area=None,
             die_size: float | None = None) -> "Read":
        """Read a throw: :func:`read_throw` with this reader's config and net.

        ``image``: ``H×W×3 uint8 BGR``; ``expect``, ``area``, ``die_size`` as
        for :func:`read_throw`. Raises :class:`UnreadableImage`.
        """
        return read_throw(image, expect=expect, area=area, die_size=die_size, config=self.config, net=self.net,
                          dice=self.dice)

    __call__ = read

    def read_board(self, image: np.ndarray, board):
        """Read the dice on a board of fields (Fenn): :func:`vision.fenn.read_fenn`
        with this reader's dice set and config.

        ``image``: ``H×W×3 uint8 BGR``; ``board``: a
        :class:`vision.fenn.BoardArea`. Returns a :class:`vision.fenn.FennRead`.
        Raises ``ValueError`` for an image that is not a colour image.

        >>> from hardware.fenn_scene import FennScene
        >>> from vision.diceset import MIWIN
        >>> from vision.fenn import find_board
        >>> scene = FennScene(seed=4)
        >>> board = find_board(scene.frame(blue=(1, 5), red=(9, 5), black=6, seed=1, stray=False)[0])
        >>> frame, _ = scene.frame(blue=(2, 9), red=(6, 8), black=3, seed=3, stray=False)
        >>> r = Reader(dice=MIWIN).read_board(frame, board)
        >>> [(d.colour, d.value, d.field) for d in r.dice], r.sure
        ([('blue', 9, 2), ('red', 8, 6), ('black', 3, None)], True)
        """
        from .fenn import read_fenn

        return read_fenn(image, board, dice=self.dice, config=self.config)

    def __repr__(self) -> str:
        net = "classical" if isinstance(self.net, NullNet) else ("shipped net" if self.net is None else "given net")
        return f"<Reader {self.dice.name} {net}>"


def read_dice(image: np.ndarray, config: ReaderConfig = DEFAULT) -> list[Die]:
    """Read every die's top face in ``image``.

    ``image``: ``H×W×3 uint8 BGR`` (grey ``H×W`` and BGRA are accepted too).
    Returns the dice found, left to right; positions and sizes are pixels of
    the input image. Raises :class:`UnreadableImage` for anything that is not
    an image. :func:`read_throw` gives the same dice plus whether the reader
    is sure of them.
    """
    return list(read_throw(image, config=config).dice)


def read_throw(
    image: np.ndarray,
    *,
    expect: int | None = None,
    area=None,
    die_size: float | None = None,
    config: ReaderConfig = DEFAULT,
    learned: bool = True,
    net=None,
    dice: DiceSet = D6,
) -> Read:
    """Read a throw and say whether the reader is sure of it.

    ``image``: ``H×W×3 uint8 BGR``. ``expect``: the number of dice known to be
    in the throw (the rules know it: 8, 7, 6 or 5), or None; a read of
    another number is not sure, and after a calibration it also has the
    reader look for dice by their pips (:mod:`vision.pipfirst`), last for
    dice of the felt's colour whose outline no stage saw (:mod:`vision.felt_dice`); after a
    calibration, a die read from part of its face's pips is read whole where the pip test and the
    classifier find that face round it, and a loose two that is a one beside its side face's pip is
    read as that one (:mod:`vision.whole_face`). ``area``: a
    :class:`vision.calibrate.TrayArea` (or any object with ``polygon``, a
    list of ``(x, y)`` pixels): only dice whose centre lies inside it are
    read, dice set aside outside it are ignored. ``die_size``: the die side in
    pixels from calibration; it fixes the working scale (the die is shrunk to
    ``config.work_die`` pixels, which keeps a 1640×1232 frame fast) and the
    size a face must have. ``learned``: where the classical passes leave
    something die-sized unread, or read fewer dice than ``expect``, let the
    learned face classifier (:mod:`vision.facenet`) look for the missing dice
    (at the size of the dice read, or, where none was, of what is unread;
    first for values it is sure of, then for values only likelier:
    ``config.learned.find_value_next``); a die it alone finds, or reads
    as another value, scores at most ``config.learned.most``, so such a read is
    never sure; a weak die it reads the same, with ``config.learned.confirm_sure``, is
    confirmed (see :func:`_rejudge`).
    False reads with the classical passes only. ``net``: the face classifier
    (a :class:`vision.facenet.FaceNet`; None: the shipped one, loaded on first
    use; :data:`vision.facenet.NO_NET`: none, the classical passes only).
    ``config``: the tuned numbers (:class:`vision.config.ReaderConfig`).
    ``dice``: the dice set the face stage reads (:mod:`vision.diceset`;
    standard d6). The learned classifier knows d6 faces only, so it looks
    only at a set of standard dice.

    Raises :class:`UnreadableImage` for anything that is not an image.
    """
    image = picture = _check_image(image)
    if isinstance(net, NullNet) or dice.most > 6:
        learned, net = False, None
    h, w = image.shape[:2]
    ox = oy = 0
    poly = found = None
    if area is not None:
        poly = found = np.asarray(area.polygon, np.float32).reshape(-1, 2)
        if die_size is None:
            die_size = getattr(area, "die_size", None)
        if die_size and config.tray.wall_reach > 0:
            # Dice are read out to the walls (``config.tray.wall_reach``); what lies beyond the outline
            # found and is no die is the wall, its shade or the rim, never a foreign thing.
            poly = widened(found, config.tray.wall_reach * float(die_size))
        x0, y0 = np.floor(poly.min(axis=0)).astype(int)
        x1, y1 = np.ceil(poly.max(axis=0)).astype(int)
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(w, x1), min(h, y1)
        if x1 - x0 >= 16 and y1 - y0 >= 16:
            image, ox, oy = _tray_only(image[y0:y1, x0:x1], poly - (x0, y0)), x0, y0
            h, w = image.shape[:2]
    if die_size:
        scale = config.work_die / die_size
        scale = min(scale, config.work_size / max(h, w), 1.5)
    else:
        scale = min(1.0, config.work_size / max(h, w))
    if abs(scale - 1.0) < 1e-3:
        work, scale = image, 1.0
    else:
        work = _shrink(image, scale)
        scale = work.shape[1] / w
    # Without an area the picture's edge cuts dice, and a die not wholly in
    # the picture is not part of the throw read; a tray's area keeps them in.
    edge = poly is None
    dice_set = dice
    tray = None if poly is None else _tray_mask(work.shape[:2], found, (ox, oy), scale)
    walls = None
    if tray is not None and die_size:
        # Along the walls, as deep as their shadow reaches, and beyond them (painted the felt's colour):
        # there the felt in shade is felt.
        walls = along_walls(tray, max(1, round(config.tray.shade_walls * die_size * scale)))
    dice, unexplained, foreign, side, lab = _read_work(work, config, die_size * scale if die_size else None, edge,
                                                       calibrated=bool(die_size), expect=expect, dice_set=dice_set,
                                                       walls=walls, beyond=None if poly is found else 255 - tray)
    small = _read_size(dice, inner=False)
    if not die_size and small and small < 0.7 * config.work_die and scale >= 0.999:
        # Small dice (a wide view): their pips are a few pixels, so read again
        # with the image enlarged to the working die size of the dice found.
        side = small
        up = min(2.0, config.work_die / side)
        work = cv2.resize(image, (round(w * up), round(h * up)), interpolation=cv2.INTER_CUBIC)
        scale = work.shape[1] / w
        tray = None if poly is None else _tray_mask(work.shape[:2], found, (ox, oy), scale)
        dice, unexplained, foreign, side, lab = _read_work(work, config, side * up, edge, calibrated=False,
                                                           dice_set=dice_set)
    if poly is not None and side:
        # Not along the tray's outline: its wall, rim or the table just beyond is no thing in the tray.
        band = max(1, round(config.tray.rim * side))
        inside = cv2.erode(tray, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * band + 1, 2 * band + 1)))
        foreign += _foreign(lab, dice, side, config, inside)
    s = 1.0 / scale
    out = []
    band = []  # dice beyond the outline found, within the walls' reach
    for d in dice:
        cx, cy = d.center[0] * s + ox, d.center[1] * s + oy
        if poly is not None and cv2.pointPolygonTest(poly, (float(cx), float(cy)), False) < 0:
            continue
        d = replace(d, center=(cx, cy), size=d.size * s, inner=d.inner * s,
                    corners=tuple((x * s + ox, y * s + oy) for x, y in d.corners),
                    pips=tuple((x * s + ox, y * s + oy) for x, y in d.pips))
        beyond = poly is not found and cv2.pointPolygonTest(found, (float(cx), float(cy)), False) < 0
        (band if beyond else out).append(d)
    if band and expect is not None and len(out) < expect:
        # Dice beyond the outline found make up the count due only (a card's pips or a stray die just
        # beyond a tray without walls is no die of the throw when the tray holds the dice due).
        out += band
    reasons = []
    # The learned classifier looks at the median size of the dice read.
    # In a calibrated tray, each die by the smaller of its box and its inscribed size (``Die.inner``): a face
    # read with its side faces and shadow (a glossy die's whole outline) is no larger die for the search.
    learned_side = float(np.median([min(d.size, d.inner or d.size) if die_size else d.size for d in out])) \
        if learned and out else 0.0
    if learned and not out and unexplained and side:
        # Nothing read, but something die-sized is there (dark dice with red
        # pips on a light table): the classifier looks for dice of the size
        # the faces' outlines gave. On the many-colours photos (session 23),
        # 3 such photos of 1-2 dice: 2 read exactly, one die of the other found.
        learned_side = side * s
    if learned and out and poly is None and not die_size:
        # Without a tray (any camera, any dice), a die read surely whose value
        # the classifier all but rules out is doubted. Not in a tray, seen
        # from above, where the classical passes read every die right and the
        # classifier once ruled out a sure four (a tray photo).
        out, doubted = _vetoed(image, out, learned_side, config, ox, oy, net=net)
        if doubted:
            reasons.append(Reason.VETOED)
    if learned and any(d.confidence < config.sure_confidence for d in out):
        # A calibrated die size fixes the side the classifier looks at; without one, the dice's
        # outlines decide it, and a mixed set's may take in part of a face only.
        out, changed, gone = _rejudge(image, out, learned_side, config, ox, oy, net=net,
                                      sides=(1.0,) if die_size else config.learned.rejudge_sides,
                                      hold=pips_confirm if die_size else None)
        if changed and die_size and config.learned.confirm_reread:
            # In a calibrated tray, a die the classifier read as another value whose classical pips at its
            # place say that value (counted, laid out, alone) is sure: two independent readings agree.
            out = reread_confirmed(image, out, learned_side, ox, oy, config)
            changed = sum(Doubt.LEARNED in d.doubts for d in out)
        if changed:
            reasons.append(Reason.REREAD)
        if gone:
            reasons.append(Reason.NO_DIE)
    # The learned classifier looks only where the passes above say a die may
    # be missing: something die-sized is unread, or fewer dice than thrown.
    if learned and learned_side and (unexplained or (expect is not None and len(out) < expect)):
        extra = []
        memo: dict = {}  # each size's search, kept for the second search (find_dice's memo)
        # Where the count is due (searched only while short of it) in a calibrated tray, the search also looks
        # round its places (config.learned.refine_from), a die found only there taken where its pips confirm it;
        # with no count it does not: on the shared photos (dice of 20-35 px, no tray) looking round found more
        # dice that are not there (many-colours precision 0.982 -> 0.980).
        # In a calibrated tray a die found whose classical pips say the same value is sure (in the search for
        # larger dice too: its pips are counted at the dice's own side as well, see :func:`found_confirmed`).
        # The pips are counted in the picture as it was, not the tray's area cut out: a die against a wall
        # may reach over it beyond the area read, a pip there painted over or cut off (render trays-00866: a
        # two in a corner, one pip past the outline widened).
        confirm = partial(found_confirmed, picture, dice_side=learned_side, config=config) if die_size else None
        unread = expect is None and unexplained and not die_size
        for value_share in (config.learned.find_value, config.learned.find_value_next):
            if expect is not None and len(out) + len(extra) >= expect:
                break
            # The dice whose values the classifier is sure of first, at every size; then, where
            # none was found, those whose values are only likelier (see ``config.learned.find_value_next``).
            extra += _learned_dice(image, out + extra, learned_side, poly, ox, oy, value_share, memo,
                                   config=config, net=net, confirm=confirm, refine=expect is not None)
            for larger in config.learned.larger:
                # Still short of the dice thrown, or, with no count known and no calibration to fix
                # the dice's size, something die-sized still unread: dice larger than those read (a
                # mixed set) are looked for too.
                short = expect is not None and len(out) + len(extra) < expect
                if short or unread:
                    larger_dice = _learned_dice(image, out + extra, learned_side * larger, poly, ox, oy, value_share,
                                                memo, config=config, net=net, confirm=confirm, refine=expect is not None)
                    # With no count to check it against, a one (a round spot in a square: a key's
                    # symbol, a button) at a size far from the dice read is not taken.
                    extra += larger_dice if short or larger <= config.learned.ones_upto else \
                        [d for d in larger_dice if d.value >= 2]
        if extra:
            out += extra
            if any(Doubt.LEARNED in d.doubts for d in extra):
                reasons.append(Reason.LEARNED_ONLY)
            unexplained = explained(unexplained, [d for d in extra if is_sure(d, config.sure_confidence)],
                                    (ox, oy), scale)
    shows = [_shows_pips(image, (d.center[0] - ox, d.center[1] - oy), d.size, config=config) for d in out]
    if not all(shows):
        reasons.append(Reason.NO_PIPS)
        out = [d for d, pips in zip(out, shows) if pips]
    if poly is not None and die_size:
        if expect is not None and out and len(out) < expect:
            # Dice of the felt's own colour show no outline to any stage above, only their pips.
            new = felt_dice(image, out, float(np.median([d.size for d in out])), expect - len(out), found,
                            origin=(ox, oy), config=config)
            out += new
            unexplained = explained(unexplained, new, (ox, oy), scale)
        # In a calibrated tray, a sure die with a pip like its own beside its pips, on no other die, may
        # lack that pip (a one read round one pip of a two whose body is the felt's colour), and two
        # dice that share a pip (a two made of two touching dice's pips) cannot both be: doubted.
        here = [replace(d, center=(d.center[0] - ox, d.center[1] - oy),
                        corners=tuple((x - ox, y - oy) for x, y in d.corners),
                        pips=tuple((x - ox, y - oy) for x, y in d.pips)) for d in out]
        near = 0.12 * float(die_size)
        shared = [any(math.dist(p, q) <= near for o in out if o is not d for p in d.pips for q in o.pips) for d in out]
        out = [replace(d, doubts=d.doubts + (Doubt.RIVAL_READ,)) if twin else d for d, twin in zip(out, shared)]
        # (The calibrated size takes in side faces seen by a near camera: the dice read measure the side.)
        dice_side = float(np.median([d.size for d in out])) if out else float(die_size)
        # The pip spans of the dice read surely as whole faces of 2-6 pips (a face's diagonal: the same on
        # every such face), each die's compared with the others' (``spans(i)``).
        whole = [pip_span(d) if is_sure(d, config.sure_confidence) and 2 <= d.value == len(d.pips) else 0.0
                 for d in out]

        def spans(i):
            return [s for j, s in enumerate(whole) if j != i and s]

        out = [replace(d, doubts=d.doubts + (Doubt.LOOSE_FIT,))
               if is_sure(d, config.sure_confidence) and pip_beside(image, at, float(die_size), here[:i] + here[i + 1:],
                                                                    face=dice_side, spans=spans(i), config=config)
               else d for i, (d, at) in enumerate(zip(out, here))]
        # Every face of two pips or more has pips at two opposite corners, about 0.7 side apart: a die whose
        # farthest pips lie closer (two neighbouring pips of a four, a three's middle and corner, their
        # other pips lost against another die) is part of a face, whichever stage read it.
        # And every such face spans what the others do: one spanning farther took in a side face's pips.
        part = [part_of_face(d, dice_side, config, spans(i)) for i, d in enumerate(out)]
        out = [replace(d, doubts=d.doubts + (Doubt.LOOSE_FIT,))
               if part[i] or beyond_face(d, spans(i), config) else d
               for i, d in enumerate(out)]
        if learned:
            # A part of a face is read whole where the pip test and the classifier find that face round it:
            # in the picture as it was, for the face may reach beyond the outline found (its walls' shade).
            out = [(whole_face(picture, d, dice_side, others=out[:i] + out[i + 1:], net=net, config=config) or d)
                   if part[i] else d for i, d in enumerate(out)]
            # A loose two of pips closer than a face's corners may be a one and its side face's pip.
            out = [(one_of_two(picture, d, dice_side, others=out[:i] + out[i + 1:], net=net, config=config) or d)
                   if part[i] and d.value == 2 and Doubt.LOOSE_FIT in d.doubts else d for i, d in enumerate(out)]
        # A one read unsurely may be a two whose other pip its reading lost (on a die of the felt's colour).
        out = [(one_as_two(image, d, dice_side, ox, oy, [o for o in out if o is not d], config) or d)
               if d.value == 1 and not is_sure(d, config.sure_confidence) else d for d in out]
        if learned and config.learned.one_in_two:
            # A sure two (one read so above too) may be a one and its side face's pip, its pips as far apart
            # as a small two's corners (0.55-0.6 side): where the classifier reads a one at one of them.
            out = [(one_in_two(picture, d, dice_side, others=out[:i] + out[i + 1:], net=net, config=config) or d)
                   if d.value == 2 and is_sure(d, config.sure_confidence) else d
                   for i, d in enumerate(out)]
        if config.learned.recount_sure:
            # A die read surely with fewer pips than the classical pip test counts and lays out at its place
            # lost a pip in its reading (render trays-00623: a three's middle pip lost beside a sheen, a sure
            # two): another reading of its place saw other pips.
            out = [replace(d, doubts=d.doubts + (Doubt.RIVAL_READ,))
                   if is_sure(d, config.sure_confidence) and more_pips(
                       image, d.center[0] - ox, d.center[1] - oy, dice_side, d.value, config,
                       owned=[(x - ox, y - oy) for o in out if o is not d for x, y in o.pips],
                       read=[(x - ox, y - oy) for x, y in d.pips]) else d
                   for d in out]
        if learned and expect is not None and config.learned.cluster_faces:
            # Dice not read surely (touching dice read as pieces of faces) read as the whole faces their pips
            # make, where the pip test and the classifier agree on each and they make the count due.
            sides = (float(die_size),) + ((dice_side,) if abs(dice_side / float(die_size) - 1) > 0.05 else ())
            whole = cluster_faces(picture, out, sides, expect, net=net, config=config)
            if whole is not None:
                out = whole
                unexplained = explained(unexplained, out, (ox, oy), scale)
                if Reason.REREAD in reasons and not any(Doubt.LEARNED in d.doubts for d in out):
                    reasons.remove(Reason.REREAD)  # each die the classifier read otherwise was read anew
        if Reason.LEARNED_ONLY in reasons and not any(Doubt.LEARNED in d.doubts for d in out):
            reasons.remove(Reason.LEARNED_ONLY)  # each die the classifier alone found was confirmed so
    out.sort(key=lambda d: (d.center[0], d.center[1]))
    weak = [d for d in out if not is_sure(d, config.sure_confidence)]
    if weak:
        reasons.append(Reason.HARD_TO_READ)
    if len(out) >= 2:
        if not _all_one_size(out):
            reasons.append(Reason.MIXED_SIZES)
        sure = [d.size for d in out if d.confidence >= config.sure_confidence]
        if len(sure) >= 2:
            # A weak reading under half the sure dice's size is a speck or a
            # pip, not a die: left out (the read stays unsure, for the sizes).
            least = 0.5 * float(np.median(sure))
            out = [d for d in out if d.confidence >= 0.5 or d.size >= least]
    if (Reason.NO_DIE in reasons and die_size and config.learned.no_die_counted and expect is not None
            and len(out) == expect and not weak):
        # In a calibrated tray, a weak reading the classifier took for no die (a side face, a shadow, a glint
        # read as a one) lost no die when the dice left, every one sure, make the count due.
        reasons.remove(Reason.NO_DIE)
    if unexplained:
        reasons.append(Reason.UNEXPLAINED)
    if foreign and area is not None:
        reasons.append(Reason.FOREIGN)
    if expect is not None and len(out) != expect:
        reasons.append(Reason.WRONG_COUNT)
    if not out and expect is None:
        reasons.append(Reason.NO_DICE)
    size_px = side * s if side else (float(die_size) if die_size else None)
    return Read(tuple(out), not reasons, tuple(reasons), size_px)


def reread_confirmed(image: np.ndarray, dice: list, side: float, ox: int, oy: int,
                     config: ReaderConfig = DEFAULT) -> list:
    """``dice`` (:class:`vision.dice.Die`, px of the input image) with each the classifier reread
    (doubted ``LEARNED``, its classical pips dropped) made sure where the classical pip test at its place
    (:func:`vision.pip_test.pips_confirm` on ``image``, the area's crop whose corner lies at ``(ox, oy)``
    in the input, dice of ``side`` px) reads the classifier's value, the pips of the other dice
    set aside: its ``LEARNED`` doubt and those a confirmation lifts go, its confidence rises to
    ``config.sure`` and its pips are those found. Other doubts stay."""
    owned = [(px - ox, py - oy) for d in dice for px, py in d.pips]
    out = []
    for d in dice:
        if Doubt.LEARNED in d.doubts and not d.pips and not set(d.doubts) - LIFTED_BY_CONFIRMATION - {Doubt.LEARNED}:
            pips = pips_confirm(image, d.center[0] - ox, d.center[1] - oy, side, d.value, config=config, owned=owned)
            if pips:
                d = replace(d, confidence=max(d.confidence, config.sure), pips=tuple((x + ox, y + oy) for x, y in pips),
                            doubts=tuple(x for x in d.doubts if x not in LIFTED_BY_CONFIRMATION | {Doubt.LEARNED}))
        out.append(d)
    return out


def one_as_two(image: np.ndarray, die, side: float, ox: int, oy: int, others, config: ReaderConfig = DEFAULT):
    """``die``, a one read unsurely round its pip (``die.pips``, px of the input image), as the two the
    classical pip test reads there, or None. A two's middle lies 0.35 side from either pip on a
    diagonal, so the test (:func:`vision.pip_test.pips_confirm` on ``image``, the area's crop whose
    corner lies at ``(ox, oy)``, dice of ``side`` px, the ``others``' pips set aside) is made round
    eight places that far from the pip (a one the classifier found, without pips: its middle); it
    must read a two holding that pip, always with the same other pip, and no other die may lie within
    0.7 side of the two's middle. The two is sure: the test is the one found dice pass (counted, laid
    out, alone). A two of a die whose body is the felt's colour, its other pip lost, read as a one
    (mock trays 31, 60, 138: asked, for a pip beside it or as pips only)."""
    if len(die.pips) > 1 or not die.pips and Doubt.LEARNED not in die.doubts:
        return None
    (px, py), = die.pips or (die.center,)  # a one the classifier found: its pip in the middle
    owned = [(x - ox, y - oy) for o in others for x, y in o.pips]
    twos = []
    for a in np.arange(8) * np.pi / 4:
        cx, cy = px - ox + 0.35 * side * np.cos(a), py - oy + 0.35 * side * np.sin(a)
        pips = pips_confirm(image, cx, cy, side, 2, config=config, owned=owned)
        if pips and min(math.dist(p, (px - ox, py - oy)) for p in pips) <= 0.12 * side:
            twos.append(pips)
    other = {max(t, key=lambda p: math.dist(p, (px - ox, py - oy))) for t in twos}
    if not twos or max(math.dist(p, q) for p in other for q in other) > 0.12 * side:
        return None
    pips = tuple((x + ox, y + oy) for x, y in twos[0])
    mx, my = np.mean(pips, axis=0)
    if any(math.dist(o.center, (mx, my)) < 0.7 * side for o in others):
        return None
    r = die.size / 2
    lifted = LIFTED_BY_CONFIRMATION | {Doubt.LEARNED, Doubt.OFF_CENTRE}
    return replace(die, value=2, center=(float(mx), float(my)), pips=pips,
                   corners=((mx - r, my - r), (mx + r, my - r), (mx + r, my + r), (mx - r, my + r)),
                   confidence=max(die.confidence, config.sure), doubts=tuple(x for x in die.doubts if x not in lifted))


def found_confirmed(image: np.ndarray, x: float, y: float, at: float, value: int, *, dice_side: float,
                    config: ReaderConfig = DEFAULT, owned=()) -> tuple | None:
    """The pips ``((x, y), ...)`` px of a die of ``value`` the classifier found at ``(x, y)`` px of ``image``
    (``H×W×3 uint8 BGR``) reading it at ``at`` px, as the classical pip test counts them
    (:func:`vision.pip_test.pips_confirm`, ``owned`` as there): at ``at``, else at ``dice_side`` (px, the
    side of the dice read in a calibrated tray); None when neither says ``value``. A die the search for
    larger dice found (a crop 1.3-1.7 times the dice's side) is a die of the calibrated size all the same:
    its pips are counted at that size too."""
    pips = pips_confirm(image, x, y, at, value, config=config, owned=owned)
    if pips is None and abs(at - dice_side) > 0.5:
        pips = pips_confirm(image, x, y, dice_side, value, config=config, owned=owned)
    return pips


def explained(unexplained, dice, origin: tuple[float, float], scale: float) -> int:
    """How many of ``unexplained`` (a count of die-like things no die read explained; an
    :class:`vision.choose.Unexplained` also gives their places, px of the working image) the ``dice``
    found since (:class:`vision.dice.Die`, px of the input image, read surely: the classifier's find
    confirmed by the classical pips) leave unexplained: a part whose middle lies within the die's face
    grown by 60% (as the classical passes' dice explain theirs, its side faces and shadow) is that die.
    ``origin``: the working image's corner in the input, px; ``scale``: working px per input px. A
    plain count (no places) is left as it is."""
    places = getattr(unexplained, "places", ())
    if not places or not dice:
        return unexplained
    left = [p for p in places if not any(math.dist(p, ((d.center[0] - origin[0]) * scale,
                                                       (d.center[1] - origin[1]) * scale)) <= 0.8 * d.size * scale
                                         for d in dice)]
    return unexplained - (len(places) - len(left))


def widened(poly: np.ndarray, reach: float) -> np.ndarray:
    """The convex outline ``poly`` (``N×2`` float32 ``(x, y)`` px) widened by ``reach`` px all round: the
    convex hull of its corners each moved ``reach`` px in 16 directions (``M×2`` float32 px). A tray found
    at calibration may stop short of its walls (their shade, a die against a wall); its dice lie whole
    within half a die side of the wall."""
    turns = np.linspace(0.0, 2.0 * np.pi, 16, endpoint=False)
    ring = np.stack([np.cos(turns), np.sin(turns)], axis=1) * reach
    pts = (poly[:, None, :] + ring[None, :, :]).reshape(-1, 2).astype(np.float32)
    return cv2.convexHull(pts).reshape(-1, 2)


def _tray_mask(shape: tuple[int, int], poly: np.ndarray, origin: tuple[float, float], scale: float) -> np.ndarray:
    """``H×W uint8`` (``shape``), 255 inside the tray's area ``poly`` (frame px) drawn on the working
    image: moved by ``origin`` (the crop's corner, frame px) and scaled by ``scale``."""
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round((poly - origin) * scale).astype(np.int32)], 255)
    return mask


def _tray_only(crop: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """``crop`` (``H×W×3 uint8 BGR``, the tray area's box) with what lies outside the tray's outline
    ``poly`` (``N×2`` ``(x, y)`` px of the crop) painted the tray's median colour: a patterned table, its
    grain, a cup or a stray die beyond the tray make no candidates, pips or foreign things."""
    inside = np.zeros(crop.shape[:2], np.uint8)
    cv2.fillPoly(inside, [np.round(poly).astype(np.int32)], 255)
    if inside.all() or not inside.any():
        return crop
    # The colour: the median of every 8th pixel's in both directions inside (a copy of every inside
    # pixel cost a 1640×1232 frame's read as much as 5 times the fixed workload).
    some = crop[::8, ::8][inside[::8, ::8] > 0]
    colour = np.median(some if len(some) else crop[inside > 0], axis=0).astype(np.uint8)
    out = np.empty_like(crop)
    out[:] = colour
    cv2.copyTo(crop, inside, out)
    return out


def annotate(image: np.ndarray, dice: list[Die], *, highlight: tuple[int, ...] = (),
             confidence: bool = True) -> np.ndarray:
    """Draw each die's outline, value and (with ``confidence``) confidence on a copy of ``image``.

    ``image``: ``H×W×3 uint8 BGR``; ``dice``: from :func:`read_dice` on that
    image; ``highlight``: indices into ``dice`` drawn in a second colour (the
    dice that formed the target). Returns a new ``H×W×3 uint8 BGR`` image.
    """
    out = _check_image(image).copy()
    scale = max(out.shape[:2]) / 1000.0
    thick = max(1, round(2 * scale))
    for i, d in enumerate(dice):
        colour = (0, 200, 255) if i in highlight else (60, 220, 60)
        if d.confidence < 0.5:
            colour = (0, 0, 255)
        pts = np.array(d.corners, np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, colour, thick + (1 if i in highlight else 0), cv2.LINE_AA)
        for px, py in d.pips:
            cv2.circle(out, (round(px), round(py)), max(2, round(d.size * 0.05)), colour, -1, cv2.LINE_AA)
        label = f"{d.value} {d.confidence:.2f}" if confidence else str(d.value)
        org = (round(d.center[0] - d.size / 2), round(d.center[1] - d.size / 2 - 4 * scale))
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale + 0.2, (0, 0, 0), thick + 2, cv2.LINE_AA)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale + 0.2, colour, thick, cv2.LINE_AA)
    return out
