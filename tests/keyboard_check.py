"""Loads each name keyboard in Kivy's own VKeyboard (offscreen) and types on it by
touch; run by tests/test_keyboards.py in a subprocess (Kivy stays out of pytest).

Usage: python keyboard_check.py KIVY_HOME  → prints one JSON line:
{"<lang>": {"rows": {...}, "typed": "...", "nexts": n, "modes": [...]}, "card": {...}}
"""

import json
import os
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ["KIVY_NO_ARGS"] = "1"
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", sys.argv[1] if len(sys.argv) > 1 else "/tmp/kivy-keyboard-check")

from kivy.base import EventLoop  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.vkeyboard import VKeyboard  # noqa: E402

from companion.rules_card import card, to_kivy_markup  # noqa: E402
from ui.keyboard_layouts import LANGS, apply_key, auto_shift, layout_path  # noqa: E402


class Touch:
    """Just what VKeyboard.process_key_on/up read from a touch."""

    _n = 0

    def __init__(self, pos):
        Touch._n += 1
        self.uid, self.pos, self.ud = Touch._n, pos, {}


def settle():
    for _ in range(3):
        EventLoop.idle()


def find_key(kb, shown):
    """The centre (window pixels) of the key showing ``shown`` in the current layer."""
    layout = kb.available_layouts[kb.layout]
    for line in range(1, layout["rows"] + 1):
        for i, key in enumerate(layout[f"{kb.layout_mode}_{line}"]):
            if key[0] == shown:
                (x, y), (w, h) = kb.layout_geometry[f"LINE_{line}"][i]
                return kb.to_window(x + w / 2, y + h / 2)
    raise KeyError(f"{shown!r} not on the {kb.layout_mode} layer of {kb.layout}")


def type_on(kb, keys):
    """Tap each key (by its label) as the start screen would wire them; returns
    the names typed (⏎ starts the next) and the layer shown before each tap."""
    names, modes = [""], []

    def on_key(_kb, keycode, internal=None, modifiers=()):
        names[-1], action = apply_key(names[-1], (keycode, internal), shift=kb.have_capslock)
        if action == "next":
            names.append("")
            kb.have_capslock = True
        else:
            kb.have_capslock = (not kb.have_capslock) if action == "shift" else auto_shift(names[-1])

    kb.bind(on_key_down=on_key)
    kb.bind(on_textinput=lambda _kb, text: on_key(_kb, None, text))
    kb.have_capslock = True  # a new name begins with a capital
    settle()
    for shown in keys:
        modes.append(kb.layout_mode)
        t = Touch(find_key(kb, shown))
        kb.process_key_on(t)
        kb.process_key_up(t)
        settle()
    return names, modes


WORDS = {  # what each test types: the labels tapped, shift layer shown when it should be
    "de": ["J", "ü", "r", "g", "e", "n", "\u21e7", "ß", "\u232b", "\u23ce", "Ö", "z", "\u21e7", "Ä", " ", "L", "e", "a"],
    "en": ["Z", "o", "ë", "\u23ce", "R", "e", "n", "é", "e", "-", "M", "a", "y"],
    "fr": ["É", "l", "o", "ï", "s", "e", "\u23ce", "F", "r", "a", "n", "ç", "o", "i", "s", "'", "\u21e7", "ê", "\u23ce"],
    "it": ["N", "i", "c", "c", "o", "l", "ò", "\u23ce", "\u21e7", "à", "\u21e7", "L", "f", "i", "o", "\u21e7", "\u21e7", "ù"],
}


def main():
    EventLoop.ensure_window()
    Window.size = (800, 480)
    out = {}
    for lang in LANGS:
        kb = VKeyboard(size_hint=(None, None), size=(800, 240), pos=(0, 0))
        Window.add_widget(kb)
        kb.layout = layout_path(lang)
        settle()
        kb.refresh(True)
        layout = kb.available_layouts[kb.layout]
        names, modes = type_on(kb, WORDS[lang])
        out[lang] = {
            "loaded": kb.layout == layout_path(lang) and kb.layout in kb.available_layouts,
            "window": Window.__class__.__module__,
            "lines": {m: [len(kb.layout_geometry[f"LINE_{r}"]) for r in range(1, layout["rows"] + 1)]
                      for m in ("normal",)},
            "names": names,
            "modes": modes,
        }
        Window.remove_widget(kb)
    # A rules card in a Label with markup: Kivy parses it and lays it out at 800 px.
    lab = Label(text=to_kivy_markup(card("fenn", "fr"), font_size=18), markup=True, font_size=18,
                text_size=(760, None))
    lab.texture_update()
    out["card"] = {"width": lab.texture_size[0], "height": lab.texture_size[1], "refs": list(lab.refs)}
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
