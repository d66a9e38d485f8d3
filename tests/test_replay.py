"""Replay through the session: confirmed values judge each read; stored games export as scripts."""

import json
import os

import pytest

from companion.cli import main
from companion.replay import ReplayError, export_game, replay_lines, replay_script
from companion.session import GameSession
from companion.storage import Store
from vision.reader import load_image

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "photos")
OPENING = [
    {"players": ["Sarah", "Tim"]},
    {"roll": [6, 4, 1, 1, 1, 1, 1, 1]}, {"decision": "continue"},
    {"roll": [5, 4, 1, 1, 1, 1, 1]}, {"decision": "continue"},
    {"roll": [6, 2, 1, 1, 1, 1]}, {"decision": "continue"},
]


def write(path, lines):
    path.write_text("\n".join(json.dumps(l) for l in lines) + "\n")
    return str(path)


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_confirmed_values_count_read_asked_and_silent_errors(tmp_path, capsys):
    """Sure and equal: read. Sure and different: a silent error. Wrong count: asked.
    The confirmed values are scored every time."""
    s = write(tmp_path / "c.jsonl", OPENING + [
        # read as 1 2 3 4 5, sure: the players confirmed the same (order does not matter)
        {"frame": os.path.join(FIXTURES, "429bffa7d7.jpg"), "values": [5, 4, 3, 2, 1]},
        {"decision": "continue"},
        # read as 1 4 4 5 5, sure, but the players say the last die is a 6: a silent error
        {"frame": os.path.join(FIXTURES, "4023f63f6c.jpg"), "values": [1, 4, 4, 5, 6]},
        {"decision": "stop"},
        # Tim's 8 dice are due; the photo shows 5: asked, and the confirmed 8 values scored
        {"frame": os.path.join(FIXTURES, "13c2bc7ad0.jpg"), "values": [6, 4, 1, 1, 1, 1, 1, 1]},
    ])
    code, out, _ = run(capsys, "replay", "--json", s)
    state = json.loads(out)
    assert code == 0, state
    assert state["throws"] == {"read": 1, "asked": 1, "silent_errors": 1}
    sarah, tim = state["players"]
    assert sarah["rows"][0] == {"marked": 5, "misthrows": 0, "struck": False}  # the confirmed 6 formed 6
    assert tim["rows"][0]["marked"] == 1
    assert state["turn"]["player"] == "Tim" and state["turn"]["phase"] == "decide"


def test_without_values_no_throw_counts(tmp_path, capsys):
    s = write(tmp_path / "r.jsonl", OPENING + [{"frame": os.path.join(FIXTURES, "429bffa7d7.jpg")}])
    code, out, _ = run(capsys, "replay", "--json", s)
    assert code == 0 and "throws" not in json.loads(out)
    code, out, _ = run(capsys, "replay", s)
    assert code == 0 and "throws" not in out


def test_text_output_prints_the_counts(tmp_path, capsys):
    s = write(tmp_path / "t.jsonl", OPENING + [
        {"frame": os.path.join(FIXTURES, "429bffa7d7.jpg"), "values": [1, 2, 3, 4, 5]}])
    code, out, _ = run(capsys, "replay", s)
    assert code == 0 and "throws: 1 read, 0 asked, 0 silent errors" in out


@pytest.mark.parametrize("values, msg", [
    ("6 4 1", "values must be a list"),
    ([6, 4, 1], "illegal throw: threw 3 dice, but 5 dice are due"),
])
def test_bad_confirmed_values(tmp_path, values, msg):
    lines = [json.dumps(l) for l in OPENING + [{"frame": os.path.join(FIXTURES, "429bffa7d7.jpg"), "values": values}]]
    with pytest.raises(ReplayError, match=f"line 8: {msg}"):
        replay_lines(lines, str(tmp_path))


def test_a_fake_reader_goes_through_the_session(tmp_path):
    """The session's reader is the one given: an unsure read with the right values is asked."""
    from types import SimpleNamespace

    def reader(image, expect=None, area=None):
        dice = [SimpleNamespace(value=v) for v in (6, 4, 1, 1, 1, 1, 1, 1)]
        return SimpleNamespace(dice=dice, sure=False, reasons=["hard_to_read"])

    frame = os.path.join(FIXTURES, "429bffa7d7.jpg")
    done = replay_lines([json.dumps({"players": ["A", "B"]}), json.dumps({"frame": frame, "values": [6, 4, 1, 1, 1, 1, 1, 1]})],
                        str(tmp_path), reader=reader)
    assert done.throws == {"read": 0, "asked": 1, "silent_errors": 0}
    assert done.state["players"][0]["rows"][0]["marked"] == 1


def _played_store(tmp_path, first):
    data = tmp_path / "data"
    store = Store(str(data))
    s = GameSession(store)
    s.start(["Sarah", "Tim", "Maria"], first=first)
    for values in ([6, 4, 1, 1, 1, 1, 1, 1], [5, 4, 1, 1, 1, 1, 1], [6, 2, 1, 1, 1, 1]):
        s.throw(values)
        s.decide("continue")
    s.throw([1, 2, 3, 4, 5], frame=load_image(os.path.join(FIXTURES, "429bffa7d7.jpg")))
    s.decide("stop")
    s.throw([1, 1, 1, 1, 1, 1, 1, 1])  # a misthrow
    return store, s


@pytest.mark.parametrize("first", [0, 2])
def test_export_then_replay_gives_the_same_game(tmp_path, first):
    store, s = _played_store(tmp_path, first)
    lines = export_game(store, s.game_id)
    assert lines[0]["players"][0] == s.game.players[first]
    assert {"frame", "values"} <= set(lines[7]) and lines[7]["values"] == [1, 2, 3, 4, 5]
    assert os.path.exists(lines[7]["frame"])
    script = write(tmp_path / "exported.jsonl", lines)
    done = replay_script(script)
    want = s.game.to_dict()
    by_name = {p["name"]: p for p in done.state["players"]}
    assert all(by_name[p["name"]] == p for p in want["players"])
    assert done.state["turn"] == want["turn"]
    assert done.throws == {"read": 1, "asked": 0, "silent_errors": 0}


def test_games_and_export_commands(tmp_path, capsys):
    store, s = _played_store(tmp_path, 0)
    store.close()
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[app]\ndata_dir = "{tmp_path / "data"}"\n')
    code, out, _ = run(capsys, "games", "--json", "--config", str(cfg))
    (line,) = [json.loads(l) for l in out.splitlines()]
    assert code == 0
    assert line["id"] == s.game_id and line["game"] == "durchmarsch"
    assert line["players"] == ["Sarah", "Tim", "Maria"] and line["finished"] is False and line["events"] == 9
    code, out, _ = run(capsys, "games", "--config", str(cfg))
    assert code == 0 and "Sarah, Tim, Maria" in out and "unfinished" in out
    code, out, _ = run(capsys, "export", str(s.game_id), "--config", str(cfg))
    assert code == 0
    lines = [json.loads(l) for l in out.splitlines()]
    assert lines[0] == {"players": ["Sarah", "Tim", "Maria"]} and lines[-1] == {"roll": [1] * 8}
    code, _, err = run(capsys, "export", "99", "--config", str(cfg))
    assert code == 2 and "no game 99" in err


def test_stats_per_player_across_games_and_the_rematch_tally(tmp_path, capsys):
    from companion.stats import rematch_tally, totals

    store = Store(str(tmp_path / "data"))
    s = GameSession(store)
    for winner_first in (True, False, True):
        names = ["Sarah", "Tim"] if winner_first else ["tim", "Sarah"]  # "tim" is Tim
        s.start(names, first=0)
        for target in (10, 9, 8, 7, 6, 5, 4, 3):  # the first marks and stops, the other misthrows
            s.throw([6, target - 6] + [1] * 6 if target > 6 else [target] + [1] * 7)
            s.decide("stop")
            s.throw([1] * 8)
            if s.game.is_over:
                break
    s.start(["Sarah", "Ben"], first=0)  # unfinished: not counted
    by = {t.name.casefold(): t for t in totals(store)}
    assert by["sarah"].games == 3 and by["sarah"].wins == 2 and by["tim"].wins == 1
    assert by["sarah"].misthrows == 8 and by["sarah"].longest_march == 1
    assert rematch_tally(store, ["Tim", "Sarah"]) == {"Tim": 1, "Sarah": 2}
    store.close()
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[app]\ndata_dir = "{tmp_path / "data"}"\n')
    code, out, _ = run(capsys, "stats", "--json", "--config", str(cfg))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and lines[0]["name"] == "Sarah" and lines[0]["wins"] == 2
    assert set(lines[0]) == {"name", "games", "wins", "rows_completed", "misthrows", "longest_march"}
    code, out, _ = run(capsys, "stats", "--config", str(cfg))
    assert code == 0 and "longest march" in out and "Sarah | 3 | 2" in out


def test_games_tells_a_fenn_draw_from_a_game_the_players_ended(tmp_path, capsys):
    from companion.fenn import BlackThrow, Step

    store = Store(str(tmp_path / "data"))
    s = GameSession(store)
    s.start(["Anna", "Ben"], first=0, game="fenn")
    s.apply(BlackThrow(6))
    for _ in range(2):
        for step in (Step(2, 7), Step(8, 3), Step(1, 5), Step(9, 5)):  # both there and back: F13's third time
            s.apply(step)
    drawn = s.game_id
    s.start(["Sarah", "Tim"], first=0)
    s.throw([6, 4, 1, 1, 1, 1, 1, 1])
    ended = s.game_id
    store.abandon(ended)
    store.close()
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[app]\ndata_dir = "{tmp_path / "data"}"\n')
    code, out, _ = run(capsys, "games", "--json", "--config", str(cfg))
    by_id = {g["id"]: g for g in map(json.loads, out.splitlines())}
    assert code == 0 and by_id[drawn]["ended"] == "repetition" and by_id[drawn]["winner"] is None
    assert by_id[ended]["ended"] == "abandoned" and by_id[ended]["finished"] is True
    code, out, _ = run(capsys, "games", "--config", str(cfg))
    assert "drawn by a third repetition" in out and "ended by the players" in out


def test_fenn_stats_count_wins_draws_losses_and_hints_and_the_rematch_tally_keeps_to_its_game(tmp_path, capsys):
    from companion.fenn import BlackThrow, Pass, Step, Turn
    from companion.stats import fenn_totals, rematch_tally

    store = Store(str(tmp_path / "data"))
    s = GameSession(store)
    s.start(["Anna", "Ben"], first=0, game="fenn")  # drawn by the third repetition (F13)
    s.apply(BlackThrow(6))
    for _ in range(2):
        for step in (Step(2, 7), Step(8, 3), Step(1, 5), Step(9, 5)):
            s.apply(step)
    s.start(["Ben", "anna"], first=0, game="fenn")  # played to a win
    s.apply(BlackThrow(6))
    store.note(s.game_id, "hint", {"player": "Ben"})
    ref = s.game
    while not ref.is_over:
        ends = ref.turn_ends()
        if not ends:
            s.apply(Pass())
            continue
        s.apply(Turn(*(max(ends) if ref.to_act == 0 else min(ends))))  # each die straight for its goal
    assert ref.winner is not None
    s.start(["Anna", "Ben"], first=0)  # a Durchmarsch game Anna wins is no Fenn game
    for target in (10, 9, 8, 7, 6, 5, 4, 3):
        s.throw([6, target - 6] + [1] * 6 if target > 6 else [target] + [1] * 7)
        s.decide("stop")
        s.throw([1] * 8)
    by = {t.name.casefold(): t for t in fenn_totals(store)}
    winner = ref.winner.casefold()
    loser = ({"anna", "ben"} - {winner}).pop()
    assert by[winner].games == 2 and by[winner].wins == 1 and by[winner].draws == 1 and by[winner].losses == 0
    assert by[loser].games == 2 and by[loser].wins == 0 and by[loser].draws == 1 and by[loser].losses == 1
    assert by["ben"].hints == 1 and by["anna"].hints == 0
    fenn_tally = rematch_tally(store, ["Anna", "Ben"], game="fenn")
    assert fenn_tally[ref.winner.capitalize()] == 1 and sum(fenn_tally.values()) == 1
    assert rematch_tally(store, ["Anna", "Ben"], game="durchmarsch") == {"Anna": 1, "Ben": 0}
    store.close()
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[app]\ndata_dir = "{tmp_path / "data"}"\n')
    code, out, _ = run(capsys, "stats", "--game", "fenn", "--json", "--config", str(cfg))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and {x["name"].casefold() for x in lines} == {"anna", "ben"} and lines[0]["wins"] == 1
    code, out, _ = run(capsys, "stats", "--game", "fenn", "--config", str(cfg))
    assert code == 0 and "draws | losses | hints" in out
