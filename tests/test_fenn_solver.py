"""Fenn solved: the figures of fenn.md, and the solver's turns agree with the rules engine's."""

import random

import pytest

from companion.fenn import Fenn
from companion.fenn_solver import counts, positions, solve, turn_ends

START_BLUE = (((1, 5), (9, 5)), 6, 0)
START_RED = (((1, 5), (9, 5)), 4, 1)


@pytest.fixture(scope="module")
def table():
    return solve()


def test_the_figures_of_fenn_md(table):
    assert len(table) == 24624
    assert counts(table) == {"win": 10598, "loss": 218, "draw": 13808}
    assert max(p for v, p in table.values() if v == "win") == 9
    assert table[START_BLUE] == table[START_RED] == ("draw", None)


@pytest.mark.parametrize("settings, start", [({"faces": "tip"}, ("win", 9)), ({"stuck": "lose"}, ("win", 3))])
def test_the_settings_that_change_who_wins(settings, start):
    t = solve(**settings)
    assert t[START_BLUE] == t[START_RED] == start


def test_a_won_position_has_a_move_to_a_lost_one_and_a_lost_one_none_to_a_lost_one(table):
    rng = random.Random(4)
    for pos in rng.sample(sorted(table), 300):
        value, plies = table[pos]
        (d, black, mover) = pos
        ends = turn_ends(d, black, mover)
        if "win" in ends:
            assert (value, plies) == ("win", 1)
            continue
        nexts = [(((f, t), d[1]) if mover == 0 else (d[0], (f, t)), b, 1 - mover) for f, t, b in ends]
        after = [table[q] for q in nexts] or [table[(d, black, 1 - mover)]]
        if value == "win":
            assert min(p for v, p in after if v == "loss") == plies - 1
        elif value == "loss":
            assert all(v == "win" for v, _ in after) and max(p for _, p in after) == plies - 1
        else:
            assert not any(v == "loss" for v, _ in after) and any(v == "draw" for v, _ in after)


def test_the_solvers_turns_are_the_engines(table):
    rng = random.Random(9)
    for d, black, mover in rng.sample(list(positions()), 60):
        g = Fenn(["Anna", "Ben"])
        g.set_position(blue=d[0], red=d[1], black=black, to_move=mover)
        engine = set()
        for (f, t, b) in g.turn_ends():
            engine.add("win" if f == (9, 1)[mover] else (f, t, b))
        assert engine == turn_ends(d, black, mover), (d, black, mover)


def test_companion_fenn_solve(tmp_path, capsys):
    import json

    from companion.cli import main

    assert main(["fenn", "solve"]) == 0
    out = capsys.readouterr().out
    assert "10598 won, 218 lost, 13808 drawn" in out and "longest forced win: 9 plies" in out
    cfg = tmp_path / "c.toml"
    cfg.write_text('[fenn]\nfaces = "tip"\n')
    assert main(["fenn", "solve", "--json", "--config", str(cfg)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 24624
    start = next(x for x in lines if x["blue"] == [1, 5] and x["red"] == [9, 5] and x["black"] == 6
                 and x["to_move"] == "blue")
    assert start == {"to_move": "blue", "blue": [1, 5], "red": [9, 5], "black": 6, "value": "win", "plies": 9}
    cfg.write_text('[fenn]\nfaces = "slide"\n')
    assert main(["fenn", "solve", "--config", str(cfg)]) == 2
