"""The Fenn reader on Blender renders it was never tuned on (``tests/fixtures/renders/fenn``, made by
``benchmarks/blender_scenes.py``: wood-grain, planks, checked and striped tables, leather and wooden
boards, a hand or a lifted die in some). Each read is given the board's true corners (calibrated) unless
the test finds the board itself."""

import json
import os
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.config import DEFAULT
from vision.diceset import DICE_SETS
from vision.fenn import BoardArea, BoardError, FennReason, find_board, read_fenn
from vision.fenn_board import find_strip

RENDERS = os.path.join(os.path.dirname(__file__), "fixtures", "renders", "fenn")


def _labels() -> dict:
    with open(os.path.join(RENDERS, "labels.json"), encoding="utf-8") as f:
        return {lab["image"]: lab for lab in json.load(f)}


def _read(name: str):
    """``(label, read)`` of render ``name`` read with its true board corners and its dice set."""
    label = _labels()[name]
    frame = cv2.imread(os.path.join(RENDERS, name))
    board = BoardArea(tuple(map(tuple, label["board_corners"])), (frame.shape[1], frame.shape[0]))
    return label, read_fenn(frame, board, dice=DICE_SETS[label.get("dice_set", "miwin")])


def _want(label) -> list:
    """The truth as the read gives it: blue, red (on their fields), then black (beside the board)."""
    dice = sorted(label["dice"], key=lambda d: ("blue", "red").index(d["colour"]))
    return [(d["colour"], d["value"], d["field"]) for d in dice] + [("black", label["black"]["value"], None)]


def _got(r) -> list:
    return [(d.colour, d.value, d.field) for d in r.dice]


@pytest.mark.skipif(not os.path.exists(os.path.join(RENDERS, "labels.json")), reason="no Blender renders here")
def test_blender_renders_are_never_read_surely_and_wrongly_and_a_hand_never_sure():
    """Every render fixture: a scene read surely is read exactly and a hand over the board is never
    sure. (A die held just above its field is measured by the benchmark; docs/fenn-camera.md.)"""
    exact = 0
    for name, label in _labels().items():
        _, r = _read(name)
        if label.get("hand"):
            assert not r.sure, name
        if not label["still"]:
            continue
        assert _got(r) == _want(label) or not r.sure, name
        exact += _got(r) == _want(label)
    assert exact >= 10


def _fields_off(corners, truth) -> float:
    """How far (fields) the board found with ``corners`` lies from its ``truth`` at its worst corner, either
    end taken for field 1 (both ``4×2`` frame px)."""
    corners, truth = np.float64(corners), np.float64(truth)
    err = min(np.hypot(*(corners[order] - truth).T).max()
              for order in ([0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [3, 2, 1, 0]))
    return float(err / (np.hypot(*(truth[1] - truth[0])) / 9))


def test_the_board_found_in_a_render_is_the_board_or_none():
    """``find_board`` on each render fixture's frame alone: it finds the board within 0.3 of a field on
    most, and where it finds none the players touch the ends; it never takes a strip of the table for
    the board (with dice hiding the lines at an end, never one field off: the reads would be sure of
    wrong fields; fenn-00038's strip, one field off onto the table, is slid back by where the board's
    sides show). fenn-00047's board, whose lines hardly show, is found by its dice, its far end 0.28 of a
    field short (its dice read on their fields). Frames with a hand over the board are left out: the
    players calibrate on the start position, and a hand over an end may hide it (fenn-00422's board is
    found one field off under the hand; its read asks, as something is over the board)."""
    labels = {name: label for name, label in _labels().items() if not label.get("hand")}
    found = []
    for name, label in labels.items():
        frame = cv2.imread(os.path.join(RENDERS, name))
        try:
            corners = find_board(frame).corners
        except BoardError:
            continue
        assert _fields_off(corners, label["board_corners"]) < 0.3, name
        found.append(name)
    assert len(found) >= len(labels) // 2, found


def test_a_board_whose_lines_hardly_show_is_found_by_the_dice_on_it():
    """fenn-00402 (dark lines on black leather, a red 2 beside the blue die's shadow): too few of the
    lines between fields show for a strip to be a board by them alone (:func:`vision.fenn_board.find_strip`
    finds none), but blue and red read surely on its fields make it the board (``board.fallback_lines``);
    with that off, the players touch its ends."""
    frame = cv2.imread(os.path.join(RENDERS, "fenn-00402.jpg"))
    assert find_strip(frame, DEFAULT.board) is None
    assert _fields_off(find_board(frame).corners, _labels()["fenn-00402.jpg"]["board_corners"]) < 0.25
    strict = replace(DEFAULT, board=replace(DEFAULT.board, fallback_lines=DEFAULT.board.min_lines))
    with pytest.raises(BoardError):
        find_board(frame, config=strict)


def test_a_strip_of_a_checked_cloth_with_no_game_die_on_it_is_no_board():
    """fenn-start-00457 (the start position: a dark leather board on a black-and-white checked cloth): a
    band of the checks two squares wide, nine squares long, shows more of the lines between "fields" than
    the board, whose ends the dice hide; ``find_board`` took it (9.7 fields off), and every read on it
    would miss the dice. Blue and red stand on the board (F2): a strip without both on it is no board,
    and where no strip with them on it is found the players touch the board's ends."""
    label = _labels()["fenn-start-00457.jpg"]
    frame = cv2.imread(os.path.join(RENDERS, "fenn-start-00457.jpg"))
    try:
        corners = find_board(frame).corners
    except BoardError as e:
        assert "blue and red do not both stand" in str(e)
        return
    assert _fields_off(corners, label["board_corners"]) < 0.3


def test_a_hand_of_the_boards_colour_over_a_die_is_never_sure_on_the_board_calibrated_at_the_start():
    """fenn-00422: a hand, near the colour of a light wooden board, covers its fields 6-9 and the blue die
    but one pip (read a blue 1, its square hiding two lines); on the board as found and measured on the
    start position (its corners and tilt given) the line between fields 8 and 9, two thirds clear of that
    square, is hidden under the hand while the others show: something is over the board."""
    label = _labels()["fenn-00422.jpg"]
    frame = cv2.imread(os.path.join(RENDERS, "fenn-00422.jpg"))
    board = BoardArea(((1115.28, 726.68), (495.57, 635.66), (506.50, 563.36), (1125.42, 659.62)), (1640, 1232),
                      along=0.00103, across=0.0005, across_known=True)
    r = read_fenn(frame, board, dice=DICE_SETS[label["dice_set"]])
    assert label["hand"] and not r.sure and FennReason.FOREIGN in r.reasons


def test_a_die_held_above_its_field_in_a_render_is_never_sure():
    """fenn-00004: the blue die held 15-25 mm above field 1: its pips spread wider than the red die's,
    so something is over the board."""
    label, r = _read("fenn-00004.jpg")
    assert label["lifted"] == "blue" and not r.sure and FennReason.FOREIGN in r.reasons


def test_a_hand_of_the_boards_colour_hides_a_field_line_and_is_never_sure():
    """fenn-00193: a pale arm reaches over the end of a pine board, a colour too near the board's to
    stand out; the line between fields 8 and 9, where no die stands, is hidden under it while the
    others are seen, so something is over the board."""
    label, r = _read("fenn-00193.jpg")
    assert label["hand"] and not r.sure and FennReason.FOREIGN in r.reasons


def test_a_nine_whose_corner_pip_reaches_the_rim_is_read_nine():
    """fenn-00022 (the third layout: 9 a 3×3 grid turned 45°): the blue 9's top pip lies at its face's
    rim and was cut off with the face (read 8, asked). Faces are symmetric through their middle, so
    the pip without a partner points to the lost one, and the mark there is counted."""
    label, r = _read("fenn-00022.jpg")
    blue = next(d for d in label["dice"] if d["colour"] == "blue")
    assert label["layout"] == "third" and blue["value"] == 9
    assert ("blue", 9, blue["field"]) in _got(r)


def test_a_fields_stitches_are_no_die():
    """fenn-00146: field 9 of a burgundy board with light stitched lines, its stitches marks of no
    die's colour in no face's pattern, is not read as a die."""
    _, r = _read("fenn-00146.jpg")
    assert [d.colour for d in r.dice] == ["blue", "red", "black"] and FennReason.COLOURS not in r.reasons


def test_a_fields_number_is_not_a_die_and_a_stray_is_not_the_black_die_in_renders():
    """fenn-00094's field 9 (a light frame round a light 9 whose loop looks like a pip) is no die (a
    lone pip of no die's colour on the board: the game's 1s are blue or red, F1); fenn-00149's black
    die shows 2 beside a wooden d6 like the set's showing 4: both are seen and the players are asked
    which is the game's."""
    _, r = _read("fenn-00094.jpg")
    assert [d.colour for d in r.dice] == ["blue", "red", "black"] and FennReason.COLOURS not in r.reasons
    _, r = _read("fenn-00149.jpg")
    assert ("black", 2, None) in _got(r)
    assert [d.value for d in r.strays] == [4] and FennReason.COLOURS in r.reasons and not r.sure


def test_a_red_1_is_found_beside_a_dark_speck_or_a_blue_die_in_renders():
    """A face's pips are of one colour, so the red 1 of fenn-00011 is not joined with a dark speck on
    its wooden face, and the red 1 of fenn-00197 stands alone though the blue die's pips lie within a
    side of it."""
    for name in ("fenn-00011.jpg", "fenn-00197.jpg"):
        label, r = _read(name)
        red = next(d for d in label["dice"] if d["colour"] == "red")
        assert ("red", 1, red["field"]) in _got(r), name


def test_a_faces_pips_are_found_beside_a_dark_blot_larger_than_they():
    """A dark blot beside a face (its edge in its own shadow), twice a pip's size, grouped with the
    pips: fenn-00005's black 4 on a white table (one pip linked to the blot) and fenn-00115's blue 9 on
    a checked cloth were missed, the blot taken as the size of the face's pips. Both are read, and the
    whole read is exact."""
    for name, colour, value in (("fenn-00005.jpg", "black", 4), ("fenn-00115.jpg", "blue", 9)):
        label, r = _read(name)
        assert (colour, value) in [(d.colour, d.value) for d in r.dice], name
        assert _got(r) == _want(label), name


def test_a_black_die_showing_more_pips_than_a_d6_is_the_games_beside_a_d6_like_the_set():
    """fenn-00008: the black die shows 8 beside a wooden d6 with black pips showing 6, as like the set.
    No d6 shows 8, so the 8 is the game's black die and the 6 a stray, without a doubt; the read is
    exact and sure."""
    label, r = _read("fenn-00008.jpg")
    assert label["black"]["value"] == 8 and [s["value"] for s in label["stray"]] == [6]
    assert _got(r) == _want(label)
    assert [d.value for d in r.strays] == [6] and r.sure


def test_a_lamps_shine_on_the_board_is_not_something_over_it():
    """fenn-00047: a lamp's shine lies over fields 1-3 of a dark leather board, far lighter than the
    board; the lines between the fields show through it, so it is a light on the board, not a hand,
    and the read is exact and sure. (A hand over the board hides the lines: fenn-00193 above.)"""
    label, r = _read("fenn-00047.jpg")
    assert label["still"] and _got(r) == _want(label)
    assert FennReason.FOREIGN not in r.reasons and r.sure


def test_a_wooden_2_on_a_table_of_its_wood_is_found_by_its_outline():
    """fenn-00019: the black die shows 2 on a pine table of its own colour, so round most of its face
    the table is as light as the face; its rounded rim and shaded sides outline it on all four sides.
    It was missed (read 5 from its side's pips, asked); the read is exact and sure."""
    label, r = _read("fenn-00019.jpg")
    assert label["black"]["value"] == 2 and label["table"] == "pine grain"
    assert _got(r) == _want(label) and r.sure


def test_a_2s_pip_beside_a_smaller_pip_of_its_side_is_paired():
    """fenn-00112: one of the black 2's pips is grouped with a pip of its side face, squashed to
    0.6 of its area; only pips of a 2's likeness (0.75-1.33 times) count against it, so the 2 is found
    beside the board and the read is exact."""
    label, r = _read("fenn-00112.jpg")
    assert label["black"]["value"] == 2
    assert ("black", 2, None) in _got(r) and _got(r) == _want(label)


def test_a_nine_whose_two_rim_pips_are_left_out_is_never_sure():
    """fenn-00251 (fresh in issue 38's seventeenth round, read surely and wrongly): a blue 9 of the
    third layout, its middle row reaching the face's rim, lies turned on a burgundy board. Its two rim
    pips were cut off with the table round the face, a pair at once, so the seven read stayed
    symmetric: a sure 7. Two marks of the pips' colour inside the face's square, each the other's
    mirror through the pips' middle, are pips left out: the read asks."""
    label, r = _read("fenn-00251.jpg")
    blue = r.die("blue")
    assert blue is not None and blue.field == 7
    assert blue.value == 9 or not r.sure
    assert _got(r)[1:] == _want(label)[1:]  # the red 4 and the black 4 as they are


def test_a_lamps_fall_of_light_along_a_dark_board_is_nothing_over_it():
    """Render fenn-00368: black leather under two area lamps, its field 9's end some 70 Lab units darker
    than the lit fields 2-5 beside the numbers. Against the board's one median colour those parts were
    something over the board, and the still scene was asked about as foreign on either board. With the
    board's fall of light taken out (a plane in the lightness, fitted to the board's free part), it is read
    exactly and surely, found or calibrated."""
    label, r = _read("fenn-00368.jpg")
    assert _got(r) == _want(label) and r.sure, r.reasons
    frame = cv2.imread(os.path.join(RENDERS, "fenn-00368.jpg"))
    found = read_fenn(frame, find_board(frame))
    assert FennReason.FOREIGN not in found.reasons


def _found(name):
    """``(label, frame, board found in the frame alone)`` of render fixture ``name``."""
    label = _labels()[name]
    frame = cv2.imread(os.path.join(RENDERS, name))
    return label, frame, find_board(frame)


def test_a_board_found_is_as_wide_as_its_fields_are_long():
    """Fields are square (fenn.md): lines stitched or printed along a board's sides, inside them, are not its
    sides. Every board found in a render fixture is as wide as the board within 9 % (fenn-00115's had been
    0.82 of it, fenn-00251's 1.14; 0.96-1.01 now, and 0.92 for fenn-00047's, whose lines hardly show: found
    by its dice, its far end short), so a die's pips spread alike on its plane however the die is turned."""
    widths = {}
    for name in (name for name, label in _labels().items() if not label.get("hand")):  # as the test above
        try:
            label, _frame, board = _found(name)
        except BoardError:
            continue
        c, t = np.float64(board.corners), np.float64(label["board_corners"])
        width = lambda q: (np.hypot(*(q[3] - q[0])) + np.hypot(*(q[2] - q[1]))) / 2  # noqa: E731
        widths[name] = width(c) / width(t)
    assert len(widths) >= 10 and all(abs(w - 1) <= 0.09 for w in widths.values()), widths


def test_a_black_die_beside_a_board_found_is_no_die_held_up():
    """fenn-00356: the black die lies two to three fields beside the board found in the frame, whose plane,
    its corners a pixel or two off, tilts across by what no camera gave (its camera's nadir a field off
    across); within the tilt across not known it is no die held up, and the read is sure and exact."""
    label, frame, board = _found("fenn-00356.jpg")
    r = read_fenn(frame, board, dice=DICE_SETS[label.get("dice_set", "miwin")])
    assert sorted(_got(r)) == sorted(_want(label)) and FennReason.FOREIGN not in r.reasons
    assert not board.across_known and r.sure


def test_a_one_whose_outline_takes_in_a_side_or_a_touching_die_is_read_surely():
    """fenn-00112's red 1 shows a wooden side of its colour to the camera, fenn-00197's touches the
    blue die, so the outline round the pip took them in and its middle lay a third of a side off the
    pip: the 1 was read unsure (0.3, 0.05). A 1's pip is its face's middle: both reads are exact and
    sure."""
    for name in ("fenn-00112.jpg", "fenn-00197.jpg"):
        label, r = _read(name)
        assert _got(r) == _want(label), name
        assert r.sure, (name, r.reasons)


def test_an_eight_in_a_whole_pattern_is_read_surely_though_its_outline_takes_in_a_side():
    """fenn-00067's black 8 on a striped cloth shows a side face whose pips the outline takes in: eight
    pips of one size about the face's middle, read 0.57 sure for the outline alone. Found by a search
    of its own (a die's square round its pips), such a face's outline counts less: the read is exact
    and sure."""
    label, r = _read("fenn-00067.jpg")
    assert ("black", 8, None) in _got(r) and _got(r) == _want(label)
    assert r.sure, r.reasons


def test_a_side_faces_squashed_pips_are_not_read_with_the_top_face():
    """fenn-00408: the black 4 lies near the frame's edge, its side seen at a slant; the square found for
    it through the board found in the frame took in two of its side's pips, squashed ovals, which made a
    regular 6 with the top's four, read surely (a sure and wrong read). A side's pips are left out of the
    face: the black die is read 4, and not surely, for its square held pips it was not. The board is the
    one ``find_board`` found in the render as made (the fixture's table is blurred a hand's width from the
    board and dice, to keep it small; its own board is found otherwise)."""
    label = _labels()["fenn-00408.jpg"]
    frame = cv2.imread(os.path.join(RENDERS, "fenn-00408.jpg"))
    board = BoardArea(((397.7, 567.4), (1092.4, 332.6), (1119.4, 413.1), (423.5, 644.4)),
                      (frame.shape[1], frame.shape[0]), across_known=False)
    r = read_fenn(frame, board, dice=DICE_SETS[label.get("dice_set", "miwin")])
    black = r.die("black")
    assert black is not None and black.value == label["black"]["value"] == 4
    assert not r.sure


def test_a_face_read_unsurely_in_a_square_far_larger_than_the_die_is_read_again_at_its_size():
    """fenn-00499 (a gingham cloth, re-saved at JPEG quality 85 to keep it small): the square found for
    the black 8 beside the board is 1.5 times the die's side, and its face in it is read 8 unsurely. Read
    again in a square of the die's size round its pips, it is read 8 surely: the read is exact and sure.
    Without the second look (``reread_large`` out of reach) it asks ``hard_to_read``."""
    label, r = _read("fenn-00499.jpg")
    assert [(d.colour, d.value, d.field) for d in r.dice] == _want(label) and r.sure
    frame = cv2.imread(os.path.join(RENDERS, "fenn-00499.jpg"))
    board = BoardArea(tuple(map(tuple, label["board_corners"])), (frame.shape[1], frame.shape[0]))
    once = replace(DEFAULT, board=replace(DEFAULT.board, reread_large=3.0))
    r = read_fenn(frame, board, dice=DICE_SETS[label["dice_set"]], config=once)
    assert r.die("black").value == 8 and FennReason.HARD_TO_READ in r.reasons


def test_a_2_is_found_beside_a_blot_of_another_colour_and_on_a_smaller_die():
    """fenn-00402: a red 2 on a pine board whose top pip lies beside the blue die's shadow, a blot of
    twice a pip's area and of another colour grouped with it, taken for the face's pip and a third
    pip on the 2's face; fenn-00407: a black 2 of an 18 mm die beside the board, its pips 0.78 of the
    set's die's 2 apart, under the 0.8 looked for. Both were missing; both reads are exact and sure."""
    for name in ("fenn-00402.jpg", "fenn-00407.jpg"):
        label, r = _read(name)
        assert _got(r) == _want(label), name
        assert r.sure, (name, r.reasons)
