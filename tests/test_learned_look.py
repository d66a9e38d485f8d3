"""The learned classifier's place in the reader: confirming, rereading, vetoing and finding dice."""

import math

import cv2
import numpy as np
import pytest

from hardware.render import WIDE_SET, RenderStyle, render_throw
from vision import facenet
from vision.config import ReaderConfig
from vision.reader import read_throw
from vision.reasons import Reason

STYLE = RenderStyle(tilt=0.0, specks=0, touching=0.0)

def test_a_read_the_classical_passes_make_whole_is_left_alone():
    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    with_net, without = read_throw(img), read_throw(img, learned=False)
    assert sorted(with_net.values) == sorted(without.values) == [2, 4, 6]
    assert with_net.dice == without.dice and with_net.sure == without.sure


def test_a_die_found_by_the_classifier_alone_never_makes_a_read_sure(classical_misses_a_die):
    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)

    # The classical passes miss a die: the classifier's find is added, and the read asks.
    r = read_throw(img, expect=3)
    assert sorted(r.values) == [2, 4, 6]
    assert not r.sure
    assert bool({Reason.VETOED, Reason.REREAD, Reason.NO_DIE, Reason.LEARNED_ONLY} & set(r.reasons))
    assert min(d.confidence for d in r.dice) <= ReaderConfig().learned.most


def _change_first(monkeypatch, **fields):
    """Have the classical passes read the first die (leftmost) with ``fields`` changed."""
    from dataclasses import replace

    from vision import reader

    real = reader._read_work

    def change(*a, **k):
        dice, unexplained, foreign, side, lab = real(*a, **k)
        first = min(range(len(dice)), key=lambda i: dice[i].center)
        dice = list(dice)
        dice[first] = replace(dice[first], **fields)
        return dice, unexplained, foreign, side, lab

    monkeypatch.setattr(reader, "_read_work", change)


def test_a_weak_die_is_read_again_by_the_classifier(monkeypatch):
    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    first = min(truth, key=lambda d: d.center).value
    _change_first(monkeypatch, value=5, confidence=0.45)
    r = read_throw(img, expect=3)
    assert sorted(r.values) == [2, 4, 6]
    assert not r.sure
    assert Reason.REREAD in r.reasons
    fixed = min(r.dice, key=lambda d: d.center)
    assert fixed.value == first and fixed.confidence <= 0.45
    classical = read_throw(img, expect=3, learned=False)
    assert sorted(classical.values) == sorted([v for v in (2, 4, 6) if v != first] + [5])


def test_a_strong_die_is_second_guessed_only_without_a_tray(monkeypatch):
    """The classical passes read the two surely as a five. Without a tray's
    area the classifier, which all but rules out a five there, doubts it and
    reads it again; in a tray (the product's own setting) it does not."""
    from vision.calibrate import TrayArea

    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    h, w = img.shape[:2]
    _change_first(monkeypatch, value=5, confidence=0.95)
    r = read_throw(img, expect=3)
    assert sorted(r.values) == [2, 4, 6] and not r.sure
    assert (Reason.VETOED in r.reasons)
    tray = TrayArea(polygon=((0, 0), (w, 0), (w, h), (0, h)), frame_size=(w, h))
    r = read_throw(img, expect=3, area=tray)
    assert 5 in r.values and not {Reason.VETOED, Reason.REREAD, Reason.NO_DIE, Reason.LEARNED_ONLY} & set(r.reasons)


def test_a_weak_die_the_classifier_reads_the_same_is_confirmed(monkeypatch):

    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    _change_first(monkeypatch, confidence=0.5)
    assert not read_throw(img, expect=3, learned=False).sure  # the classical passes alone doubt it
    r = read_throw(img, expect=3)
    assert r.sure and sorted(r.values) == [2, 4, 6]
    assert min(d.confidence for d in r.dice) == ReaderConfig().sure_confidence
    # Agreement confirms a die; it does not mend anything else that is wrong.
    assert not read_throw(img, expect=4).sure


def _judges(probs, at, truth):
    """A stand-in for the classifier: ``probs`` (7 numbers: no die, then 1-6)
    for a crop within 0.3 side of ``at`` (``(x, y)`` px), and elsewhere the
    value of the nearest of ``truth`` (the rendered dice), 0.999 sure."""

    class Judges:
        def classify(self, image, centers, side, turns=False):
            p = np.full((len(centers), 7), 0.001 / 6)
            for row, c in zip(p, centers):
                if math.dist(c, at) < 0.3 * side:
                    row[:] = probs
                else:
                    row[min(truth, key=lambda d: math.dist(d.center, c)).value] = 0.999
            return p

    return Judges


@pytest.mark.parametrize("confidence, share, free_mark, read_again", [(0.45, 0.6, False, True), (0.45, 0.45, False, False),
                                                                 (0.6, 0.6, False, False), (0.6, 0.6, True, True)])
def test_a_faint_die_takes_the_value_the_classifier_thinks_likelier_than_all_others(
        monkeypatch, confidence, share, free_mark, read_again):
    """A die read with a classical confidence under 0.5 (mostly wrong) takes
    the classifier's value where the classifier thinks a die likelier there
    than not and that value likelier than all the others together
    (ReaderConfig().learned.rejudge_faint 0.5). A die read 0.5-0.8 needs ReaderConfig().learned.rejudge_sure (0.9), unless
    the classical reader itself saw a pip-like mark where its value has none
    (``Die.free_mark``). Either way the read is not sure."""

    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    first = min(truth, key=lambda d: d.center).value
    _change_first(monkeypatch, value=5, confidence=confidence, free_mark=free_mark)
    probs = np.full(7, 0.9 * (1 - share) / 5)
    probs[0], probs[first] = 0.1, 0.9 * share
    monkeypatch.setattr(facenet, "_default_net", _judges(probs, min(truth, key=lambda d: d.center).center, truth))
    learned = ReaderConfig().learned
    assert 0.45 < learned.rejudge_faint <= 0.6 < learned.rejudge_sure
    r = read_throw(img, expect=3)
    want = [2, 4, 6] if read_again else sorted([d.value for d in truth if d.value != first] + [5])
    assert sorted(r.values) == want
    assert not r.sure


@pytest.mark.parametrize("no_die, left_out", [(0.99, True), (0.9, False)])
def test_a_weak_reading_the_classifier_takes_for_no_die_is_left_out(monkeypatch, no_die, left_out):
    """A weak reading where the classifier is NO_DIE_SURE (0.97) sure there
    is no die (a speck read as a one) is left out, and the read is not sure:
    the classifier alone never makes a read sure. Less sure, it stays."""
    from dataclasses import replace

    from vision import reader

    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    real = reader._read_work

    first = min(truth, key=lambda d: d.center)
    at = (first.center[0], first.center[1] + 2 * first.size)
    _marks(img, [at], first.size)  # the speck

    def with_a_speck(*a, **k):
        dice, unexplained, foreign, side, lab = real(*a, **k)
        d = min(dice, key=lambda d: d.center)
        return list(dice) + [replace(d, value=1, center=at, confidence=0.45)], unexplained, foreign, side, lab

    monkeypatch.setattr(reader, "_read_work", with_a_speck)
    probs = np.full(7, (1 - no_die) / 6)
    probs[0] = no_die
    monkeypatch.setattr(facenet, "_default_net", _judges(probs, at, truth))
    r = read_throw(img)
    assert sorted(r.values) == ([2, 4, 6] if left_out else [1, 2, 4, 6])
    assert (Reason.NO_DIE in r.reasons) is left_out
    assert not r.sure


@pytest.mark.parametrize("slant, sure", [(1.0, True), (0.72, False)])
def test_a_face_seen_at_a_slant_needs_the_classifiers_surest_agreement(monkeypatch, slant, sure):
    """The classifier 0.97 sure of the weak die's own value confirms a face
    seen square-on (ReaderConfig().learned.confirm_sure 0.95), but not one squashed to 0.72, which
    may be a die's front face (ReaderConfig().learned.confirm_slanted 0.99)."""
    from vision import facenet

    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    first = min(truth, key=lambda d: d.center).value
    _change_first(monkeypatch, confidence=0.5, slant=slant)

    probs = np.full(7, 0.98 * 0.03 / 5)
    probs[0], probs[first] = 0.02, 0.98 * 0.97
    monkeypatch.setattr(facenet, "_default_net", _judges(probs, min(truth, key=lambda d: d.center).center, truth))
    assert ReaderConfig().learned.confirm_sure <= 0.97 < ReaderConfig().learned.confirm_slanted
    r = read_throw(img, expect=3)
    assert sorted(r.values) == [2, 4, 6]
    assert r.sure is sure


def _marks(img, places, side):
    """A pip-like dark mark (0.085 side across) at each of ``places`` ``(x, y)`` px of ``img``, in place: where
    a stand-in search says it found a die, the picture shows a mark, as any die's face does."""
    for x, y in places:
        cv2.circle(img, (round(x), round(y)), max(2, round(0.085 * side)), (20, 20, 20), -1, cv2.LINE_AA)


def test_a_die_the_classifier_finds_at_the_picture_edge_is_no_part_of_the_throw(monkeypatch, classical_misses_a_die):
    """Without a tray area, a die the learned search finds within 0.6 side of
    the picture's edge may be cut by it: it is left out, as the classical
    passes leave such a die out. Inside a tray's area the edge cuts nothing."""
    from vision.calibrate import TrayArea

    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    h, w = img.shape[:2]
    side = truth[0].size
    _marks(img, [(0.3 * side, h / 2), (w / 2, h - 0.7 * side)], side)

    def finds(image, side, **k):
        return [(0.3 * side, h / 2, 5, 0.99, side), (w / 2, h - 0.7 * side, 3, 0.99, side)]

    monkeypatch.setattr(facenet, "find_dice", finds)
    found = [d for d in read_throw(img, expect=3).dice if d.confidence <= ReaderConfig().learned.most]
    assert [d.value for d in found] == [3]
    area = TrayArea(polygon=((0, 0), (w, 0), (w, h), (0, h)), frame_size=(w, h))
    found = [d for d in read_throw(img, expect=3, area=area).dice if d.confidence <= ReaderConfig().learned.most]
    assert sorted(d.value for d in found) == [3, 5]


@pytest.mark.parametrize("at, kept", [(1.0, True), (1.5, False)])
def test_the_edge_check_uses_the_side_a_found_die_was_read_at(monkeypatch, classical_misses_a_die, at, kept):
    """A die the classifier read at ``at`` times the side searched (``FIND_SIDES``), 0.7 side from the
    picture's left edge: at the side itself it lies wholly in the picture; at 1.5 times it, its face
    (0.6 of 1.5 sides = 0.9 side either way) reaches past the edge, and it is left out."""

    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    h = img.shape[0]
    _marks(img, [(0.7 * truth[0].size, h / 2)], truth[0].size)

    def finds(image, side, **k):
        return [(0.7 * side, h / 2, 5, 0.99, at * side)]

    monkeypatch.setattr(facenet, "find_dice", finds)
    found = [d for d in read_throw(img, expect=3).dice if d.confidence <= ReaderConfig().learned.most]
    assert [d.value for d in found] == ([5] if kept else [])


@pytest.mark.parametrize("larger, share, searched", [
    (1.3, 0.95, [(1.0, 0.9), (1.3, 0.9)]),
    (1.7, 0.95, [(1.0, 0.9), (1.3, 0.9), (1.7, 0.9)]),
    (1.3, 0.8, [(1.0, 0.9), (1.3, 0.9), (1.7, 0.9), (1.0, 0.7), (1.3, 0.7)]),
    (2.5, 0.95, [(1.0, 0.9), (1.3, 0.9), (1.7, 0.9), (1.0, 0.7), (1.3, 0.7), (1.7, 0.7)]),
    (1.3, 0.6, [(1.0, 0.9), (1.3, 0.9), (1.7, 0.9), (1.0, 0.7), (1.3, 0.7), (1.7, 0.7)]),
])
def test_a_read_short_of_the_dice_thrown_looks_for_larger_dice_too(monkeypatch, classical_misses_a_die,
                                                                    larger, share, searched):
    """A mixed set: the die the classical passes missed is ``larger`` times
    the size of those read, and the classifier gives its value ``share`` of
    the die's probability. While the read is short of the dice thrown, the
    classifier looks at the dice's size, then 1.3 and 1.7 times it
    (ReaderConfig().learned.larger), for values it is ReaderConfig().learned.find_value (0.9) sure of; then at
    each size again for values it is ReaderConfig().learned.find_value_next (0.7) sure of; and it
    stops once the count is made up. A die larger than any size it looks
    at, or whose value it is less sure of, is not found."""

    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    sides = []

    def finds(image, side, *, taken=(), value_share, **k):
        sides.append((side, value_share))
        missed = max(truth, key=lambda d: min(math.dist(d.center, t) for t in taken))
        here = abs(side / sides[0][0] - larger) < 0.01 and share >= value_share
        return [(*missed.center, missed.value, 0.99, side)] if here else []

    monkeypatch.setattr(facenet, "find_dice", finds)
    assert (ReaderConfig().learned.find_value, ReaderConfig().learned.find_value_next) == (0.9, 0.7)
    r = read_throw(img, expect=3)
    assert [(round(s / sides[0][0], 2), v) for s, v in sides] == searched
    found = larger < 2 and share >= 0.7
    assert len(r.values) == (3 if found else 2)
    if found:
        assert sorted(r.values) == [2, 4, 6]
    assert not r.sure


@pytest.mark.parametrize("unread, die_size, one, at, searched, taken",
                         [(1, None, False, 1.3, [1.0, 1.3, 1.7], True),
                          (1, None, True, 1.3, [1.0, 1.3, 1.7], True),
                          (1, None, True, 1.7, [1.0, 1.3, 1.7], False),
                          (1, None, False, 1.7, [1.0, 1.3, 1.7], True),
                          (0, None, False, 1.3, [], False),
                          (1, "calibrated", False, 1.3, [1.0], False)])
def test_with_no_count_something_unread_is_looked_for_at_larger_sizes_too(monkeypatch, unread, die_size, one, at,
                                                                           searched, taken):
    """A mixed set read with no count known: the classical passes leave a die
    ``at`` times the size of those read as something die-sized unread. The
    classifier looks at the dice's size and at 1.3 and 1.7 times it
    (ReaderConfig().learned.larger), and the die it finds is added (the read is not sure);
    a one only up to ReaderConfig().learned.ones_upto (1.3) times the size: at 1.7 it may be
    a key's symbol. It looks at each size twice: for values it is sure of,
    then for values only likelier (ReaderConfig().learned.find_value_next). Where nothing was left
    unread it does not look; after a calibration (the die size known, one
    set of dice) it looks at that size only."""
    from vision import reader

    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    real = reader._read_work

    def miss_first(*a, **k):
        dice, _, foreign, side, lab = real(*a, **k)
        return dice[1:], unread, foreign, side, lab

    sides = []
    missed = []

    def finds(image, side, *, taken=(), **k):
        sides.append(side)
        if not missed:  # the die farthest from those the classical passes read
            missed.append(max(truth, key=lambda d: min(math.dist(d.center, t) for t in taken)))
        value = 1 if one else missed[0].value
        free = all(math.dist(missed[0].center, t) > 0.75 * side for t in taken)  # as find_dice
        return [(*missed[0].center, value, 0.99, side)] if free and abs(side / sides[0] - at) < 0.01 else []

    monkeypatch.setattr(reader, "_read_work", miss_first)
    monkeypatch.setattr(facenet, "find_dice", finds)
    r = read_throw(img, die_size=truth[0].size if die_size else None)
    # Each size twice: for values the classifier is sure of, then for values only likelier.
    assert [s / sides[0] for s in sides] == pytest.approx(searched * 2)
    if taken:
        read = [d.value for d in truth if d is not missed[0]]
        assert sorted(r.values) == sorted(read + [1 if one else missed[0].value])
        assert Reason.LEARNED_ONLY in r.reasons
    else:
        assert len(r.values) == 2 and set(r.values) < {2, 4, 6}
    # Nothing told the reader a die was missed where nothing was left unread.
    assert r.sure is (not unread)


@pytest.mark.parametrize("own, in_a_tray, doubted", [(0.05, False, True), (0.2, False, False), (0.05, True, False)])
def test_a_sure_die_the_classifier_all_but_rules_out_is_doubted_without_a_tray(monkeypatch, own, in_a_tray, doubted):
    """Without a tray's area (any camera, any dice), a die read surely whose
    value the classifier gives under ReaderConfig().learned.veto_share (0.1) of the die's
    probability is doubted: the read is not sure. The classifier cannot make
    a die sure this way, and in a tray (the product's own setting, read from
    above) it does not doubt the classical passes."""
    from vision.calibrate import TrayArea

    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    h, w = img.shape[:2]

    class Doubts:
        def classify(self, image, centers, side, turns=False):
            p = np.zeros((len(centers), 7))
            for row, c in zip(p, centers):
                value = min(truth, key=lambda d: math.dist(d.center, c)).value
                row[1:] = 0.98 * (1 - own) / 5
                row[value] = 0.98 * own
                row[0] = 0.02
            return p

    monkeypatch.setattr(facenet, "_default_net", Doubts)
    assert own < ReaderConfig().learned.veto_share if doubted else True
    area = TrayArea(polygon=((0, 0), (w, 0), (w, h), (0, h)), frame_size=(w, h)) if in_a_tray else None
    r = read_throw(img, expect=3, area=area)
    assert sorted(r.values) == [2, 4, 6]
    assert r.sure is not doubted
    assert (Reason.VETOED in r.reasons) is doubted




def _whole_tray(img, side):
    """A calibrated tray over the whole of ``img`` with dice of ``side`` px measured."""
    from vision.calibrate import TrayArea

    h, w = img.shape[:2]
    return TrayArea(((2.0, 2.0), (w - 3.0, 2.0), (w - 3.0, h - 3.0), (2.0, h - 3.0)), (w, h), side)


def test_in_a_calibrated_tray_a_die_found_whose_pips_say_the_same_is_sure(classical_misses_a_die):
    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    area = _whole_tray(img, float(np.median([t.size for t in truth])))

    # Two readings agree: the classifier's value and the classical pips counted at its place.
    r = read_throw(img, expect=3, area=area)
    assert sorted(r.values) == [2, 4, 6]
    assert r.sure and Reason.LEARNED_ONLY not in r.reasons


def test_in_a_calibrated_tray_a_die_found_whose_pips_say_otherwise_is_not_sure(monkeypatch, classical_misses_a_die):
    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    area = _whole_tray(img, float(np.median([t.size for t in truth])))
    missed = min(truth, key=lambda t: t.center)  # the classical passes miss the leftmost die
    wrong = 5 if missed.value != 5 else 3

    def finds_it_wrongly(image, side, **k):
        x, y = missed.center
        return [(x - 2.0, y - 2.0, wrong, 0.99, side)]

    monkeypatch.setattr(facenet, "find_dice", finds_it_wrongly)
    r = read_throw(img, expect=3, area=area)
    assert wrong in r.values and not r.sure
    assert Reason.LEARNED_ONLY in r.reasons


#: Mock tray 15 of ``benchmarks/mock_trays.py`` (its style and throw): six dice on a brown tray, a six and
#: a two each lying against other dice.
TRAY_15 = RenderStyle(size=(1640, 1232), die_size=121, tray=(35, 55, 85), coloured=0, touching=0.6, noise=8,
                      gradient=0, specks=3, table="plain", tray_inset=0.1324, light=(0.0812, 0.062), shadow=0.548,
                      soft=0.05, tint=(1.05, 1.0, 0.92), camera_tilt=4, turn=2.568, clutter=("die", "phone", "cards"),
                      translucent=0.3, wall_dark=0.234, to_wall=0.65, own_colour=0.3)


@pytest.mark.parametrize("refine_from, whole", [(ReaderConfig().learned.refine_from, True), (1.01, False)])
def test_dice_against_others_missed_by_the_search_grid_are_found_where_the_count_is_short(refine_from, whole):
    """A calibrated mock tray (set up with six dice apart, as a game does) whose throw of six has a six and
    a two lying against other dice: the classical passes read four. The classifier, searching for the two
    missing on its grid of a quarter side, does not find the six at its places (its die probability 0.5-0.98
    there, the die's middle between them); looked at again round those places (``config.learned.refine_from``),
    both are found, their pips confirm them, and the read is whole and sure."""
    from dataclasses import replace

    from hardware.render import TrayScene
    from vision.calibrate import calibrate

    scene = TrayScene(seed=15, style=TRAY_15)
    values = [6, 2, 3, 1, 2, 5]
    area, _ = calibrate(scene.frame(scene.place([1, 2, 3, 4, 5, 6], touching=0)))
    cfg = replace(ReaderConfig(), learned=replace(ReaderConfig().learned, refine_from=refine_from))
    r = read_throw(scene.frame(scene.place(values)), area=area, expect=len(values), config=cfg)
    if whole:
        assert sorted(r.values) == sorted(values) and r.sure
    else:
        # On the grid alone the six is missed (the two is found there since the search short of the count
        # tries fainter places, ``config.learned.search_density_short``): short of the count, asked.
        assert sorted(r.values) == [1, 2, 2, 3, 5] and Reason.WRONG_COUNT in r.reasons and not r.sure


#: Held-out mock tray 1248 of ``benchmarks/mock_trays.py`` (its style and throw): seven dice on a purple tray,
#: some of the bodies of ``WIDE_SET``, a near camera leaning 8°.
TRAY_1248 = RenderStyle(size=(1640, 1232), die_size=87, tray=(90, 40, 70), coloured=0.7, touching=0, noise=2,
                        gradient=0.3, specks=0, palette=WIDE_SET, table="checked", tray_inset=0.1882,
                        light=(-0.0514, 0.1871), shadow=0.649, tint=(1.05, 1.0, 0.92), camera_tilt=8, turn=9.282,
                        clutter=("coins", "phone", "cup"), translucent=0.3, camera_height=21.36, wall_dark=0.437,
                        own_colour=0.3)


def test_two_dice_found_closer_than_a_side_are_not_both_taken_in_a_calibrated_tray():
    """Held-out mock tray 1248: the classical passes read five of seven dice. Looking round its places, the
    classifier found the two pips of the two, 0.79 side apart, as two ones (surest at 0.8 side), and each one
    was confirmed by the pip test with the other's pip taken as owned: a sure and wrong read, and the real one
    never looked for. Two dice's middles lie at least a side apart, so of finds closer than that the surer
    alone is kept; the read is whole and sure."""
    from hardware.render import TrayScene
    from vision.calibrate import calibrate

    scene = TrayScene(seed=1248, style=TRAY_1248)
    values = [1, 4, 3, 3, 2, 5, 6]
    area, _ = calibrate(scene.frame(scene.place([1, 2, 3, 4, 5, 6], touching=0)))
    r = read_throw(scene.frame(scene.place(values)), area=area, expect=len(values))
    assert sorted(r.values) == sorted(values) and r.sure
    ones = [d for d in r.dice if d.value == 1]
    assert len(ones) == 1


#: Held-out mock tray 1199 of ``benchmarks/mock_trays.py`` (its style and throw): six large dice touching on a
#: green tray, a near camera.
TRAY_1199 = RenderStyle(size=(1640, 1232), die_size=135, tray=(40, 80, 30), touching=0.6, noise=2, gradient=0.3,
                        specks=0, palette=WIDE_SET, table="light-wood", tray_inset=0.08834711241287298,
                        light=(0.1907405371732078, -0.05879974547147169), shadow=0.461249490518169,
                        turn=-6.76108345522652, camera_height=13.114094431848791, wall_shade=1.0, to_wall=0.65,
                        own_colour=0.3)


def test_a_two_is_not_found_as_ones_where_the_search_looked_round():
    """Held-out mock tray 1199: a two the classical passes left unread. Looking round the search's places,
    the places on its two pips (0.91 side apart) were the surest: a crop centred on a pip of a two shows a
    one, the other pip beyond the crop. The two was found as two sure ones, seven dice for six. A one is
    not taken at a place only looked round; the two is found at its middle and the read is whole."""
    from hardware.render import TrayScene
    from vision.calibrate import calibrate

    scene = TrayScene(seed=1199, style=TRAY_1199)
    values = [2, 6, 3, 2, 2, 1]
    area, _ = calibrate(scene.frame(scene.place([1, 2, 3, 4, 5, 6], touching=0)))
    r = read_throw(scene.frame(scene.place(values)), area=area, expect=len(values))
    assert sorted(r.values) == sorted(values) and r.sure


#: Mock tray 5 of ``benchmarks/mock_trays.py`` (its style and throw): seven white and coloured dice touching
#: on a red tray.
TRAY_5 = RenderStyle(size=(1640, 1232), die_size=86, tray=(35, 35, 120), coloured=0, touching=0.6, tilt=0.5, noise=5,
                     gradient=0.3, specks=3, palette=WIDE_SET, table="plain", tray_inset=0.23681685108352477,
                     light=(-0.18525755783891384, 0.019733759597653357), shadow=0.36475244659439454, soft=0.15,
                     tint=(1.05, 1.0, 0.92), turn=-4.060250405585231, clutter=("die", "coins", "cards"),
                     camera_height=22.0678773658202, wall_dark=0.42911059560551834, to_wall=0.65)


@pytest.mark.parametrize("split_within, whole", [(ReaderConfig().pip_test.split_within, True), (1.2, False)])
def test_a_reread_is_confirmed_by_a_pip_run_into_the_shade_between_touching_dice(split_within, whole):
    """Mock tray 5: a white three touching two other dice, read weakly by the classical passes and reread
    as a three by the classifier. Its corner pip by the other dice runs into the shade between them, one
    dark part 1.4 sides high: the pip test looks into parts up to ``config.pip_test.split_within`` sides
    over Otsu's level of their response, and at 1.2 it did not, saw two pips, and the reread stayed
    doubted (asked). Looked into, the part gives the pip, the three is confirmed and the read is sure."""
    from dataclasses import replace

    from hardware.render import TrayScene
    from vision.calibrate import calibrate

    scene = TrayScene(seed=5, style=TRAY_5)
    values = [4, 1, 3, 2, 1, 3, 6]
    area, _ = calibrate(scene.frame(scene.place([1, 2, 3, 4, 5, 6], touching=0)))
    cfg = replace(ReaderConfig(), pip_test=replace(ReaderConfig().pip_test, split_within=split_within))
    r = read_throw(scene.frame(scene.place(values)), area=area, expect=len(values), config=cfg)
    assert sorted(r.values) == sorted(values)
    assert r.sure == whole and (Reason.REREAD in r.reasons) != whole
