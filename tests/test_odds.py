"""The exact odds of forming a target: hand-checked values, brute force, the CLI."""

import itertools
import json
from fractions import Fraction

import pytest

from companion.cli import main
from companion.durchmarsch import form_target
from companion.odds import DICE_COUNTS, TARGETS, chance, odds_table


def test_hand_checked_values():
    # One die: 1 in 6 for any face.
    assert chance(6, 1) == Fraction(1, 6)
    # Two dice: 7 = 1+6, 2+5, 3+4 each both ways: 6 of 36.
    assert chance(7, 2) == Fraction(6, 36)
    # Two dice: 10 = 4+6, 6+4, 5+5: 3 of 36.
    assert chance(10, 2) == Fraction(3, 36)
    # 8 = 2+6, 6+2, 3+5, 5+3, 4+4: 5 of 36.
    assert chance(8, 2) == Fraction(5, 36)
    # One die showing t among n dice: 1 - (5/6)^n.
    for t in range(1, 7):
        for n in DICE_COUNTS:
            assert chance(t, n) == 1 - Fraction(5, 6) ** n
    # A pair target cannot be formed by one die.
    assert chance(10, 1) == 0


@pytest.mark.parametrize("n", [3, 5])
def test_matches_brute_force_over_every_throw(n):
    """Every one of the 6^n throws, judged by the rules engine's own form_target."""
    for t in TARGETS:
        hits = sum(bool(form_target(v, t)) for v in itertools.product(range(1, 7), repeat=n))
        assert chance(t, n) == Fraction(hits, 6 ** n)


def test_more_dice_never_lower_the_chance():
    for t in TARGETS:
        assert [chance(t, n) for n in (5, 6, 7, 8)] == sorted(chance(t, n) for n in (5, 6, 7, 8))


def test_bad_cases_raise():
    with pytest.raises(ValueError, match="not 1-10"):
        chance(11, 8)
    with pytest.raises(ValueError, match="at least one die"):
        chance(5, 0)


def test_odds_json_prints_every_case(capsys):
    assert main(["odds", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 40 == len(odds_table())
    assert {(r["target"], r["dice"]) for r in rows} == {(t, n) for t in TARGETS for n in DICE_COUNTS}
    by = {(r["target"], r["dice"]): r["chance"] for r in rows}
    assert by[10, 8] == 0.7802  # 436819 / 559872, checked against all 6^8 throws
    assert by[1, 5] == round(1 - (5 / 6) ** 5, 4)


def test_odds_table_for_the_wall(capsys):
    assert main(["odds"]) == 0
    out = capsys.readouterr().out
    assert "8 dice" in out and "5 dice" in out
    assert " 78.0 %" in out  # target 10 with 8 dice
