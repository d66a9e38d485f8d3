"""What the Fenn screens say: prompts, blocked fields, hints, the moves, the end, in four languages."""

import pytest

from companion import i18n
from companion.fenn import BlackThrow, EndTurn, Fenn, SetBlack, Step, Turn
from companion.fenn_prompts import blocked_text, hint_text, outcome_text, prompt, repetition_text, turn_log, undo_text


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def test_each_blocked_field_says_its_rule():
    g = Fenn(["Anna", "Ben"])
    g.apply(BlackThrow(6))
    g.set_position(blue=(3, 1), red=(5, 2), black=4)
    assert blocked_text(g, 5) == "Field 5 is taken by the red die."
    assert blocked_text(g, 4) == "Field 4 is blocked by the black die's 4."
    assert blocked_text(g, 2) == "Field 2 is blocked by the red die's 2."
    assert blocked_text(g, 7) == "A step goes 1 or 2 fields."
    assert blocked_text(g, 1) == ""  # a legal step
    g.apply(Step(1, 5))  # no extra step: the turn ends
    g.apply(Step(7, 1))  # red: 5 → 7 over nothing, top 1
    g.apply(Step(2, 2))  # blue 1 → 2 showing 2: an extra step
    assert blocked_text(g, 1) == "Field 1 is where the turn started: going back is a null move."


def test_prompts_follow_the_turn_and_the_hint_words():
    g = Fenn(["Anna", "Ben"])
    g.apply(BlackThrow(4))
    assert prompt(g) == "Ben: move red 1 or 2 fields."
    g.apply(Step(8, 4))  # the black die's number: a Pasch
    assert prompt(g) == "Pasch: set the black die, or end your turn."
    assert undo_text(g) == "Undo Ben's move to field 8?"
    g.apply(SetBlack(2))
    assert undo_text(g) == "Undo setting the black die to 2?"
    assert [hint_text("win", 1), hint_text("win", 3), hint_text("draw", None), hint_text("loss", 5)] == [
        "wins now", "wins in 3", "keeps the draw", "loses in 5"]


def test_the_moves_of_a_game_and_its_end_in_german():
    g = Fenn(["Anna", "Ben"])
    for e in (BlackThrow(3), BlackThrow(6), Step(2, 2), Step(4, 7), Turn(8, 8), Step(5, 5), EndTurn()):
        g.apply(e)
    log = turn_log(g)
    assert log == ["Black die thrown: 3", "Black die thrown: 6", "1. Anna (blue): 1 → 2 → 4, top 7",
                   "2. Ben (red): 9 → 8, top 8", "3. Anna (blue): 4 → 5, top 5"]
    g.set_position(blue=(7, 2), red=(8, 1), black=3)
    g.apply(Step(9, 1))
    i18n.set_language("de")
    assert outcome_text(g) == "Anna gewinnt: Blau hat Feld 9 erreicht."
    h = Fenn(["Anna", "Ben"])
    h.apply(BlackThrow(3))
    assert turn_log(h) == ["Schwarzer Würfel geworfen: 3"]


def test_the_second_time_a_position_stands_is_said():
    g = Fenn(["Anna", "Ben"])
    g.apply(BlackThrow(6))
    assert repetition_text(g) == ""
    cycle = (Step(3, 1), Step(7, 9), Step(1, 5), Step(9, 5))  # both dice back where they began
    for e in cycle:
        g.apply(e)
    assert g.position().dice == ((1, 5), (9, 5))
    assert repetition_text(g).startswith("This position stands for the second time")
    for e in cycle:
        g.apply(e)
    assert g.is_over and outcome_text(g) == "Draw: the same position for the third time."


def test_german_uses_the_rule_pages_terms():
    g = Fenn(["Anna", "Ben"])
    g.apply(BlackThrow(6))
    g.apply(Step(2, 2))  # an extra step: back to 1 would be a null move
    i18n.set_language("de")
    assert "Null-Zug" in blocked_text(g, 1) and "Feld 1" in blocked_text(g, 1)
    h = Fenn(["Anna", "Ben"])
    h.apply(BlackThrow(4))
    h.apply(Step(8, 4))  # the black die's number: a Pasch
    assert prompt(h).startswith("Pasch:")
    assert "Remis" in outcome_text(_drawn()) or "remis" in outcome_text(_drawn())


def _drawn():
    g = Fenn(["Anna", "Ben"])
    g.apply(BlackThrow(6))
    for _ in range(2):
        for e in (Step(3, 1), Step(7, 9), Step(1, 5), Step(9, 5)):
            g.apply(e)
    assert g.is_over
    return g


def _asked(g, blue, red, black):
    from types import SimpleNamespace as NS

    from companion.fenn_prompts import verdict_text
    from companion.fenn_referee import judge

    dice = {"blue": NS(field=blue[0], value=blue[1]), "red": NS(field=red[0], value=red[1]),
            "black": NS(field=None, value=black)}
    verdict = judge(g, NS(sure=True, reasons=(), die=dice.get))
    assert verdict.kind == "ask" and g.position().dice == ((3, 1), (5, 2))  # nothing applied
    return verdict.rule, verdict_text(g, verdict)


def test_a_turn_seen_on_the_board_that_no_legal_turn_reaches_is_told_the_rule_it_breaks():
    g = Fenn(["Anna", "Ben"])
    g.apply(BlackThrow(6))
    g.set_position(blue=(3, 1), red=(5, 2), black=4)  # blue to move
    put = " Put the dice back or correct on the screen."
    assert _asked(g, (4, 5), (5, 2), 4) == ("blocked_black", "Blue may not stand on field 4: the black die shows 4." + put)
    assert _asked(g, (5, 6), (5, 2), 4) == ("taken", "Blue may not stand on field 5: the red die stands there." + put)
    assert _asked(g, (2, 5), (5, 2), 4) == ("blocked_other", "Blue may not stand on field 2: the red die shows 2." + put)
    assert _asked(g, (3, 5), (5, 2), 4) == (
        "null_move", "Blue may not end the turn on field 3, where it began (null move)." + put)
    assert _asked(g, (1, 3), (5, 2), 4) == ("no_face", "The blue die has no face 3." + put)  # 3 is die IV's, not III's
    assert _asked(g, (1, 5), (5, 2), 7) == (
        "no_pasch", "The black die is turned only after a Pasch: blue shows 5, the black die showed 4." + put)
    rule, words = _asked(g, (9, 5), (5, 2), 4)  # too far: no chain of steps gets there
    assert rule == "unreachable" and words.startswith("No legal turn leads to field 9 with 5 on top")
    i18n.set_language("de")
    assert _asked(g, (4, 5), (5, 2), 4)[1].startswith("Blau darf nicht auf Feld 4 stehen: der schwarze Würfel zeigt 4.")
    i18n.set_language("fr")
    assert _asked(g, (4, 5), (5, 2), 4)[1].startswith("Le bleu ne peut pas se placer sur la case 4 : le dé noir montre 4.")


def _forbidden(rule, pos, top, end):
    """Whether the turn end ``(field, top, black)`` has what ``rule`` forbids (see why_unreachable)."""
    f, t, b = end
    other = pos.dice[1 - pos.to_move]
    return {"no_face": t == top, "taken": f == other[0], "null_move": f == pos.dice[pos.to_move][0],
            "blocked_other": f == other[1], "blocked_black": f == pos.black,
            "no_pasch": b != pos.black and t != pos.black}[rule]


@pytest.mark.parametrize("faces", ["any", "tip"])
def test_the_rule_told_for_an_unreachable_turn_end_holds_for_every_legal_turn(faces):
    """Soundness of why_unreachable over the turns of random games: the turn end
    asked about has the property the named rule forbids, and no legal turn end
    (F15) has it."""
    import random

    from companion.fenn import BLACK_FACES, Turn
    from companion.fenn_referee import why_unreachable

    rng = random.Random(5)
    checked = 0
    for _ in range(6):
        g = Fenn(["Anna", "Ben"], faces=faces)
        g.apply(BlackThrow(rng.choice((4, 6))))
        while not g.is_over and len(g.events) < 40:
            ends = g.turn_ends()
            if not ends:
                break
            for field in range(1, 10):
                for top in range(1, 10):
                    for black in BLACK_FACES:
                        rule = why_unreachable(g, field, top, black)
                        if (field, top, black) in ends:
                            continue
                        checked += 1
                        if rule != "unreachable":  # a named rule: every end with that property is refused too
                            pos = g.position()
                            assert _forbidden(rule, pos, top, (field, top, black)), (rule, field, top, black)
                            assert not any(_forbidden(rule, pos, top, end) for end in ends), (rule, field, top)
            g.apply(Turn(*rng.choice(sorted(ends))))
    assert checked > 1000
