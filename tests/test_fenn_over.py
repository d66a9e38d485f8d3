"""Something over the Fenn board, or only light on it: what makes a read ask with ``foreign`` (issue 38)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from hardware.fenn_scene import FennScene
from vision.config import DEFAULT, BoardConfig, ConfigError
from vision.fenn import BoardArea, read_fenn
from vision.reasons import FennReason


def _spot(scene, x0, x1):
    """A soft-edged weight (``H×W×1`` float, 0-1) over the middle of the board between ``x0`` and ``x1``
    fields along and 0.2-0.8 across: no line between fields under it."""
    return cv2.GaussianBlur(scene.region(x0, x1, 0.2, 0.8).astype(np.float32), (0, 0), 3)[..., None]


@pytest.mark.parametrize("seed,kind", [(71, "tan"), (72, "dark brown"), (73, "burgundy"), (74, "light wood"),
                                       (75, "black"), (76, "tan")])
def test_a_lamps_shine_on_the_board_is_no_thing_over_it_and_a_hand_or_a_cup_there_is(seed, kind):
    """A lamp's shine on a glossy board lightens a spot with the lamp's white over the board's own colour
    (fresh renders fenn-00461, -00479: spots of 0.3-0.4 field², a third of the way to white, where no line
    between fields lies to show through): the read is not doubted for it, but on black leather, where a
    grey thing's colour is a shine's. A hand (light or dark skin) or a white cup over the same spot is
    doubted wherever it was before shines were told (a hand of nearly the board's colour and lightness is
    not, either way: only the lines it hides tell it)."""
    scene = FennScene(seed=seed, table="plain", board=kind)
    board = BoardArea(tuple(scene.board_corners()), scene.size)
    frame, _ = scene.frame(blue=(1, 7), red=(9, 4), black=6, seed=seed, stray=False)
    assert read_fenn(frame, board).sure, seed
    w = _spot(scene, 4.15, 4.85)  # 0.42 field², in the middle of field 5
    blind = replace(DEFAULT, board=replace(DEFAULT.board, shine_most=0.0))  # no shine told

    def over(colour, share):
        return np.uint8(np.round(frame * (1 - share * w) + np.float32(colour) * share * w))

    shine = over((255, 255, 255), 0.45)
    assert FennReason.FOREIGN in read_fenn(shine, board, config=blind).reasons
    assert read_fenn(shine, board).sure == (kind != "black"), seed
    for thing in ((120, 150, 210), (150, 170, 230), (60, 90, 160), (95, 125, 190)):  # skin, light to dark (BGR)
        hand = over(thing, 1.0)
        seen = FennReason.FOREIGN in read_fenn(hand, board, config=blind).reasons
        assert (FennReason.FOREIGN in read_fenn(hand, board).reasons) == seen, (seed, thing)
    assert FennReason.FOREIGN in read_fenn(over((240, 240, 240), 1.0), board).reasons  # a white cup


def test_the_shine_limits_are_validated():
    with pytest.raises(ConfigError):
        BoardConfig(shine_most=1.5)
    with pytest.raises(ConfigError):
        BoardConfig(shine_hue=-1.0)
