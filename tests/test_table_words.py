"""Prompts, end-of-game statistics, stored settings, catalogs, lights and the
correction of a scored throw (no Kivy)."""

import gettext
import json
import os
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion import i18n
from companion.config import DEFAULTS
from companion.durchmarsch import Durchmarsch, NothingToUndo
from companion.prompts import ask_text, must_set_aside, prompt, result_text, undo_text
from companion.recording import ThrowRecorder
from companion.session import GameSession
from companion.settings import (
    SettingsError,
    apply_settings,
    check_pin,
    hash_pin,
    load_settings,
    save_settings,
)
from companion.stats import game_stats
from companion.storage import Store
from hardware.lights import Beeper, DecisionLights
from vision.reasons import Reason

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = os.path.join(ROOT, "..", "shared", "seeds")


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def test_prompts_follow_the_turn():
    g = Durchmarsch(["Sarah", "Tim"])
    assert prompt(g) == "Sarah: throw 8 dice for 10, two dice that add up to 10"
    g.throw([6, 4, 1, 1, 1, 1, 1, 1])
    assert prompt(g) == "Sarah: stop or continue?"
    g.decide("continue")
    assert must_set_aside(g)
    assert prompt(g) == "Sarah: put one die aside.\nThen throw 7 dice for 9, two dice that add up to 9"
    g.throw([5, 4, 1, 1, 1, 1, 1])
    g.decide("stop")
    assert not must_set_aside(g)
    assert prompt(g).startswith("Tim: throw 8 dice for 10")


def test_no_die_set_aside_at_five_dice():
    g = Durchmarsch(["Sarah", "Tim"])
    for t, vals in ((10, [6, 4, 1, 1, 1, 1, 1, 1]), (9, [5, 4, 1, 1, 1, 1, 1]), (8, [4, 4, 1, 1, 1, 1]),
                    (7, [6, 1, 2, 2, 2])):
        assert g.target == t
        g.throw(vals)
        g.decide("continue")
    assert g.dice_to_throw == 5 and not must_set_aside(g)
    assert prompt(g) == "Sarah: throw 5 dice for 6, one die showing 6"


def test_prompts_in_german_use_the_rulebook_terms():
    i18n.set_language("de")
    g = Durchmarsch(["Sarah", "Tim"])
    assert prompt(g) == "Sarah: mit 8 Würfeln die 10 würfeln, zwei Würfel mit der Summe 10"
    r = g.throw([1, 1, 1, 1, 1, 1, 1, 1])
    assert result_text(r) == "Fehlwurf: keine 10."
    g2 = Durchmarsch(["Sarah", "Tim"])
    g2.throw([6, 4, 1, 1, 1, 1, 1, 1])
    assert prompt(g2) == "Sarah: aufhören oder weitermachen?"


def test_result_and_ask_texts():
    g = Durchmarsch(["Sarah", "Tim"])
    assert result_text(g.throw([2, 3, 6, 4, 1, 1, 1, 1])) == "6 + 4 forms 10!"
    g.decide("stop")
    g.throw([1] * 8)  # Tim misthrows in row 1
    g.throw([1] * 8)  # Sarah (row 1, target 9) misthrows
    r = g.throw([1] * 8)  # Tim again in row 2
    assert r.misthrow and not r.row_struck
    assert ask_text([1, 2, 3], 8) == "Read 3 dice, but 8 were thrown. Nudge the dice, or correct them."
    assert ask_text([1] * 8, 8, (Reason.FOREIGN,)).startswith("Something else")
    assert ask_text([1] * 8, 8, (Reason.HARD_TO_READ,)).startswith("Not sure of every die")


@pytest.mark.parametrize("lang", ["de", "en", "fr", "it"])
def test_every_reason_doubt_and_watcher_code_has_words(lang):
    from companion.prompts import doubt_text, reason_text, seen_text
    from companion.watch import Why
    from vision.reasons import Doubt, FennReason

    i18n.set_language(lang)
    try:
        texts = [reason_text(r) for r in Reason] + [doubt_text(d) for d in Doubt] + [seen_text(w) for w in Why]
        texts += [reason_text(r) for r in FennReason]  # the Fenn board's, worded in the same place
    finally:
        i18n.set_language("en")
    assert all(t and t.strip() for t in texts)
    assert len(set(texts)) == len(texts)  # no two codes share their words


def test_row_struck_and_player_out_are_said():
    g = Durchmarsch(["Sarah", "Tim"])
    texts = []
    while not g.is_over:  # every throw a misthrow: rows struck, then a player is out
        texts.append(result_text(g.throw([1] * 8), g.players))
    assert any("Row struck out." in t for t in texts)
    assert texts[-1].endswith("Sarah is out of the game.") or texts[-1].endswith("Tim is out of the game.")


def test_undo_text_names_the_event_and_its_player():
    g = Durchmarsch(["Sarah", "Tim"])
    assert undo_text(g) is None
    g.throw([6, 4, 1, 1, 1, 1, 1, 1])
    assert undo_text(g) == "Undo Sarah's throw 6 4 1 1 1 1 1 1?"
    g.decide("stop")
    assert undo_text(g) == "Undo Sarah's stop?"
    g.throw([1] * 8)
    assert undo_text(g) == "Undo Tim's throw 1 1 1 1 1 1 1 1?"


def test_game_stats_counts_turns_marks_and_strikes():
    g = Durchmarsch(["Sarah", "Tim", "Maria"])
    g.throw([6, 4, 1, 1, 1, 1, 1, 1])
    g.decide("continue")
    g.throw([5, 4, 1, 1, 1, 1, 1])
    g.decide("continue")
    g.throw([1, 1, 1, 1, 1, 1])  # Sarah misthrows at 8 after two marks
    g.throw([1] * 8)  # Tim misthrow (row 1)
    g.throw([6, 4, 1, 1, 1, 1, 1, 1])  # Maria 10
    g.decide("stop")
    g.throw([1] * 8)  # Sarah row 2 misthrow
    g.throw([1] * 8)  # Tim row 2 misthrow
    st = {s.name: s for s in game_stats(g)}
    assert (st["Sarah"].turns, st["Sarah"].throws, st["Sarah"].marks, st["Sarah"].misthrows) == (2, 4, 2, 2)
    assert st["Sarah"].best_turn == 2
    assert (st["Tim"].turns, st["Tim"].marks, st["Tim"].misthrows, st["Tim"].best_turn) == (2, 0, 2, 0)
    assert (st["Maria"].turns, st["Maria"].marks) == (1, 1)
    assert all(s.rows_struck == 0 and not s.eliminated for s in st.values())


def test_game_stats_struck_rows_do_not_count_marks():
    g = Durchmarsch(["Sarah", "Tim"])
    g.throw([6, 4, 1, 1, 1, 1, 1, 1])  # Sarah marks 10 in row 1
    g.decide("stop")
    # Sarah's row 1 is struck after two misthrows there (only when she comes back to it);
    # play misthrows until some row of Sarah's with a mark is struck.
    while not g.sheets[0].rows[0].struck and not g.is_over:
        g.throw([1] * 8)
    s = game_stats(g)[0]
    assert s.rows_struck >= 1 and s.marks == 0


def test_settings_round_trip_and_pin(tmp_path):
    d = str(tmp_path)
    assert load_settings(d) == {}
    cfg = json.loads(json.dumps(DEFAULTS))
    assert check_pin("1234", cfg) and not check_pin("0000", cfg)  # the config's PIN until one is set
    save_settings(d, {"app": {"odds": False, "language": "fr"}, "gpio": {"stop_led": 0}, "pin_hash": hash_pin("4711")})
    new = apply_settings(cfg, load_settings(d))
    assert new["app"]["odds"] is False and new["app"]["language"] == "fr" and new["gpio"]["stop_led"] == 0
    assert check_pin("4711", new) and not check_pin("1234", new)
    assert "4711" not in (tmp_path / "settings.json").read_text()  # never stored in clear
    with pytest.raises(ValueError):
        hash_pin("12")
    with pytest.raises(ValueError):
        hash_pin("12ab")


def test_broken_settings_are_refused_clearly(tmp_path):
    (tmp_path / "settings.json").write_text("{not json")
    with pytest.raises(SettingsError, match="settings.json"):
        load_settings(str(tmp_path))
    (tmp_path / "settings.json").write_text(json.dumps({"app": {"language": "xx"}}))
    with pytest.raises(SettingsError, match="app.language"):
        load_settings(str(tmp_path))
    (tmp_path / "settings.json").write_text(json.dumps({"gpio": {"stop_pin": "five"}}))
    with pytest.raises(SettingsError, match="gpio.stop_pin"):
        load_settings(str(tmp_path))


def test_lights_follow_and_buzzer_beeps():
    f = MockFactory()
    lights = DecisionLights(stop_pin=17, continue_pin=27, pin_factory=f)
    lights.show(stop=True, cont=True)
    assert f.pin(17).state and f.pin(27).state
    lights.show(stop=False, cont=False)
    assert not f.pin(17).state and not f.pin(27).state
    lights.close()
    none = DecisionLights(stop_pin=0, continue_pin=0, pin_factory=f)  # not fitted: nothing happens
    none.show(stop=True, cont=True)
    none.close()
    beeper = Beeper(22, pin_factory=f)
    f.pin(22).clear_states()
    beeper.play("misthrow")  # two 0.35 s beeps
    time.sleep(1.2)
    states = [s.state for s in f.pin(22).states]
    assert states.count(True) == 2 and states[-1] is False
    quiet = Beeper(23, enabled=False, pin_factory=f)
    quiet.play("win")
    time.sleep(0.1)
    assert quiet.played == [] and not f.pin(23).state
    with pytest.raises(KeyError):
        beeper.play("fanfare")
    beeper.close()
    quiet.close()


def test_correction_changes_the_outcome_and_the_record(tmp_path):
    import numpy as np

    rec = ThrowRecorder(str(tmp_path / "rec"))
    s = GameSession(Store(str(tmp_path / "db")), recorder=rec)
    s.start(["Sarah", "Tim"], first=0)
    frame = np.zeros((48, 64, 3), np.uint8)
    r = s.throw([6, 3, 1, 1, 1, 1, 1, 1], frame=frame)  # read wrong: the 4 was read as 3
    assert r.misthrow and s.game.current_player == 1
    r2 = s.correct([6, 4, 1, 1, 1, 1, 1, 1], frame=frame)
    assert r2.success and s.game.decision_due and s.game.current_player == 0
    assert s.game.sheets[0].rows[0].marked == 1 and s.game.sheets[0].rows[0].misthrows == 0
    saved = Store(str(tmp_path / "db")).load(s.game_id)
    assert saved.game.to_dict() == s.game.to_dict()
    labels = json.loads((tmp_path / "rec" / "labels.json").read_text())
    assert [sorted(e["values"]) for e in labels] == [[1, 1, 1, 1, 1, 1, 4, 6]]
    s.decide("stop")
    with pytest.raises(NothingToUndo):  # only a throw can be corrected
        s.correct([6, 4, 1, 1, 1, 1, 1, 1])


def test_bad_correction_keeps_the_throw(tmp_path):
    s = GameSession(Store(str(tmp_path)))
    s.start(["Sarah", "Tim"], first=0)
    s.throw([6, 4, 1, 1, 1, 1, 1, 1])
    before = s.game.to_dict()
    with pytest.raises(Exception, match="dice"):
        s.correct([6, 4, 1])  # wrong count
    assert s.game.to_dict() == before


# -- catalogs -----------------------------------------------------------------
def _catalog(lang):
    from babel.messages.pofile import read_po

    with open(os.path.join(i18n.LOCALE_DIR, lang, "LC_MESSAGES", "companion.po"), "rb") as f:
        return read_po(f, locale=lang)


def test_every_language_is_complete_and_compiled():
    for lang in i18n.LANGUAGES:
        cat = _catalog(lang)
        mo = gettext.GNUTranslations(open(os.path.join(i18n.LOCALE_DIR, lang, "LC_MESSAGES", "companion.mo"), "rb"))
        ids = [m for m in cat if m.id]
        assert len(ids) > 60
        for m in ids:
            if isinstance(m.id, tuple):
                assert all(m.string), (lang, m.id)
                assert mo.ngettext(m.id[0], m.id[1], 5) == m.string[1], (lang, m.id)
            else:
                assert m.string, (lang, m.id)
                assert mo.gettext(m.id) == m.string, f"{lang}: .mo is older than .po for {m.id!r}; run scripts/i18n"
            # no placeholder the English text lacks
            src = m.id if isinstance(m.id, str) else m.id[1]
            dst = m.string if isinstance(m.string, str) else m.string[1]
            assert _fields(dst) <= _fields(src), (lang, src, dst)


def _fields(text):
    import string

    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_template_lists_every_message_in_the_code():
    from babel.messages.extract import extract_from_dir

    found = set()
    for sub in ("companion", "ui"):
        for _f, _l, msg, _c, _ctx in extract_from_dir(os.path.join(ROOT, sub), method_map=[("**.py", "python")],
                                                     keywords={"_": None, "ngettext": (1, 2), "N_": None}):
            found.add(msg if isinstance(msg, str) else tuple(msg))
    cat = _catalog("de")
    known = {m.id for m in cat if m.id}
    assert found <= known, f"not in the catalogs (run scripts/i18n): {found - known}"


@pytest.mark.skipif(not os.path.isdir(SEEDS), reason="rulebooks not present")
def test_game_terms_come_from_the_rulebooks():
    terms = {"de": ("Fehlwurf", "Reihe", "beiseite", "Würfler"), "fr": ("lancer raté", "rangée", "de côté"),
             "it": ("tiro fallito", "fila", "da parte")}
    for lang, words in terms.items():
        book = open(os.path.join(SEEDS, f"durchmarsch-{lang}.txt"), encoding="utf-8").read().lower()
        text = " ".join(m.string if isinstance(m.string, str) else " ".join(m.string)
                        for m in _catalog(lang) if m.id).lower()
        for w in words:
            assert w.lower() in book and w.lower() in text, (lang, w)
