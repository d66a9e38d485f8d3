"""The companion command: read, replay (including real photos end to end), eval-vision."""

import json
import os
import subprocess
import sys

import cv2
import pytest

from companion.cli import main
from hardware.render import RenderStyle, render_throw

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "photos")


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_read_json_in_order_with_an_unreadable_file(tmp_path, capsys):
    frame, _ = render_throw([6, 1, 3], seed=11, style=RenderStyle(touching=0, coloured=0))
    good = str(tmp_path / "throw.png")
    cv2.imwrite(good, frame)
    bad = str(tmp_path / "bad.jpg")
    open(bad, "wb").write(b"junk")
    ann = tmp_path / "ann"
    code, out, _ = run(capsys, "read", "--json", "--annotate", str(ann), good, bad, good)
    lines = [json.loads(l) for l in out.splitlines()]
    assert code == 1
    assert [l["image"] for l in lines] == [good, bad, good]
    assert sorted(d["value"] for d in lines[0]["dice"]) == [1, 3, 6]
    assert set(lines[0]["dice"][0]) == {"value", "center", "size", "confidence"}
    assert lines[0]["ms"] > 0
    assert "error" in lines[1] and "dice" not in lines[1]
    assert os.path.exists(ann / "throw.annotated.jpg")


def test_read_plain(tmp_path, capsys):
    frame, _ = render_throw([2], seed=1, style=RenderStyle(touching=0, coloured=0))
    p = str(tmp_path / "one.png")
    cv2.imwrite(p, frame)
    code, out, _ = run(capsys, "read", p)
    assert code == 0 and "1 dice: 2" in out


def write(path, lines):
    path.write_text("\n".join(json.dumps(l) for l in lines) + "\n")
    return str(path)


def test_replay_json_final_state(tmp_path, capsys):
    s = write(tmp_path / "g.jsonl", [
        {"players": ["Sarah", "Tim", "Maria"]},
        {"roll": [6, 4, 1, 2, 3, 5, 5, 2]},
        {"decision": "continue"},
        {"roll": [5, 4, 1, 1, 1, 1, 1]},
        {"decision": "stop"},
    ])
    code, out, _ = run(capsys, "replay", "--json", s)
    state = json.loads(out)
    assert code == 0
    assert state["players"][0] == {
        "name": "Sarah", "row": 0, "eliminated": False,
        "rows": [{"marked": 2, "misthrows": 0, "struck": False}] + [{"marked": 0, "misthrows": 0, "struck": False}] * 3,
    }
    assert state["winner"] is None and state["finished"] is False
    assert state["turn"] == {"player": "Tim", "row": 0, "target": 10, "dice": 8, "phase": "roll"}


def test_replay_errors_do_not_stop_other_scripts(tmp_path, capsys):
    bad = write(tmp_path / "bad.jsonl", [{"players": ["A", "B"]}, {"roll": [6, 4, 1]}])
    good = write(tmp_path / "good.jsonl", [{"players": ["A", "B"]}, {"roll": [1] * 8}])
    notjson = tmp_path / "nj.jsonl"
    notjson.write_text('{"players": ["A", "B"]}\n{"decision": "stop"}\n')
    code, out, _ = run(capsys, "replay", "--json", bad, good, str(notjson))
    lines = [json.loads(l) for l in out.splitlines()]
    assert code == 2
    assert lines[0]["error"].startswith("line 2: illegal throw: threw 3 dice, but 8")
    assert lines[1]["turn"]["player"] == "B"
    assert lines[2]["error"].startswith("line 2: no decision is due")


@pytest.mark.parametrize("lines, msg", [
    ([{"roll": [1] * 8}], "line 1: the first line"),
    ([{"players": ["A"]}], "line 1: Durchmarsch is for 2-4"),
    ([{"players": ["A", "B"]}, {"roll": [0] * 8}], "line 2: die value 0"),
    ([{"players": ["A", "B"]}, {"jump": 1}], "line 2: unknown event"),
    ([{"players": ["A", "B"]}, {"frame": "missing.jpg"}], "line 2: .*missing.jpg: no such file"),
])
def test_replay_bad_lines(tmp_path, capsys, lines, msg):
    import re

    s = write(tmp_path / "s.jsonl", lines)
    code, out, _ = run(capsys, "replay", "--json", s)
    assert code == 2 and re.match(msg, json.loads(out)["error"])


def test_replay_with_real_photo_frames(tmp_path, capsys):
    """A recorded game whose 5-dice throws are real webcam photos (vendored, MIT)."""
    s = write(tmp_path / "real.jsonl", [
        {"players": ["Sarah", "Tim"]},
        {"roll": [6, 4, 1, 1, 1, 1, 1, 1]}, {"decision": "continue"},
        {"roll": [5, 4, 1, 1, 1, 1, 1]}, {"decision": "continue"},
        {"roll": [6, 2, 1, 1, 1, 1]}, {"decision": "continue"},
        {"frame": os.path.join(FIXTURES, "429bffa7d7.jpg")},  # 1 2 3 4 5: 2+5 forms 7
        {"decision": "continue"},
        {"frame": os.path.join(FIXTURES, "4023f63f6c.jpg")},  # 1 4 4 5 5: no 6, misthrow
        {"roll": [1] * 8},  # Tim misthrows
        {"roll": [5, 5, 1, 1, 1, 1, 1, 1]}, {"decision": "stop"},
    ])
    code, out, _ = run(capsys, "replay", "--json", s)
    state = json.loads(out)
    assert code == 0, state
    sarah, tim = state["players"]
    assert sarah["rows"][0] == {"marked": 4, "misthrows": 1, "struck": False}
    assert sarah["rows"][1]["marked"] == 1 and sarah["row"] == 1
    assert tim["rows"][0]["misthrows"] == 1 and tim["row"] == 1
    assert state["turn"] == {"player": "Tim", "row": 1, "target": 10, "dice": 8, "phase": "roll"}


def test_replay_photo_with_wrong_dice_count_is_illegal(tmp_path, capsys):
    s = write(tmp_path / "w.jsonl", [{"players": ["A", "B"]}, {"frame": os.path.join(FIXTURES, "13c2bc7ad0.jpg")}])
    code, out, _ = run(capsys, "replay", "--json", s)
    assert code == 2
    assert json.loads(out)["error"].startswith("line 2: illegal throw: the photo")


def test_replay_shared_photos_end_to_end(tmp_path, capsys, shared_photos):
    """The same kind of game, frames taken straight from ../shared/photos (relative paths)."""
    rel = os.path.relpath(os.path.join(shared_photos, "matteop65__Dice_Detection_Recognition"), tmp_path)
    s = write(tmp_path / "shared.jsonl", [
        {"players": ["Maria", "Tim"]},
        {"roll": [6, 4, 1, 1, 1, 1, 1, 1]}, {"decision": "continue"},
        {"roll": [6, 3, 1, 1, 1, 1, 1]}, {"decision": "continue"},
        {"roll": [4, 4, 1, 1, 1, 1]}, {"decision": "continue"},
        {"frame": f"{rel}/6c7a868107.jpg"},  # 1 2 3 4 5: forms 7
        {"decision": "continue"},
        {"frame": f"{rel}/13c2bc7ad0.jpg"},  # 4 4 5 5 6: forms 6
        {"decision": "continue"},
        {"frame": f"{rel}/5de92f77e5.jpg"},  # 4 4 5 5 6: forms 5
        {"decision": "stop"},
    ])
    code, out, _ = run(capsys, "replay", "--json", s)
    state = json.loads(out)
    assert code == 0, state
    assert state["players"][0]["rows"][0] == {"marked": 6, "misthrows": 0, "struck": False}
    assert state["turn"]["player"] == "Tim"


def test_eval_vision_on_vendored_photos(capsys):
    code, out, _ = run(capsys, "eval-vision", os.path.join(FIXTURES, "labels.json"))
    assert code == 0
    row = [l for l in out.splitlines() if l.startswith("| webcam-clutter")][0]
    assert "| 5 | 1.000 | 1.000 | 1.000 |" in row  # five photos, all read exactly


def test_console_script_help():
    out = subprocess.run([sys.executable, "-m", "companion.cli", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "replay" in out.stdout and "read" in out.stdout


def test_read_classical_leaves_out_the_learned_classifier(tmp_path, capsys, classical_misses_a_die):
    frame, _ = render_throw([2, 4, 6], seed=5, style=RenderStyle(tilt=0.0, specks=0, touching=0.0))
    path = str(tmp_path / "throw.png")
    cv2.imwrite(path, frame)
    _, out, _ = run(capsys, "read", "--json", "--expect", "3", path)
    both = json.loads(out)
    _, out, _ = run(capsys, "read", "--json", "--expect", "3", "--classical", path)
    classical = json.loads(out)
    assert sorted(d["value"] for d in both["dice"]) == [2, 4, 6] and not both["sure"]
    assert len(classical["dice"]) == 2 and not classical["sure"]


def test_config_before_any_command_starts_the_app_with_it(tmp_path, capsys):
    from companion.cli import main

    missing = str(tmp_path / "nothing.toml")
    assert main(["--config", missing]) == 2  # the app's config is loaded (and refused), not "invalid choice"
    assert "nothing.toml" in capsys.readouterr().err
    assert main(["kiosk", "--config", missing]) == 2
