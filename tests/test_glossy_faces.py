"""Glossy dice whose sheen hides some pips (issue 38, Durchmarsch trays, tenth round): part of a
photo-realistic render (``tests/fixtures/renders/crops``, cut from trays-00328 of the measured
family) and the pip-first stage's merge (:func:`vision.pipfirst.add_pip_dice`)."""

import os

import cv2

from vision.dice import Die
from vision.pipfirst import add_pip_dice
from vision.reader import read_throw

CROPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "renders", "crops")


def _crop(name):
    image = cv2.imread(os.path.join(CROPS, name))
    assert image is not None, name
    return image


def _die(value, pips, confidence, size=50.0):
    """A die read at the middle of its ``pips`` (px)."""
    x = sum(p[0] for p in pips) / len(pips)
    y = sum(p[1] for p in pips) / len(pips)
    h = size / 2
    return Die(value=value, center=(x, y), size=size, confidence=confidence, pips=tuple(pips),
               corners=((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)))


FOUR = ((100, 100), (125, 100), (100, 125), (125, 125))


def test_a_pip_first_two_made_of_a_fours_pips_gives_way_to_the_four():
    four = _die(4, FOUR, 0.79)
    two = _die(2, FOUR[1:3], 1.0, size=35.0)  # two of its pips, on the four's middle
    assert [d.value for d in add_pip_dice([four], [two])] == [4]


def test_a_surer_pip_first_die_still_replaces_a_weaker_reading_with_other_pips():
    # A speck and a side face's dash read as a loose four: the two found from other pips is the die.
    loose = _die(4, ((90, 90), (140, 92), (91, 140), (160, 150)), 0.5)
    two = _die(2, ((103, 103), (127, 127)), 1.0, size=35.0)
    assert [d.value for d in add_pip_dice([loose], [two])] == [2]


def test_a_red_four_with_two_pips_in_its_sheen_is_not_read_as_a_sure_two():
    # trays-00328: two pips stand out, two lie in the sheen; the pip-first stage read the two that stand
    # out as a sure two, alone in the crop (no other die's pips to measure the face by).
    read = read_throw(_crop("trays-00328-four.jpg"), die_size=54, expect=1)
    assert [d.value for d in read.dice] == [4]
    assert not (read.sure and read.dice[0].value != 4)
