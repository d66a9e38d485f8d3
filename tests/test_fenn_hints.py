"""Fenn's hints: every turn's value from the solved table, best first; the table cached."""

import random

import pytest

from companion.fenn import BlackThrow, Fenn
from companion.fenn_hints import HintBook, hints
from companion.fenn_solver import positions, solve


@pytest.fixture(scope="module")
def table():
    return solve()


def test_from_the_start_the_best_turn_keeps_the_draw(table):
    g = Fenn(["Anna", "Ben"])
    g.apply(BlackThrow(6))
    hs = hints(g, table)
    assert len(hs) == 31  # the first worked example's 31 ends, each valued
    assert hs[0].value == "draw" and not any(h.value == "win" for h in hs)
    assert [h.rank for h in hs] == sorted(h.rank for h in hs)


def test_the_best_hint_has_the_positions_own_value(table):
    rng = random.Random(5)
    every = list(positions())
    for dice, black, mover in rng.sample(every, 150):
        g = Fenn(["Anna", "Ben"])
        g.set_position(blue=dice[0], red=dice[1], black=black, to_move=mover)
        hs = hints(g, table)
        value, plies = table[(dice, black, mover)]
        if not hs:  # stuck: a pass
            continue
        assert (hs[0].value, hs[0].plies) == (value, plies), (dice, black, mover)


def test_under_tip_the_first_player_is_shown_the_win_in_9(tmp_path):
    book = HintBook({"faces": "tip"}, cache_dir=str(tmp_path))
    assert book.wait(60) and book.source == "solved"
    g = Fenn(["Anna", "Ben"], faces="tip")
    g.apply(BlackThrow(6))
    best = book.hints(g)[0]
    assert (best.value, best.plies) == ("win", 9)
    assert book.hints(Fenn(["A", "B"])) == []  # another game's settings: no hints from this table
    again = HintBook({"faces": "tip"}, cache_dir=str(tmp_path))
    assert again.wait(60) and again.source == "cache" and again.table == book.table


def test_a_broken_cache_is_solved_again(tmp_path):
    (tmp_path / "fenn-solved-any-pass-miwin.json").write_text("{not json")
    book = HintBook({}, cache_dir=str(tmp_path))
    assert book.wait(60) and book.source == "solved" and len(book.table) == 24624
