"""Glossy dice whose sheen hides some pips (issue 38, Durchmarsch trays, tenth round): parts of two
photo-realistic renders (``tests/fixtures/renders/crops``, cut from trays-00328 and trays-00382 of
the measured family) and the pip-first stage's merge (:func:`vision.pipfirst.add_pip_dice`)."""

import os
from dataclasses import replace

import cv2
import pytest

from vision.config import DEFAULT
from vision.dice import Die, is_sure
from vision.pipfirst import add_pip_dice
from vision.reader import read_throw
from vision.reasons import Doubt

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


def test_a_pip_first_five_replaces_a_doubted_six_that_took_in_a_side_faces_pip():
    five_pips = ((100, 100), (140, 100), (120, 120), (100, 140), (140, 140))
    six = replace(_die(6, five_pips + ((120, 168),), 0.43), doubts=(Doubt.LOOSE_FIT,))
    five = _die(5, five_pips, 1.0)
    assert [d.value for d in add_pip_dice([six], [five])] == [5]


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


@pytest.mark.parametrize("whole, sure", [(DEFAULT.faces.hat_whole, True), (7, False)])
def test_a_glossy_five_read_by_what_stands_out_round_its_pips_is_sure(whole, sure):
    # trays-00382: a red five whose sheen is as light as its pips, read only by what stands out round
    # them; no pip lost in a sheen makes a five, so it is sure (``faces.hat_whole``), unless the
    # setting caps every such face.
    config = replace(DEFAULT, faces=replace(DEFAULT.faces, hat_whole=whole))
    read = read_throw(_crop("trays-00382-five.jpg"), die_size=42, expect=3, config=config)
    assert sorted(d.value for d in read.dice) == [2, 4, 5]
    five, = (d for d in read.dice if d.value == 5)
    assert is_sure(five, config.sure_confidence) is sure
    assert read.sure is sure
