"""Camera sources and GPIO buttons, on mock pins and synthetic frames."""

import os
import time
from dataclasses import replace

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import ConfigError, load_config
from hardware.buttons import Debouncer, DecisionButtons, key_to_action
from hardware.camera import CameraError, MockCamera, ReplayCamera, open_camera
from hardware.render import MIXED_SET, RenderStyle, TrayScene, render_throw


class FakeClock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def make_buttons(**kw):
    got = []
    b = DecisionButtons(got.append, pin_factory=MockFactory(), **kw)
    return b, got


def press(button, hold=0.0):
    button.pin.drive_low()
    if hold:
        time.sleep(hold)
    button.pin.drive_high()


def test_buttons_stop_and_continue():
    b, got = make_buttons(stop_pin=17, continue_pin=27)
    try:
        press(b.continue_)
        press(b.stop)
        assert got == ["continue", "stop"]
        assert b.stop.pin.info.name == "GPIO17" and b.continue_.pin.info.name == "GPIO27"
    finally:
        b.close()


def test_bounces_within_debounce_are_ignored():
    clock = FakeClock()
    b, got = make_buttons(debounce=0.05, clock=clock)
    try:
        press(b.continue_)
        clock.t += 0.01  # contact bounce
        press(b.continue_)
        clock.t += 0.02
        press(b.continue_)
        assert got == ["continue"]
        clock.t += 0.2  # a real second press
        press(b.continue_)
        assert got == ["continue", "continue"]
    finally:
        b.close()


def test_holding_stop_asks_for_undo_not_stop():
    b, got = make_buttons(hold_undo=0.1)
    try:
        press(b.stop, hold=0.4)
        assert got == ["undo"]
    finally:
        b.close()


def test_same_pin_twice_is_refused():
    with pytest.raises(ValueError, match="different pins"):
        DecisionButtons(print, stop_pin=5, continue_pin=5, pin_factory=MockFactory())


def test_debouncer_rejects_negative():
    with pytest.raises(ValueError):
        Debouncer(-1)


def test_keyboard_fallback():
    assert key_to_action("s") == "stop"
    assert key_to_action("c") == "continue"
    assert key_to_action("spacebar") == "throw"
    assert key_to_action("backspace") == "undo"
    assert key_to_action("q") is None


def test_mock_camera_renders_the_values_thrown():
    cam = MockCamera(seed=5)
    empty = cam.read()
    truth = cam.throw([6, 5, 4, 3, 2, 1, 1])
    f1, f2 = cam.read(), cam.read()
    assert f1.shape == (616, 820, 3) and f1.dtype == np.uint8
    assert sorted(d.value for d in truth) == [1, 1, 2, 3, 4, 5, 6]
    assert np.abs(f1.astype(int) - f2.astype(int)).max() <= 4  # same scene, fresh noise
    assert np.abs(f1.astype(int) - empty.astype(int)).mean() > 2  # dice appeared
    for d in truth:
        x, y = d.center
        assert 0 < x < 820 and 0 < y < 616


def _face_pixels(frame, die, share=0.3):
    """The pixels of a square of ``share`` of the die's side round its centre (BGR rows)."""
    x, y = (round(c) for c in die.center)
    r = max(1, round(die.size * share / 2))
    return frame[y - r:y + r + 1, x - r:x + r + 1].reshape(-1, 3).astype(int)


def test_a_mixed_set_palette_gives_its_dice_their_colours():
    # One pair in the palette: a dark grey die with red pips. A one has its pip in the middle.
    dark_red = (((60, 60, 62), (50, 45, 205)),)
    style = RenderStyle(coloured=1.0, palette=dark_red, tilt=0.0, touching=0.0, specks=0, noise=0, gradient=0)
    frame, truth = render_throw([1, 2], seed=3, style=style)
    pip = _face_pixels(frame, truth[0], 0.1).mean(axis=0)
    assert pip[2] > 150 and pip[0] < 90  # red
    face = _face_pixels(frame, truth[1], 0.15).mean(axis=0)  # a two's middle is bare face
    assert np.abs(face - (60, 60, 62)).max() < 15
    # The mixed set holds such dice; a tray scene's dice come from the palette too.
    assert ((60, 60, 62), (50, 45, 205)) in MIXED_SET
    assert {d.colours for d in TrayScene(seed=1, style=style).place([1, 2, 3])} == set(dark_red)


def test_marbled_dice_have_lighter_veins_on_their_faces():
    def bare_faces(marbled):
        style = RenderStyle(coloured=1.0, palette=(((60, 60, 62), (50, 45, 205)),), marbled=marbled,
                            tilt=0.0, touching=0.0, specks=0, noise=0, gradient=0)
        frame, truth = render_throw([1, 1, 1], seed=4, style=style)
        # Most of each face; its one pip is red, so its green stays low.
        return np.concatenate([_face_pixels(frame, d, 0.7) for d in truth])

    def lighter(px):
        return float(np.mean(px[:, 1] > 100))

    assert lighter(bare_faces(0.0)) == 0.0
    assert lighter(bare_faces(1.0)) > 0.05


def _red_blobs(frame, die, near, far):
    """Centres of the red blobs (red well above green) of ``frame`` between ``near`` and ``far`` die
    sides from ``die``'s centre, as distances from it in sides."""
    x, y = die.center
    yy, xx = np.mgrid[:frame.shape[0], :frame.shape[1]]
    dist = np.hypot(xx - x, yy - y) / die.size
    red = (frame[..., 2].astype(int) - frame[..., 1] > 100) & (dist >= near) & (dist < far)
    n, _, stats, centres = cv2.connectedComponentsWithStats(red.astype(np.uint8))
    return [float(np.hypot(cx - x, cy - y) / die.size) for (cx, cy), st in zip(centres[1:], stats[1:])
            if st[cv2.CC_STAT_AREA] >= 3]


@pytest.mark.parametrize("value", range(1, 7))
def test_a_smoky_dies_top_face_shows_its_value_and_the_hidden_pips_only_faintly(value):
    # A smoky die also shows the opposite face's pips (7 - value) through its body, and sometimes a
    # glint: fainter than its own pips, so the red pips standing out on the top face are the value's.
    style = RenderStyle(die_size=44, smoky=1.0, tilt=0.0, touching=0.0, specks=0, noise=1, gradient=0,
                        tray=(200, 200, 200))
    for seed in range(4):
        frame, (die,) = render_throw([value], seed=seed, style=style)
        assert len(_red_blobs(frame, die, 0, 0.5)) == value


def test_a_leaning_die_shows_a_side_faces_pips_beyond_its_top_face():
    style = RenderStyle(die_size=44, coloured=1.0, palette=(((60, 60, 62), (50, 45, 205)),), side_faces=1.0,
                        tilt=0.0, touching=0.0, specks=0, noise=1, gradient=0, tray=(200, 200, 200))
    upright = replace(style, side_faces=0.0)
    for seed in range(4):
        frame, (die,) = render_throw([5], seed=seed, style=style)
        assert len(_red_blobs(frame, die, 0, 0.5)) == 5  # the top face is untouched
        assert _red_blobs(frame, die, 0.5, 1.0)  # a side face's pips, beside it
        flat, (same,) = render_throw([5], seed=seed, style=upright)
        assert not _red_blobs(flat, same, 0.5, 1.0)


def test_render_rejects_bad_values():
    with pytest.raises(ValueError, match="1-6"):
        render_throw([7])


def test_replay_camera_folder_in_order_skipping_broken(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i:02d}.png"), np.full((20, 30, 3), i * 50, np.uint8))
    (tmp_path / "01b.jpg").write_bytes(b"not a jpeg")
    cam = ReplayCamera(str(tmp_path))
    means = [int(f.mean()) for f in cam]
    assert means == [0, 50, 100]
    assert cam.skipped == [str(tmp_path / "01b.jpg")]


def test_replay_camera_video(tmp_path):
    path = str(tmp_path / "throw.avi")
    w = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for i in range(5):
        w.write(np.full((48, 64, 3), 40 * i, np.uint8))
    w.release()
    frames = list(ReplayCamera(path))
    assert len(frames) == 5 and frames[0].shape == (48, 64, 3)
    assert frames[4].mean() > frames[1].mean()


def test_open_camera_choices(tmp_path):
    assert isinstance(open_camera({"source": "mock"}), MockCamera)
    with pytest.raises(CameraError, match="unknown camera source"):
        open_camera({"source": "telescope"})
    with pytest.raises(CameraError, match="no such file"):
        open_camera({"source": "replay", "path": str(tmp_path / "missing")})
    with pytest.raises(CameraError, match="picamera2"):
        open_camera({"source": "pi"})  # not on this machine
    if not any(os.path.exists(f"/dev/video{i}") for i in range(4)):
        # auto falls back to the demo camera where there is no camera
        assert isinstance(open_camera({"source": "auto"}), MockCamera)


def test_without_a_config_file_the_data_lives_in_the_home_folder(tmp_path, monkeypatch):
    """A fresh machine has no config file: the game's data goes to
    ``~/.local/share/dice-companion`` in the user's home, not to a folder named ``~``."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("DICE_COMPANION_CONFIG", str(tmp_path / "none.toml"))
    cfg = load_config()
    assert cfg["app"]["data_dir"] == str(tmp_path / ".local" / "share" / "dice-companion")
    p = tmp_path / "c.toml"
    p.write_text('[app]\ndata_dir = "~/games"\n')
    assert load_config(str(p))["app"]["data_dir"] == str(tmp_path / "games")


def test_config_file(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('[gpio]\nstop_pin = 13\ndebounce = 1\n[camera]\nsource = "mock"\n')
    cfg = load_config(str(p))
    assert cfg["gpio"]["stop_pin"] == 13 and cfg["gpio"]["debounce"] == 1.0
    assert cfg["gpio"]["continue_pin"] == 6  # default kept
    p.write_text("[gpio\nstop_pin = ")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(str(p))
    p.write_text('[gpio]\nstop_pin = "five"\n')
    with pytest.raises(ConfigError, match="gpio.stop_pin must be int"):
        load_config(str(p))
    p.write_text('[gpoi]\n')
    with pytest.raises(ConfigError, match="unknown section"):
        load_config(str(p))
    with pytest.raises(ConfigError, match="no such config"):
        load_config(str(tmp_path / "none.toml"))
