"""The settings PIN: a growing wait after wrong guesses, the shipped PIN named; a remembered language."""

import pytest

from companion.config import DEFAULTS
from companion.settings import (
    PIN_FIRST_WAIT,
    PIN_LONGEST_WAIT,
    PIN_TRIES,
    PinGuard,
    SettingsError,
    apply_settings,
    hash_pin,
    load_settings,
    remember,
    uses_default_pin,
)


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def test_five_wrong_pins_then_a_growing_wait():
    clock, cfg = Clock(), {"app": {"pin": "1234"}}
    g = PinGuard(clock=clock)
    for _ in range(PIN_TRIES - 1):
        assert not g.check("9999", cfg) and g.wait() == 0
    assert not g.check("9999", cfg)
    assert g.wait() == PIN_FIRST_WAIT
    assert not g.check("1234", cfg), "the right PIN waits too"
    clock.t += PIN_FIRST_WAIT
    assert not g.check("0000", cfg) and g.wait() == 2 * PIN_FIRST_WAIT
    for _ in range(10):
        clock.t += g.wait()
        g.check("0000", cfg)
    assert g.wait() == PIN_LONGEST_WAIT
    clock.t += g.wait()
    assert g.check("1234", cfg) and g.wait() == 0 and g.wrong == 0


def test_the_shipped_pin_is_named_until_changed():
    cfg = apply_settings(DEFAULTS, {})
    assert uses_default_pin(cfg)
    assert not uses_default_pin(dict(cfg, pin_hash=hash_pin("4711")))
    assert not uses_default_pin(apply_settings(DEFAULTS, {"app": {"pin": "4711"}}))


def test_the_language_chosen_at_the_table_is_remembered(tmp_path):
    remember(str(tmp_path), "app", "language", "de")
    assert apply_settings(DEFAULTS, load_settings(str(tmp_path)))["app"]["language"] == "de"
    with pytest.raises(SettingsError):
        remember(str(tmp_path), "app", "language", "xx")
    assert load_settings(str(tmp_path))["app"]["language"] == "de"
