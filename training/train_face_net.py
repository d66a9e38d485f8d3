"""Train the die-face classifier that :mod:`vision.facenet` runs.

Usage (from the project root, after ``.venv/bin/pip install -e '.[train]'``)::

    .venv/bin/python training/train_face_net.py                 # writes vision/models/face_net.npz
    .venv/bin/python training/train_face_net.py --fold 0 --out /tmp/fold0.npz

What it learns from, and only from (the issue's rule on training data):

- mock-camera renders (:func:`hardware.render.render_throw`), with the true value and place of every die;
- the many-colours photos (nell-byler/dice_detection, BSD-3-Clause) with that project's own boxes,
  ``training/data/many_colours_boxes.csv``;
- the webcam photos (matteop65/Dice_Detection_Recognition, MIT) that the classical reader reads exactly:
  there, the reader's dice, whose values match the photo's label, give each die's place and value.

The photos of the two sources without a licence file (tray-top-down, table-phone) are never used.

``--fold K`` leaves out every photo whose name's first hex digit has parity ``1 - K``, so that a model
trained on one half can be measured on the other (``benchmarks/read_photos.py --face-net-folds``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.shared_photos import FACE_OF_BOX, half, load_boxes  # noqa: E402
from benchmarks.shared_photos import PHOTOS as SHARED_PHOTOS  # noqa: E402
from vision.facenet import face_crops  # noqa: E402

PHOTOS = Path(SHARED_PHOTOS)


def _in_fold(name: str, fold: int | None) -> bool:
    """True when the photo ``name`` (``folder/hash.jpg``) is in the training half ``fold``."""
    return fold is None or half(name) == fold


def many_colours_scenes(fold):
    """(image, [(x, y, side, value)]) for each many-colours photo, from the source's own boxes."""
    import cv2
    boxes = {name: [(*b.centre, FACE_OF_BOX * b.side, b.value) for b in bs] for name, bs in load_boxes().items()}
    for name, dice in sorted(boxes.items()):
        if _in_fold(name, fold):
            img = cv2.imread(str(PHOTOS / name))
            if img is not None:
                yield img, dice


def webcam_scenes(fold):
    """(image, dice) for webcam photos the classical reader reads exactly (MIT licensed)."""
    from vision.reader import load_image, read_throw
    labels = json.loads((PHOTOS / "labels.json").read_text())
    for e in labels:
        if e["category"] != "webcam-clutter" or not _in_fold(e["file"], fold):
            continue
        img = load_image(PHOTOS / e["file"])
        r = read_throw(img, learned=False)
        if sorted(r.values) == sorted(e["values"]):
            yield img, [(d.center[0], d.center[1], d.size, d.value) for d in r.dice]


#: The die sides of the mixed renders by default, px (``--mixed-sides``): the shipped model's since
#: session 17 (session 16's lead); session 15's trial drew 20-40 px, and its model read a flat-pipped
#: five as a four and the many-colours tray's holes as dice more often (training/README.md).
MIXED_SIDES = (32.0, 44.0)


def mock_scenes(n, seed, *, mixed=False, mixed_sides=MIXED_SIDES, smoky=False):
    """(image, dice) for ``n`` mock-camera renders of 1-8 dice in varied styles.

    ``mixed``: instead, renders of 1-12 small dice (side drawn from ``mixed_sides``, px) of a mixed set
    (``MIXED_SET``: dark, bright and marbled dice, many with red pips) on a light tray, the kind of scene
    of the many-colours photos, whose dark dice with red pips the photos alone give too few of.

    ``smoky`` (with ``mixed``): 40-90% of the dice are translucent smoky dice with red pips
    (:data:`hardware.render.SMOKY_SET`) and up to half lean to show a side face with its pips, the dice
    the classifier read worst out of sample (training/README.md, session 20)."""
    from hardware.render import MIXED_SET, RenderStyle, render_throw
    rng = np.random.default_rng(seed)
    for i in range(n):
        if mixed:
            grey = int(rng.integers(165, 225))
            style = RenderStyle(size=(640, 640), die_size=float(rng.uniform(*mixed_sides)),
                                coloured=float(rng.uniform(0.6, 1)), palette=MIXED_SET,
                                marbled=float(rng.uniform(0, 0.5)), tilt=float(rng.uniform(0, 0.6)),
                                touching=float(rng.uniform(0, 0.6)), noise=float(rng.uniform(2, 6)),
                                gradient=float(rng.uniform(0, 0.4)), specks=int(rng.integers(0, 6)),
                                tray=tuple(int(grey + d) for d in rng.integers(-8, 9, 3)))
            if smoky:
                style = replace(style, smoky=float(rng.uniform(0.4, 0.9)), side_faces=float(rng.uniform(0, 0.5)))
            count = int(rng.integers(1, 13))
        else:
            style = RenderStyle(die_size=float(rng.uniform(24, 70)), coloured=float(rng.uniform(0, 1)),
                                tilt=float(rng.uniform(0, 0.6)), touching=float(rng.uniform(0, 0.6)),
                                tray=tuple(int(v) for v in rng.integers(20, 230, 3)))
            count = int(rng.integers(1, 9))
        values = rng.integers(1, 7, count).tolist()
        try:
            img, truth = render_throw(values, seed=seed + i, style=style)
        except ValueError:
            continue
        yield img, [(d.center[0], d.center[1], d.size, d.value) for d in truth]


def crops_of(img, dice, rng, *, pos_each, neg_each):
    """Training crops of one scene: jittered crops on each die, and crops centred on no die."""
    xs, ys = [], []
    h, w = img.shape[:2]
    centers = np.array([(x, y) for x, y, _, _ in dice], float)
    sides = np.array([s for _, _, s, _ in dice], float)
    side = float(np.median(sides))
    for x, y, s, v in dice:
        for _ in range(pos_each):
            dx, dy = rng.uniform(-0.12, 0.12, 2) * s
            xs.append(face_crops(img, [(x + dx, y + dy)], s * rng.uniform(0.85, 1.15))[0])
            ys.append(v)
    tries = 0
    made = 0
    while made < neg_each * len(dice) and tries < 50 * neg_each * len(dice):
        tries += 1
        if rng.random() < 0.6:  # next to a die: a half die, the gap between two, a side face
            k = rng.integers(len(dice))
            ang = rng.uniform(0, 2 * np.pi)
            r = rng.uniform(0.55, 1.3) * sides[k]
            p = centers[k] + r * np.array([np.cos(ang), np.sin(ang)])
        else:
            p = rng.uniform([0, 0], [w, h])
        if np.min(np.hypot(*(centers - p).T) / sides) < 0.5:
            continue
        xs.append(face_crops(img, [tuple(p)], side * rng.uniform(0.85, 1.15))[0])
        ys.append(0)
        made += 1
    return xs, ys


#: Jittered "no die" crops taken round each place a network or the classical passes took for a die wrongly.
WRONG_EACH = 4


def _crops_off_the_dice(img, dice, places, rng, each):
    """"No die" crops round each of ``places`` (``(x, y)`` px taken for dice) that lies farther than half
    a side from every true die of ``dice`` (``(x, y, side, value)``): ``each`` crops, moved by up to
    0.15 side and scaled by 0.85-1.15 (the side is the true dice's median)."""
    centers = np.array([(x, y) for x, y, _, _ in dice], float)
    side = float(np.median([s for _, _, s, _ in dice]))
    out = []
    for x, y in places:
        if np.min(np.hypot(centers[:, 0] - x, centers[:, 1] - y)) < 0.5 * side:
            continue
        for _ in range(each):
            dx, dy = rng.uniform(-0.15, 0.15, 2) * side
            out.append(face_crops(img, [(x + dx, y + dy)], side * rng.uniform(0.85, 1.15))[0])
    return out


def reader_mistakes(img, dice, rng, *, each=WRONG_EACH):
    """"No die" crops where the classical passes read a die and the scene has none.

    The reader asks the network about every die its classical passes read weakly
    (``vision.reader._rejudge``), and leaves out one the network is sure is no die. Random
    and near-die crops seldom hit what those passes mistake for dice (a round hole in a tray,
    a pip-like mark on a cable), so each such reading, farther than half a side from every
    true die, gives ``each`` jittered crops. ``img``: ``H×W×3 uint8 BGR``; ``dice``: the true
    ``(x, y, side, value)``, pixels."""
    from vision.reader import read_throw
    return _crops_off_the_dice(img, dice, [d.center for d in read_throw(img, learned=False).dice], rng, each)


def build(fold, mock, seed, mixed=0, mixed_sides=MIXED_SIDES, smoky=0):
    """Crops and labels from every allowed source; also returns the scenes, for mining."""
    rng = np.random.default_rng(seed)
    xs, ys, scenes = [], [], []
    counts = defaultdict(int)
    for kind, found, pos_each, neg_each in (("many-colours", many_colours_scenes(fold), 10, 8),
                                            ("webcam", webcam_scenes(fold), 6, 10),
                                            ("mock", mock_scenes(mock, seed), 2, 2),
                                            ("mock mixed set", mock_scenes(mixed, seed + 10_000, mixed=True,
                                                                           mixed_sides=mixed_sides), 3, 2),
                                            ("mock smoky", mock_scenes(smoky, seed + 20_000, mixed=True,
                                                                       mixed_sides=mixed_sides, smoky=True), 3, 2)):
        for img, dice in found:
            a, b = crops_of(img, dice, rng, pos_each=pos_each, neg_each=neg_each)
            wrong = reader_mistakes(img, dice, rng)
            xs += a + wrong
            ys += b + [0] * len(wrong)
            counts[kind + " reader mistakes"] += len(wrong) // WRONG_EACH
            counts[kind] += len(dice)
            scenes.append((img, dice))
    print("dice per source (and readings on no die):", dict(counts), "crops:", len(xs), flush=True)
    return np.stack(xs).astype(np.float32), np.array(ys, np.int64), scenes


def mine(weights, scenes, rng, *, each=WRONG_EACH):
    """Hard negatives: the places a trained network takes for dice where the scene has none.

    Each scene is searched with :func:`vision.facenet.find_dice`, as the reader searches; every die
    found farther than half a side from all true dice gives ``each`` jittered "no die" crops.
    """
    from vision.facenet import FaceNet, find_dice
    net = FaceNet(weights)
    xs = []
    for img, dice in scenes:
        side = float(np.median([s for _, _, s, _ in dice]))
        xs += _crops_off_the_dice(img, dice, [f[:2] for f in find_dice(img, side, net=net)], rng, each)
    return xs


#: Channels of the three convolution layers and the dense layer. With 16/32/48/64 (0.2 MB), fold models
#: read 0.858 of the unseen many-colours dice right at their true centres (fold 0, 40 epochs); with
#: these (1.0 MB), 0.889 (training/README.md). The product's NumPy forward pass takes its layer sizes
#: from the weights.
WIDTHS = (32, 64, 96, 128)


def _jitter(xb, torch):
    """Each crop of the batch ``xb`` (``N×3×32×32``) turned by up to 20°, scaled by 0.92-1.08 and moved
    by up to 1.5 px (edges repeated)."""
    n = len(xb)
    ang = torch.empty(n).uniform_(-0.35, 0.35)
    k = torch.empty(n).uniform_(0.92, 1.08)
    shift = torch.empty(n, 2).uniform_(-1.5, 1.5) * (2.0 / xb.shape[-1])
    theta = torch.stack([torch.stack([k * torch.cos(ang), -k * torch.sin(ang), shift[:, 0]], 1),
                         torch.stack([k * torch.sin(ang), k * torch.cos(ang), shift[:, 1]], 1)], 1)
    grid = torch.nn.functional.affine_grid(theta, list(xb.shape), align_corners=False)
    return torch.nn.functional.grid_sample(xb, grid, padding_mode="border", align_corners=False)


def train(x, y, *, epochs, seed, start=None, lr=3e-3, vary=False, widths=WIDTHS):
    """Train the network on crops ``x`` (``N×32×32×3`` float32) with labels ``y`` (0 no die, 1-6).

    ``start``: weights to go on from (a mining round), else a fresh network. ``lr``: the one-cycle
    schedule's peak learning rate. ``vary``: each batch's channels scaled apart and its crops turned,
    scaled and moved a little (:func:`_jitter`) as they are drawn. ``widths``: channels of the three
    convolution layers and the dense layer (:data:`WIDTHS`). Returns the weights as NumPy
    arrays, checked against the NumPy forward pass of :class:`vision.facenet.FaceNet`."""
    import torch
    from torch import nn
    torch.manual_seed(seed)
    torch.set_num_threads(int(os.environ.get("TRAIN_THREADS", "2")))
    c1, c2, c3, fc = widths

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(3, c1, 3, padding=1)
            self.c2 = nn.Conv2d(c1, c2, 3, padding=1)
            self.c3 = nn.Conv2d(c2, c3, 3, padding=1)
            self.fc = nn.Linear(c3 * 4 * 4, fc)
            self.out = nn.Linear(fc, 7)
            self.drop = nn.Dropout(0.3)

        def forward(self, t):
            for c in (self.c1, self.c2, self.c3):
                t = nn.functional.max_pool2d(torch.relu(c(t)), 2)
            return self.out(self.drop(torch.relu(self.fc(t.flatten(1)))))

    net = Net()
    if start is not None:
        net.load_state_dict({k: torch.from_numpy(v) for k, v in start.items()})
    xt = torch.from_numpy(x).permute(0, 3, 1, 2).contiguous()
    yt = torch.from_numpy(y)
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * (len(x) // 256 + 1))
    lossf = nn.CrossEntropyLoss()
    for ep in range(epochs):
        net.train()
        perm = torch.randperm(len(xt))
        total, right, t0 = 0.0, 0, time.time()
        for i in range(0, len(perm), 256):
            idx = perm[i:i + 256]
            xb, yb = xt[idx], yt[idx]
            # A die face looks the same turned by a quarter or mirrored, and dice come in any colour.
            xb = torch.rot90(xb, int(torch.randint(4, ())), (2, 3))
            if torch.rand(()) < 0.5:
                xb = xb.flip(3)
            xb = xb[:, torch.randperm(3)]
            if vary:
                # Cameras and dice sets differ in colour balance and contrast: each crop's channels are
                # scaled apart; and a die lies at any angle, a little off the centre, larger or smaller.
                xb = xb * torch.empty(len(idx), 3, 1, 1).uniform_(0.6, 1.4)
                xb = _jitter(xb, torch)
            opt.zero_grad()
            z = net(xb)
            loss = lossf(z, yb)
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
            right += int((z.argmax(1) == yb).sum())
        print(f"epoch {ep + 1}/{epochs}: loss {total / len(xt):.4f}, train accuracy {right / len(xt):.4f}, "
              f"{time.time() - t0:.0f} s", flush=True)
    weights = {k: v.detach().numpy().astype(np.float32) for k, v in net.state_dict().items()}
    # The NumPy forward pass the product runs must give what PyTorch gives.
    from vision.facenet import FaceNet
    net.eval()
    with torch.no_grad():
        want = net(xt[:64]).numpy()
    got = FaceNet(weights).logits(x[:64])
    if not np.allclose(got, want, atol=1e-3):
        raise SystemExit(f"NumPy and PyTorch disagree by {np.abs(got - want).max():.2g}")
    return weights


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(ROOT / "vision" / "models" / "face_net.npz"))
    p.add_argument("--fold", type=int, choices=(0, 1), default=None,
                   help="train on one half of the photos only (for measuring on the other)")
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--mining-epochs", type=int, default=8,
                   help="epochs of each mining round, going on from the weights before it")
    p.add_argument("--mock", type=int, default=400, help="how many mock-camera renders")
    p.add_argument("--mixed", type=int, default=300,
                   help="how many mock-camera renders of a mixed set of small dice (many with red pips); "
                        "0 for the recipe shipped until session 16 (training/README.md)")
    p.add_argument("--smoky", type=int, default=200,
                   help="how many mock-camera renders of the mixed set with smoky dice and side faces shown "
                        "(shipped since session 21); 0 for the recipe shipped until session 20 (training/README.md)")
    p.add_argument("--mixed-sides", type=float, nargs=2, default=MIXED_SIDES, metavar=("LO", "HI"),
                   help="the mixed renders' die sides, px (session 15's trial: 20 40)")
    p.add_argument("--vary", action="store_true",
                   help="vary each batch as it is drawn: channels scaled apart, crops turned, scaled and moved")
    p.add_argument("--widths", type=int, nargs=4, default=WIDTHS, metavar=("C1", "C2", "C3", "FC"),
                   help="channels of the three convolution layers and the dense layer")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--mining", type=int, default=2,
                   help="rounds of training on with the places the network took for dice wrongly")
    a = p.parse_args(argv)
    import cv2
    cv2.setNumThreads(1)
    widths = tuple(a.widths)
    x, y, scenes = build(a.fold, a.mock, a.seed, a.mixed, tuple(a.mixed_sides), a.smoky)
    weights = train(x, y, epochs=a.epochs, seed=a.seed, vary=a.vary, widths=widths)
    for r in range(a.mining):
        hard = mine(weights, scenes, np.random.default_rng(a.seed + 1 + r))
        print(f"mining round {r + 1}: {len(hard)} crops of things taken for dice", flush=True)
        if not hard:
            break
        x = np.concatenate([x, np.stack(hard).astype(np.float32)])
        y = np.concatenate([y, np.zeros(len(hard), np.int64)])
        weights = train(x, y, epochs=a.mining_epochs, seed=a.seed, start=weights, lr=1e-3, vary=a.vary,
                        widths=widths)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(a.out, **weights)
    print("wrote", a.out, f"({Path(a.out).stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
