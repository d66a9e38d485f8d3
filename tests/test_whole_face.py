"""A die read from part of its face's pips is read whole where the pip test and the face classifier both
find that face round it (issue 38, Durchmarsch trays, tenth round: :mod:`vision.whole_face`). The crops
are of renders trays-00388 (a grey four touching a blue six against the tray's wall, two of its pips
read as a two) and trays-00416 (a glossy red four, two of its pips run into the glint along its edge)."""

import os

import cv2
import numpy as np

from vision.config import DEFAULT
from vision.dice import Die, is_sure
from vision.pip_test import pips_confirm
from vision.reasons import Doubt
from vision.whole_face import whole_face

CROP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "renders", "crops",
                    "trays-00388-four.jpg")
SIDE = 46.0  # the dice's side in the render, px
FOUR = [(88, 68), (66, 75), (95, 90), (73, 97)]  # the grey four's pips in the crop, px (about)


def _part(pips, *, origin=(0, 0)):
    """A two read round ``pips`` (px of the crop), doubted as part of a face, as the reader leaves it."""
    pips = tuple((x + origin[0], y + origin[1]) for x, y in pips)
    mx, my = np.mean(pips, axis=0)
    h = 15
    return Die(value=2, center=(mx, my), size=30.0, confidence=1.0, pips=pips, doubts=(Doubt.LOOSE_FIT,),
               corners=((mx - h, my - h), (mx + h, my - h), (mx + h, my + h), (mx - h, my + h)))


class _NoDie:
    """A face classifier that sees no die anywhere."""

    def classify(self, image, points, side, turns=False):
        out = np.zeros((len(points), 7))
        out[:, 0] = 1.0
        return out


def _image():
    image = cv2.imread(CROP)
    assert image is not None, CROP
    return image


def _near(got, want):
    return all(min(np.hypot(x - u, y - v) for x, y in got) <= 4 for u, v in want)


def test_two_neighbouring_pips_of_a_four_are_read_as_the_four_surely():
    die = whole_face(_image(), _part(FOUR[:3:2]), SIDE)  # the four's right-hand pips
    assert die is not None and die.value == 4
    assert len(die.pips) == 4 and _near(die.pips, FOUR)
    assert is_sure(die, DEFAULT.sure_confidence)
    assert die.size == SIDE and np.hypot(die.center[0] - 80.5, die.center[1] - 82.5) < 4


def test_the_face_is_found_in_input_pixels_from_a_crop_with_its_corner_elsewhere():
    # The same pips given in the input's pixels, the crop's corner at (610, 570) there.
    die = whole_face(_image(), _part(FOUR[:3:2], origin=(610, 570)), SIDE, origin=(610, 570))
    assert die is not None and die.value == 4
    assert _near(die.pips, [(x + 610, y + 570) for x, y in FOUR])


def test_without_the_classifiers_agreement_the_part_stays_as_it_was():
    assert whole_face(_image(), _part(FOUR[:3:2]), SIDE, net=_NoDie()) is None


def test_a_die_read_beside_the_face_found_keeps_the_part_as_it_was():
    # Another die read within 0.7 side of the face found: two dice cannot lie so close.
    other = Die(value=3, center=(85.0, 95.0), size=SIDE, confidence=1.0, corners=((0, 0),) * 4)
    assert whole_face(_image(), _part(FOUR[:3:2]), SIDE, others=[other]) is None


def test_a_lone_pip_is_no_part_to_read_whole():
    assert whole_face(_image(), _part(FOUR[:1]), SIDE) is None


GLOSSY = os.path.join(os.path.dirname(CROP), "trays-00416-four.png")  # lossless: a re-encoded JPEG moves the glint
RED_FOUR = [(84, 64), (63, 79), (98, 86), (78, 100)]  # render trays-00416's red four, px of the crop


def test_a_pip_run_into_the_glint_along_a_glossy_dies_edge_is_cut_from_it_where_asked():
    # Two of the red four's pips run into the glint along its edge: no round spot, no four, unless the
    # glint's streak is cut off (``glint=True``, used only where the classifier must agree).
    image = cv2.imread(GLOSSY)
    assert pips_confirm(image, 81.5, 82, 43.0, 4) is None
    pips = pips_confirm(image, 81.5, 82, 43.0, 4, glint=True)
    assert pips is not None and _near(pips, RED_FOUR)


def test_a_glossy_fours_two_pips_read_as_a_two_are_read_as_the_four():
    die = whole_face(cv2.imread(GLOSSY), _part(RED_FOUR[::2]), 43.0)
    assert die is not None and die.value == 4 and _near(die.pips, RED_FOUR)
