"""The name keyboards (issue 30): a VKeyboard layout per language with its accents,
a working ⇧ and ⏎, and apply_key, which the start screen and these tests share."""

import json
import os
import subprocess
import sys

import pytest

from ui.keyboard_layouts import LANGS, apply_key, auto_shift, layout_path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK = os.path.join(ROOT, "tests", "keyboard_check.py")
ACCENTS = {
    "de": "äöüß",
    "fr": "éèàçêëîïôûù",
    "it": "àèéìòù",
    "en": "é",
}


def load(lang):
    with open(layout_path(lang), encoding="utf-8") as f:
        return json.load(f)


def keys(layout, mode):
    return [k for r in range(1, layout["rows"] + 1) for k in layout[f"{mode}_{r}"]]


@pytest.mark.parametrize("lang", LANGS)
def test_layout_is_kivys_format_and_fits_800x480(lang):
    layout = load(lang)
    assert layout["title"] == lang and layout["description"]
    assert layout["rows"] <= 5  # 4 rows and a bottom row
    for mode in ("normal", "shift"):
        for r in range(1, layout["rows"] + 1):
            row = layout[f"{mode}_{r}"]
            for key in row:
                shown, text, code, width = key
                assert isinstance(shown, str) and shown and (text is None or isinstance(text, str))
                assert isinstance(code, str) and width > 0
            # Kivy lays keys out left to right in units of 1/cols: a row wider than
            # cols runs off the keyboard; every row here fills it exactly.
            assert sum(k[3] for k in row) == pytest.approx(layout["cols"]), (mode, r)
        # Both layers have the same keys in the same places (Kivy reuses the geometry).
        assert [len(layout[f"normal_{r}"]) for r in range(1, 6)] == [len(layout[f"{mode}_{r}"]) for r in range(1, 6)]
    # At 800 px a unit key is at least 60 px wide (a finger's width).
    assert 800 * 0.88 / layout["cols"] >= 55


@pytest.mark.parametrize("lang", LANGS)
def test_accents_and_capitals_on_both_layers(lang):
    layout = load(lang)
    normal = {k[1] for k in keys(layout, "normal")}
    shift = {k[1] for k in keys(layout, "shift")}
    for c in ACCENTS[lang]:
        assert c in normal, c
        assert (c if c == "ß" else c.upper()) in shift, c
    for c in "abcdefghijklmnopqrstuvwxyz":
        assert c in normal and c.upper() in shift
    assert {" ", "-", "'"} <= normal & shift


@pytest.mark.parametrize("lang", LANGS)
def test_special_keys(lang):
    layout = load(lang)
    for mode in ("normal", "shift"):
        codes = [k[2] for k in keys(layout, mode) if k[1] is None]
        assert {"backspace", "enter", "shift"} <= set(codes), (mode, codes)
        assert "escape" not in codes and "special" not in codes  # no layer without a layout
        space = [k for k in keys(layout, mode) if k[2] == "spacebar"]
        assert space and space[0][1] == " "


def test_layout_path_by_language():
    assert layout_path("fr").endswith(os.path.join("keyboards", "fr.json"))
    assert layout_path("fr_CH") == layout_path("fr")
    assert layout_path("de-AT") == layout_path("de")
    assert layout_path("es") == layout_path("en") == layout_path("")
    assert all(os.path.isabs(layout_path(l)) and os.path.exists(layout_path(l)) for l in LANGS)
    assert len({layout_path(l) for l in LANGS}) == 4


def test_apply_key_letters_and_shift():
    assert apply_key("", ("a", "a"), shift=True) == ("A", None)
    assert apply_key("J", "ü", shift=False) == ("Jü", None)  # on_textinput sends the text alone
    assert apply_key("", "ü", shift=True) == ("Ü", None)
    assert apply_key("", ("É", "É"), shift=True) == ("É", None)
    assert apply_key("Mc", ("d", "d"), shift=True) == ("McD", None)
    assert apply_key("Stra", ("ß", "ß"), shift=True) == ("Straß", None)  # no "SS"
    assert apply_key("Anna", ("shift", None), shift=False) == ("Anna", "shift")
    assert apply_key("Anna", ("capslock", None), shift=True) == ("Anna", "shift")


def test_apply_key_backspace_enter_space():
    assert apply_key("Zoë", ("backspace", None), shift=False) == ("Zo", None)
    assert apply_key("", ("backspace", None), shift=True) == ("", None)
    assert apply_key("Tim", ("enter", None), shift=False) == ("Tim", "next")
    assert apply_key("Tim", "\n", shift=False) == ("Tim", "next")
    assert apply_key("Jean", ("spacebar", " "), shift=False) == ("Jean ", None)
    assert apply_key("Jean", ("spacebar", None), shift=False) == ("Jean ", None)
    assert apply_key("", " ", shift=True) == ("", None)  # no leading space
    assert apply_key("Jean ", " ", shift=False) == ("Jean ", None)  # no double space
    assert apply_key("Tim", ("escape", None), shift=False) == ("Tim", None)
    assert apply_key("Tim", ("tab", "\t"), shift=False) == ("Tim", None)
    assert apply_key("Maximilian", "e", shift=False, max_len=10) == ("Maximilian", None)
    assert apply_key("Maximilia", "n", shift=False, max_len=10) == ("Maximilian", None)


def test_auto_shift_at_each_part_of_a_name():
    assert auto_shift("") and auto_shift("Anna-") and auto_shift("Jean ") and auto_shift("O'")
    assert not auto_shift("A") and not auto_shift("Anna")


def test_typing_names_on_kivys_vkeyboard(tmp_path):
    """Each layout loaded by Kivy's VKeyboard offscreen and typed on by touch,
    wired as keyboard_layouts' docstring says: accents, ⇧ (once and as a toggle),
    ⌫, space, hyphen, apostrophe, ⏎ to the next name."""
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", PYTHONPATH=ROOT, KIVY_HOME=str(tmp_path / "kivy"))
    p = subprocess.run([sys.executable, CHECK, str(tmp_path / "kivy")], capture_output=True, text=True,
                       env=env, timeout=180)
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    assert p.returncode == 0 and lines, p.stderr[-3000:]
    rep = json.loads(lines[-1])
    for lang in LANGS:
        assert rep[lang]["loaded"], lang
        assert rep[lang]["lines"]["normal"] == [len(load(lang)[f"normal_{r}"]) for r in range(1, 6)]
    assert rep["de"]["names"] == ["Jürgen", "ÖzÄ Lea"]
    assert rep["en"]["names"] == ["Zoë", "Renée-May"]
    assert rep["fr"]["names"] == ["Éloïse", "François'ê", ""]
    assert rep["it"]["names"] == ["Niccolò", "àLfioù"]
    # The shift layer shows at the start of each name and after "-", and only then (en).
    assert [i for i, m in enumerate(rep["en"]["modes"]) if m == "shift"] == [0, 4, 10]
    # A rules card is valid Kivy markup and lays out in a 760-px-wide scroll view.
    assert rep["card"]["width"] <= 760 and rep["card"]["height"] > 300


@pytest.mark.parametrize("lang", LANGS)
def test_every_layout_carries_every_languages_accents_on_its_accent_layer(lang):
    from ui.keyboard_layouts import ALL_ACCENTS

    layout = load(lang)
    special = {k[1] for k in keys(layout, "special")}
    for c in ALL_ACCENTS:  # Zoë in German, Müller in French, ñ and ï in Italian...
        assert c in special, c
        assert c == "ß" or c.upper() in special or c.upper() in {k[1] for k in keys(layout, "shift")}, c
    for r in range(1, layout["rows"] + 1):  # Kivy's geometry: each row fills the keyboard
        assert sum(k[3] for k in layout[f"special_{r}"]) == pytest.approx(layout["cols"]), r
    for mode in ("normal", "shift", "special"):  # the accent key on every layer, to go there and back
        assert "accents" in [k[2] for k in keys(layout, mode)], mode


def test_apply_key_accent_key_changes_layer_not_text():
    assert apply_key("Zo", ("accents", None), shift=False) == ("Zo", "accents")
    assert apply_key("Zo", "ë", shift=False) == ("Zoë", None)
