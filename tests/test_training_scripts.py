"""The training and benchmark scripts of the face classifier: their labels and counts."""

import math

import cv2
import numpy as np
import pytest

from hardware.render import RenderStyle, render_throw
from vision import facenet
from vision.facenet import face_crops

STYLE = RenderStyle(tilt=0.0, specks=0, touching=0.0)

def _script(relative):
    """The repository's script at ``relative`` (e.g. ``training/train_face_net.py``) as a module:
    scripts are not in a package."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _training_script():
    """training/train_face_net.py as a module (it needs no PyTorch to import)."""
    return _script("training/train_face_net.py")


def test_training_takes_the_readers_readings_on_no_die_for_no_die_crops(monkeypatch):
    # The reader reads all three dice; told the scene holds only two of them, the training
    # script takes the third reading for one the classical passes made on no die.
    train = _training_script()
    img, truth = render_throw([2, 4, 6], seed=5, style=STYLE)
    dice = [(d.center[0], d.center[1], d.size, d.value) for d in truth]
    rng = np.random.default_rng(0)
    assert train.reader_mistakes(img, dice, rng) == []
    cut = []

    def recording_crops(image, centers, side):
        cut.extend((x, y, side) for x, y in centers)
        return face_crops(image, centers, side)

    monkeypatch.setattr(train, "face_crops", recording_crops)
    crops = train.reader_mistakes(img, dice[:2], rng, each=3)
    assert len(crops) == 3 and all(c.shape == (facenet.INPUT, facenet.INPUT, 3) for c in crops)
    # Each crop is cut round the die left out of the truth (jittered by at most 0.15 side),
    # at about the side of the dice there.
    gx, gy, side, _ = dice[2]
    assert len(cut) == 3
    for x, y, s in cut:
        assert math.hypot(x - gx, y - gy) <= 0.15 * math.sqrt(2) * side + 2
        assert 0.8 * side <= s <= 1.2 * side


def test_training_renders_mixed_sets_of_small_dice_with_their_truth():
    # The mixed-set renders: 640×640 frames, 1-12 dice of 32-44 px by default, each die's centre in the frame.
    train = _training_script()
    scenes = list(train.mock_scenes(6, 1, mixed=True))
    assert len(scenes) == 6
    coloured_pixels = 0
    for img, dice in scenes:
        assert img.shape == (640, 640, 3) and 1 <= len(dice) <= 12
        for x, y, side, value in dice:
            assert 0 <= x < 640 and 0 <= y < 640 and 30 <= side <= 47 and 1 <= value <= 6
            face = img[round(y) - 3:round(y) + 4, round(x) - 3:round(x) + 4].reshape(-1, 3).astype(int)
            coloured_pixels += int((face.max(axis=1) - face.min(axis=1) > 60).sum())
    # Not white dice alone: the faces carry colour (red pips, coloured bodies).
    assert coloured_pixels > 100
    # Their sides can be asked for.
    for _, dice in train.mock_scenes(4, 1, mixed=True, mixed_sides=(20.0, 40.0)):
        assert all(18 <= side <= 43 for _, _, side, _ in dice)


def test_the_centres_benchmark_counts_a_die_right_only_at_its_true_value(tmp_path):
    # benchmarks/face_net_centres.py on a mock throw whose last box is labelled with a wrong value.
    from pathlib import Path


    root = Path(__file__).resolve().parents[1]
    bench = _script("benchmarks/face_net_centres.py")
    img, truth = render_throw([1, 3, 5, 6], seed=4, style=STYLE)
    cv2.imwrite(str(tmp_path / "a0.png"), img)
    rows = ["file,value,xmin,ymin,xmax,ymax"]
    for d, label in zip(truth, [1, 3, 5, 2]):
        (x, y), h = d.center, d.size / 2
        rows.append(f"a0.png,{label},{x - h:.1f},{y - h:.1f},{x + h:.1f},{y + h:.1f}")
    (tmp_path / "boxes.csv").write_text("\n".join(rows) + "\n")
    weights = str(root / "vision" / "models" / "face_net.npz")
    dice = bench.measure([weights], photos=str(tmp_path), boxes_csv=str(tmp_path / "boxes.csv"))
    assert [right for right, _, _ in dice] == [True, True, True, False]
    assert all(share >= 0.98 for _, _, share in dice)
    # With two folds, a photo of half 0 ("a" is even) is left out of half 1.
    assert bench.measure([weights, weights], half=1, photos=str(tmp_path),
                         boxes_csv=str(tmp_path / "boxes.csv")) == []


def test_the_dice_count_benchmark_places_each_die_right_wrong_missed_or_false():
    # benchmarks/dice_counts.py matches the dice read to the boxes by place, nearest first.
    bench = _script("benchmarks/dice_counts.py")
    Box = _script("benchmarks/shared_photos.py").Box
    boxes = [Box(85, 85, 115, 115, 3), Box(185, 85, 215, 115, 5), Box(285, 285, 315, 315, 2)]
    dice = [
        {"center": [102, 101], "value": 3},  # on the first box, its value: right
        {"center": [205, 98], "value": 6},  # on the second box, another value: wrong
        {"center": [180, 100], "value": 5},  # 20 px off the second box, over half its side: false
        {"center": [20, 620], "value": 1},  # no box, by the bottom-left corner: false, near a corner
    ]
    counts = bench.count(boxes, dice, (640, 640))
    assert dict(counts) == {"right": 1, "wrong": 1, "missed": 1, "false": 2, "corner": 1}
    # Two dice on one box: the nearer is matched, the other is false.
    pairs = bench.match(boxes[:1], [{"center": [110, 100], "value": 3}, {"center": [101, 100], "value": 4}])
    assert pairs == [(0, 1)]


def test_the_shared_photos_boxes_load_with_their_line_on_a_bad_row(tmp_path):
    photos = _script("benchmarks/shared_photos.py")
    good = tmp_path / "good.csv"
    good.write_text("file,value,xmin,ymin,xmax,ymax\nf/a1.jpg,4,10,20,40,44\nf/a1.jpg,6,0,0,10,10\n")
    boxes = photos.load_boxes(str(good))
    assert list(boxes) == ["f/a1.jpg"] and [b.value for b in boxes["f/a1.jpg"]] == [4, 6]
    assert boxes["f/a1.jpg"][0].centre == (25.0, 32.0) and boxes["f/a1.jpg"][0].side == 27.0
    assert photos.half("f/a1.jpg") == 0 and photos.half("/x/b1.jpg") == 1 and photos.half("zz.jpg") == 0
    bad = tmp_path / "bad.csv"
    bad.write_text("file,value,xmin,ymin,xmax,ymax\nf/a1.jpg,4,10,20,40,44\nf/a1.jpg,four,0,0,10,10\n")
    with pytest.raises(ValueError, match="line 3"):
        photos.load_boxes(str(bad))
