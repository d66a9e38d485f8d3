"""The app's screens: snapshots at the three screen sizes, and a table of
players using taps, GPIO buttons (MockFactory) and keys; resume after a kill."""

import json
import os
import signal
import subprocess
import sys

import cv2
import numpy as np
import pytest

from companion.settings import check_pin

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INTERACT = os.path.join(ROOT, "tests", "ui_interact.py")
ENV = dict(os.environ, SDL_VIDEODRIVER="offscreen", PYTHONPATH=ROOT)


def _report(stdout):
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    assert lines, stdout[-2000:]
    return json.loads(lines[-1])


@pytest.mark.parametrize("size,lang", [("800x480", "de"), ("1024x600", "fr"), ("1280x720", "it")])
def test_snapshot_renders_every_screen(tmp_path, size, lang):
    out = tmp_path / "shots"
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    p = subprocess.run([sys.executable, "-m", "companion.cli", "snapshot", "--size", size, "--lang", lang, str(out)],
                       capture_output=True, text=True, env=dict(ENV, KIVY_HOME=str(tmp_path / "kivy"), TMPDIR=str(tmp)),
                       timeout=300)
    rep = _report(p.stdout)
    assert p.returncode == 0 and "error" not in rep, (rep, p.stderr[-3000:])
    # No clipboard tracebacks at start (Kivy's probe for xclip and xsel).
    assert "xclip" not in p.stderr and "Traceback" not in p.stderr, p.stderr[-2000:]
    # The language's own keyboard typed a name with its accents, the first letter a capital (⇧ at a name's start).
    assert rep["typed"] == {"de": "Jürgen", "fr": "Zoé", "it": "Niccolò"}[lang]
    # The demo game's store and frames are removed when the screens are saved.
    assert not list(tmp.glob("companion-snapshot-*"))
    from ui.snapshot import SCREENS

    w, h = (int(v) for v in size.split("x"))
    pictures = {}
    for name in SCREENS:
        img = cv2.imread(str(out / f"{name}.png"))
        assert img is not None and img.shape[:2] == (h, w), name
        assert img.std() > 20, f"{name}.png is blank"
        pictures[name] = img
    # Every screen is a different picture (no screen left showing the previous one).
    names = list(pictures)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert np.abs(pictures[a].astype(int) - pictures[b].astype(int)).mean() > 3, (a, b)
    assert rep["asked"], "the throw with a die missing did not open the correction screen"
    # A whole game of Fenn was played on the board by its taps, to its end (Ben chose blue).
    fenn = rep["fenn_outcome"]
    assert fenn["finished"] and fenn["winner"] in ("Anna", "Ben") and fenn["players"][0]["name"] == "Ben"


def test_players_at_the_table(tmp_path):
    p = subprocess.run([sys.executable, INTERACT, "table", str(tmp_path / "data"), str(tmp_path)],
                       capture_output=True, text=True, env=ENV, timeout=300)
    rep = _report(p.stdout)
    assert "error" not in rep, rep
    # Start screen: language switch, seating order, chosen first roller.
    assert rep["start_text"] == "Start" and rep["start_text_de"] == "Los geht's"
    assert rep["players"] == ["Sarah", "Tim", "Maria"] and rep["first"] == 1
    assert rep["first_label"] == "First roller: Tim"
    # A decision lights both buttons; the prompt and the meter say what is at stake.
    assert rep["leds_before"] == [False, False]
    t = rep["after_throw"]
    assert t["decision_due"] and t["leds"] == [True, True]
    assert t["prompt"] == "6 + 4 forms 10!\nTim: stop or continue?"
    assert t["meter"] == "80 %"  # 7 dice for 9: exact chance 0.7995
    c = rep["after_continue"]
    assert c["dice"] == 7 and c["leds"] == [False, False] and "put one die aside" in c["prompt"]
    # The correction turns a misthrow into a success: Tim goes on instead of Maria.
    assert rep["before_fix"] == {"player": 2, "misthrow": True}
    assert rep["wrong_screen"] == "correction" and rep["preview"] == "6 + 3 forms 9!"
    f = rep["after_fix"]
    assert f["screen"] == "game" and f["player"] == 1 and f["success"] and f["decision_due"]
    assert f["values"] == [1, 1, 1, 1, 1, 3, 6]
    assert rep["after_key_stop"]["player"] == 2
    # Undo asks first; GPIO CONTINUE confirms, STOP cancels; holding STOP asks; Escape closes.
    assert rep["undo_question"] == "Undo Tim's stop?" and rep["undo_leds"] == [True, True]
    u = rep["after_undo"]
    assert u["events"] == u["was"] - 1 and u["decision_due"] and u["dialog"]
    assert rep["hold_asks"] and rep["after_cancel"] == {"events": u["events"], "dialog": True}
    assert rep["key_u_asks"] and rep["escape_closes"]
    assert [b for b in rep["beeps_so_far"] if b != "ask"][:3] == ["success", "misthrow", "success"]
    # Settings behind the PIN; a pin clash refused; odds off takes effect at once; PIN stored hashed.
    assert rep["wrong_pin"]["screen"] != "settings" and "Wrong PIN" in rep["wrong_pin"]["label"]
    assert rep["settings_screen"] == "settings" and "once" in rep["clash"]
    # The tray's corners touched on the still picture; fewer than three cannot be saved.
    assert rep["calib_two"] == {"corners": 2, "save_disabled": True, "status": "2 corners touched"}
    assert rep["calib_four"]["save_disabled"] is False
    assert rep["calib_four"]["corners"] == [[0.1, 0.1], [0.6, 0.1], [0.6, 0.9], [0.1, 0.9]]
    cs = rep["calib_saved"]
    assert cs["screen"] == "settings" and cs["said"].startswith("Tray saved")
    w, h = cs["frame_size"]
    xs = sorted(x for x, _ in cs["file"]["polygon"])
    assert cs["file"]["frame_size"] == [w, h] and abs(xs[0] - 0.1 * w) < 2 and abs(xs[-1] - 0.6 * w) < 2
    assert cs["inside"] == [True, False] and cs["watcher_same_area"]
    assert rep["after_save"] == {"screen": "game", "meter": ""}
    sf = rep["settings_file"]
    # The new PIN is kept only as its salted hash: that hash opens with it, and no other value holds it.
    assert sf["app"]["odds"] is False and check_pin("2468", sf) and not check_pin("1234", sf)
    assert "2468" not in json.dumps({k: v for k, v in sf.items() if k != "pin_hash"})


def test_resume_after_the_app_is_killed(tmp_path):
    data = tmp_path / "data"
    p = subprocess.Popen([sys.executable, INTERACT, "hang", str(data), str(tmp_path)], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, env=ENV)
    try:
        line = ""
        while not line.startswith("{"):
            line = p.stdout.readline()
            assert line or p.poll() is None, "the app ended before the game was played"
        state = json.loads(line)["state"]
    finally:
        p.send_signal(signal.SIGKILL)  # a power cut, as far as the app can tell
        p.wait(timeout=30)
    assert state["turn"]["dice"] == 7 and state["players"][0]["rows"], state
    r = subprocess.run([sys.executable, INTERACT, "resume", str(data), str(tmp_path)], capture_output=True, text=True,
                       env=ENV, timeout=300)
    rep = _report(r.stdout)
    assert rep["resume_enabled"] and rep["screen"] == "game"
    assert rep["state"] == state
    assert "put one die aside" in rep["prompt"]


def test_fenn_by_the_boards_widgets_and_the_buttons(tmp_path):
    p = subprocess.run([sys.executable, INTERACT, "fenn", str(tmp_path / "data"), str(tmp_path)],
                       capture_output=True, text=True, env=ENV, timeout=300)
    rep = _report(p.stdout)
    assert "error" not in rep, rep
    assert rep["rows_shown"] == [1, 1, 0, 0]  # two names for Fenn
    assert rep["screen"] == "fenn" and rep["players"] == ["Ben", "Anna"]  # Ben chose blue: he is listed first
    assert rep["far"] == "A step goes 1 or 2 fields."
    assert rep["faces"] == [1, 2, 6, 7, 9]  # blue's faces but the 5 on top
    assert rep["extra_prompt"].startswith("Field 8 shows 8: move again or end your turn.")
    assert rep["continue_lit"] is True
    c = rep["after_continue"]
    assert c["to_move"] == "Ben" and c["players"][1]["field"] == 8 and c["players"][0]["field"] == 3
    assert rep["undo_question"] == "Undo the end of Anna's turn?"
    assert rep["after_undo"] == {"phase": "options", "to_move": 1, "extra": True, "pasch": False}
    assert rep["one_point_save_disabled"] is True and rep["two_points_save_disabled"] is False
    assert rep["board_saved"] is True


def test_a_cafe_table_with_the_stray_tap_guard(tmp_path):
    """Double taps on the real widgets, GPIO and keys (guard 0.6 s); the start
    screen's rules card; names cut at typing; the keyboard; the PIN lockout."""
    p = subprocess.run([sys.executable, INTERACT, "cafe", str(tmp_path / "data"), str(tmp_path)],
                       capture_output=True, text=True, env=dict(ENV, GUARD="0.6"), timeout=300)
    rep = _report(p.stdout)
    assert "error" not in rep, rep
    assert rep["rules_game"] == "fenn"  # the card of the game chosen, not Durchmarsch's
    assert rep["cut"] == "Maximiliane-Charlott"  # 20 characters, cut as typed
    assert rep["held_e"] == "E"  # a key held 1.5 s types once
    assert rep["key_h_px"] >= 52  # 10 mm on a 7-inch 800x480 screen
    assert rep["cursors"] == 1
    # STOP tapped twice 200 ms apart: THROW appeared under the finger, and nothing was thrown.
    assert rep["throw_shown"] and rep["after_double_stop"] == {"events": 1, "thrown": False, "dropped": 1}
    assert rep["after_double_gpio"] == {"events": 1, "thrown": False}
    assert rep["after_double_key"] == {"events": 1, "thrown": False}
    assert rep["locked"] == {"label": "Too many wrong PINs: wait 30 s.", "keys_off": True}
    assert rep["locked_later"] in ("Too many wrong PINs: wait 29 s.", "Too many wrong PINs: wait 28 s.")
    # Fenn: the second tap of a top face making a Pasch lands on the black die's picker: it does not act.
    assert rep["pasch_offered"] and rep["after_double_face"] == {"last": "Step(field=4, top=6)", "phase": "options",
                                                                 "black": 6}
    assert rep["after_deliberate"]["phase"] == "turn" and rep["after_deliberate"]["black"] != 6


def test_the_longest_names_on_every_screen_and_no_text_under_16_px(tmp_path):
    """Four 20-letter names (the longest taken), every screen, in de, en, fr and it
    at 800x480 and 1280x720: no text smaller than 16 px (the sheets' digits and
    names with four players included) and no text that does not fit its label
    (a word broken inside, lines lost, a line past the sides). The eight apps run
    four at a time with the snapshot's quick pace."""
    from ui.snapshot import LONG_NAMES, SCREENS

    runs = [(lang, size) for size in ("800x480", "1280x720") for lang in ("de", "en", "fr", "it")]
    reports = {}
    for batch in (runs[:4], runs[4:]):
        procs = {}
        for lang, size in batch:
            out = tmp_path / f"{lang}-{size}"
            procs[lang, size] = subprocess.Popen(
                [sys.executable, "-m", "companion.cli", "snapshot", "--quick", "--size", size, "--lang", lang,
                 "--long-names", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                env=dict(ENV, KIVY_HOME=str(tmp_path / f"kivy-{lang}-{size}")))
        for key, p in procs.items():
            stdout, stderr = p.communicate(timeout=300)
            rep = _report(stdout)
            assert p.returncode == 0 and "error" not in rep, (key, rep.get("error"), stderr[-2000:])
            reports[key] = rep
    for (lang, size), rep in reports.items():
        assert set(rep["smallest"]) == set(SCREENS) == set(rep["cut"]), (lang, size)
        small = {name: v for name, v in rep["smallest"].items() if v[0] < 16}
        assert small == {}, (lang, size, small)
        cut = {name: v for name, v in rep["cut"].items() if v}
        assert cut == {}, (lang, size, cut)
        names = [n[:20] for n in LONG_NAMES[lang]]
        assert any(names[3] in t for t in rep["texts"]["end"]), (lang, size)  # the winner's whole name
        assert rep["stale_offered"] == 1  # the game left three days ago, offered on the settings screen
