"""The Fenn screens of ``companion snapshot``: a game of Fenn played by touch.

``fenn-start.png`` (Fenn chosen, who plays blue), ``fenn-throw.png`` (the black
die's start throws), ``fenn-switch.png`` (the camera saw the other kind of
set, F1: the switch offered), ``fenn-blocked.png`` (a turn: the field tapped, the faces
offered, blocked fields marked), ``fenn-extra.png`` (an extra step),
``fenn-pasch.png`` (set the black die), ``fenn-hint.png`` (the turns and their
values), ``fenn-end.png`` (the winner and the moves), ``fenn-history.png``.
Every move is made by the board's own taps (:func:`tap_turn`).
"""

from __future__ import annotations

import random

from companion.fenn import BlackThrow, EndTurn, Pass, SetBlack, Step

__all__ = ["FENN_SCREENS", "fenn_script", "tap_turn", "play_by_touch"]

FENN_SCREENS = ("fenn-start", "fenn-throw", "fenn-switch", "fenn-blocked", "fenn-extra", "fenn-pasch", "fenn-hint",
                "fenn-end", "fenn-history")


def tap_turn(flow, path) -> None:
    """Play the events ``path`` (a hint's or ``turn_ends``' sequence) by the
    board's taps on :class:`ui.fenn_flow.FennTable` ``flow``: a field then a
    face per step (the goal field alone: it wins whatever the face), the
    black die's value, End turn, Pass. Raises
    ``AssertionError`` when a tap is not offered."""
    for e in path:
        if isinstance(e, Step):
            assert e.field in flow.targets(), (e, flow.targets())
            flow.tap_field(e.field)
            if flow.game.is_over:  # the goal: reached by the tap, whatever face is on top (F4)
                return
            assert e.top in flow.faces(), (e, flow.faces())
            flow.tap_face(e.top)
        elif isinstance(e, (SetBlack, BlackThrow)):
            assert e.top if isinstance(e, SetBlack) else True
            flow.tap_black(e.top if isinstance(e, SetBlack) else e.value)
        elif isinstance(e, EndTurn):  # (already ended by itself when no extra step was possible)
            if flow.can_end_turn():
                flow.end_turn()
        elif isinstance(e, Pass):
            flow.pass_turn()
    if flow.phase() == "options":  # the path ended where the player may go on: they end the turn
        flow.end_turn()


def play_by_touch(flow, *, rng: random.Random, best_for=0, max_turns: int = 400) -> None:
    """Play ``flow``'s game to its end by taps: seat ``best_for`` takes the
    hint's best turn, the other a random legal turn. Needs the hints ready."""
    game = flow.game
    for _ in range(max_turns):
        if game.is_over:
            return
        if flow.can_pass():
            flow.pass_turn()
            continue
        if game.position().to_move == best_for:
            flow.show_hint()
            path = flow.best().path
        else:
            ends = game.turn_ends()
            path = ends[rng.choice(sorted(ends))]
        tap_turn(flow, path)


def fenn_script(app, report, *, save, enter_players, wait_for, players=("Anna", "Ben")):
    """The Fenn part of the snapshot's script (a generator on Kivy's clock):
    ``save(name)`` saves the screen, ``enter_players`` and ``wait_for`` are
    :mod:`ui.snapshot`'s; ``players``: the two names typed."""

    app.show_start()
    s = app.start_screen
    s.choose_game("fenn")
    enter_players(s, list(players), first=1)  # Ben (the second) plays blue
    s.refresh_first()
    yield 0.3
    save("fenn-start")
    s.start_btn.dispatch("on_release")
    yield 0.3
    flow = app.table.fenn
    flow.tap_black(3)  # thrown again (F3)
    yield 0.3
    save("fenn-throw")
    flow.tap_black(6)  # blue begins: Ben
    flow.tap_field(3)
    flow.tap_face(1)  # Ben: 1 → 3, top 1
    # The camera sees red on field 7 showing 2, die III's face: the set on the table has
    # blue and red the other way round (F1); the screen says so and offers the switch.
    from hardware.fenn_scene import FennScene

    frame, _ = FennScene(seed=5, table="felt", board="dark brown").frame(blue=(3, 1), red=(7, 2), black=6, seed=3)
    app.session.take(app.session.read(frame), frame)
    yield 0.6
    save("fenn-switch")
    flow.other_set, flow.message, flow.seen = False, "", ""  # the players put red back: the game goes on
    flow.tap_field(8)  # Anna (red) taps field 8
    yield 0.3
    save("fenn-blocked")
    flow.tap_face(8)  # 8 on field 8: an extra step
    yield 0.3
    save("fenn-extra")
    flow.tap_field(7)
    flow.tap_face(9)  # red 8 → 7, top 9
    flow.tap_field(4)
    flow.tap_face(6)  # blue 3 → 4 with 6 up: the black die's number, a Pasch
    yield 0.3
    save("fenn-pasch")
    flow.tap_black(2)
    yield from wait_for(lambda: flow._book is not None and flow._book.ready, 60)
    flow.show_hint()
    yield 0.3
    save("fenn-hint")
    play_by_touch(flow, rng=random.Random(4), best_for=1)
    yield 0.5
    report["fenn_outcome"] = app.session.game.to_dict()
    save("fenn-end")
    app.open_history()
    yield 0.4
    save("fenn-history")
    app.dialog.dismiss()
    yield 0.2
