"""The table's flow without Kivy: the controller between the session and a recording view."""

from types import SimpleNamespace

import numpy as np
import pytest

from companion.session import GameSession, ReadResult
from companion.storage import Store
from ui.controller import TableController
from vision.reasons import Reason

FRAME = np.zeros((48, 64, 3), np.uint8)


class RecordingView:
    """A view that keeps what it was asked to show."""

    def __init__(self):
        self.screen = "start"
        self.undo_question = None
        self.corrections, self.errors, self.beeps, self.reads = [], [], [], 0
        self.refreshed = 0

    def show(self, name):
        self.screen = name

    def current(self):
        return self.screen

    def refresh(self):
        self.refreshed += 1

    def setup_game(self, game):
        pass

    def show_end(self, game):
        self.ended = game.winner

    def open_correction(self, values, frame, *, mode, due, dice, why):
        self.corrections.append(dict(values=list(values), mode=mode, due=due, why=why, frame=frame))
        self.screen = "correction"

    def correction_error(self, text):
        self.errors.append(text)

    def open_undo(self, question):
        self.undo_question = question

    def close_undo(self):
        self.undo_question = None

    def undo_open(self):
        return self.undo_question is not None

    def beep(self, event):
        self.beeps.append(event)

    def update_lights(self):
        pass

    def start_read(self):
        self.reads += 1


@pytest.fixture
def table(tmp_path):
    view = RecordingView()
    c = TableController(GameSession(Store(str(tmp_path))), view)
    c.session.start(["Sarah", "Tim"], first=0)
    return c, view


def _die(v, x):
    return SimpleNamespace(value=v, center=(x, 10.0), size=20.0)


def test_a_start_shows_the_game_and_a_press_decides(table):
    c, view = table
    assert view.screen == "game"
    c.session.throw([6, 4, 1, 1, 1, 1, 1, 1])
    assert view.beeps == ["success"] and c.message
    assert c.lights() == (True, True)
    c.action("stop")
    assert c.session.game.current_player == 1 and c.lights() == (False, False)


def test_a_press_the_rules_refuse_says_why_and_changes_nothing(table):
    c, view = table
    before = c.session.game.to_dict()
    c.action("continue")  # no decision is due: a throw is
    assert c.session.game.to_dict() == before
    assert "throw" in c.message.lower()


def test_undo_asks_first_continue_confirms_stop_cancels(table):
    c, view = table
    c.session.throw([6, 4, 1, 1, 1, 1, 1, 1])
    c.action("undo")
    assert view.undo_question and c.lights() == (True, True)
    c.action("stop")  # cancels
    assert view.undo_question is None and len(c.session.game.events) == 1
    c.action("undo")
    c.action("continue")  # confirms
    assert len(c.session.game.events) == 0 and view.undo_question is None


def test_an_unsure_read_is_asked_and_the_confirmed_values_scored(table):
    c, view = table
    dice = tuple(_die(v, 10.0 * i) for i, v in enumerate([6, 4, 1, 1, 1, 1, 1]))
    read = ReadResult(dice, tuple(d.value for d in dice), 8, (Reason.WRONG_COUNT,))
    c.read_done(FRAME, read)
    assert view.screen == "correction" and view.corrections[-1]["mode"] == "ask"
    assert view.corrections[-1]["values"] == [6, 4, 1, 1, 1, 1, 1] and view.corrections[-1]["due"] == 8
    assert c.session.game.events == () and view.beeps == ["ask"]
    assert c.confirm_correction([6, 4, 1], "ask") is False  # three dice: the rules refuse
    assert view.errors and c.session.game.events == () and c.pending is not None
    assert c.confirm_correction([6, 4, 1, 1, 1, 1, 1, 1], "ask") is True
    assert view.screen == "game" and c.pending is None and c.last_frame is FRAME
    assert c.session.game.last_result.values == (6, 4, 1, 1, 1, 1, 1, 1)


def test_a_sure_read_is_scored_without_asking(table):
    c, view = table
    dice = tuple(_die(v, 10.0 * i) for i, v in enumerate([6, 4, 1, 1, 1, 1, 1, 1]))
    c.read_done(FRAME, ReadResult(dice, tuple(d.value for d in dice), 8))
    assert view.corrections == [] and c.session.game.last_result.success and c.last_frame is FRAME


def test_wrong_opens_the_last_throw_in_picture_order_and_a_correction_replaces_it(table):
    c, view = table
    dice = tuple(_die(v, x) for v, x in zip([1, 6, 1, 4, 1, 1, 1, 1], [5, 1, 6, 2, 7, 8, 9, 10]))
    c.read_done(FRAME, ReadResult(dice, tuple(d.value for d in dice), 8))
    c.action("wrong")
    shown = view.corrections[-1]
    assert shown["mode"] == "wrong" and shown["values"] == [6, 4, 1, 1, 1, 1, 1, 1] and shown["frame"] is FRAME
    assert c.confirm_correction([5, 4, 1, 1, 1, 1, 1, 1], "wrong")
    assert c.session.game.last_result.values == (5, 4, 1, 1, 1, 1, 1, 1) and len(c.session.game.events) == 1


def test_a_read_that_failed_says_so(table):
    c, view = table
    c.read_done(None, None, OSError("camera gone"))
    assert "camera gone" in c.message and not c.reading


def test_the_demo_throws_the_dice_due_on_the_mock_camera(tmp_path):
    thrown = []
    view = RecordingView()
    camera = SimpleNamespace(throw=thrown.append)
    c = TableController(GameSession(Store(str(tmp_path))), view, camera=camera, demo=True)
    c.session.start(["Sarah", "Tim"], first=0)
    c.action("throw")
    assert len(thrown) == 1 and len(thrown[0]) == 8 and all(1 <= v <= 6 for v in thrown[0])
    assert c.waiting_for_rest and view.reads == 0


def test_with_a_camera_throw_starts_a_read(table):
    c, view = table
    c.action("throw")
    assert view.reads == 1 and c.reading
    c.action("throw")  # one read at a time
    assert view.reads == 1


def test_the_last_throw_ends_the_game_on_the_end_screen(table):
    """Tim misthrows eight times (two per row): he is out, and Sarah wins."""
    c, view = table
    s = c.session
    for target in (10, 9, 8, 7, 6, 5, 4, 3):
        s.throw([6, target - 6] + [1] * 6 if target > 6 else [target] + [1] * 7)
        s.decide("stop")
        s.throw([1] * 8)
        if s.game.is_over:
            break
    assert s.game.is_over and view.screen == "end" and view.beeps[-1] == "win" and view.ended == "Sarah"


def test_after_a_restart_resume_shows_the_last_throws_result_and_picture(tmp_path):
    store = Store(str(tmp_path))
    s = GameSession(store)
    s.start(["Sarah", "Tim"], first=0)
    picture = np.full((48, 64, 3), 77, np.uint8)
    s.throw([6, 4, 1, 1, 1, 1, 1, 1], frame=picture)
    store.close()
    view = RecordingView()
    c = TableController(GameSession(Store(str(tmp_path))), view)  # the app after a restart
    assert c.resume()
    assert view.screen == "game" and "10" in c.message
    assert c.last_frame is not None and c.last_frame.shape == picture.shape
    assert abs(int(c.last_frame.mean()) - 77) <= 2  # the stored JPEG of the throw
    c.action("wrong")
    assert view.corrections[-1]["frame"] is c.last_frame and view.corrections[-1]["values"] == [6, 4, 1, 1, 1, 1, 1, 1]


def test_on_the_correction_screen_continue_confirms_once_the_count_is_right_and_stop_goes_back(table):
    c, view = table
    view.correction_values = lambda: (list(view.shown), 8, "ask")
    dice = tuple(_die(v, 10.0 * i) for i, v in enumerate([6, 4, 1, 1, 1, 1, 1]))
    c.read_done(FRAME, ReadResult(dice, tuple(d.value for d in dice), 8, (Reason.WRONG_COUNT,)))
    view.shown = [6, 4, 1, 1, 1, 1, 1]  # seven shown, eight thrown: CONTINUE does nothing yet
    c.action("continue")
    assert view.screen == "correction" and c.session.game.events == ()
    view.shown = [6, 4, 1, 1, 1, 1, 1, 2]
    c.action("continue")
    assert view.screen == "game" and c.session.game.last_result.values == (6, 4, 1, 1, 1, 1, 1, 2)
    c.action("stop")  # the game's decision: Sarah stops
    dice = tuple(_die(v, 10.0 * i) for i, v in enumerate([1, 1, 1]))
    c.read_done(FRAME, ReadResult(dice, (1, 1, 1), 8, (Reason.WRONG_COUNT,)))
    c.action("stop")  # on the correction screen: back to the game, nothing scored
    assert view.screen == "game" and len(c.session.game.events) == 2


def test_undone_is_said_in_the_screens_language(table):
    from companion import i18n

    c, view = table
    c.session.throw([6, 4, 1, 1, 1, 1, 1, 1])
    i18n.set_language("de")
    try:
        c.action("undo")
        c.action("continue")
        assert c.message == "Zurückgenommen."
    finally:
        i18n.set_language("en")


def test_a_throw_heard_late_does_not_close_a_wrong_correction(tmp_path):
    """The app hears of a throw on its next frame: a Wrong? pressed in between stays open."""
    view, late = RecordingView(), []
    c = TableController(GameSession(Store(str(tmp_path))), view, subscribe=False)  # as the app
    c.session.subscribe(late.append)
    c.session.start(["Sarah", "Tim"], first=0)
    for change in late:
        c.on_change(change)
    late.clear()
    c.session.throw([6, 2, 1, 1, 1, 1, 1, 1])
    c.action("wrong")
    for change in late:
        c.on_change(change)
    assert view.screen == "correction" and view.corrections[-1]["mode"] == "wrong"


def test_after_a_throw_is_undone_the_die_set_aside_is_not_asked_for_again(table):
    from companion import i18n
    from companion.prompts import prompt

    i18n.set_language("en")
    c, view = table
    c.session.throw([6, 4, 1, 1, 1, 1, 1, 1])
    c.action("continue")
    g = c.session.game
    assert "put one die aside" in prompt(g, aside_done=c.aside_done)
    c.session.throw([5, 4, 1, 1, 1, 1, 1])  # seven dice: the die was put aside
    c.session.undo()
    words = prompt(g, aside_done=c.aside_done)
    assert "aside" not in words and "throw 7 dice" in words
    c.session.throw([5, 4, 1, 1, 1, 1, 1])
    c.action("continue")
    assert "put one die aside" in prompt(g, aside_done=c.aside_done)  # the next time it is asked again


def test_stop_or_continue_when_nothing_is_due_is_said_in_words(table):
    from companion import i18n

    i18n.set_language("de")
    try:
        c, view = table
        c.action("stop")
        assert c.message.startswith("STOPP und WEITER gelten nach einem Wurf")
        assert c.session.game.events == ()
    finally:
        i18n.set_language("en")
