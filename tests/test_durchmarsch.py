"""Durchmarsch rules: worked examples, rulings R1-R8, illegal events, properties.

Source: shared/rules/durchmarsch.md.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.durchmarsch import (
    BadDieValue,
    DecisionDue,
    DecisionNotDue,
    Durchmarsch,
    GameOver,
    NothingToUndo,
    Phase,
    Row,
    Sheet,
    WrongDiceCount,
    form_target,
)

# Throws that surely miss / hit a target, for a given dice count.
MISS_PAIR = [1] * 8  # no two dice sum to 7-10, and no single 2-6


def miss(n):
    """n dice that form no target except 1 (all ones)."""
    return [1] * n


def hit(target, n):
    """n dice that form ``target`` (padded with ones, or sixes when target is 1...)."""
    if target >= 7:
        a = min(6, target - 1)
        vals = [a, target - a]
    else:
        vals = [target]
    return vals + [1 if target != 1 else 6] * (n - len(vals))


def misthrow_for(target, n):
    """n dice that do not form ``target``."""
    if target == 1:
        return [6] * n  # 6+6=12, no single 1
    return [1] * n  # pairs sum to 2, single 1 only


def set_sheet(game, seat, rows, row):
    """Put a sheet into a chosen state (test helper, bypassing events)."""
    s = game._sheets[seat]
    game._sheets[seat] = Sheet(s.name, tuple(rows), row)


# -- target formation (ruling R4) ---------------------------------------------


def test_pair_targets_need_two_different_dice():
    assert form_target([5, 1, 1], 10) == ()  # one 5 cannot be used twice
    assert form_target([5, 5, 1], 10) == (0, 1)
    assert form_target([6, 3, 1, 4], 10) == (0, 3)
    assert form_target([6], 6) == (0,)
    assert form_target([3, 3], 6) == ()  # a pair never forms 1-6
    assert form_target([6, 6, 6], 7) == ()  # a single die never forms 7-10


# -- worked examples -----------------------------------------------------------


def test_example_sarah_stops_after_8():
    g = Durchmarsch(["Sarah", "Tim", "Maria"])
    r = g.throw([6, 4, 1, 1, 1, 1, 1, 1])
    assert r.success and r.target == 10 and r.formed_by == (0, 1)
    g.decide("continue")
    assert g.dice_to_throw == 7 and g.target == 9
    r = g.throw([5, 4, 1, 1, 1, 1, 1])
    assert r.target == 9 and r.success
    g.decide("continue")
    assert g.dice_to_throw == 6 and g.target == 8
    r = g.throw([6, 2, 1, 1, 1, 1])
    assert r.target == 8 and r.success
    g.decide("stop")
    assert g.players[g.current_player] == "Tim"
    assert g.dice_to_throw == 8
    # Tim and Maria miss, Sarah is back at 7 with 8 dice.
    g.throw(miss(8))
    g.throw(miss(8))
    assert g.current_player == 0
    assert g.target == 7 and g.dice_to_throw == 8 and g.current_row == 0
    assert g.sheets[0].rows[0] == Row(marked=3, misthrows=0)


def test_example_tim_marks_six_then_misthrows():
    g = Durchmarsch(["Tim", "Maria"])
    counts = []
    for target in (10, 9, 8, 7, 6, 5):
        counts.append(g.dice_to_throw)
        g.throw(hit(target, g.dice_to_throw))
        g.decide("continue")
    assert counts == [8, 7, 6, 5, 5, 5]
    assert g.dice_to_throw == 5 and g.target == 4
    r = g.throw([1, 2, 3, 5, 6])  # no 4
    assert r.misthrow
    tim = g.sheets[0]
    assert tim.rows[0] == Row(marked=6, misthrows=1)
    assert tim.row == 1  # next turn in row 2 at 10
    assert tim.rows[1].target == 10
    assert g.players[g.current_player] == "Maria"


def test_example_sarah_strikes_top_row():
    g = Durchmarsch(["Sarah", "Tim"])
    # Sarah: top row 10-6 marked, one misthrow; rows 2 has 10-7 marked;
    # her previous misthrow was in the bottom row, so she starts at the top.
    set_sheet(g, 0, [Row(5, 1), Row(4, 0), Row(0, 0), Row(0, 1)], row=0)
    assert g.target == 5 and g.current_row == 0
    assert g.throw([5, 1, 1, 1, 1, 1, 1, 1]).success
    g.decide("continue")
    assert g.dice_to_throw == 7
    r = g.throw([1, 2, 3, 5, 6, 6, 6])  # no 4
    assert r.misthrow and r.row_struck
    s = g.sheets[0]
    assert s.rows[0].struck and s.rows[0].marked == 6  # R7: marks stay
    assert s.row == 1 and s.rows[1].target == 6


# -- rulings ---------------------------------------------------------------------


def test_r1_next_row_skips_struck_rows_cyclically():
    g = Durchmarsch(["A", "B"])
    set_sheet(g, 0, [Row(0, 0), Row(0, 2), Row(0, 2), Row(0, 0)], row=3)
    g.throw(miss(8))
    assert g.sheets[0].row == 0  # bottom -> top (rows 1, 2 struck anyway)
    set_sheet(g, 0, [Row(0, 0), Row(0, 2), Row(0, 2), Row(0, 0)], row=0)
    g.throw(miss(8))  # B
    g.throw(miss(8))  # A misthrows in row 0
    assert g.sheets[0].row == 3  # skips struck rows 1 and 2


def test_r1_only_live_row_stays():
    g = Durchmarsch(["A", "B"])
    set_sheet(g, 0, [Row(0, 2), Row(3, 0), Row(0, 2), Row(0, 2)], row=1)
    g.throw(miss(8))
    s = g.sheets[0]
    assert s.rows[1].misthrows == 1 and s.row == 1 and not s.eliminated


def test_r2_row_pointer_moves_at_the_misthrow():
    g = Durchmarsch(["A", "B"])
    g.throw(miss(8))
    assert g.sheets[0].row == 1  # before A's next turn begins
    assert g.to_dict()["players"][0]["row"] == 1


def test_r3_continue_throws_one_die_fewer_and_rejects_other_counts():
    g = Durchmarsch(["A", "B"])
    g.throw(hit(10, 8))
    g.decide("continue")
    with pytest.raises(WrongDiceCount) as e:
        g.throw(hit(9, 8))
    assert e.value.due == 7 and e.value.got == 8
    assert "7 dice" in str(e.value)


def test_r5_first_roller_and_seating_order():
    g = Durchmarsch(["A", "B", "C"], first=2)
    assert g.current_player == 2
    g.throw(miss(8))
    assert g.current_player == 0


def test_r6_decision_due_before_next_throw_but_not_after_completing_row():
    g = Durchmarsch(["A", "B"])
    g.throw(hit(10, 8))
    assert g.decision_due and g.phase is Phase.DECIDE
    with pytest.raises(DecisionDue):
        g.throw(hit(9, 7))
    set_sheet(g, 1, [Row(9, 0)] + [Row()] * 3, row=0)
    g.decide("stop")
    r = g.throw(hit(1, 8))
    assert r.row_completed and g.is_over and g.winner == "B"
    assert g.outcome().reason == "row" and not g.decision_due
    assert g.to_dict()["turn"] is None and g.to_dict()["finished"] is True


def test_r7_struck_rows_keep_marks():
    g = Durchmarsch(["A", "B"])
    set_sheet(g, 0, [Row(4, 1), Row(), Row(), Row()], row=0)
    g.throw(miss(8))
    row = g.sheets[0].rows[0]
    assert row.struck and row.marked == 4
    assert g.to_dict()["players"][0]["rows"][0] == {"marked": 4, "misthrows": 2, "struck": True}


@pytest.mark.parametrize("players", [[], ["A"], ["A", "B", "C", "D", "E"]])
def test_r8_two_to_four_players(players):
    with pytest.raises(ValueError, match="2-4 players"):
        Durchmarsch(players)


def test_bad_player_lists():
    with pytest.raises(ValueError, match="differ"):
        Durchmarsch(["A", "A"])
    with pytest.raises(ValueError, match="name"):
        Durchmarsch(["A", " "])
    with pytest.raises(ValueError, match="seat"):
        Durchmarsch(["A", "B"], first=2)


# -- turns, elimination, winner -----------------------------------------------


def test_dice_never_below_five():
    g = Durchmarsch(["A", "B"])
    seen = []
    for target in range(10, 1, -1):
        seen.append(g.dice_to_throw)
        g.throw(hit(target, g.dice_to_throw))
        g.decide("continue")
    assert seen == [8, 7, 6, 5, 5, 5, 5, 5, 5]


def test_full_row_in_one_turn_wins():
    g = Durchmarsch(["A", "B"])
    for target in range(10, 0, -1):
        r = g.throw(hit(target, g.dice_to_throw))
        if target > 1:
            g.decide("continue")
    assert r.row_completed and g.winner == "A"
    with pytest.raises(GameOver):
        g.throw(miss(5))
    with pytest.raises(GameOver):
        g.decide("stop")


def test_elimination_and_last_player_wins():
    g = Durchmarsch(["A", "B", "C"])
    set_sheet(g, 0, [Row(0, 2), Row(0, 2), Row(0, 2), Row(2, 1)], row=3)
    r = g.throw(miss(8))
    assert r.eliminated and g.sheets[0].eliminated
    assert g.current_player == 1
    g.throw(miss(8))  # B
    g.throw(miss(8))  # C
    assert g.current_player == 1  # A is skipped
    set_sheet(g, 1, [Row(0, 2), Row(0, 2), Row(0, 2), Row(0, 1)], row=3)
    g.throw(miss(8))  # B eliminated -> C is the last player left
    assert g.is_over and g.winner == "C" and g.outcome().reason == "last"


# -- illegal events leave the state unchanged ---------------------------------


def _snapshot(g):
    return (g.to_dict(), g.events, g.phase, g.dice_to_throw)


@pytest.mark.parametrize(
    "values, exc, msg",
    [
        ([1] * 7, WrongDiceCount, "threw 7 dice, but 8"),
        ([1] * 9, WrongDiceCount, "threw 9 dice"),
        ([0, 1, 1, 1, 1, 1, 1, 1], BadDieValue, "0"),
        ([7, 1, 1, 1, 1, 1, 1, 1], BadDieValue, "7"),
        ([1.5, 1, 1, 1, 1, 1, 1, 1], BadDieValue, "1.5"),
        ([True, 1, 1, 1, 1, 1, 1, 1], BadDieValue, "True"),
        (["6", 1, 1, 1, 1, 1, 1, 1], BadDieValue, "'6'"),
        (None, BadDieValue, "list of die values"),
    ],
)
def test_illegal_throw(values, exc, msg):
    g = Durchmarsch(["A", "B"])
    before = _snapshot(g)
    with pytest.raises(exc, match=msg):
        g.throw(values)
    assert _snapshot(g) == before


def test_decision_when_none_due():
    g = Durchmarsch(["A", "B"])
    before = _snapshot(g)
    with pytest.raises(DecisionNotDue, match="no decision is due"):
        g.decide("stop")
    with pytest.raises(ValueError, match="stop' or 'continue"):
        g.decide("maybe")
    assert _snapshot(g) == before


def test_throw_when_decision_due_changes_nothing():
    g = Durchmarsch(["A", "B"])
    g.throw(hit(10, 8))
    before = _snapshot(g)
    with pytest.raises(DecisionDue, match="must decide"):
        g.throw(hit(9, 8))
    assert _snapshot(g) == before


# -- undo ------------------------------------------------------------------------


def test_undo_restores_each_previous_state():
    g = Durchmarsch(["A", "B"])
    states = [_snapshot(g)]
    for ev in [hit(10, 8), "continue", hit(9, 7), "stop", miss(8), miss(8)]:
        if isinstance(ev, str):
            g.decide(ev)
        else:
            g.throw(ev)
        states.append(_snapshot(g))
    for expected in reversed(states[:-1]):
        g.undo()
        assert _snapshot(g) == expected
    with pytest.raises(NothingToUndo):
        g.undo()


def test_undo_after_game_over():
    g2 = Durchmarsch(["A", "B"])
    for target in range(10, 0, -1):
        g2.throw(hit(target, g2.dice_to_throw))
        if target > 1:
            g2.decide("continue")
    assert g2.is_over
    g2.undo()
    assert not g2.is_over and g2.target == 1 and g2.phase is Phase.ROLL


# -- properties ------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 4),
    st.integers(0, 3),
    st.lists(st.tuples(st.lists(st.integers(1, 6), min_size=8, max_size=8), st.booleans()), max_size=300),
)
def test_random_legal_games_keep_invariants(n, first, script):
    g = Durchmarsch([f"P{i}" for i in range(n)], first=first % n)
    for dice, cont in script:
        if g.is_over:
            break
        if g.decision_due:
            g.decide("continue" if cont else "stop")
        else:
            before = g.dice_to_throw
            assert 5 <= before <= 8
            g.throw(dice[:before])
        for s in g.sheets:
            for r in s.rows:
                assert 0 <= r.marked <= 10
                assert 0 <= r.misthrows <= 2
            assert s.eliminated == all(r.struck for r in s.rows)
            assert 0 <= s.row < 4
            if not s.eliminated:
                assert not s.rows[s.row].struck
        if not g.is_over:
            assert 5 <= g.dice_to_throw <= 8
            assert not g.sheets[g.current_player].eliminated
    # Undo all the way gives back the fresh game.
    replay = g.copy()
    assert replay.to_dict() == g.to_dict()
    while g.events:
        g.undo()
    assert g.to_dict() == Durchmarsch([f"P{i}" for i in range(n)], first=first % n).to_dict()
