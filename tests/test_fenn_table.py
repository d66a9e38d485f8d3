"""A game of Fenn at the table by touch, without Kivy: the controller, the board's flow, the store."""

import random

import pytest

from companion import i18n
from companion.fenn import Step
from companion.session import GameSession
from companion.storage import Store
from tests.test_controller import RecordingView
from ui.controller import TableController
from ui.fenn_snapshot import play_by_touch, tap_turn


@pytest.fixture
def table(tmp_path):
    i18n.set_language("en")
    view = RecordingView()
    session = GameSession(Store(str(tmp_path)))
    c = TableController(session, view)
    session.start(["Anna", "Ben"], first=0, game="fenn")
    return c, view


def test_a_whole_game_by_touch_to_its_end(table):
    c, view = table
    flow = c.fenn
    assert view.screen == "fenn" and flow.black_choices() == [2, 3, 4, 6, 7, 8]
    flow.tap_black(6)
    assert flow._book.wait(60)
    play_by_touch(flow, rng=random.Random(1), best_for=0)
    g = c.session.game
    assert g.is_over and g.winner == "Anna"  # the hint's best turns beat random turns
    assert view.screen == "fenn_end" and "win" in view.beeps
    saved = c.session.store.load(c.session.game_id).game
    assert saved.to_dict() == g.to_dict() and saved.events == g.events
    assert flow.hints_used()["Anna"] > 0 and flow.hints_used()["Ben"] == 0
    c.rematch()  # Revanche: the colours swap
    assert c.session.game.players == ("Ben", "Anna") and view.screen == "fenn"


def test_only_legal_taps_respond_and_a_blocked_field_says_why(table):
    c, view = table
    flow = c.fenn
    flow.tap_field(2)
    assert flow.selected is None and c.session.game.events == ()  # no step before the start throws
    flow.tap_black(4)  # red begins
    flow.tap_field(6)
    assert flow.selected is None and flow.message == "A step goes 1 or 2 fields."
    flow.tap_field(8)
    assert flow.faces() == [1, 3, 4, 8, 9]  # red's faces but its own top 5
    flow.tap_face(5)  # not offered: nothing happens
    assert c.session.game.events[-1:] != (Step(8, 5),)
    flow.tap_face(8)  # 8 on field 8: an extra step
    assert flow.can_end_turn() and flow.marks()[9] == "start" and flow.marks()[4] == "black"
    assert c.lights() == (False, True)
    c.action("continue")  # the GPIO CONTINUE ends the turn
    assert c.session.game.position().to_move == 0 and not flow.can_end_turn()


def test_undo_asks_and_a_power_cut_mid_turn_loses_nothing(table, tmp_path):
    c, view = table
    flow = c.fenn
    flow.tap_black(6)
    tap_turn(flow, [Step(2, 2)])  # an extra step pending: tap_turn ends the turn
    flow.tap_field(8)
    flow.tap_face(8)  # red mid-turn: may step again
    c.action("undo")
    assert view.undo_question == "Undo Ben's move to field 8?"
    c.action("continue")
    assert c.session.game.position().dice[1] == (9, 5) and flow.message == "Undone."
    flow.tap_field(8)
    flow.tap_face(8)
    c.session.store.close()  # the power goes: the store is all there is
    view2 = RecordingView()
    s2 = GameSession(Store(str(tmp_path)))
    c2 = TableController(s2, view2, hints=False)
    assert s2.resume()
    assert view2.screen == "fenn" and c2.fenn.can_end_turn() and s2.game.position().dice[1] == (8, 8)


def test_a_hint_lists_the_turns_best_first_and_is_noted(table):
    c, view = table
    flow = c.fenn
    flow.tap_black(6)
    assert flow._book.wait(60)
    flow.show_hint()
    lines = flow.hint_lines()
    assert lines[0].endswith("keeps the draw") and flow.best() is not None
    assert flow.hints_used() == {"Anna": 1, "Ben": 0}
    tap_turn(flow, flow.best().path)
    assert flow.shown_hints == []  # a move clears the hint
