"""The reader's config and verdict: validated numbers, and "sure" = confident and undoubted."""

from dataclasses import replace

import numpy as np
import pytest
from readerkit import red_pips_on_blue

from hardware.render import RenderStyle, render_throw
from vision.config import ConfigError, LearnedConfig, ReaderConfig
from vision.dice import Die, is_sure
from vision.facenet import NO_NET
from vision.reader import Reader, read_throw
from vision.reasons import Doubt


@pytest.mark.parametrize("sure", [0.8, 0.5, 0.0])
def test_a_lower_sure_threshold_never_makes_a_doubted_die_sure(sure):
    """Pips told by colour alone are a doubt: whatever ``sure`` is, those dice
    are not sure and neither is the read."""
    read = read_throw(red_pips_on_blue(), config=ReaderConfig(sure=sure), learned=False)
    doubted = [d for d in read.dice if d.doubts]
    assert doubted and all(Doubt.BY_COLOUR in d.doubts for d in doubted)
    assert not any(is_sure(d, sure) for d in doubted)
    assert not read.sure


def test_is_sure_needs_the_confidence_and_no_doubt():
    die = Die(value=3, center=(10.0, 10.0), size=20.0, corners=(), confidence=0.95)
    assert is_sure(die, 0.8)
    assert not is_sure(die, 0.96)
    for doubt in Doubt:
        assert not is_sure(replace(die, doubts=(doubt,)), 0.0)


def test_a_plain_throw_is_sure_and_the_same_through_the_reader_object():
    img, truth = render_throw([1, 3, 5, 6], seed=3, style=RenderStyle(touching=0, coloured=0))
    read = Reader().read(img, expect=4)
    assert read.sure and sorted(read.values) == [1, 3, 5, 6]
    assert read == read_throw(img, expect=4)


def test_the_null_net_reads_classically():
    img, _ = render_throw([2, 4, 6], seed=8, style=RenderStyle(touching=0, coloured=0))
    assert Reader(net=NO_NET).read(img, expect=3) == read_throw(img, expect=3, learned=False)


def test_an_injected_net_is_the_one_asked():
    """A weak die is rejudged by the classifier given, not the shipped one."""
    asked = []

    class Counting:
        def classify(self, image, centers, side, turns=False):
            asked.append(len(centers))
            p = np.zeros((len(centers), 7))
            p[:, 0] = 1.0  # no die anywhere
            return p

    img = red_pips_on_blue()
    Reader(net=Counting()).read(img, expect=3)
    assert asked


@pytest.mark.parametrize("bad, word", [
    (dict(sure=1.5), "sure"),
    (dict(work_size=10), "work_size"),
    (dict(min_die=0.3, max_die=0.2), "min_die"),
    (dict(learned={"most": 0.5}), "learned"),
])
def test_a_bad_config_names_the_number(bad, word):
    with pytest.raises(ConfigError, match=word):
        ReaderConfig(**bad)


def test_a_group_checks_its_own_numbers():
    with pytest.raises(ConfigError, match="most"):
        LearnedConfig(most=-0.1)


def test_a_config_from_a_toml_table():
    cfg = ReaderConfig.from_dict({"sure": 0.85, "learned": {"larger": [1.2], "veto_share": 0.2}})
    assert cfg.sure == 0.85 and cfg.learned.larger == (1.2,) and cfg.learned.veto_share == 0.2
    assert cfg.faces == ReaderConfig().faces
    with pytest.raises(ConfigError, match="unknown"):
        ReaderConfig.from_dict({"surely": 1})
    with pytest.raises(ConfigError, match="pips"):
        ReaderConfig.from_dict({"pips": {"nonsense": 1}})


def _two_on_felt():
    """A light die of 60 px showing two dark pips 0.25 side off its middle at (100, 100), on green felt."""
    import cv2

    img = np.full((200, 200, 3), (40, 120, 40), np.uint8)
    cv2.rectangle(img, (70, 70), (130, 130), (235, 235, 235), -1)
    for d in (-1, 1):
        cv2.circle(img, (100 + 15 * d, 100 + 15 * d), 5, (20, 20, 20), -1)
    return img


def test_the_pip_tests_numbers_are_settings_the_test_follows():
    """The classical pip test's numbers are a group of the one config (``pip_test``): read from a
    table, checked, and followed: a two whose corner pips lie 0.35 side from their middle is a two at the
    defaults, not where the corners must lie 0.6-0.7 side off, nor where its own pip counts as a die's read."""
    from vision.config import PipTestConfig
    from vision.pip_test import pips_confirm

    img = _two_on_felt()
    assert pips_confirm(img, 100.0, 100.0, 60.0, 2) == ((85.0, 85.0), (115.0, 115.0))
    far = ReaderConfig.from_dict({"pip_test": {"corner_span": [0.6, 0.7]}})
    assert far.pip_test.corner_span == (0.6, 0.7)
    assert pips_confirm(img, 100.0, 100.0, 60.0, 2, far) is None
    assert pips_confirm(img, 100.0, 100.0, 60.0, 2, owned=[(93.0, 93.0)]) is not None  # 0.19 side off: not it
    wide = ReaderConfig(pip_test=PipTestConfig(owned=0.3))
    assert pips_confirm(img, 100.0, 100.0, 60.0, 2, wide, owned=[(93.0, 93.0)]) is None
    for bad in ({"corner_span": (0.5, 0.3)}, {"hat": 0.0}, {"sizes": 0.5}):
        with pytest.raises(ConfigError):
            PipTestConfig(**bad)
    with pytest.raises(ConfigError, match="pip_test"):
        ReaderConfig.from_dict({"pip_test": {"hats": 0.4}})
