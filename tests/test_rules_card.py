"""The rules cards (issue 30): one per game and language, short, in the rulebooks' words."""

import os
import re

import pytest

from companion.rules_card import GAMES, card, to_kivy_markup

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = os.path.join(ROOT, "..", "shared", "seeds")
LANGS = ("de", "en", "fr", "it")

# Each game's key terms in each language: Durchmarsch's from its four rulebooks,
# Fenn's from the German rule page (issue 31: Feld, Pasch, Null-Zug, remis) and
# the project's terms in fenn.md (field, step, extra step, null move, draw).
TERMS = {
    ("durchmarsch", "de"): ["Fehlwurf", "Reihe", "angekreuzt", "gestrichen", "aufhören", "weitermachen", "beiseite"],
    ("durchmarsch", "en"): ["misthrow", "row", "cross off", "stop", "continue", "aside"],
    ("durchmarsch", "fr"): ["lancer raté", "rangée", "cochez", "rayez", "continuer", "de côté"],
    ("durchmarsch", "it"): ["Tiro fallito", "fila", "barra", "cancella", "continuare", "da parte"],
    ("fenn", "de"): ["Feld", "Pasch", "Null-Zug", "remis"],
    ("fenn", "en"): ["field", "step", "extra step", "top face", "Pasch", "null move", "draw"],
    ("fenn", "fr"): ["case", "pas", "pas supplémentaire", "face du dessus", "Pasch", "coup nul", "nulle"],
    ("fenn", "it"): ["casella", "passo", "passo in più", "faccia superiore", "Pasch", "mossa nulla", "patta"],
}
# The word for a misthrow as each Durchmarsch rulebook prints it.
MISTHROW = {"de": "Fehlwurf", "en": "misthrow", "fr": "lancer raté", "it": "Tiro fallito"}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_card_exists_is_short_and_uses_the_games_terms(game, lang):
    text = card(game, lang)
    lines = text.splitlines()
    assert 8 <= len(lines) <= 25, (game, lang, len(lines))
    assert lines[0].startswith("# ") and game.capitalize() in lines[0]
    # No line so long that it fills the 800x480 screen on its own (about 5 wrapped lines).
    assert max(len(l) for l in lines) <= 260
    for term in TERMS[(game, lang)]:
        assert term.lower() in text.lower(), (game, lang, term)


@pytest.mark.parametrize("lang", LANGS)
def test_the_misthrow_word_is_the_rulebooks_own(lang):
    path = os.path.join(SEEDS, f"durchmarsch-{lang}.txt")
    if not os.path.exists(path):
        pytest.skip("../shared/seeds is absent")
    seed = open(path, encoding="utf-8").read().lower()
    word = MISTHROW[lang].lower()
    assert word in seed and word in card("durchmarsch", lang).lower()


def test_cards_in_different_languages_differ():
    for game in GAMES:
        texts = {card(game, lang) for lang in LANGS}
        assert len(texts) == len(LANGS), game


def test_the_card_says_the_numbers_of_the_rules():
    # Durchmarsch: 8 dice, never fewer than 5, pairs for 10-7, one die for 6-1.
    for lang in LANGS:
        text = card("durchmarsch", lang)
        for number in ("8", "5", "10", "7", "6", "1"):
            assert re.search(rf"\b{number}\b", text), (lang, number)
    # Fenn: blue from field 1, red from field 9, a 6 or a 4 decides who begins.
    for lang in LANGS:
        text = card("fenn", lang)
        assert re.search(r"\b1\b", text) and re.search(r"\b9\b", text)


def test_unknown_language_falls_back_to_english_and_region_is_ignored():
    assert card("durchmarsch", "es") == card("durchmarsch", "en")
    assert card("fenn", "") == card("fenn", "en")
    assert card("durchmarsch", "fr_CH") == card("durchmarsch", "fr")
    assert card("durchmarsch", "de-AT") == card("durchmarsch", "de")
    assert card("fenn", "IT") == card("fenn", "it")


def test_fallback_to_german_when_english_is_missing(monkeypatch):
    import companion.rules_card as rc

    monkeypatch.setattr(rc, "FALLBACK_LANGS", ("xx", "de"))
    assert rc.card("fenn", "es") == card("fenn", "de")


def test_unknown_game_names_the_known_ones():
    with pytest.raises(ValueError) as e:
        card("yahtzee", "en")
    assert "yahtzee" in str(e.value) and "durchmarsch" in str(e.value) and "fenn" in str(e.value)


def test_markup_headings_bold_and_bullets():
    m = to_kivy_markup("# Title\n## Part\n- one **two** three\nplain", font_size=20)
    assert m.splitlines() == [
        "[size=30][b]Title[/b][/size]",
        "[size=24][b]Part[/b][/size]",
        "• one [b]two[/b] three",
        "plain",
    ]


def escape_markup(text):
    """What kivy.utils.escape_markup documents (not imported: the tests keep Kivy
    out of the pytest process; tests/test_keyboards.py renders cards in Kivy)."""
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


def test_markup_escapes_brackets_and_ampersands_like_kivy():
    raw = "a [b]fake[/b] tag & [size=99] x"
    assert to_kivy_markup(raw) == "a &bl;b&br;fake&bl;/b&br; tag &amp; &bl;size=99&br; x" == escape_markup(raw)
    m = to_kivy_markup("- **[x] & y**")
    assert m == "• [b]" + escape_markup("[x] & y") + "[/b]"
    assert "[x]" not in m


def test_every_card_converts_to_balanced_markup():
    for game in GAMES:
        for lang in LANGS:
            m = to_kivy_markup(card(game, lang))
            assert "**" not in m and "\n# " not in m and not m.startswith("#")
            assert m.count("[b]") == m.count("[/b]") > 0
            assert m.count("[size=") == m.count("[/size]") >= 3
            # Every remaining bracket belongs to a tag we wrote.
            assert set(re.findall(r"\[/?([a-z]+)", m)) <= {"b", "size"}


def test_punctuation_after_a_bold_word_stays_with_it():
    """Kivy may break a line between two markup spans: the French card's "jamais
    moins de 5 dés" ended a line and its "." began the next."""
    assert to_kivy_markup("mais **jamais moins de 5 dés**. Puis **a**, b") == \
        "mais [b]jamais moins de 5 dés.[/b] Puis [b]a,[/b] b"
    for lang in ("de", "en", "fr", "it"):
        for game in ("durchmarsch", "fenn"):
            assert not re.search(r"\[/b\][.,;:!?]", to_kivy_markup(card(game, lang))), (game, lang)
