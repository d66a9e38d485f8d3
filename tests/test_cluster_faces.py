"""Dice not read surely read again as the whole faces their pips make (issue 38, fifteenth round,
:func:`vision.whole_face.cluster_faces`): render trays-00602, three touching red dice (a four and two
fives) read as pieces of faces, four dice none of them sure, and the throw asked; and mock tray 18, a
four whose two pips lost against its shadow's edge make a two to both the pip test and the classifier,
which must stay asked (the face found spans less than the whole faces read). The crop is of render 602's
tray (JPEG, as the camera's frames are)."""

import importlib.util
import os
from dataclasses import replace

import cv2
import pytest

from hardware.render import TrayScene
from vision.calibrate import calibrate
from vision.config import DEFAULT, ConfigError, LearnedConfig
from vision.reader import Reader
from vision.reasons import Reason

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CROP = os.path.join(ROOT, "tests", "fixtures", "renders", "crops", "trays-00602-touching.jpg")
#: The three touching dice in the crop: (x, y) px of their top faces' middles, and their values.
TOUCHING = [((450.0, 167.0), 5), ((458.0, 216.0), 5), ((499.0, 158.0), 4)]


def _off():
    return replace(DEFAULT, learned=replace(DEFAULT.learned, cluster_faces=0))


def test_three_touching_dice_are_read_as_their_whole_faces():
    image = cv2.imread(CROP)
    assert image is not None, CROP
    area, warning = calibrate(image)
    assert warning is None
    read = Reader().read(image, area=area, expect=7)
    assert sorted(read.values) == [2, 3, 4, 5, 5, 5, 5] and read.sure, read.reasons
    for (x, y), value in TOUCHING:  # each touching die read at its own face's middle, within 0.2 side
        near = [d for d in read.dice if abs(d.center[0] - x) < 10 and abs(d.center[1] - y) < 10]
        assert [d.value for d in near] == [value]


def test_without_the_stage_the_touching_dice_are_asked():
    image = cv2.imread(CROP)
    area, _ = calibrate(image)
    read = Reader(_off()).read(image, area=area, expect=7)
    assert not read.sure and Reason.HARD_TO_READ in read.reasons
    assert sorted(read.values) != [2, 3, 4, 5, 5, 5, 5]


@pytest.mark.parametrize("enlarged", [1.5, 2.0])
def test_large_touching_dice_are_read_whole_too(enlarged):
    # The crop enlarged: dice of 73-98 px, over config.work_die (56), which the pip test looks at shrunk
    # to that side. The same faces, as at the render's size.
    image = cv2.imread(CROP)
    image = cv2.resize(image, None, fx=enlarged, fy=enlarged, interpolation=cv2.INTER_CUBIC)
    area, warning = calibrate(image)
    assert warning is None and area.die_size > DEFAULT.work_die
    read = Reader().read(image, area=area, expect=7)
    assert sorted(read.values) == [2, 3, 4, 5, 5, 5, 5] and read.sure, read.reasons
    for (x, y), value in TOUCHING:
        near = [d for d in read.dice if abs(d.center[0] - enlarged * x) < 10 * enlarged
                and abs(d.center[1] - enlarged * y) < 10 * enlarged]
        assert [d.value for d in near] == [value]
    assert not Reader(_off()).read(image, area=area, expect=7).sure


def _mock_tray(seed: int):
    spec = importlib.util.spec_from_file_location("mock_trays", os.path.join(ROOT, "benchmarks", "mock_trays.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.tray(seed)


def test_a_four_read_as_two_of_its_pips_stays_asked():
    style, values = _mock_tray(18)
    scene = TrayScene(seed=18, style=style)
    calib = scene.frame(scene.place([1, 2, 3, 4, 5, 6], touching=0))
    frame = scene.frame(scene.place(values))
    area, _ = calibrate(calib)
    read = Reader().read(frame, area=area, expect=len(values))
    assert sorted(values) == [1, 2, 4, 4, 5, 5]
    assert sorted(read.values) == [1, 2, 2, 4, 5, 5]  # the four still read as a two ...
    assert not read.sure  # ... and asked, as without the stage


def test_the_setting_is_checked():
    with pytest.raises(ConfigError):
        LearnedConfig(cluster_faces=-1)
