"""The dice reader: pips told from marks, dice found from their pips where no face stood out."""

import os

import cv2
import numpy as np
import pytest
from readerkit import faces_on_wood, red_pips_on_blue

from hardware.render import RenderStyle, render_throw
from vision.reader import (
    PIP_LAYOUT,
    read_throw,
)
from vision.reasons import Reason

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "photos")


def _pips_on_mask(points, size=120, spacing=22, radius=5):
    """A pip mask (uint8, 255 at pips) with pips at layout ``points`` around the centre, and the pip tuples."""
    mask = np.zeros((size, size), np.uint8)
    pips = []
    for u, v in points:
        x, y = size / 2 + u * spacing, size / 2 + v * spacing
        cv2.circle(mask, (round(x), round(y)), radius, 255, -1)
        pips.append((x, y, float(np.pi * radius * radius), np.array([1.0, 0.0, 1.0])))
    return mask, pips


def test_a_three_or_four_is_told_from_part_of_a_five_or_six():
    """Three or four pips count fully only when their free places are empty and
    their pattern is a whole face's (a face 100 px wide, pips 22 px apart)."""
    from vision.face import _free_places_empty

    mask, pips = _pips_on_mask(PIP_LAYOUT[4])
    assert _free_places_empty(pips, mask, side=100, angle=0.0)
    # The same four pips, and a fifth the reader missed in the middle: a five.
    mask5, _ = _pips_on_mask(PIP_LAYOUT[5])
    assert not _free_places_empty(pips, mask5, side=100, angle=0.0)
    # Four pips of a six (a pip missed in the middle of a side).
    mask6, _ = _pips_on_mask(PIP_LAYOUT[6])
    assert not _free_places_empty(pips, mask6, side=100, angle=0.0)
    # Two rows of a six: a rectangle twice as wide as high, whatever the mask.
    rows = [(-1, -1), (1, -1), (-1, 0), (1, 0)]
    mask_rows, pips_rows = _pips_on_mask(rows)
    assert not _free_places_empty(pips_rows, mask_rows, side=100, angle=0.0)

    mask3, pips3 = _pips_on_mask(PIP_LAYOUT[3])
    assert _free_places_empty(pips3, mask3, side=100, angle=0.0)
    assert not _free_places_empty(pips3, mask5, side=100, angle=0.0)  # the corners of a five
    column = [(-1, -1), (-1, 0), (-1, 1)]  # one column of a six lies along a side
    mask_col, pips_col = _pips_on_mask(column)
    assert not _free_places_empty(pips_col, mask_col, side=100, angle=0.0)


def test_a_lone_pip_counts_as_a_one_only_in_a_clean_face():
    """A one's pip sits in a clean face; a dark mark with lettering beside it
    (a cable's label) or with little face round it is no one."""
    from vision.face import _lone_pip_fit

    face = np.zeros((100, 100), np.uint8)
    cv2.rectangle(face, (10, 10), (90, 90), 255, -1)
    pip_mask = np.zeros_like(face)
    cv2.circle(pip_mask, (50, 50), 7, 255, -1)
    pip = (50.0, 50.0, float(np.pi * 49), np.array([1.0, 0.0, 1.0]))
    assert _lone_pip_fit(pip, face, pip_mask) == 1.0
    label = pip_mask.copy()
    cv2.putText(label, "G12", (60, 58), cv2.FONT_HERSHEY_SIMPLEX, 0.5, 255, 2)
    assert _lone_pip_fit(pip, face, label) < 0.3
    small_face = np.zeros_like(face)
    cv2.rectangle(small_face, (38, 38), (62, 62), 255, -1)  # the mark fills most of its "face"
    assert _lone_pip_fit(pip, small_face, pip_mask) == 0.0


def test_die_size_is_not_set_by_specks():
    """Many small square specks (wood grain) and a few dice faces: the die side
    is the faces' (area-weighted); a single speck gives no size at all."""
    from vision.candidates import _die_side

    def square(side):
        m = np.zeros((80, 80), np.uint8)
        cv2.rectangle(m, (5, 5), (4 + side, 4 + side), 255, -1)
        return m

    masks = [square(9)] * 10 + [square(50)] * 3
    assert 48 <= _die_side(masks) <= 52
    assert _die_side([square(9)]) is None


def test_a_two_is_told_from_part_of_a_three_or_five():
    from vision.face import _free_places_empty

    mask2, pips2 = _pips_on_mask(PIP_LAYOUT[2])
    assert _free_places_empty(pips2, mask2, side=100, angle=0.0)
    mask3, _ = _pips_on_mask(PIP_LAYOUT[3])  # the middle pip was missed
    assert not _free_places_empty(pips2, mask3, side=100, angle=0.0)
    mask4, _ = _pips_on_mask(PIP_LAYOUT[4])  # the other diagonal was missed
    assert not _free_places_empty(pips2, mask4, side=100, angle=0.0)
    # Two pips side by side (part of a four or six), not on a diagonal.
    mask_row, pips_row = _pips_on_mask([(-1, -1), (1, -1)])
    assert not _free_places_empty(pips_row, mask_row, side=100, angle=0.0)


def test_a_two_is_told_from_a_three_missing_a_corner():
    """A three's middle pip and one corner look like a small two; its other
    corner, merged with the gap where two dice touch, was missed. Within the
    face's box (80 px, pips 22 px apart) the place beyond the middle pip
    holds it. A two's own places beyond its pips lie off its face."""
    from vision.face import _free_places_empty

    mask3, _ = _pips_on_mask(PIP_LAYOUT[3])
    _, part = _pips_on_mask([(0, 0), (1, 1)])  # the middle and one corner
    box = ((60.0, 60.0), (80.0, 80.0), 0.0)
    assert _free_places_empty(part, mask3, side=80, angle=0.0)  # without the box: a small two
    assert not _free_places_empty(part, mask3, side=80, angle=0.0, box=box)
    # A two's pips are its diagonal's ends: pip-sized marks a spacing beyond
    # them lie off its face and do not count (they would, inside the box).
    beyond, pips2 = _pips_on_mask(PIP_LAYOUT[2], size=160)
    for x in (14, 146):
        cv2.circle(beyond, (x, x), 5, 255, -1)
    assert _free_places_empty(pips2, beyond, side=80, angle=0.0, box=((80.0, 80.0), (80.0, 80.0), 0.0))
    assert not _free_places_empty(pips2, beyond, side=80, angle=0.0, box=((80.0, 80.0), (150.0, 150.0), 0.0))


def test_something_die_sized_cut_by_the_picture_edge_is_not_unexplained():
    """A blank die-sized thing in the picture is something the reader could not
    read (not sure); cut by the picture's edge it is no die wholly in the
    picture, and the read stays sure."""
    from vision.reader import read_throw

    frame, _ = render_throw([5, 2], seed=11, style=RenderStyle(coloured=0, touching=0, tilt=0, specks=0))
    h, w = frame.shape[:2]
    middle, edge = frame.copy(), frame.copy()
    cv2.rectangle(middle, (w // 2 - 28, h - 140), (w // 2 + 28, h - 84), (232, 238, 240), -1)
    cv2.rectangle(edge, (w - 30, h // 2 - 28), (w + 30, h // 2 + 28), (232, 238, 240), -1)
    assert read_throw(frame, expect=2).sure
    unread = read_throw(middle, expect=2)
    assert Reason.UNEXPLAINED in unread.reasons and not unread.sure
    cut = read_throw(edge, expect=2)
    assert cut.sure and sorted(cut.values) == [2, 5]


def test_pips_of_another_colour_but_the_same_lightness_are_read():
    """Red pips on a blue die, both of lightness about 125 (Lab): only colour
    tells them apart. Such reads are never sure by colour alone."""
    read = read_throw(red_pips_on_blue(), expect=3)
    assert read.values == (2, 5, 6)
    assert not read.sure and all(d.confidence <= 0.75 for d in read.dice)




def test_dice_that_do_not_stand_out_are_read_from_their_pips():
    """Wooden dice on wood: no face stands out, so each die is found from its
    pips. They are all read, and sure: the one's pip sits alone on a plain
    face that ends, wholly inside the picture."""
    read = read_throw(faces_on_wood([1, 2, 3, 4, 5, 6]))
    assert sorted(read.values) == [1, 2, 3, 4, 5, 6]
    assert all(d.confidence >= 0.9 for d in read.dice)
    assert read.sure
    for d in read.dice:
        assert 55 <= d.size <= 85  # the faces are 70 px
        assert len(d.pips) == d.value


def test_a_one_from_its_pip_near_the_picture_edge_is_not_sure():
    """A one found from its pip under 0.6 side from the picture's edge may
    be a larger face cut by that edge: it is read, never sure. A little
    farther in, it is sure."""
    img = faces_on_wood([1, 2, 3, 4, 5, 6])  # the one's pip is at x = 100, its face 70 px
    read = read_throw(img[:, 64:])  # the pip 36 px from the edge
    assert [d.confidence for d in read.dice if d.value == 1] == [0.6]
    assert not read.sure
    read = read_throw(img[:, 55:])  # the pip 45 px from the edge
    assert [d.confidence for d in read.dice if d.value == 1] == [1.0]
    assert read.sure


def test_pips_on_one_face():
    """Two pips lie on one face when no face edge runs between them."""
    from vision.pipfirst import _on_one_face

    gray = np.full((100, 200), 200, np.uint8)
    assert _on_one_face(gray, (40, 50), (100, 50), 6, 195, 200, 205)
    cv2.line(gray, (70, 0), (70, 99), 150, 3)  # the edge of a side face
    assert not _on_one_face(gray, (40, 50), (100, 50), 6, 195, 200, 205)


def test_a_crack_in_a_wooden_face_is_not_a_pip():
    """A wooden two with a crack running from one pip across its face (a
    mark fainter than the pips, and long): the crack joined to the pip is
    cut away from it, and does not count against the face's plainness.
    The two is read (table-phone d165e790cc)."""
    img = faces_on_wood([2, 4, 6])
    cv2.ellipse(img, (87, 126), (16, 5), 68, 0, 360, (100, 135, 165), -1, cv2.LINE_AA)
    cv2.circle(img, (81, 111), 6, (40, 45, 50), -1, cv2.LINE_AA)  # the pip lies over the crack
    assert sorted(read_throw(img).values) == [2, 4, 6]


def test_a_pip_joined_to_a_faint_mark_is_cut_from_it():
    """A pip run together with a fainter long mark (a crack, a shadow) makes
    one part that is not round; within a die's reach it is looked into again
    over Otsu's level, and the pip is found at its place."""
    from vision.pipfirst import _round_spots

    resp = np.zeros((100, 100), np.uint8)
    cv2.ellipse(resp, (50, 66), (16, 4), 90, 0, 360, 60, -1)
    cv2.circle(resp, (50, 50), 6, 150, -1)
    assert _round_spots(resp, 27, 600, 0.5) == []  # not looked into again
    spots = _round_spots(resp, 27, 600, 0.5, split_within=84)
    assert [(round(x), round(y)) for x, y, *_ in spots] == [(50, 50)]


def test_stray_marks_on_a_face_that_count():
    """Of the marks on a face between its pips, a weak round one counts
    against the face (the faint pip of a larger face: a four read as a two),
    a weak long one (a crack) does not, and a strong one does whatever its
    shape."""
    from vision.pipfirst import _face_ring, _plainness

    def stray(draw):
        resp = np.zeros((100, 100), np.uint8)
        pips = np.array([[35.0, 35.0, 113.0], [65.0, 65.0, 113.0]])
        for x, y, _ in pips:
            cv2.circle(resp, (int(x), int(y)), 6, 150, -1)
        draw(resp)
        mask = cv2.threshold(resp, 40, 255, cv2.THRESH_BINARY)[1]
        gray = 200 - resp // 2
        ring = _face_ring(gray, (50.0, 50.0), 0.42 * 70, [(x, y, 1.6 * 6) for x, y, _ in pips])
        return _plainness(ring, (mask, resp), pips)[0]

    assert stray(lambda r: None) == 0.0
    assert stray(lambda r: cv2.circle(r, (65, 35), 6, 60, -1)) > 0.02  # a faint pip
    assert stray(lambda r: cv2.ellipse(r, (42, 55), (14, 4), 80, 0, 360, 60, -1)) == 0.0  # a crack
    assert stray(lambda r: cv2.ellipse(r, (42, 55), (14, 4), 80, 0, 360, 150, -1)) > 0.02  # a dark stroke


def test_dots_that_are_no_die_face_are_not_read_from_their_pips():
    """Dark dots on the table that make no die face are not dice: a round mark
    with no face's edge round it (a screw head), a row of eight dots
    (lettering), and five dots in no face's pattern."""
    row = [(60 + 22 * k, 100, 6) for k in range(8)]
    scatter = [(420, 80, 6), (470, 95, 6), (440, 130, 6), (500, 150, 6), (415, 165, 6)]
    screw = [(320, 360, 7)]
    read = read_throw(faces_on_wood([], marks=row + scatter + screw))
    assert read.values == ()
    # The same marks beside a real face do not change its reading.
    read = read_throw(faces_on_wood([4], marks=scatter + screw))
    assert read.values == (4,)


def test_linked_groups():
    """Connected parts of an adjacency matrix, each a sorted list of indices."""
    from vision.pipfirst import _linked

    adj = np.eye(5, dtype=bool)
    adj[0, 3] = adj[3, 0] = adj[3, 4] = adj[4, 3] = True
    assert sorted(_linked(adj)) == [[0, 3, 4], [1], [2]]


def test_a_lone_pip_must_be_convex():
    """A one's pip is a disc; a key's arrow or letter of the same size is not
    (solidity under 0.8)."""
    from vision.face import _pip_solidity_fit

    face = np.full((100, 100), 255, np.uint8)
    disc = np.zeros_like(face)
    cv2.circle(disc, (50, 50), 8, 255, -1)
    assert _pip_solidity_fit((50.0, 50.0, float(np.count_nonzero(disc))), face, disc) == 1.0
    arrow = np.zeros_like(face)
    cv2.fillPoly(arrow, [np.int32([[50, 38], [62, 50], [54, 50], [54, 62], [46, 62], [46, 50], [38, 50]])], 255)
    assert _pip_solidity_fit((50.0, 52.0, float(np.count_nonzero(arrow))), face, arrow) == 0.0
    letter = np.zeros_like(face)
    cv2.putText(letter, "L", (42, 60), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 255, 4)
    ys, xs = np.nonzero(letter)
    pip = (float(xs[len(xs) // 2]), float(ys[len(ys) // 2]), float(len(xs)))
    assert _pip_solidity_fit(pip, face, letter) == 0.0


def _a_three_on_a_desk() -> np.ndarray:
    """A 480×640 desk (BGR, float32, a little noise) with a white die 44 px
    wide showing three black pips, its centre at (172, 222): things are drawn
    on it, then it is clipped to uint8."""
    rng = np.random.default_rng(1)
    img = np.empty((480, 640, 3), np.float32)
    img[:] = (110, 140, 170)
    img += rng.normal(0, 3, (480, 640, 1))
    cv2.rectangle(img, (150, 200), (194, 244), (235, 240, 242), -1)
    for u in (-1, 0, 1):
        cv2.circle(img, (172 + u * 12, 222 + u * 12), 4, (30, 30, 30), -1, cv2.LINE_AA)
    return img


def test_keys_of_a_laptop_at_the_picture_edge_are_not_ones():
    """A laptop cut by the picture's edge, its dark keys each with a light
    round symbol (key-sized, like a one): they are not read as dice, and the
    read is not sure (something there could not be told from a die) unless
    the number of dice due is known. A die beside it is read."""
    img = _a_three_on_a_desk()
    cv2.rectangle(img, (520, -5), (660, 250), (150, 150, 152), -1)
    for row in range(4):
        for col in range(2):
            x, y = 540 + col * 52, 20 + row * 52
            cv2.rectangle(img, (x, y), (x + 44, y + 44), (35, 35, 38), -1)
            cv2.circle(img, (x + 30, y + 22), 5, (200, 200, 200), -1, cv2.LINE_AA)
    img = np.clip(img, 0, 255).astype(np.uint8)
    read = read_throw(img)
    assert read.values == (3,)
    assert not read.sure and Reason.UNEXPLAINED in read.reasons
    # With the number of dice due known, the count tells whether a die was lost.
    assert read_throw(img, expect=1).sure
    assert not read_throw(img, expect=2).sure


@pytest.mark.parametrize("radius, sure", [(25, False), (8, True)])
def test_with_no_die_size_measured_something_die_sized_unread_still_makes_the_read_unsure(
        monkeypatch, radius, sure):
    """One die read, and no square face to measure the dice by (a camera at a
    slant sees side faces round every top face; here `_die_side` finds
    none): a light disc about a die's size beside it could be a die half
    seen, and the read is not sure. The size of the die read judges what is
    die-sized, so a small round speck leaves the read sure."""

    img = _a_three_on_a_desk()
    cv2.circle(img, (372, 282), radius, (235, 240, 242), -1)
    img = np.clip(img, 0, 255).astype(np.uint8)
    from vision import choose

    monkeypatch.setattr(choose, "_die_side", lambda masks: None)
    read = read_throw(img, learned=False)
    assert read.values == (3,)
    assert read.sure is sure
    assert (Reason.UNEXPLAINED in read.reasons) is not sure


def test_a_face_from_its_pips_is_told_from_its_side_face_and_specks():
    """Pips first, at an angle: a two whose side face shows three squashed
    pips just below it is a two; a six with a dark speck beside it is a six,
    not the three of one of its columns."""
    img = faces_on_wood([2, 6], edge=18)
    cx, cy, side = 100, 130, 70
    for u in (-1, 0, 1):  # the side face below the two, seen at a slant
        centre = (round(cx + u * 0.27 * side), round(cy + 0.5 * side + 9))
        cv2.ellipse(img, centre, (6, 4), 0, 0, 360, (40, 45, 50), -1, cv2.LINE_AA)
    cv2.circle(img, (342, 132), 4, (40, 45, 50), -1, cv2.LINE_AA)  # a speck by the six
    read = read_throw(img)
    assert sorted(read.values) == [2, 6]


def test_a_one_seen_at_an_angle_is_read_from_its_pip():
    """A one whose side face shows its pips just below the top face's edge
    (a low camera) is a one, not the side face's value. (A three beside
    them gives the pips' size.) With pips that near, the classical passes
    alone are not sure of it; the learned classifier keeps its value."""
    img = faces_on_wood([1, 1, 3], edge=18)
    for cx in (100, 300):
        for u in (-1, 0, 1):
            for v in (0, 1):  # a six's two rows, squashed by the slant
                centre = (round(cx + u * 0.27 * 70), round(130 + 35 + 10 + v * 13))
                cv2.ellipse(img, centre, (7, 5), 0, 0, 360, (40, 45, 50), -1, cv2.LINE_AA)
    read = read_throw(img, learned=False)
    assert sorted(read.values) == [1, 1, 3]
    assert not read.sure
    assert sorted(read_throw(img).values) == [1, 1, 3]


def test_a_lone_two_gives_the_size_to_look_for_pips_at():
    """A two alone, its face not standing out and its side face's pips
    squashed flat: its two round pips are enough to tell the die's size,
    and it is read."""
    img = faces_on_wood([2], edge=18)
    for u in (-1, 0, 1):
        cv2.ellipse(img, (round(100 + u * 19), 180), (6, 3), 0, 0, 360, (40, 45, 50), -1, cv2.LINE_AA)
    assert read_throw(img).values == (2,)


def test_dice_found_from_their_pips_give_the_size_of_what_is_die_sized():
    """Wooden dice on wood, found from their pips, and square specks of the
    grain 20-30 px wide on the table: the dice tell the die size (70 px), so
    the specks are not taken for something die-sized left unread, and the
    read is sure. Something the dice's size that is read as no die still
    leaves the read unsure."""
    img = faces_on_wood([2, 4, 6])
    for x, y, s in ((200, 300, 20), (420, 300, 20), (560, 400, 20), (300, 380, 30)):
        cv2.rectangle(img, (x, y), (x + s - 1, y + s - 1), (60, 110, 160), -1)
    read = read_throw(img)
    assert sorted(read.values) == [2, 4, 6]
    assert read.sure, read.reasons
    assert read.die_size == pytest.approx(70, abs=7)
    cv2.rectangle(img, (465, 305), (535, 375), (60, 110, 160), -1)
    read = read_throw(img)
    assert sorted(read.values) == [2, 4, 6]
    assert not read.sure
    assert Reason.UNEXPLAINED in read.reasons


def test_a_die_cut_by_the_picture_edge_is_no_part_of_the_throw():
    """Without a tray area, a face cut by the picture's edge showing one pip
    of its two is not read as a one; the read is not sure (something at
    the edge could not be told from a die) unless the number of dice due is
    known. A three wholly inside is read."""
    rng = np.random.default_rng(2)
    img = np.empty((480, 640, 3), np.float32)
    img[:] = (60, 70, 80)
    img += rng.normal(0, 3, (480, 640, 1))
    for x0, pips in ((-20, [(15, 15), (49, 49)]), (300, [(15, 15), (32, 32), (49, 49)])):
        cv2.rectangle(img, (x0, 200), (x0 + 64, 264), (225, 232, 236), -1)
        for px, py in pips:
            cv2.circle(img, (x0 + px, 200 + py), 6, (30, 30, 30), -1, cv2.LINE_AA)
    img = np.clip(img, 0, 255).astype(np.uint8)
    read = read_throw(img)
    assert read.values == (3,)
    assert not read.sure
    assert read_throw(img, expect=1).sure  # the count due tells no die in the throw was lost


def test_pips_run_together_by_a_shadow_are_told_apart():
    """Three pips (response 200) joined by a shadow on their face (response
    60, over the pip level): the joined part is looked into again, and the
    three round pips come out."""
    from vision.pipfirst import _round_spots

    resp = np.zeros((80, 160), np.uint8)
    cv2.rectangle(resp, (30, 34), (130, 46), 60, -1)
    for x in (40, 80, 120):
        cv2.circle(resp, (x, 40), 9, 200, -1)
    spots = _round_spots(resp, 50, 400, 0.5, split_within=120)
    assert [round(s[0]) for s in sorted(spots)] == [40, 80, 120]
    assert all(abs(s[1] - 40) < 1 and 200 < s[2] < 300 for s in spots)
    # Wider than a die: a tray's rim or a cable, not looked into.
    assert _round_spots(resp, 50, 400, 0.5, split_within=60) == []


def test_a_calibrated_read_short_of_the_dice_due_looks_for_their_pips():
    """After a calibration (the die size known), dice whose faces do not
    stand out are looked for by their pips only while the read is in doubt:
    when fewer dice were read than are due, or none at all (issue 38: black
    dice on black felt, read as no dice, so the calibration measured none)."""
    img = faces_on_wood([2, 3, 4, 5, 6])
    assert sorted(read_throw(img, die_size=70).values) == [2, 3, 4, 5, 6]  # nothing read: in doubt
    # A white two that stands out, read surely: with no count due, no doubt, and no look by pips.
    cv2.rectangle(img, (465, 315), (535, 385), (245, 245, 245), -1)
    for centre in ((481, 331), (519, 369)):
        cv2.circle(img, centre, 6, (30, 30, 30), -1, cv2.LINE_AA)
    assert read_throw(img, die_size=70).values == (2,)
    read = read_throw(img, die_size=70, expect=6)
    assert sorted(read.values) == [2, 2, 3, 4, 5, 6]


