"""The learned die-face classifier (vision/facenet.py) and its place in the reader."""

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from hardware.render import RenderStyle, render_empty, render_throw
from vision import facenet
from vision.config import ReaderConfig
from vision.facenet import FaceNet, face_crops, find_dice
from vision.reader import read_throw
from vision.reasons import Reason

FIND_SIDES = ReaderConfig().learned.find_sides

STYLE = RenderStyle(tilt=0.0, specks=0, touching=0.0)


def _direct_conv_relu_pool(x, w, b):
    """The layer written out with loops: 3×3 convolution, zero padding 1, ReLU, 2×2 max pool."""
    n, h, wd, c = x.shape
    p = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    y = np.zeros((n, h, wd, w.shape[0]))
    for o in range(w.shape[0]):
        for i in range(3):
            for j in range(3):
                y[..., o] += np.tensordot(p[:, i:i + h, j:j + wd, :], w[o, :, i, j], axes=([3], [0]))
        y[..., o] += b[o]
    y = np.maximum(y, 0)
    return y.reshape(n, h // 2, 2, wd // 2, 2, -1).max(axis=(2, 4))


def test_the_numpy_layer_is_a_convolution_relu_and_pooling():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 6, 8, 3)).astype(np.float32)
    w = rng.normal(size=(4, 3, 3, 3)).astype(np.float32)
    b = rng.normal(size=4).astype(np.float32)
    got = facenet._conv_relu_pool(x, w, b)
    assert got.shape == (2, 3, 4, 4)
    np.testing.assert_allclose(got, _direct_conv_relu_pool(x, w, b), rtol=1e-4, atol=1e-4)


def test_turned_looks_average_the_eight_turns_and_mirrors_of_each_crop():
    """``turns=True`` is the mean of the probabilities of each crop turned by
    quarters and mirrored, each look classified on its own."""
    net = FaceNet.load()
    img, truth = render_throw([3, 5], seed=4, style=STYLE)
    # Two dice, and a patch of noise beside them, which each look sees differently.
    img[10:110, 10:110] = np.random.default_rng(0).integers(0, 256, (100, 100, 3))
    pts = [d.center for d in truth] + [(60.0, 60.0)]
    side = 70.0
    crops = face_crops(img, pts, side)
    looks = [np.rot90(crops, k, axes=(1, 2)) for k in range(4)]
    looks += [c[:, :, ::-1] for c in looks]
    want = np.mean([facenet._softmax(net.logits(np.ascontiguousarray(c))) for c in looks], axis=0)
    got = net.classify(img, pts, side, turns=True)
    np.testing.assert_allclose(got, want, atol=1e-6)
    assert list(got[:2, 1:].argmax(axis=1) + 1) == [d.value for d in truth]
    # The looks differ, so the mean is no single look's.
    assert not np.allclose(got, net.classify(img, pts, side), atol=1e-3)


def test_a_crop_is_centred_on_its_point_and_scaled_to_the_die():
    img = np.full((200, 300, 3), 200, np.uint8)
    img[90:110, 140:160] = 20  # a dark 20 px square centred on (149.5, 99.5)
    crop = face_crops(img, [(149.5, 99.5)], side=20.0)[0]
    assert crop.shape == (32, 32, 3)
    assert abs(float(crop.mean())) < 1e-4  # lighting drops out
    dark = crop[..., 0] < 0
    ys, xs = np.nonzero(dark)
    # The square fills 1/1.4 of the crop's side, in its middle.
    assert abs(xs.mean() - 15.5) < 0.6 and abs(ys.mean() - 15.5) < 0.6
    assert 20 <= dark.sum(axis=1).max() <= 25


def test_bad_weights_are_refused_with_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="lack"):
        FaceNet({"c1.weight": np.zeros((16, 3, 3, 3))})
    with pytest.raises(FileNotFoundError):
        FaceNet.load(tmp_path / "none.npz")


def test_the_network_takes_its_layer_sizes_from_the_weights():
    """Weights of any widths (``training/train_face_net.py --widths``) run: three
    convolutions with ReLU and pooling, flattened channels first, a dense layer, scores."""
    rng = np.random.default_rng(5)
    widths = (4, 8, 12, 10)
    shapes = {"c1": (widths[0], 3, 3, 3), "c2": (widths[1], widths[0], 3, 3), "c3": (widths[2], widths[1], 3, 3),
              "fc": (widths[3], widths[2] * 4 * 4), "out": (7, widths[3])}
    weights = {}
    for name, shape in shapes.items():
        weights[f"{name}.weight"] = rng.normal(0, 0.3, shape).astype(np.float32)
        weights[f"{name}.bias"] = rng.normal(0, 0.1, shape[0]).astype(np.float32)
    x = rng.normal(size=(3, 32, 32, 3)).astype(np.float32)
    want = x
    for name in ("c1", "c2", "c3"):
        want = _direct_conv_relu_pool(want, weights[f"{name}.weight"], weights[f"{name}.bias"])
    want = want.transpose(0, 3, 1, 2).reshape(3, -1)
    want = np.maximum(want @ weights["fc.weight"].T + weights["fc.bias"], 0) @ weights["out.weight"].T
    want += weights["out.bias"]
    got = FaceNet(weights).logits(x)
    assert got.shape == (3, 7)
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3)


def test_the_shipped_weights_are_small_and_read_mock_dice():
    assert facenet.WEIGHTS.stat().st_size <= 5_000_000
    net = FaceNet.load()
    right = total = 0
    for seed in range(40, 52):
        values = [int(v) for v in np.random.default_rng(seed).integers(1, 7, 5)]
        img, truth = render_throw(values, seed=seed, style=STYLE)
        probs = net.classify(img, [d.center for d in truth], truth[0].size)
        right += int((probs.argmax(axis=1) == np.array([d.value for d in truth])).sum())
        total += len(truth)
    assert right / total >= 0.9, f"{right} of {total}"


def test_an_empty_tray_holds_no_dice():
    img = render_empty(seed=3, style=STYLE)
    h, w = img.shape[:2]
    pts = [(x, y) for x in range(60, w - 60, 90) for y in range(60, h - 60, 90)]
    probs = FaceNet.load().classify(img, pts, STYLE.die_size)
    assert (probs.argmax(axis=1) == 0).mean() >= 0.95
    assert find_dice(img, STYLE.die_size) == []


def test_find_dice_finds_the_dice_not_yet_read():
    values = [1, 3, 5, 6]
    img, truth = render_throw(values, seed=11, style=STYLE)
    found = find_dice(img, truth[0].size, taken=[truth[0].center])
    assert len(found) == 3
    for d in truth[1:]:
        near = [f for f in found if np.hypot(f[0] - d.center[0], f[1] - d.center[1]) < 0.3 * d.size]
        assert len(near) == 1 and near[0][2] == d.value
        assert 0.0 < near[0][3] <= 1.0 and near[0][4] > 0
    with pytest.raises(ValueError):
        find_dice(img, 0.0)


def test_find_dice_reads_a_die_nearer_its_own_side_when_searching_at_another():
    # A mixed set: the dice not yet read are 0.7 or 1.5 times the side searched for. Read at the side
    # searched alone, 38 of these 72 dice come out right (session 21's model); read at the side of
    # FIND_SIDES where the network is surest of a die, 61. Each die found is read at one of FIND_SIDES,
    # and most at one nearer its own side than the side searched.
    right = nearer = 0
    for seed in range(10, 22):
        img, truth = render_throw([2, 3, 5, 6], seed=seed, style=STYLE)
        for searched in (0.7, 1.5):
            side = searched * truth[0].size
            found = find_dice(img, side, taken=[truth[0].center])
            for *_, p, at in found:
                assert any(abs(at - k * side) < 1e-6 for k in FIND_SIDES)
                assert 0.0 < p <= 1.0
            for d in truth[1:]:
                near = [f for f in found if np.hypot(f[0] - d.center[0], f[1] - d.center[1]) < 0.3 * d.size]
                assert len(near) <= 1
                if near and near[0][2] == d.value:
                    right += 1
                    nearer += abs(near[0][4] - d.size) < abs(side - d.size)
    assert right >= 54, f"{right} of 72 found with their value"
    assert nearer >= 0.75 * right, f"{nearer} of {right} read at a side nearer their own"


LIGHT_TRAY = RenderStyle(tilt=0.0, specks=0, touching=0.0, tray=(222, 226, 228), coloured=0.0, gradient=0.0)


def _found(found, dice, side):
    """How many of ``dice`` (render truth) ``found`` (find_dice's answer) holds with their value."""
    return sum(any(np.hypot(x - d.center[0], y - d.center[1]) < 0.3 * side and v == d.value
                   for x, y, v, _, _ in found) for d in dice)


class _UnsureOfValue:
    """A stand-in for the classifier, 0.999 sure of a die within 0.2 side of
    each of ``truth``'s centres, giving its true value ``share`` of that and
    the five others the rest; elsewhere sure there is no die."""

    def __init__(self, truth, share):
        self.truth, self.share = truth, share

    def classify(self, image, centers, side, turns=False):
        p = np.zeros((len(centers), 7))
        p[:, 0] = 1.0
        for row, c in zip(p, centers):
            d = min(self.truth, key=lambda d: math.dist(d.center, c))
            if math.dist(d.center, c) < 0.2 * side:
                row[:] = 0.999 * (1 - self.share) / 5
                row[0], row[d.value] = 0.001, 0.999 * self.share
        return p


@pytest.mark.parametrize("share, found_at_first, found_next", [(0.95, True, True), (0.8, False, True),
                                                               (0.6, False, False)])
def test_a_die_whose_value_is_only_likelier_is_found_by_the_second_search(share, found_at_first, found_next):
    """find_dice takes a die whose likeliest value has ``value_share`` of the
    die's probability: ReaderConfig().learned.find_value (0.9) by default, ReaderConfig().learned.find_value_next (0.7) in
    the reader's second search."""
    img, truth = render_throw([2, 5], seed=4, style=STYLE)
    net = _UnsureOfValue(truth, share)
    side = truth[0].size
    first = find_dice(img, side, taken=[truth[0].center], net=net)
    second = find_dice(img, side, taken=[truth[0].center], net=net, value_share=ReaderConfig().learned.find_value_next)
    assert _found(first, truth[1:], side) == len(first) == int(found_at_first)
    assert _found(second, truth[1:], side) == len(second) == int(found_next)


def test_a_second_search_with_the_memo_looks_again_only_where_the_first_did_not():
    """find_dice's ``memo`` keeps what a search at a side works out whatever
    is taken: a second search at that side (the reader's ReaderConfig().learned.find_value_next
    search) finds what it would without the memo, and asks the network
    nothing new."""
    img, truth = render_throw([2, 5, 6], seed=4, style=STYLE)
    side = truth[0].size

    class Counting(_UnsureOfValue):
        crops = 0

        def classify(self, image, centers, side, turns=False):
            Counting.crops += len(centers)
            return super().classify(image, centers, side, turns)

    net, memo = Counting(truth, 0.8), {}
    first = find_dice(img, side, taken=[truth[0].center], net=net, memo=memo)
    asked = Counting.crops
    assert first == [] and asked > 0
    second = find_dice(img, side, taken=[truth[0].center], net=net, memo=memo,
                       value_share=ReaderConfig().learned.find_value_next)
    assert Counting.crops == asked
    assert second == find_dice(img, side, taken=[truth[0].center], net=net, value_share=ReaderConfig().learned.find_value_next)
    assert _found(second, truth[1:], side) == len(second) == 2


class _SharpPeak:
    """A stand-in for the classifier whose die probability peaks at each of ``truth``'s centres as the
    network's does, narrower than the search's grid (a quarter side): 0.999 within 0.1 side, 0.7 within
    0.2 side (the true value sure), elsewhere no die."""

    def __init__(self, truth):
        self.truth = truth

    def classify(self, image, centers, side, turns=False):
        p = np.zeros((len(centers), 7))
        p[:, 0] = 1.0
        for row, c in zip(p, centers):
            d = min(self.truth, key=lambda d: math.dist(d.center, c))
            far = math.dist(d.center, c) / side
            if far < 0.2:
                die = 0.999 if far < 0.1 else 0.7
                row[:] = 0.0
                row[0], row[d.value] = 1.0 - die, die
        return p


@pytest.mark.parametrize("refine_from, refine, found_off_grid", [(0.5, True, True), (1.01, True, False),
                                                                  (0.5, False, False)])
def test_a_die_between_the_grids_places_is_found_by_looking_round_the_nearest(refine_from, refine, found_off_grid):
    """find_dice looks on a grid of a quarter side; a die whose middle lies more than 0.1 side from every
    place of it gets under ``find_die`` at each (mock trays 137, 212: a die between two others missed at
    one size, found at another). Places of at least ``refine_from`` are looked round half a step away,
    so it is found where ``refine`` (a second reading: the pip test) agrees; with ``refine_from`` above
    ``find_die``, or without ``refine`` (the reader's search with no count due), only the dice on the grid are."""
    img, truth = render_throw([2, 3, 5, 6], seed=4, style=STYLE)
    side = truth[0].size
    step = side / 4
    off = [d for d in truth if step * math.hypot(*(abs((c - step / 2) / step - round((c - step / 2) / step))
                                                   for c in d.center)) > 0.1 * side]
    assert off, "no die lies off the grid here: the test would prove nothing"
    cfg = replace(ReaderConfig().learned, refine_from=refine_from)
    found = find_dice(img, side, net=_SharpPeak(truth), config=cfg, refine=(lambda *_: True) if refine else None)
    on = [d for d in truth if d not in off]
    if refine and found_off_grid:  # a die found only round the grid is taken only where a second reading agrees
        unconfirmed = find_dice(img, side, net=_SharpPeak(truth), config=cfg, refine=lambda *_: False)
        assert _found(unconfirmed, off, side) == 0 and _found(unconfirmed, on, side) == len(on)
    assert _found(found, on, side) == len(on)
    assert _found(found, off, side) == (len(off) if found_off_grid else 0)
    assert len(found) == len(on) + (len(off) if found_off_grid else 0)


@pytest.mark.parametrize("unexplained", [1, 0])
def test_where_nothing_was_read_but_something_die_sized_is_there_the_classifier_looks(monkeypatch, unexplained):
    """Dark dice with red pips on a light table: the classical passes read
    no die but leave something die-sized unread. The classifier then looks
    for dice of the size the faces' outlines gave, and what it finds is read
    (never surely). Where nothing die-sized was left, it does not look."""
    from vision import reader

    img, truth = render_throw([3, 5], seed=4, style=STYLE)
    real = reader._read_work

    def read_none(*a, **k):
        _, _, foreign, side, lab = real(*a, **k)
        return [], unexplained, foreign, side, lab

    sides = []

    def finds(image, side, *, taken=(), **k):
        sides.append(side)
        return [(*d.center, d.value, 0.95, side) for d in truth
                if all(math.dist(d.center, t) > 0.75 * side for t in taken)]

    monkeypatch.setattr(reader, "_read_work", read_none)
    monkeypatch.setattr(facenet, "find_dice", finds)
    r = read_throw(img)
    assert not r.sure
    if unexplained:
        assert sides and sides[0] == pytest.approx(truth[0].size, rel=0.25)
        assert sorted(r.values) == [3, 5]
        assert all(d.confidence <= ReaderConfig().learned.most for d in r.dice)
    else:
        assert sides == [] and r.values == () and Reason.NO_DICE in r.reasons


def test_white_ones_on_a_light_tray_are_searched_for():
    # A white die with one pip on a light tray stands out from it by its pip and outline alone: under
    # the old search density (0.3) only 6 of these 36 ones were searched for and found.
    found = found_at_old = total = 0
    for seed in range(12):
        img, truth = render_throw([1, 1, 1, 2], seed=seed, style=LIGHT_TRAY)
        side, ones = truth[0].size, truth[:3]
        answer = find_dice(img, side, taken=[truth[3].center])
        hits = _found(answer, ones, side)
        assert len(answer) == hits, "a die found where none is"
        found += hits
        old = replace(ReaderConfig().learned, search_density=0.3)
        found_at_old += _found(find_dice(img, side, taken=[truth[3].center], config=old), ones, side)
        total += len(ones)
    assert found >= 12, f"{found} of {total}"
    assert found_at_old < found


def _in_shade(img, centre, side, darker):
    """``img`` with the tray round a die (0.6-1.4 side from ``centre``) darker by ``darker`` (L of
    CIELAB, OpenCV's 0-255 scale), of the same chroma: the die's shadow, or a tray's floor by a wall."""
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    yy, xx = np.mgrid[:img.shape[0], :img.shape[1]]
    r = np.hypot(xx - centre[0], yy - centre[1])
    lab[..., 0] -= darker * ((r > 0.6 * side) & (r < 1.4 * side))
    return cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)


@pytest.mark.parametrize("darker, least, most", [(30, 30, 36), (90, 0, 3)])
def test_a_die_in_shade_lies_on_the_table_but_not_one_on_something_far_darker(darker, least, most):
    # Each die not yet read sits in a ring of the tray 30 darker: the table in shade, where all 36 are
    # found (none without TABLE_SHADE_L). A ring 90 darker is something else (a dark box, a laptop).
    found = 0
    for seed in range(12):
        img, truth = render_throw([2, 3, 5, 6], seed=seed, style=LIGHT_TRAY)
        side = truth[0].size
        for d in truth[1:]:
            img = _in_shade(img, d.center, side, darker)
        found += _found(find_dice(img, side, taken=[truth[0].center]), truth[1:], side)
    assert least <= found <= most


def test_the_plain_table_is_its_colour_in_light_or_shade_not_another_colour():
    lab = np.zeros((4, 8, 3), np.float32)
    lab[:] = (200, 128, 134)  # a light table, a little warm
    lab[1, :] = (200 - 35, 128, 136)  # the same in shade
    lab[2, :2] = (200 - 80, 128, 134)  # far darker: no table
    lab[2, 2:4] = (185, 128, 160)  # the same lightness in shade, but yellow: no table
    lab[2, 4:6] = (210, 128, 134)  # a little lighter: within TABLE_NEAR
    lab[2, 6:] = (200 + 30, 128, 134)  # far lighter (a white die): no table
    plain = facenet._plain_table(lab, None, ReaderConfig().learned)
    assert plain[0].all() and plain[1].all() and plain[2, 4:6].all()
    assert not plain[2, :4].any() and not plain[2, 6:].any()


