"""Fenn's rules engine: the rulings F1–F15 of fenn.md and its worked examples."""

import pytest

from companion.fenn import BlackThrow, EndTurn, Fenn, FennError, Pass, SetBlack, Step
from companion.game import Termination, game_class


def started(black=6, **settings):
    g = Fenn(["Anna", "Ben"], **settings)
    g.apply(BlackThrow(black))
    return g


def test_the_black_die_decides_who_begins_and_is_thrown_again_on_2_3_7_8():
    g = Fenn(["Anna", "Ben"])
    for v in (2, 3, 7, 8):
        g.apply(BlackThrow(v))
        assert g.to_act is None and g.legal_events() == [BlackThrow(v) for v in (2, 3, 4, 6, 7, 8)]
    g.apply(BlackThrow(4))
    assert g.to_act == 1 and g.position().black == 4  # F3: 4, red begins
    with pytest.raises(FennError, match="F3"):
        g.apply(BlackThrow(6))
    with pytest.raises(FennError, match="F1"):
        Fenn(["A", "B"]).apply(BlackThrow(5))


def test_first_worked_example_blue_from_1():
    g = started(6)
    assert {s.field for s in g.legal_steps()} == {2, 3}
    assert len(g.turn_ends()) == 31
    g.apply(Step(2, 2))  # top equals the field: an extra step (F8)
    assert {s.field for s in g.legal_steps()} == {3, 4}  # never back to 1 (F10)
    with pytest.raises(FennError, match="null move"):
        g.apply(Step(1, 9))
    g2 = started(6)
    g2.apply(Step(3, 6))  # the black die's number: a Pasch (F9)
    assert SetBlack(2) in g2.legal_events() and SetBlack(6) not in g2.legal_events()
    g2.apply(SetBlack(8))
    assert g2.position().black == 8 and g2.to_act == 1


def test_second_worked_example_red_from_9():
    g = started(4)
    assert {s.field for s in g.legal_steps()} == {7, 8} and len(g.turn_ends()) == 31
    g.apply(Step(8, 4))  # Pasch: the black die to 2, 3, 6, 7 or 8, or left as it is
    assert sorted(e.top for e in g.legal_events() if isinstance(e, SetBlack)) == [2, 3, 6, 7, 8]
    assert EndTurn() in g.legal_events()
    h = started(4)
    h.apply(Step(8, 8))  # an extra step, which may reach 6
    assert Step(6, 1) in h.legal_steps()


def test_third_worked_example_blue_steps_over_red_and_wins():
    g = Fenn(["Anna", "Ben"])
    g.set_position(blue=(7, 2), red=(8, 1), black=3)
    g.apply(Step(9, 1))
    assert g.is_over and g.winner == "Anna" and g.outcome().termination is Termination.GOAL
    assert g.to_dict()["to_move"] is None and g.to_dict()["finished"]


@pytest.mark.parametrize("step, rule", [
    (Step(3, 9), "blocked by the black die's 3"), (Step(4, 5), "1 or 2 fields"), (Step(2, 5), "new face"),
    (Step(2, 3), "no face 3"),
])
def test_illegal_steps_name_the_rule_and_change_nothing(step, rule):
    g = Fenn(["Anna", "Ben"])
    g.set_position(blue=(1, 5), red=(9, 5), black=3)
    before = (g.position(), g.events)
    with pytest.raises(FennError, match=rule):
        g.apply(step)
    assert (g.position(), g.events) == before


def test_a_field_is_blocked_by_the_other_die_and_its_top():
    g = Fenn(["Anna", "Ben"])
    g.set_position(blue=(4, 5), red=(5, 6), black=2)
    with pytest.raises(FennError, match="taken by the red die"):
        g.apply(Step(5, 1))
    with pytest.raises(FennError, match="red die's 6"):
        g.apply(Step(6, 1))
    g.apply(Step(3, 1))  # one's own top never blocks oneself; a 2-field step passes anything (F5)


def test_tip_allows_only_the_side_faces():
    g = Fenn(["Anna", "Ben"], faces="tip")
    g.apply(BlackThrow(6))
    with pytest.raises(FennError, match="opposite"):
        g.apply(Step(2, 6))  # 5's opposite on die III is 6
    assert {s.top for s in g.legal_steps() if s.field == 2} == {1, 2, 7, 9} - {5}


def test_no_step_possible_passes_or_loses():
    for stuck, over in (("pass", False), ("lose", True)):
        g = Fenn(["Anna", "Ben"], stuck=stuck)
        g.set_position(blue=(1, 5), red=(2, 3), black=3)  # 2 taken, 3 blocked: blue cannot step
        assert g.legal_events() == [Pass()]
        g.apply(Pass())
        assert g.is_over is over
        if over:
            assert g.winner == "Ben" and g.outcome().termination is Termination.STUCK
        else:
            assert g.to_act == 1


def test_a_step_possible_may_not_be_passed():
    with pytest.raises(FennError, match="must step"):
        started(6).apply(Pass())


def test_the_third_repetition_is_a_draw():
    g = started(6)
    moves = [Step(2, 7), Step(8, 3), Step(1, 5), Step(9, 5)]  # both there and back
    for _ in range(2):
        for m in moves:
            g.apply(m)
    assert g.is_over and g.winner is None and g.to_dict()["draw"]
    assert g.outcome().termination is Termination.REPETITION


def test_undo_and_the_event_record():
    g = started(6)
    g.apply(Step(2, 2))
    g.apply(Step(4, 7))
    state = g.to_dict()
    last = g.undo()
    assert last == Step(4, 7) and g.to_dict() != state
    g.apply(last)
    assert g.to_dict() == state
    again = game_class("fenn")(["Anna", "Ben"])
    for e in g.events:
        again.apply(Fenn.event_from_json(Fenn.event_to_json(e)))
    assert again.to_dict() == state
    assert state["players"][0] == {"name": "Anna", "colour": "blue", "field": 4, "top": 7}


def _script(tmp_path, name, lines):
    import json

    p = tmp_path / name
    p.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return str(p)


def test_replay_plays_fenn_scripts_by_whole_turns(tmp_path, capsys):
    import json

    from companion.cli import main

    good = _script(tmp_path, "f.jsonl", [
        {"game": "fenn", "players": ["Anna", "Ben"]},
        {"black": 3}, {"black": 6},                      # F3: thrown again on 3; 6: blue begins
        {"turn": {"field": 3, "top": 1}},                # blue: black unchanged
        {"turn": {"field": 7, "top": 3}},                # red
    ])
    bad = _script(tmp_path, "b.jsonl", [{"game": "fenn", "players": ["Anna", "Ben"]}, {"black": 6},
                                        {"turn": {"field": 5, "top": 1}}])
    assert main(["replay", "--json", good, bad]) == 2
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[0] == {"players": [{"name": "Anna", "colour": "blue", "field": 3, "top": 1},
                                  {"name": "Ben", "colour": "red", "field": 7, "top": 3}],
                      "black": 6, "to_move": "Anna", "winner": None, "draw": False, "finished": False}
    assert out[1]["error"].startswith("line 3: no legal turn of the blue die ends on field 5")


def test_a_whole_turn_is_one_event_taken_back_by_one_undo():
    from companion.fenn import Turn

    g = started(6)
    g.apply(Turn(4, 7))  # 1→2 showing 2 (an extra step, F8), then 2→4 showing 7: some legal turn reaches it
    assert g.position().dice[0] == (4, 7) and g.to_act == 1 and len(g.events) == 2
    with pytest.raises(FennError, match="F15"):
        g.apply(Turn(5, 1))  # red cannot reach 5 from 9 in one turn
    assert g.position().dice[1] == (9, 5) and len(g.events) == 2  # unchanged
    assert g.undo() == Turn(4, 7)
    assert g.position().dice[0] == (1, 5) and g.to_act == 0
    g.apply(Turn(3, 6, 2))  # a Pasch: 6 turned up on 3, the black die set to 2
    assert g.position().black == 2
    assert Fenn.event_from_json(Fenn.event_to_json(Turn(3, 6, 2))) == Turn(3, 6, 2)
    g.apply(Step(7, 9))  # red steps; a whole turn is refused mid-turn
    g.apply(Step(5, 1))
    with pytest.raises(FennError, match="start of a turn"):
        h = started(6)
        h.apply(Step(2, 2))
        h.apply(Turn(4, 7))


def test_a_stored_fenn_game_keeps_its_settings_and_hint_notes(tmp_path):
    from companion.session import GameSession
    from companion.storage import Store

    s = GameSession(Store(str(tmp_path)))
    s.start(["Anna", "Ben"], first=0, game="fenn", options={"faces": "tip", "stuck": "lose"})
    s.apply(BlackThrow(6))
    s.apply(Step(2, 2))  # mid-turn: a power cut here loses nothing
    s.store.note(s.game_id, "hint", {"player": "Anna"})
    s.store.close()
    t = GameSession(Store(str(tmp_path)))
    assert t.resume()
    assert t.game.settings == {"faces": "tip", "stuck": "lose", "dice": "miwin"}
    assert t.game.position().dice[0] == (2, 2) and t.game.prompt_state()["extra"]
    assert t.store.notes(t.game_id, "hint") == [(2, "hint", {"player": "Anna"})]


def _random_game(rng, settings):
    """A random legal game of Fenn to its end (or 200 turns): the engine and its script of whole turns."""
    g = Fenn(["Anna", "Ben"], **settings)
    lines = [{"game": "fenn", "players": ["Anna", "Ben"], "options": g.options}]
    while g.to_act is None and not g.is_over:
        v = rng.choice((2, 3, 4, 6, 7, 8))
        g.apply(BlackThrow(v))
        lines.append({"black": v})
    for _ in range(200):
        if g.is_over:
            break
        ends = g.turn_ends()
        if not ends:
            g.apply(Pass())
            lines.append({"turn": "pass"})
            continue
        field, top, black = rng.choice(sorted(ends))
        for e in ends[(field, top, black)]:
            g.apply(e)
        lines.append({"turn": {"field": field, "top": top, "black": black}})
    return g, lines


@pytest.mark.parametrize("settings", [{}, {"faces": "tip"}, {"stuck": "lose", "dice": "wikipedia"}])
def test_random_legal_games_and_illegal_turns_replay_as_the_rules_say(tmp_path, capsys, settings):
    import json
    import random

    from companion.cli import main

    rng = random.Random(len(str(settings)))
    games, paths = [], []
    for i in range(12):
        g, lines = _random_game(rng, settings)
        games.append(g)
        paths.append(_script(tmp_path, f"g{i}.jsonl", lines))
    # An illegal turn in the middle of a legal game: that script stops with its line, the others play.
    g, lines = _random_game(rng, settings)
    k = next(i for i, line in enumerate(lines) if isinstance(line.get("turn"), dict))
    lines[k] = {"turn": {"field": 5, "top": 9 if lines[k]["turn"]["top"] != 9 else 1, "black": 5}}  # no black 5
    paths.insert(3, _script(tmp_path, "bad.jsonl", lines))
    assert main(["replay", "--json", *paths]) == 2
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[3]["error"].startswith(f"line {k + 1}: no legal turn") and "(F15)" in out[3]["error"]
    assert [o for i, o in enumerate(out) if i != 3] == [g.to_dict() for g in games]
    assert any(g.is_over for g in games)


def test_a_stored_fenn_game_exports_as_a_script_that_replays_to_it(tmp_path):
    import json
    import random

    from companion.replay import export_game, replay_lines
    from companion.session import GameSession
    from companion.storage import Store

    s = GameSession(Store(str(tmp_path / "d")))
    s.start(["Anna", "Ben"], first=0, game="fenn", options={"faces": "tip"})
    g, _lines = _random_game(random.Random(3), {"faces": "tip"})
    for e in g.events:  # as played at the table: step by step
        s.apply(e)
    script = export_game(s.store, s.game_id)
    assert script[0] == {"game": "fenn", "players": ["Anna", "Ben"], "options": {"faces": "tip", "stuck": "pass",
                                                                                  "dice": "miwin"}}
    assert replay_lines([json.dumps(x) for x in script], str(tmp_path)).state == g.to_dict()
