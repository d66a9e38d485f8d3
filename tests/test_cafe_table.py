"""The café's table without Kivy: stale unfinished games, the turn a game reached,
the settings' ranges, and names cut as they are typed."""

import time

import pytest

from companion.config import DEFAULTS, ConfigError, merge, validate
from companion.durchmarsch import Durchmarsch
from companion.fenn import BlackThrow, Fenn, Step
from companion.session import GameSession
from companion.stats import stale_games, turn_reached
from companion.storage import Store
from ui.keyboard_layouts import apply_key


def test_games_unfinished_longer_than_the_setting_are_stale(tmp_path):
    s = GameSession(Store(str(tmp_path)))
    old = s.store.new_game(["Anna", "Ben"], first=0)
    s.start(["Sarah", "Tim"], first=0)
    done = s.store.new_game(["Eva", "Max"], first=0)
    s.store.abandon(done)
    now = time.time()
    assert stale_games(s.store, 1.0, now) == []
    later = stale_games(s.store, 1.0, now + 2 * 86400)
    assert {g.id for g in later} == {old, s.game_id}  # the ended game is not offered
    s.end_unfinished(old)
    assert {g.id for g in stale_games(s.store, 1.0, now + 2 * 86400)} == {s.game_id}


def test_the_turn_a_game_reached():
    g = Durchmarsch(["Sarah", "Tim"])
    assert turn_reached(g) == 1
    g.throw([6, 4, 1, 1, 1, 1, 1, 1])
    g.decide("stop")
    g.throw([1] * 8)  # Tim's first throw: turn 2
    assert turn_reached(g) == 2
    f = Fenn(["Anna", "Ben"])
    f.apply(BlackThrow(6))
    assert turn_reached(f) == 1
    f.apply(Step(3, 1))  # blue's turn ends: red's turn is the second
    assert turn_reached(f) == 2


@pytest.mark.parametrize("key,bad", [("guard", 5.0), ("name_length", 25), ("name_length", 0), ("stale_days", 0.0)])
def test_the_cafe_settings_have_ranges(key, bad):
    import copy

    cfg = copy.deepcopy(DEFAULTS)
    with pytest.raises(ConfigError, match=key):
        validate(merge(cfg, {"app": {key: bad}}, "test.toml"), "test.toml")
    assert DEFAULTS["app"]["guard"] == 0.6 and DEFAULTS["app"]["name_length"] == 20


def test_a_name_is_cut_at_its_longest_as_it_is_typed():
    text = ""
    for ch in "Maximiliane-Charlotte":
        text, _ = apply_key(text, ch, shift=False, max_len=20)
    assert text == "Maximiliane-Charlott"
