"""Pips beside dice (issue 38, Durchmarsch trays, thirteenth round), learnt from photo-realistic renders:
a one's pip and the pip of its side face seen beside it (foreshortened, about half its area) are no two
(:attr:`vision.config.PipsConfig.two_areas`; the crop is of render trays-00483: a cream one under a sun
lamp beside a six); a one touching a die read is a die (:attr:`vision.config.PipsConfig.one_clear`;
renders trays-00510, trays-00537); and a part of a tray's picture that no die explains and that shows no
pip is no die (:func:`vision.candidates.shows_pip`; render trays-00490 in ``tests/test_tray_tables.py``);
fourteenth round: a one read as a loose two with its side face's pip is the one
(:func:`vision.whole_face.one_of_two`; renders trays-00572, trays-00584)."""

import os
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.candidates import shows_pip
from vision.config import DEFAULT, ConfigError, PipsConfig
from vision.dice import Die
from vision.pipfirst import pip_dice
from vision.reader import read_throw
from vision.reasons import Doubt
from vision.whole_face import one_of_two

CROPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "renders", "crops")


@pytest.mark.parametrize("two_areas, values", [(DEFAULT.pips.two_areas, [1, 6]), (10.0, [2, 6])])
def test_a_one_and_its_side_faces_pip_are_no_two(two_areas, values):
    """Read with the dice's size known and the count due, as a game reads them: the one is a one, and
    sure; were pips of any two areas a two (``two_areas`` 10), the one and its side's pip were a sure two."""
    image = cv2.imread(os.path.join(CROPS, "trays-00483-one.jpg"))
    config = replace(DEFAULT, pips=replace(DEFAULT.pips, two_areas=two_areas))
    read = read_throw(image, die_size=54.7, expect=2, config=config)
    assert sorted(read.values) == values
    assert read.sure


@pytest.mark.parametrize("setting", [{"two_areas": 0.5}, {"one_clear": 0.2}])
def test_settings_out_of_range_are_refused(setting):
    with pytest.raises(ConfigError):
        PipsConfig(**setting)



@pytest.mark.parametrize("one_clear, ones", [(DEFAULT.pips.one_clear, 1), (1.05, 0)])
def test_a_one_touching_a_die_read_is_found_by_its_pip(one_clear, ones):
    """A cream one whose face does not stand out from a light desk, touching a two read from its face
    (their middles a side apart): its pip alone finds it, unless ones must lie farther from the dice
    read (1.05 sides, the rule before: renders 510 and 537 lost such ones)."""
    gray = (np.full((200, 260), 120.0) + np.random.default_rng(1).normal(0, 2, (200, 260))).clip(0, 255)
    gray = gray.astype(np.uint8)
    for cx, pips in ((100, ((-10, -10), (10, 10))), (140, ((0, 0),))):
        cv2.rectangle(gray, (cx - 20, 80), (cx + 19, 119), 200, -1)
        for px, py in pips:
            cv2.circle(gray, (cx + px, 100 + py), 4, 30, -1)
    two = Die(2, (100.0, 100.0), 40.0, ((80, 80), (120, 80), (120, 120), (80, 120)), 1.0, pips=((90, 90), (110, 110)))
    config = replace(DEFAULT, pips=replace(DEFAULT.pips, one_clear=one_clear))
    found = pip_dice(gray, [two], 40.0, calibrated=True, config=config)
    assert [(d.value, d.center) for d in found] == [(1, (140.0, 100.0))] * ones


def _part(side=40):
    """A grey picture with a soft light patch of a face's size (lit felt between shadows), and its
    outline: ``(gray H×W uint8, contour N×1×2 int32)``."""
    yy, xx = np.mgrid[0:200, 0:200]
    gray = (90 + 60 * np.exp(-((xx - 100) ** 2 + (yy - 100) ** 2) / (2 * side ** 2))).astype(np.uint8)
    cnt = np.array([[[80, 80]], [[120, 80]], [[120, 120]], [[80, 120]]], np.int32)
    return gray, cnt


def test_a_plain_patch_shows_no_pip_and_a_face_with_a_pip_does():
    gray, cnt = _part()
    assert not shows_pip(cnt, gray, 40.0)
    cv2.circle(gray, (100, 100), 4, 20, -1)  # a pip: 0.2 of the side wide
    assert shows_pip(cnt, gray, 40.0)


def _two(pips, size):
    """A :class:`Die` read as a loose two of ``pips`` (``(x, y)`` px) and ``size`` px, as the face stage
    reads a one beside its side face's pip: pips only, a loose fit."""
    mx, my = np.mean(pips, axis=0)
    r = size / 2
    return Die(2, (float(mx), float(my)), size, ((mx - r, my - r), (mx + r, my - r), (mx + r, my + r), (mx - r, my + r)),
               0.79, pips=tuple(pips), doubts=(Doubt.PIPS_ONLY, Doubt.LOOSE_FIT))


def test_a_one_read_as_a_two_with_its_side_faces_pip_is_read_as_the_one():
    """Render trays-00572 (a translucent grey one on teal felt under a sun lamp, lossless crop): its pip
    and its side face's, 0.51 side apart, were read as a loose two; the pip test finds a one alone at
    exactly one of them, and the classifier agrees: a sure one there, of the dice's side."""
    image = cv2.imread(os.path.join(CROPS, "trays-00572-one.png"))
    one = one_of_two(image, _two([(103.6, 77.1), (106.2, 107.8)], 46.3), 58.0)
    assert one is not None and one.value == 1
    assert np.hypot(one.center[0] - 106.2, one.center[1] - 107.8) < 2
    assert one.size == 58.0 and one.confidence >= DEFAULT.sure and not one.doubts


def test_a_real_two_is_no_one():
    """Two red twos of render trays-00584 (lossless crop): at neither pip is a one alone, for the other
    pip lies within a face of it."""
    image = cv2.imread(os.path.join(CROPS, "trays-00584-twos.png"))
    a, b = _two([(89.2, 103.8), (60.9, 123.1)], 44.9), _two([(74.5, 50.6), (93.9, 79.1)], 45.1)
    assert one_of_two(image, a, 45.0, others=[b]) is None
    assert one_of_two(image, b, 45.0, others=[a]) is None
