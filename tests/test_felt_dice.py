"""Dice of the felt's own colour, found by their pips when a calibrated throw is short of its count
(issue 38, Durchmarsch: :mod:`vision.felt_dice`)."""

import cv2
import numpy as np

from vision.config import DEFAULT
from vision.dice import Die
from vision.felt_dice import felt_dice
from vision.pip_test import pips_confirm

SIDE = 80.0
OUTLINE = np.float32([(20, 20), (620, 20), (620, 460), (20, 460)])  # the tray's outline, px


def _felt(*pips, dark=(), felt=(30, 30, 32)):
    """Black felt 640×480 with light pips (and ``dark`` spots) of 8 px radius at the points given (px)."""
    img = np.full((480, 640, 3), felt, np.uint8)
    for pts, colour in ((pips, (235, 235, 235)), (dark, (5, 5, 5))):
        for x, y in pts:
            cv2.circle(img, (x, y), 8, colour, -1, cv2.LINE_AA)
    return img


def _read(x, y, value=1):
    """A die read already at ``(x, y)`` px, its pip in the middle."""
    h = SIDE / 2
    return Die(value=value, center=(x, y), size=SIDE, confidence=1.0, pips=((x, y),),
               corners=((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)))


def _values(dice):
    return sorted((d.value, round(d.center[0]), round(d.center[1])) for d in dice)


def test_a_black_one_on_black_felt_is_found_by_its_light_pip_and_is_sure():
    got = felt_dice(_felt((200, 200), (450, 300)), [_read(450, 300)], SIDE, 1, OUTLINE)
    assert _values(got) == [(1, 200, 200)]
    assert got[0].confidence >= DEFAULT.sure and got[0].doubts == ()


def test_a_three_and_a_two_of_the_felts_colour_are_read_by_their_pips():
    three = [(172, 172), (200, 200), (228, 228)]  # 0.35 side apart on the diagonal
    two = [(400, 280), (443, 323)]  # 0.76 side apart: one face, linked
    got = felt_dice(_felt(*three, *two), [], SIDE, 2, OUTLINE)
    assert _values(got) == [(2, 422, 302), (3, 200, 200)]


def test_more_faces_than_dice_missing_is_a_guess_and_finds_none():
    img = _felt((200, 200), (450, 300))
    assert felt_dice(img, [], SIDE, 1, OUTLINE) == []
    assert len(felt_dice(img, [], SIDE, 2, OUTLINE)) == 2
    assert felt_dice(img, [], SIDE, 0, OUTLINE) == []


def test_a_light_mark_on_the_rim_or_beside_a_die_read_is_no_die():
    # Half a side from the outline or nearer: the rim, the table beyond.
    assert felt_dice(_felt((50, 240)), [], SIDE, 1, OUTLINE) == []
    # Within 0.8 of a side of a die read: its side face's pip or a glint on its edge.
    assert felt_dice(_felt((300, 240)), [_read(360, 240, 5)], SIDE, 1, OUTLINE) == []


def test_the_shade_in_a_light_pips_hollow_is_no_dark_one():
    """A light pip with a dark crescent just above it (its hollow's shade, 0.22 side off): one die, a one
    read from the light pip; the dark spot alone would pass the pip test as a dark one (mock tray 195)."""
    img = _felt((300, 240), dark=[(300, 222)], felt=(120, 70, 40))
    got = felt_dice(img, [], SIDE, 2, OUTLINE)
    assert _values(got) == [(1, 300, 240)]
    assert len(felt_dice(_felt(dark=[(300, 222)], felt=(120, 70, 40)), [], SIDE, 2, OUTLINE)) == 1


def test_the_pip_test_looks_at_the_kind_of_pips_asked_for():
    dark = _felt(dark=[(200, 200)], felt=(200, 200, 200))
    assert pips_confirm(dark, 200, 200, SIDE, 1) is not None
    assert pips_confirm(dark, 200, 200, SIDE, 1, light=False) is not None
    assert pips_confirm(dark, 200, 200, SIDE, 1, light=True) is None
    assert pips_confirm(_felt((200, 200)), 200, 200, SIDE, 1, light=True) is not None


def test_a_light_spot_on_a_hand_over_the_tray_is_no_die_of_the_felts_colour():
    """A hand's skin over black felt with a light speck on a finger (renders trays-00304, -00335, a hand over
    the tray: read as ones before): the face round it is not the felt's colour."""
    img = _felt()
    cv2.rectangle(img, (150, 120), (330, 330), (150, 175, 215), -1)  # skin, BGR
    cv2.circle(img, (240, 225), 8, (245, 250, 255), -1, cv2.LINE_AA)
    assert felt_dice(img, [], SIDE, 1, OUTLINE) == []
    dark_die = _felt((240, 225))  # the same spot on the felt: a one
    assert _values(felt_dice(dark_die, [], SIDE, 1, OUTLINE)) == [(1, 240, 225)]


def test_one_pip_of_a_die_whose_lit_side_face_shows_is_no_die_of_the_felts_colour():
    """One light pip of a glossy black die's dark top, its lit side face just below it (render trays-00371: a
    three whose other pips the shade hid, read as a one before): a quarter or more of the face round the
    pip is not the felt's colour."""
    img = _felt((240, 225))
    cv2.rectangle(img, (206, 240), (274, 262), (200, 200, 200), -1)
    assert felt_dice(img, [], SIDE, 1, OUTLINE) == []
