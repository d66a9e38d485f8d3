"""The dice's size at calibration (issue 38, Durchmarsch trays, twelfth round): where the outlines
of the dice read take in their shadows (black dice under a sun lamp) the size measured was up to
twice the dice's, and the throws read at it lost dice; the pips of a die say its side too
(:func:`vision.calibrate.pips_side`), and where outlines and pips disagree, the pips are believed.
The crops are of renders trays-00429 (black dice on burgundy felt, hard shadows) and trays-00458
(red dice on teal felt: no die read surely without a size, so the sizes were searched, and a small
side where pips were read as dice won over the dice's own side)."""

import os

import cv2
import numpy as np
import pytest

from vision.calibrate import TrayArea, calibrate, measure_dice, pips_side, searched_sizes
from vision.config import DEFAULT, ConfigError, ReaderConfig, TrayConfig
from vision.dice import Die
from vision.reader import Reader

CROPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "renders", "crops")
#: The tray found in the whole frame of render trays-00458, px of the crop (the search's sides are
#: shares of its shorter side).
TRAY_458 = ((301.7, 1.8), (411.4, 38.4), (495.1, 106.4), (578.7, 305.0), (557.8, 404.3), (474.2, 519.3),
            (353.9, 592.5), (244.1, 603.0), (108.2, 555.9), (14.1, 467.1), (-38.1, 258.0), (-6.8, 158.6),
            (71.6, 64.5), (191.9, 7.0))


def _die(value, pips, size=60.0, inner=60.0):
    return Die(value, (100.0, 100.0), size, (), 0.95, pips=tuple(pips), inner=inner)


def test_a_dies_pips_say_its_side():
    """Pips a quarter side from the middle (the layout's), a six and a two of side 60 px; a one, or
    a die whose pips read are not its value's count, says nothing."""
    q = 15.0
    six = [(100 + x * q, 100 + y * q) for x in (-1, 1) for y in (-1, 0, 1)]
    assert pips_side(_die(6, six)) == pytest.approx(60.0)
    assert pips_side(_die(2, [(85.0, 85.0), (115.0, 115.0)])) == pytest.approx(60.0)
    assert pips_side(_die(1, [(100.0, 100.0)])) is None
    assert pips_side(_die(6, six[:5])) is None


def test_dice_whose_outlines_took_in_their_shadows_are_sized_by_their_pips():
    """Render trays-00429: the dice's top faces are about 41 px across (their pips' spread; the
    scene's camera and dice give 41); read with their shadows they measured 74 px, and the throw read
    at that size lost a die and asked."""
    frame = cv2.imread(os.path.join(CROPS, "trays-00429-shadows.jpg"))
    area, warning = calibrate(frame)
    assert warning is None and 36 <= area.die_size <= 46
    read = Reader().read(frame, area=area, expect=6)
    assert sorted(read.values) == [1, 1, 2, 3, 3, 6] and read.sure, read.reasons


def test_outlines_trusted_however_far_from_their_pips_when_so_configured():
    """``tray.outline_over_pips`` is what decides: raised far, the outlines with their shadows are
    taken again."""
    frame = cv2.imread(os.path.join(CROPS, "trays-00429-shadows.jpg"))
    loose = ReaderConfig(tray=TrayConfig(outline_over_pips=5.0))
    bare = TrayArea(((0, 0), (frame.shape[1], 0), (frame.shape[1], frame.shape[0]), (0, frame.shape[0])),
                    (frame.shape[1], frame.shape[0]))
    assert measure_dice(frame, bare, loose).die_size > 60
    assert 36 <= measure_dice(frame, bare, DEFAULT).die_size <= 46


def test_the_size_search_prefers_dice_whose_pips_agree_with_their_size():
    """Render trays-00458 (red dice about 46 px on teal felt): at a side of 27-33 px pips and parts
    of faces read as four sure dice, as many as the dice themselves at 46; the side where the dice's
    pips agree with their outlines wins."""
    frame = cv2.imread(os.path.join(CROPS, "trays-00458-red.jpg"))
    area = TrayArea(TRAY_458, (frame.shape[1], frame.shape[0]))
    sizes = searched_sizes(frame, area)
    assert len(sizes) >= 2 and all(40 <= s <= 52 for s in sizes), sizes
    assert 40 <= measure_dice(frame, area).die_size <= 52


def test_outline_over_pips_is_checked():
    with pytest.raises(ConfigError, match="outline_over_pips"):
        TrayConfig(outline_over_pips=0.5)


def test_a_trays_dice_are_sized_by_their_whole_faces():
    """Render trays-00888 (rows 350-880, columns 560-1060, lossless): five red dice of about 59 px on
    black felt, four of them touching. Read without a size, the two and three pips of its 4s and 6s
    make more sure small dice (about 33 px) than there are dice read whole, and the tray was sized at
    those; the dice showing 4-6 pips that agree with their outlines say the dice's side."""
    frame = cv2.imread(os.path.join(CROPS, "trays-00888-whole.png"))
    area, warning = calibrate(frame)
    assert warning is None and 54 <= area.die_size <= 64, area.die_size
    read = Reader().read(frame, area=area, expect=5)
    assert sorted(read.values) == [2, 3, 4, 4, 6]


def test_where_the_dice_are_sized_by_their_pips_the_whole_faces_are_too(monkeypatch):
    """Dice whose outlines took in their shadows (80 px read, their pips saying 44-50 px) are sized by
    their pips; a four whose outline (62 px) agrees with its pips (50 px) within ``outline_over_pips``
    (1.3) is a whole face, and the sides kept are those within 1.3 of its pips' 50 px, not of its
    outline's 62 (which would drop every die its pips say is under 47.7 px)."""
    import vision.reader
    from vision.dice import Read

    def die(value, pips_side, outline, x):
        q = pips_side / 4  # a quarter side from the middle, the layout's
        pips = {2: [(x - q, 100 - q), (x + q, 100 + q)],
                4: [(x + dx * q, 100 + dy * q) for dx in (-1, 1) for dy in (-1, 1)]}[value]
        return Die(value, (x, 100.0), outline, (), 1.0, pips=tuple(pips), inner=outline)

    dice = (die(2, 50, 80, 100), die(2, 44, 80, 200), die(2, 44, 80, 300), die(2, 44, 80, 400), die(4, 50, 62, 500))
    monkeypatch.setattr(vision.reader, "read_throw", lambda image, area=None, **kw: Read(dice, False))
    bare = TrayArea(((0, 0), (600, 0), (600, 200), (0, 200)), (600, 200))
    assert measure_dice(np.zeros((200, 600, 3), np.uint8), bare).die_size == pytest.approx(44.0)
