"""Stray taps never act: a double tap (50-400 ms apart) through the controller
plays no move that nobody made, in whole games of Durchmarsch and Fenn; an
extra step is offered only when one exists; the goal field wins at a tap."""

import random

import pytest

from companion import i18n
from companion.fenn import GOAL, EndTurn, Step
from companion.session import GameSession
from companion.storage import Store
from tests.test_controller import RecordingView
from ui.controller import TableController
from ui.tap_guard import DEFAULT_GUARD, TapGuard


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now

    def wait(self, seconds):
        self.now += seconds


class DemoCamera:
    """The demo's camera: records the throws asked of it."""

    def __init__(self):
        self.throws = []

    def throw(self, values):
        self.throws.append(list(values))


def _table(tmp_path, players, **kw):
    i18n.set_language("en")
    clock = Clock()
    view = RecordingView()
    cam = DemoCamera()
    c = TableController(GameSession(Store(str(tmp_path))), view, camera=cam, demo=True, hints=False,
                        guard=TapGuard(DEFAULT_GUARD, clock=clock), rng=random.Random(5))
    c.session.start(players, first=0, **kw)
    return c, view, cam, clock


@pytest.mark.parametrize("gap", [0.05, 0.2, 0.4])
def test_a_double_tap_on_stop_does_not_throw_for_the_next_player(tmp_path, gap):
    c, view, cam, clock = _table(tmp_path, ["Sarah", "Tim"])
    c.session.throw([6, 4, 1, 1, 1, 1, 1, 1])  # a mark: a decision is due
    clock.wait(1.0)
    c.action("stop")
    assert c.session.game.current_player == 1 and not c.session.game.decision_due
    clock.wait(gap)
    c.action("throw")  # the second tap lands on THROW, now under the finger
    assert cam.throws == [] and not c.waiting_for_rest
    clock.wait(DEFAULT_GUARD)
    c.action("throw")  # a deliberate tap after the screen was shown acts
    assert len(cam.throws) == 1 and len(cam.throws[0]) == 8


def test_a_whole_durchmarsch_game_by_double_taps_makes_no_move_nobody_made(tmp_path):
    rng = random.Random(11)
    c, view, cam, clock = _table(tmp_path, ["Sarah", "Tim", "Maria", "Jonas"])
    g = c.session.game
    stray = 0
    for _ in range(3000):
        if g.is_over:
            break
        clock.wait(1.0)
        before = len(g.events)
        if g.decision_due:
            c.action(rng.choice(["stop", "continue", "continue"]))
        else:
            c.action("throw")
            assert cam.throws and len(cam.throws[-1]) == g.dice_to_throw
            c.session.throw(cam.throws[-1])  # the camera read the dice at rest
            c.waiting_for_rest = False
        assert len(g.events) == before + 1
        # The second tap of a double tap, 50-400 ms later, on whatever sits there now.
        clock.wait(rng.uniform(0.05, 0.4))
        throws = len(cam.throws)
        c.action(rng.choice(["stop", "continue", "throw"]))
        stray += 1
        assert len(g.events) == before + 1 and len(cam.throws) == throws, "a stray tap acted"
    assert g.is_over and stray > 20
    assert c.guard.dropped >= stray


def _fenn_turn(c, rng, clock, strays):
    """One turn by taps, each followed 50-400 ms later by a stray tap where the
    finger was (the same field, face or black die, or End turn)."""
    flow, g = c.fenn, c.session.game

    def tap(do, again):
        clock.wait(1.0)
        do()
        n = len(g.events)
        clock.wait(rng.uniform(0.05, 0.4))
        again()
        strays.append(1)
        assert len(g.events) == n, "a stray tap acted"

    if flow.phase() == "start":
        v = rng.choice(flow.black_choices())
        tap(lambda: flow.tap_black(v), lambda: flow.tap_black(v))
        return
    if flow.can_pass():
        tap(flow.pass_turn, flow.pass_turn)
        return
    mover = g.position().to_move
    while not g.is_over and g.position().to_move == mover and flow.phase() in ("turn", "options"):
        if flow.black_choices() and rng.random() < 0.5:
            v = rng.choice(flow.black_choices())
            tap(lambda v=v: flow.tap_black(v), lambda v=v: (flow.tap_face(v), flow.tap_black(v)))
        elif flow.targets() and (flow.phase() == "turn" or rng.random() < 0.5):
            field = rng.choice(sorted(flow.targets()))
            clock.wait(1.0)
            flow.tap_field(field)
            if g.is_over:
                return
            top = rng.choice(flow.faces())
            # The Pasch picker opens where the faces were: the stray tap lands on a black die.
            tap(lambda top=top: flow.tap_face(top),
                lambda top=top: (flow.tap_black(top), flow.tap_face(top), flow.end_turn()))
        else:
            tap(flow.end_turn, lambda: (flow.end_turn(), c.action("continue")))


def test_a_whole_fenn_game_by_double_taps_makes_no_move_nobody_made(tmp_path):
    rng = random.Random(3)
    c, view, cam, clock = _table(tmp_path, ["Anna", "Ben"], game="fenn")
    g, strays = c.session.game, []
    for _ in range(400):
        if g.is_over:
            break
        _fenn_turn(c, rng, clock, strays)
    assert g.is_over and len(strays) > 20
    saved = c.session.store.load(c.session.game_id).game
    assert saved.events == g.events  # every event made is stored, none more


def test_an_extra_step_is_offered_only_when_one_exists(tmp_path):
    c, view, cam, clock = _table(tmp_path, ["Anna", "Ben"], game="fenn")
    g, flow = c.session.game, c.fenn
    # The case: red on 9 steps to 8 showing 8 (an extra step), 7 and 6 blocked, 9 the null move.
    g.set_position(blue=(6, 1), red=(9, 5), black=7, to_move=1)
    clock.wait(1.0)
    flow.tap_field(8)
    clock.wait(1.0)
    flow.tap_face(8)
    assert g.events[-2:] == (Step(8, 8), EndTurn())  # ended by itself
    assert g.position().to_move == 0 and "No extra step possible" in flow.text()


def test_the_goal_field_wins_at_a_tap(tmp_path):
    c, view, cam, clock = _table(tmp_path, ["Anna", "Ben"], game="fenn")
    g, flow = c.session.game, c.fenn
    g.set_position(blue=(7, 2), red=(3, 5), black=4, to_move=0)
    clock.wait(1.0)
    assert GOAL[0] in flow.targets()
    flow.tap_field(GOAL[0])
    assert g.is_over and g.winner == "Anna" and view.screen == "fenn_end"


def _extra_step_win(c):
    """A position where blue wins on field 9 only through extra steps (searched, not hard-coded)."""
    from companion.fenn_hints import hints

    g = c.session.game
    for bf in range(3, 7):
        for bt in (1, 2, 5, 6, 7, 9):
            for black in (2, 3, 4, 6, 7, 8):
                for rf, rt in ((1, 1), (2, 3), (1, 4)):
                    if len({bf, rf, black}) < 3:
                        continue
                    try:
                        g.set_position(blue=(bf, bt), red=(rf, rt), black=black, to_move=0)
                    except Exception:
                        continue
                    if 9 in c.fenn.targets():
                        continue
                    shown = hints(g, {})
                    if any(h.field == 9 and sum(isinstance(e, Step) for e in h.path) > 1 for h in shown):
                        return shown
    raise AssertionError("no such position")


def test_the_hint_lists_the_route_and_a_starred_end_says_its_first_step(tmp_path):
    c, view, cam, clock = _table(tmp_path, ["Anna", "Ben"], game="fenn")
    flow = c.fenn
    flow.shown_hints = _extra_step_win(c)
    lines = flow.hint_lines()
    win = next(line for line in lines if line.startswith("field 9"))
    assert "(over " in win and "\u2192" in win and "wins now" in win
    assert len(lines) == len(set(lines))  # equal lines merged
    assert len({(h.field, h.value, h.plies) for h in flow.shown_hints}) == len(lines)  # no line dropped
    first = flow.first_step_to(9)
    clock.wait(1.0)
    flow.tap_field(9)
    assert flow.message == f"Field 9 is reached by extra steps: first to field {first.field} with {first.top} on top."
    assert first.field in flow.targets()


# -- the correction screen and the end screen's own presses, through the controller ----------------
@pytest.mark.parametrize("gap", [0.05, 0.2, 0.4])
def test_the_correction_screen_and_rematch_act_once_on_a_double_tap(tmp_path, gap):
    c, view, cam, clock = _table(tmp_path, ["Sarah", "Tim"])
    view.correction_values = lambda: (view.corrections[-1]["values"], view.corrections[-1]["due"],
                                      view.corrections[-1]["mode"])  # the dice the correction screen shows
    g = c.session.game
    c.session.throw([6, 2, 1, 1, 1, 1, 1, 1])  # a misthrow for 10 ... that was a 6 and a 4
    clock.wait(1.0)
    c.action("wrong")
    assert view.screen == "correction"
    clock.wait(gap)
    c.action("continue")  # CONTINUE (GPIO or key) just after the screen opened: it confirms nothing
    assert view.screen == "correction" and g.last_result.misthrow
    clock.wait(1.0)
    assert c.confirm_correction([6, 4, 1, 1, 1, 1, 1, 1], "wrong")
    n = len(g.events)
    clock.wait(gap)
    assert not c.confirm_correction([6, 4, 1, 1, 1, 1, 1, 1], "wrong")  # Confirm's second tap
    c.action("stop")  # ... or STOP where it was: the decision is the players' own
    assert len(g.events) == n and g.decision_due and g.last_result.success
    clock.wait(1.0)
    c.action("wrong")
    clock.wait(1.0)
    c.action("stop")  # the correction's Cancel (STOP): back at the game
    assert view.screen == "game"
    clock.wait(gap)
    c.action("wrong")  # the second tap lands on "Wrong?": it does not open the correction again
    assert view.screen == "game" and len(view.corrections) == 2
    # A game won; Rematch tapped twice starts one game.
    while not g.is_over:
        clock.wait(1.0)
        if g.decision_due:
            c.action("continue")
        else:
            from ui.snapshot import winning_values

            c.session.throw(winning_values(g.target, g.dice_to_throw))
    clock.wait(1.0)
    c.rematch()
    first = c.session.game_id
    clock.wait(gap)
    c.rematch()
    assert c.session.game_id == first and c.session.store.unfinished_games()[0].id == first
    assert len(c.session.store.unfinished_games()) == 1


def test_a_touch_move_clears_the_cameras_read_line(tmp_path):
    """A demo move's "Read: …" line told of that move: a later touch move does not show it."""
    from companion.watch import Seen, Why

    c, view, cam, clock = _table(tmp_path, ["Anna", "Ben"], game="fenn")
    flow = c.fenn
    clock.wait(1.0)
    flow.tap_black(6)

    class Read:  # what the camera read of the board after the demo's move (the reader's shape)
        dice = ()

    read = Read()
    read.dice = [type("D", (), {"colour": "blue", "value": 6, "field": 2})()]
    c.seen(Seen("scored", Why.SCORED, read))
    assert "Read: blue 6 on field 2" in flow.text()
    clock.wait(1.0)
    flow.tap_field(sorted(flow.targets())[0])  # the next move, by touch
    assert "Read:" not in flow.text() and flow.selected is not None


# -- the real widgets (Kivy offscreen, touches through the Window; tests/ui_guard.py) ------------------
def _guard_run(tmp_path, scenario):
    import json
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = subprocess.run([sys.executable, os.path.join(root, "tests", "ui_guard.py"), scenario, str(tmp_path / "data"),
                        str(tmp_path)], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, SDL_VIDEODRIVER="offscreen", PYTHONPATH=root))
    lines = [line for line in p.stdout.splitlines() if line.startswith("{")]
    assert lines, p.stderr[-3000:]
    rep = json.loads(lines[-1])
    assert "error" not in rep, (rep["error"], rep.get("traceback"))
    return rep


def test_the_start_menu_settings_and_correction_screens_drop_the_second_tap(tmp_path):
    """Each double tap (50, 200 and 400 ms) on the start, menu, settings and
    correction screens' own buttons acts once; the second tap, which lands on a
    button that just appeared (Start, a PIN digit, Wrong?, Undo, a drop-down's
    choices), is dropped; GPIO CONTINUE and the key C just after a screen opened too;
    the correction's photo, tapped, fills the screen and stays for the second tap."""
    rep = _guard_run(tmp_path, "screens")
    cases = {}
    for case in rep["cases"]:
        cases.setdefault(case.pop("case"), []).append(case)
    for name, runs in cases.items():
        assert [r["gap"] for r in runs] == [0.05, 0.2, 0.4], name
        for r in runs:
            if "dropped" in r:
                assert r["dropped"] == 1, (name, r)  # the second tap reached the guard, which dropped it
    for r in cases["enter_then_start"]:
        assert r["keyboard_gone"] and r["screen"] == "start" and not r["started"]
    for r in cases["new_players_then_start"]:
        assert r["under"] == "Start" and r["screen"] == "start" and not r["new_game"]
    for r in cases["menu_twice"]:
        assert r["menu_open"]  # the second tap, outside the menu, did not close it
    for r in cases["settings_then_pin_digit"]:
        assert r["pad"] == "PinDialog" and r["under"] in "0123456789" and r["typed"] == ""
    for r in cases["pin_ok_then_setting"]:
        assert r["screen"] == "settings" and r["opened"] == []
    for r in cases["dropdown_twice"]:
        assert r["open"] and r["value_kept"]
    for r in cases["settings_cancel_then_wrong"] + cases["correction_cancel_then_wrong"]:
        assert r["under"] in ("Wrong?", "Undo") and r["screen"] == "game"
    for r in cases["wrong_then_gpio_and_key"]:
        assert r == {"gap": r["gap"], "screen": "correction", "events": 0}
    for r in cases["photo_zoom"]:
        assert r["zoomed"] and r["closed"]  # the photo over the whole screen; a later tap closes it
    for r in cases["confirm_twice"]:
        assert r["screen"] == "game" and r["decision_due"]
    assert [r["events"] for r in cases["deliberate_stop"]] == [1, 1, 1]  # a tap once the screen was shown acts


def test_whole_games_by_double_taps_on_the_widgets_make_no_move_nobody_made(tmp_path):
    """A Durchmarsch game and a Fenn game, every tap a touch on the widget followed
    50-400 ms later by a second where the finger was: the events are the moves meant."""
    rep = _guard_run(tmp_path, "games")
    for kind in ("durchmarsch", "fenn"):
        r = rep[kind]
        assert r["over"] and r["strays"] >= 20, kind
        assert r["events"] == r["intended"] == r["stored"], kind
    assert rep["durchmarsch"]["winner"] == "Anna" and rep["durchmarsch"]["screen"] == "end"
    assert set(rep["durchmarsch"]["acted"]) == {1}  # every deliberate tap acted, once
    assert rep["fenn"]["screen"] == "fenn_end"
    # Every stray tap after a press that changed the buttons was dropped by the guard (in Fenn a
    # second tap on a field just chosen chooses it again: no move, nothing to drop).
    assert rep["dropped"] >= rep["durchmarsch"]["strays"]


def test_the_read_line_goes_when_the_next_move_is_made_by_touch(tmp_path):
    """Fenn's demo move, read by the camera from the mock board; then the next player's touch move."""
    rep = _guard_run(tmp_path, "read_line")
    assert rep["after_demo"]["moved"] and "Read: " in rep["after_demo"]["prompt"]
    assert rep["touch_prompts"] and not any("Read:" in t for t in rep["touch_prompts"])
