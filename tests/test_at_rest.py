"""At rest, once: mock-camera sequences through the watcher, calibration, recording."""

import json
import os

import cv2
import numpy as np
import pytest

from companion.calibration import save_area, store_calibration
from companion.durchmarsch import Phase
from companion.recording import RecordingError, ThrowRecorder
from companion.session import GameSession
from companion.storage import Store
from companion.watch import ThrowWatcher, Why
from hardware.render import PlacedDie, RenderStyle, TrayScene
from vision.calibrate import (
    CalibrationError,
    area_from_corners,
    calibrate,
    find_tray,
    load_area,
    measure_dice,
)
from vision.reader import read_throw
from vision.reasons import Reason
from vision.rest import RestConfig, RestDetector

FPS = 15.0
STYLE = RenderStyle(tilt=0, specks=0, coloured=0, touching=0)


class Table:
    """A game at a mock tray, fed frame by frame at 15 fps on a fake clock."""

    def __init__(self, tmp_path, seed=5, recorder=None):
        self.scene = TrayScene(seed=seed, style=STYLE)
        self.empty = self.scene.frame([])
        calib = self.scene.place([2, 3, 4, 5, 6])
        self.area = measure_dice(self.scene.frame(calib), find_tray(self.empty))
        self.session = GameSession(Store(str(tmp_path / "data")), area=self.area, recorder=recorder)
        self.session.start(["Sarah", "Tim"], first=0)
        self.asked = []
        self.session.subscribe(lambda ch: ch.kind == "read" and self.asked.append(ch.read))
        self.watcher = ThrowWatcher(self.session, clock=lambda: self.t)
        self.t = 0.0
        self.feed([self.empty])

    def feed(self, frames, still=8):
        """Feed ``frames`` then ``still`` copies of the last; returns what was seen."""
        seen = []
        for f in list(frames) + [frames[-1]] * still:
            r = self.watcher.feed(f, self.t)
            if r is not None:
                seen.append(r)
            self.t += 1 / FPS
        return seen

    def roll(self, dice, frames=8):
        return self.feed([self.scene.frame(p) for p in self.scene.rolling(dice, frames)])


def test_dice_rolling_in_are_read_once_when_at_rest(tmp_path):
    t = Table(tmp_path)
    dice = t.scene.place([6, 4, 1, 1, 1, 1, 1, 1])
    rolling = [t.scene.frame(p) for p in t.scene.rolling(dice, 10)]
    # While the dice roll, nothing is read.
    assert [t.watcher.feed(f, t.t + k / FPS) for k, f in enumerate(rolling)] == [None] * 10
    t.t += 10 / FPS
    seen = t.feed([rolling[-1]], still=10)
    assert [s.outcome for s in seen] == ["scored"]
    assert sorted(seen[0].read.values) == [1, 1, 1, 1, 1, 1, 4, 6]
    assert seen[0].latency <= 0.5
    assert t.session.game.phase is Phase.DECIDE
    # More still frames: the same resting dice are not read again.
    assert t.feed([rolling[-1]], still=30) == []
    assert len(t.session.game.events) == 1


def test_a_hand_entering_and_leaving_is_not_a_throw(tmp_path):
    t = Table(tmp_path)
    dice = t.scene.place([6, 4, 1, 1, 1, 1, 1, 1])
    t.roll(dice)
    t.session.decide("stop")  # Tim's turn: the dice lie there until he takes them
    frames = [t.scene.frame(dice, hand=(400 + 10 * k, 330 - 5 * k)) for k in range(6)]
    seen = t.feed(frames + [t.scene.frame(dice)], still=10)
    assert all(s.outcome != "scored" for s in seen)
    assert len(t.session.game.events) == 2  # throw, stop: nothing more


def test_a_hand_held_still_in_the_tray_is_never_scored(tmp_path):
    t = Table(tmp_path)
    dice = t.scene.place([6, 4, 1, 1, 1, 1, 1, 1])
    seen = t.feed([t.scene.frame(dice, hand=(380, 300)), t.scene.frame(dice, hand=(400, 330))], still=10)
    assert [s.outcome for s in seen] == ["asked"]
    assert seen[0].why is Why.NOT_SURE and Reason.FOREIGN in seen[0].read.reasons
    assert t.session.game.events == () and t.asked


def test_same_values_thrown_again_are_a_new_throw(tmp_path):
    t = Table(tmp_path)
    values = [1, 1, 1, 2, 2, 2, 3, 3]  # no 10 from two dice: a misthrow
    first = t.roll(t.scene.place(values))
    second = t.roll(t.scene.place(values))
    assert [s.outcome for s in first + second] == ["scored", "scored"]
    sheets = t.session.game.sheets
    assert sheets[0].rows[0].misthrows == 1 and sheets[1].rows[0].misthrows == 1


def test_set_aside_die_outside_the_tray_and_partial_pickup_are_ignored(tmp_path):
    t = Table(tmp_path)
    dice = t.scene.place([6, 4, 1, 1, 1, 1, 1, 1])
    assert [s.outcome for s in t.roll(dice)] == ["scored"]
    t.session.decide("continue")  # put one die aside, throw 7 for 9
    # One die taken out, the other seven left lying: not a throw.
    seen = t.feed([t.scene.frame(dice, hand=dice[0].center), t.scene.frame(dice[1:])])
    assert [s.outcome for s in seen] == ["ignored"] and seen[0].why is Why.NOT_MOVED
    # The die set aside lies outside the tray; the seven are thrown again.
    aside = PlacedDie(dice[0].value, (40.0, 40.0), 0.0, dice[0].size)
    thrown = t.scene.place([5, 4, 2, 2, 3, 3, 6])
    seen = t.roll([aside] + thrown)
    assert [s.outcome for s in seen] == ["scored"]
    assert sorted(seen[0].read.values) == [2, 2, 3, 3, 4, 5, 6]
    assert t.session.game.sheets[0].rows[0].marked == 2


def test_the_tray_being_emptied_is_not_a_throw(tmp_path):
    t = Table(tmp_path)
    dice = t.scene.place([6, 4, 1, 1, 1, 1, 1, 1])
    t.roll(dice)
    t.session.decide("stop")
    seen = t.feed([t.scene.frame(dice[:4]), t.scene.frame(dice[:4])], still=8)
    seen += t.feed([t.scene.frame([])], still=8)
    assert all(s.outcome == "ignored" for s in seen)
    assert [s.why for s in seen][-1] is Why.EMPTY
    assert len(t.session.game.events) == 2


def test_a_wrong_count_asks_instead_of_scoring(tmp_path):
    t = Table(tmp_path)
    seen = t.roll(t.scene.place([6, 4, 1, 1, 1, 1, 1]))  # 7 dice, 8 are due
    assert [s.outcome for s in seen] == ["asked"]
    assert Reason.WRONG_COUNT in seen[0].read.reasons and seen[0].read.values and len(seen[0].read.values) == 7
    assert t.session.game.events == ()


def test_rest_detector_ignores_motion_outside_the_area():
    scene = TrayScene(seed=1, style=STYLE)
    det = RestDetector(RestConfig(still_time=0.2), area=scene.polygon)
    base = scene.frame([])
    det.update(base, 0.0)
    outside = base.copy()
    outside[5:60, 5:60] = 255  # a die set down on the table, outside the tray
    assert all(det.update(outside, 0.1 * k) is None for k in range(1, 10))
    assert not det.moving


def test_find_tray_matches_the_rendered_tray():
    for seed in range(3):
        scene = TrayScene(seed=seed)
        area = find_tray(scene.frame(scene.place([1, 2, 3])))
        x0, y0, x1, y1 = scene.tray
        xs = [p[0] for p in area.polygon]
        ys = [p[1] for p in area.polygon]
        assert abs(min(xs) - x0) < 12 and abs(max(xs) - x1) < 12
        assert abs(min(ys) - y0) < 12 and abs(max(ys) - y1) < 12


def test_find_tray_refuses_a_picture_without_a_tray():
    with pytest.raises(CalibrationError):
        find_tray(np.full((480, 640, 3), 128, np.uint8))


@pytest.mark.parametrize("down", [True, False])
def test_find_tray_refuses_a_plank_across_the_picture(down):
    """A table of planks, the camera's middle on a plank (render trays-00312): grown from the middle, the
    plank runs from one edge of the picture to the other, a third of it wide, and is no tray."""
    img = np.full((480, 640, 3), (90, 130, 175), np.uint8)
    for k in range(0, 640, 8):  # a grain along the planks
        cv2.line(img, (k, 0), (k, 479), (80, 118, 160), 1)
    img[:, 220:420] = (120, 165, 210)
    cv2.line(img, (220, 0), (220, 479), (40, 60, 80), 3)
    cv2.line(img, (420, 0), (420, 479), (40, 60, 80), 3)
    if not down:
        img = np.ascontiguousarray(np.rot90(img))
    with pytest.raises(CalibrationError, match="across the whole picture"):
        find_tray(img)


def test_measure_dice_and_store_the_area(tmp_path):
    scene = TrayScene(seed=2, style=STYLE)
    area = measure_dice(scene.frame(scene.place([2, 3, 5, 6])), find_tray(scene.frame([])))
    assert 0.9 * STYLE.die_size < area.die_size < 1.25 * STYLE.die_size
    path = str(tmp_path / "calibration.json")
    save_area(area, path)
    back = load_area(path)
    assert back.frame_size == area.frame_size and abs(back.die_size - area.die_size) < 0.1
    assert load_area(str(tmp_path / "none.json")) is None
    open(path, "w").write("{broken")
    with pytest.raises(CalibrationError, match="cannot read"):
        load_area(path)


def test_corners_touched_make_an_area_and_dice_outside_are_ignored():
    scene = TrayScene(seed=4, style=STYLE)
    x0, y0, x1, y1 = scene.tray
    area = area_from_corners([(x1, y1), (x0, y0), (x1, y0), (x0, y1)], (820, 616))
    dice = scene.place([3, 5]) + [PlacedDie(6, (45.0, 300.0), 10.0, STYLE.die_size)]
    r = read_throw(scene.frame(dice), area=area, expect=2)
    assert sorted(r.values) == [3, 5] and r.sure
    with pytest.raises(CalibrationError):
        area_from_corners([(0, 0), (5, 5)], (820, 616))
    with pytest.raises(CalibrationError, match="too small"):
        area_from_corners([(0, 0), (10, 0), (10, 10)], (820, 616))
    assert area.scaled((1640, 1232)).polygon[0][0] == pytest.approx(2 * area.polygon[0][0])


def test_calibrate_with_and_without_dice_and_store_it(tmp_path):
    scene = TrayScene(seed=5, style=STYLE)
    x0, y0, x1, y1 = scene.tray
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    area, warning = calibrate(scene.frame(scene.place([1, 4, 6])), corners)
    assert warning is None and 0.9 * STYLE.die_size < area.die_size < 1.25 * STYLE.die_size
    assert area.contains(((x0 + x1) / 2, (y0 + y1) / 2)) and not area.contains((x0 - 20, y0))
    empty, warning = calibrate(scene.frame([]))  # the tray found; no dice to measure
    assert empty.die_size is None and "estimated from each throw" in warning
    with pytest.raises(CalibrationError):
        calibrate(np.zeros((10, 10), np.uint8))
    controls = {"AeEnable": False, "ExposureTime": 8000}
    path = store_calibration(str(tmp_path / "data"), area, controls)
    back = load_area(path)
    assert back.die_size == pytest.approx(area.die_size, abs=0.1)
    assert [list(p) for p in back.polygon] == area.to_dict()["polygon"]
    assert json.load(open(tmp_path / "data" / "camera_controls.json")) == controls
    store_calibration(str(tmp_path / "other"), area, {})  # a camera without controls: no controls file
    assert not (tmp_path / "other" / "camera_controls.json").exists()


def test_pi_camera_locks_exposure_and_white_balance():
    from hardware.camera import PiCamera

    class FakePicamera2:
        def __init__(self):
            self.controls = {}

        def capture_metadata(self):
            return {"ExposureTime": 8123, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4), "Lux": 300}

        def set_controls(self, c):
            self.controls.update(c)

    cam = PiCamera.__new__(PiCamera)
    cam._cam = FakePicamera2()
    fixed = cam.lock_exposure()
    assert fixed == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 8123,
                     "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4)}
    assert cam._cam.controls == fixed


def test_scored_throws_are_recorded_with_their_final_values(tmp_path):
    rec = ThrowRecorder(str(tmp_path / "rec"))
    t = Table(tmp_path, recorder=rec)
    dice = t.scene.place([6, 4, 1, 1, 1, 1, 1, 1])
    t.roll(dice)
    # A correction on the screen: the values scored are the corrected ones.
    t.session.undo()
    assert rec.labels() == []
    frame = t.scene.frame(dice)
    t.session.throw([6, 4, 2, 1, 1, 1, 1, 1], frame=frame)
    labels = json.load(open(tmp_path / "rec" / "labels.json"))
    assert len(labels) == 1 and labels[0]["values"] == [1, 1, 1, 1, 1, 2, 4, 6]
    assert labels[0]["width"] == 820 and labels[0]["category"] == "recorded"
    assert os.path.exists(tmp_path / "rec" / labels[0]["file"])
    assert any(n.endswith(".undone.jpg") for n in os.listdir(tmp_path / "rec"))


def test_recorder_refuses_a_broken_labels_file(tmp_path):
    (tmp_path / "labels.json").write_text("{}")
    with pytest.raises(RecordingError, match="not a labels list"):
        ThrowRecorder(str(tmp_path))
    assert (tmp_path / "labels.json").read_text() == "{}"


def test_calibrate_command_and_eval_vision_on_a_recorded_folder(tmp_path, capsys):
    import cv2

    from companion.cli import main

    scene = TrayScene(seed=6, style=STYLE)
    photo = str(tmp_path / "setup.png")
    cv2.imwrite(photo, scene.frame(scene.place([2, 3, 5, 6])))
    cfg = tmp_path / "companion.toml"
    cfg.write_text(f'[app]\ndata_dir = "{tmp_path / "data"}"\n')
    assert main(["calibrate", "--config", str(cfg), "--image", photo]) == 0
    area = load_area(str(tmp_path / "data" / "calibration.json"))
    assert area is not None and 0.9 * STYLE.die_size < area.die_size < 1.25 * STYLE.die_size
    assert main(["calibrate", "--config", str(cfg), "--image", str(tmp_path / "none.png")]) == 2
    # A folder the app recorded: two throws, one with a die set aside outside the tray.
    rec = ThrowRecorder(str(tmp_path / "rec"))
    save_area(area, str(tmp_path / "rec" / "calibration.json"))
    rec.record(scene.frame(scene.place([6, 4, 1, 1, 1])), [6, 4, 1, 1, 1], game=1, seq=1)
    aside = PlacedDie(3, (40.0, 40.0), 0.0, STYLE.die_size)
    rec.record(scene.frame([aside] + scene.place([2, 5, 5, 6])), [2, 5, 5, 6], game=1, seq=3)
    capsys.readouterr()
    assert main(["eval-vision", str(tmp_path / "rec" / "labels.json")]) == 0
    row = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("| recorded")][0]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "2" and cells[2] == "1.000"  # both read exactly, the set-aside die ignored
