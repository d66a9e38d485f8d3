"""The photo-realistic family (benchmarks/blender_scenes.py, docs/renders.md): the fixture renders'
labels are well-formed and consistent, and the host side (legal Fenn games, the replay script of a
whole game, the message when Blender is missing) works without Blender."""

import importlib.util
import json
import os

import cv2
import numpy as np
import pytest

from companion.fenn import BLACK_FACES, DICE
from companion.replay import play_lines
from vision.diceset import DICE_SETS

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures", "renders")


def _host():
    spec = importlib.util.spec_from_file_location(
        "blender_scenes", os.path.join(os.path.dirname(HERE), "benchmarks", "blender_scenes.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _labels(kind):
    return json.load(open(os.path.join(FIXTURES, kind, "labels.json")))


def _area(poly):
    """Shoelace area in frame px: positive when the polygon runs clockwise on screen (y down)."""
    p = np.float64(poly)
    return 0.5 * float(np.sum(p[:, 0] * np.roll(p[:, 1], -1) - np.roll(p[:, 0], -1) * p[:, 1]))


def _inside(label, xy):
    return 0 <= xy[0] < label["width"] and 0 <= xy[1] < label["height"]


@pytest.mark.parametrize("kind", ["fenn", "trays"])
def test_fixture_images_are_the_stated_size_and_small(kind):
    labels = _labels(kind)
    assert labels and len({lab["image"] for lab in labels}) == len(labels)
    for lab in labels:
        path = os.path.join(FIXTURES, kind, lab["image"])
        assert os.path.getsize(path) < 450_000, lab["image"]
        img = cv2.imread(path)
        assert img is not None and img.shape == (lab["height"], lab["width"], 3)


def test_fenn_fixture_labels_are_consistent():
    labels = _labels("fenn")
    assert any(lab["hand"] for lab in labels) and any(lab["still"] for lab in labels)
    assert any(sorted((d["colour"], d["field"], d["value"]) for d in lab["dice"]) == [("blue", 1, 5), ("red", 9, 5)]
               for lab in labels), "a start position"
    for lab in labels:
        corners = lab["board_corners"]
        assert len(corners) == 4 and all(_inside(lab, c) for c in corners), lab["image"]
        assert _area(corners) > 0, "corners run clockwise on screen"
        length = np.hypot(*np.subtract(corners[1], corners[0]))
        width = np.hypot(*np.subtract(corners[3], corners[0]))
        assert 6 < length / width < 12, "a board of 9 square fields, seen from above (tilt up to 12 degrees)"
        dice_set = DICE_SETS[lab["dice_set"]]
        assert lab["layout"] in ("fenn", "alt", "third")
        assert sorted(d["colour"] for d in lab["dice"]) == ["blue", "red"]
        fields = [d["field"] for d in lab["dice"]]
        assert all(1 <= f <= 9 for f in fields) and len(set(fields)) == 2
        for d in lab["dice"]:
            assert dice_set.carries(d["colour"], d["value"]), (lab["image"], d)
            assert d["value"] in DICE[lab["dice_set"]][d["colour"]]
            assert _inside(lab, d["center"])
        black = lab["black"]
        assert black["value"] in BLACK_FACES and _inside(lab, black["center"])
        assert cv2.pointPolygonTest(np.float32(corners), tuple(black["center"]), False) < 0, "F14: beside the board"
        assert all(1 <= s["value"] <= 6 and _inside(lab, s["center"]) for s in lab["stray"])
        assert lab["lifted"] in (None, "blue", "red")
        assert lab["still"] == (not lab["hand"] and lab["lifted"] is None)


def test_tray_fixture_labels_are_consistent():
    for lab in _labels("trays"):
        values = [d["value"] for d in lab["dice"]]
        assert lab["values"] == sorted(values) and 5 <= len(values) <= 8
        assert all(1 <= v <= 6 for v in values)
        corners, outline = lab["tray_corners"], np.float32(lab["tray_outline"])
        assert len(corners) == 4 and all(_inside(lab, c) for c in corners)
        assert _area(corners) > 0 and _area(outline) > 0
        scale = np.sqrt(_area(outline))
        for d in lab["dice"]:
            # the top face's centre lies over the felt (allowing for the height of a die seen off-axis)
            assert cv2.pointPolygonTest(outline, tuple(d["center"]), True) > -0.08 * scale, (lab["image"], d)


def test_random_games_are_legal_and_replay_to_their_end():
    host = _host()
    specs, script = host.game_specs(1)
    assert 20 <= len(specs) <= 30 and len(script) == len(specs) + 1
    state = play_lines([json.dumps(line) for line in script], ".")
    assert state["finished"] and state["winner"] in ("Blue", "Red")
    last = specs[-1]
    assert {p["colour"]: [p["field"], p["top"]] for p in state["players"]} == {"blue": last["blue"], "red": last["red"]}
    assert [s["event"] for s in specs] == script[1:]


def test_fenn_specs_carry_the_dice_of_their_set():
    host = _host()
    for seed in range(30):
        spec = host.fenn_spec(seed)
        faces = DICE[spec["dice_set"]]
        assert spec["blue"][1] in faces["blue"] and spec["red"][1] in faces["red"]
        assert spec["blue"][0] != spec["red"][0] and spec["black"] in BLACK_FACES
        pips = spec["layout_pips"]
        assert all(len(pips[str(v)]) == v for v in range(1, 10))


def test_without_blender_it_says_how_to_install_it(monkeypatch, capsys, tmp_path):
    host = _host()
    monkeypatch.setattr(host.shutil, "which", lambda name: None)
    assert host.main(["--kind", "fenn", "--count", "1", "--out", str(tmp_path)]) == 2
    assert "apt-get install blender" in capsys.readouterr().err
    assert not os.listdir(tmp_path)


def test_a_blender_whose_python_lacks_numpy_is_named_with_its_package(monkeypatch, capsys, tmp_path):
    """Debian's Blender takes NumPy from ``python3-numpy``; a machine without it fails on every scene."""
    import subprocess

    host = _host()
    monkeypatch.setattr(host.shutil, "which", lambda name: "/usr/bin/blender")
    monkeypatch.setattr(host.subprocess, "run", lambda cmd, **kw: subprocess.CompletedProcess(
        cmd, 1, "Error: Python: Traceback\nModuleNotFoundError: No module named 'numpy'\n", ""))
    assert host.main(["--kind", "fenn", "--count", "3", "--out", str(tmp_path)]) == 2
    assert "apt-get install python3-numpy" in capsys.readouterr().err
    assert not [f for f in os.listdir(tmp_path / "fenn") if f.endswith(".jpg")]


def test_a_start_frame_is_rendered_on_its_scenes_set_up():
    """``--kind fenn-start``: the frame the players calibrate on, on the same table, board, dice, clutter,
    camera and lights as the scene (the set-up drawn from the scene's seed), the dice at the start (F2)."""
    host = _host()
    for seed in (0, 7, 203):
        scene, start = host.fenn_spec(seed), host.start_spec(seed)
        assert start["setup"] == seed and "setup" not in scene  # the bpy script draws the set-up from it
        assert start["name"] == f"fenn-start-{seed:05d}" and start["seed"] != seed  # the dice placed afresh
        assert (start["blue"], start["red"]) == ([1, 5], [9, 5]) and not start["hand"] and not start["lifted"]
        same = ("dice_set", "layout", "stray", "black", "faces", "kind")
        assert {k: start[k] for k in same} == {k: scene[k] for k in same}
