"""Benchmark of the dice reader, die by die, on the many-colours photos.

Usage::

    python benchmarks/dice_counts.py [--face-net-folds FOLD0.npz FOLD1.npz] [--half 0|1] [--dump OUT.json]

``benchmarks/read_photos.py`` counts dice as multisets of values, so a die
read with a wrong value and a die missed beside a false one look alike. This
benchmark places them: each many-colours photo with boxes in
``training/data/many_colours_boxes.csv`` (the source's own, one per die) is
read whole and without the count (``companion read --json``, as the accuracy
table of ``read_photos.py`` reads it), and each die read is matched to the
nearest unmatched box whose centre lies within half the box's side, nearest
pairs first. Then every box is:

- **right**: matched to a die of its value;
- **wrong value**: matched to a die of another value;
- **missed**: matched to no die;

and every die read that matches no box is **false**; those near a photo
corner (within :data:`CORNER` of the photo's width and height from it; the
tray's holes sit there) are counted apart. **Exact** counts the photos whose
values read equal the labels' values as multisets (``labels.json``), the
exact-image rate's numerator.

With ``--face-net-folds`` each photo is read with the face classifier
trained on the other half (as ``read_photos.py --face-net-folds``); ``--half
K`` keeps the photos of half K only; ``--dump`` writes each photo's dice read
(JSON lines of ``companion read --json``) for a later look. Exits 1 when the
photos or the boxes are absent.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks import read_photos  # noqa: E402
from benchmarks.shared_photos import BOXES, PHOTOS, Box, load_boxes  # noqa: E402
from benchmarks.shared_photos import half as photo_half  # noqa: E402

#: A false die within this share of the photo's width and height from a corner is "near a corner".
CORNER = 0.15


def match(boxes: list[Box], dice: list[dict]) -> list[tuple[int, int]]:
    """Pairs ``(box index, die index)``, nearest first, each box and die used once.

    ``dice``: ``companion read --json`` dice (``center`` in pixels ``[x, y]``,
    ``value``). A pair is made only when the die's centre lies within half the
    box's side (:attr:`Box.side`) of the box's centre.
    """
    near = []
    for i, b in enumerate(boxes):
        bx, by = b.centre
        for j, d in enumerate(dice):
            dist = ((d["center"][0] - bx) ** 2 + (d["center"][1] - by) ** 2) ** 0.5
            if dist <= b.side / 2:
                near.append((dist, i, j))
    used_b, used_d, pairs = set(), set(), []
    for _, i, j in sorted(near):
        if i not in used_b and j not in used_d:
            used_b.add(i)
            used_d.add(j)
            pairs.append((i, j))
    return pairs


def count(boxes: list[Box], dice: list[dict], size: tuple[int, int]) -> Counter:
    """One photo's counts: ``right``, ``wrong``, ``missed``, ``false``, ``corner``.

    ``size``: the photo's ``(width, height)`` in pixels, for the corners.
    """
    pairs = match(boxes, dice)
    c = Counter()
    for i, j in pairs:
        c["right" if dice[j]["value"] == boxes[i].value else "wrong"] += 1
    c["missed"] += len(boxes) - len(pairs)
    w, h = size
    for j in set(range(len(dice))) - {j for _, j in pairs}:
        x, y = dice[j]["center"]
        c["false"] += 1
        c["corner"] += min(x, w - x) < CORNER * w and min(y, h - y) < CORNER * h
    return c


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--face-net-folds", nargs=2, metavar=("FOLD0", "FOLD1"), default=None,
                    help="read each photo with the face classifier trained on the other half")
    ap.add_argument("--half", type=int, choices=(0, 1), default=None, help="only the photos of this half")
    ap.add_argument("--dump", metavar="OUT.json", help="write the reads, one JSON line per photo")
    a = ap.parse_args(argv)
    labels_path = os.path.join(PHOTOS, "labels.json")
    if not os.path.exists(labels_path) or not os.path.exists(BOXES):
        print(f"dice_counts.py: needs {labels_path} and {BOXES}", file=sys.stderr)
        return 1
    for w in a.face_net_folds or ():
        if not os.path.isfile(w):
            print(f"dice_counts.py: no weights file {w}", file=sys.stderr)
            return 1
    read_photos.FOLDS[:] = a.face_net_folds or []
    labels = {e["file"]: e for e in json.load(open(labels_path))}
    boxes = {name: b for name, b in load_boxes().items()
             if name in labels and (a.half is None or photo_half(name) == a.half)}
    paths = {os.path.join(PHOTOS, name): name for name in sorted(boxes)}
    reads = read_photos._run_read(list(paths))
    total, exact = Counter(), 0
    for path, name in paths.items():
        r = reads.get(path, {"error": "no output"})
        if "error" in r:
            print(f"dice_counts.py: {name}: {r['error']}", file=sys.stderr)
        dice = r.get("dice", [])
        e = labels[name]
        total += count(boxes[name], dice, (e.get("width", 640), e.get("height", 640)))
        exact += "error" not in r and sorted(d["value"] for d in dice) == sorted(e["values"])
    if a.dump:
        with open(a.dump, "w") as f:
            for path in paths:
                f.write(json.dumps(reads.get(path, {"image": path, "error": "no output"})) + "\n")
    n_boxes = sum(len(b) for b in boxes.values())
    how = "each by the fold that never saw it" if a.face_net_folds else "with the shipped classifier"
    print(f"Many-colours photos read without the count, {how}: {len(paths)} photos, {n_boxes} dice boxed\n")
    print("| photos | exact | right | wrong value | missed | false (near a corner) |")
    print("|---|---|---|---|---|---|")
    print(f"| {len(paths)} | {exact} | {total['right']} | {total['wrong']} | {total['missed']} "
          f"| {total['false']} ({total['corner']}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
