"""Benchmark of the die-face classifier alone: how many many-colours dice it reads right at their true centres.

Usage::

    python benchmarks/face_net_centres.py WEIGHTS.npz
    python benchmarks/face_net_centres.py FOLD0.npz FOLD1.npz [--half 0|1]

This measures a trained model (``training/train_face_net.py``) before the
reader is run with it: each die of the many-colours photos whose boxes are in
``training/data/many_colours_boxes.csv`` is classified at its box's centre, at
side 0.9 of the photo's median box side, with the eight turned looks the
reader uses (``FaceNet.classify(..., turns=True)``). A die is right when its
most likely face is its true value.

With one weights file every photo is read by it (in sample, if it learned
from them). With two fold files each photo is read by the fold that never saw
it (a photo's half is the parity of its name's first hex digit, as in
``benchmarks/read_photos.py --face-net-folds``); ``--half K`` keeps only the
photos of half K, to measure one fold model on its own.

Prints the share right for all dice, for dark dice (the median L of CIELAB in
their box under 100 of 255) and for the others, and the share the model is at
least 0.98 sure is a die. Exits 1 when the photos or a weights file are
absent or unreadable.
"""

import argparse
import os
import sys

import cv2
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.shared_photos import BOXES, FACE_OF_BOX, PHOTOS, load_boxes  # noqa: E402
from benchmarks.shared_photos import half as photo_half  # noqa: E402
from vision.facenet import FaceNet  # noqa: E402

#: Below this median L (CIELAB, 0-255 in OpenCV) a die's box counts as dark.
DARK_L = 100


def measure(weights, *, half=None, photos=PHOTOS, boxes_csv=BOXES):
    """Per die ``(right, dark, die_share)`` over the many-colours boxes.

    ``weights``: one path (every photo) or two fold paths (each photo read by
    the fold of the other half). ``half``: only photos of that half (0 or 1).
    ``photos``: the folder the boxes' file names are relative to; ``boxes_csv``:
    a CSV with ``file, value, xmin, ymin, xmax, ymax`` (pixels). Raises
    ``FileNotFoundError`` for a missing photo or weights file."""
    boxes = load_boxes(boxes_csv)
    nets = [FaceNet.load(w) for w in weights]
    out = []
    for name in sorted(boxes):
        if half is not None and photo_half(name) != half:
            continue
        net = nets[0] if len(nets) == 1 else nets[1 - photo_half(name)]
        img = cv2.imread(os.path.join(photos, name))
        if img is None:
            raise FileNotFoundError(os.path.join(photos, name))
        b = boxes[name]
        side = FACE_OF_BOX * float(np.median([box.side for box in b]))
        probs = net.classify(img, [box.centre for box in b], side, turns=True)
        lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
        for box, p in zip(b, probs):
            light = float(np.median(lab[int(box.y0):int(box.y1), int(box.x0):int(box.x1), 0]))
            out.append((int(p[1:].argmax()) + 1 == box.value, light < DARK_L, float(1.0 - p[0])))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("weights", nargs="+", help="one weights file, or the two fold files (fold 0, fold 1)")
    ap.add_argument("--half", type=int, choices=(0, 1), default=None)
    a = ap.parse_args(argv)
    if len(a.weights) > 2:
        ap.error("give one weights file or two fold files")
    if not os.path.isdir(PHOTOS):
        print(f"no photos at {PHOTOS}", file=sys.stderr)
        return 1
    cv2.setNumThreads(1)
    try:
        dice = measure(a.weights, half=a.half)
    except (OSError, ValueError) as e:
        print(f"face_net_centres.py: {e}", file=sys.stderr)
        return 1
    print("| dice | n | right | sure a die (≥ 0.98) |")
    print("|---|---|---|---|")
    for label, keep in (("all", lambda d: True), ("dark", lambda d: d[1]), ("other", lambda d: not d[1])):
        sel = [d for d in dice if keep(d)]
        if sel:
            print(f"| {label} | {len(sel)} | {sum(d[0] for d in sel) / len(sel):.3f} "
                  f"| {sum(d[2] >= 0.98 for d in sel) / len(sel):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
