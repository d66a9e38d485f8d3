"""The Fenn reader on the photo-realistic renders (Blender Cycles), never tuned on.

Reads every scene of a renders folder (``benchmarks/blender_scenes.py --kind fenn``;
``labels.json`` as ``docs/renders.md`` gives it) twice: with the board found
(:func:`vision.fenn.find_board`) and with it calibrated from the labels' true
corners, and prints a line per scene and the totals: still scenes read exactly
(every die's colour, value and field, and the black die's value), sure reads,
sure reads that were wrong, boards not found.

Usage (from the project root)::

    .venv/bin/python benchmarks/fenn_renders.py [FOLDER]   # default: ~/.cache/dice-companion/renders/fenn

Exits 2 with one line when the folder has no ``labels.json``.
"""

from __future__ import annotations

import json
import os
import sys

import cv2

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from blender_scenes import DEFAULT_OUT  # noqa: E402  (the renders' cache)

from vision.diceset import MIWIN, MIWIN_SWAPPED  # noqa: E402
from vision.fenn import BoardArea, BoardError, find_board, read_fenn  # noqa: E402


def main(argv: list[str]) -> int:
    """Read the folder ``argv[0]`` (or the renders' cache) and print the figures; the exit code."""
    folder = argv[0] if argv else os.path.join(DEFAULT_OUT, "fenn")
    path = os.path.join(folder, "labels.json")
    if not os.path.isfile(path):
        print(f"no labels.json in {folder}: render the scenes first (benchmarks/blender_scenes.py --kind fenn)")
        return 2
    labels = json.load(open(path, encoding="utf-8"))
    totals = {kind: {"still": 0, "exact": 0, "sure": 0, "sure_wrong": 0, "not_found": 0} for kind in ("found", "calibrated")}
    for lab in labels:
        img = cv2.imread(os.path.join(folder, lab["image"]))
        dice = MIWIN if lab.get("dice_set", "miwin") == "miwin" else MIWIN_SWAPPED
        truth = sorted([(d["colour"], d["value"], d["field"]) for d in lab["dice"]]
                       + [("black", lab["black"]["value"], None)], key=str)
        for kind, t in totals.items():
            if kind == "calibrated":
                board = BoardArea(tuple(map(tuple, lab["board_corners"])), (lab["width"], lab["height"]))
            else:
                try:
                    board = find_board(img)
                except BoardError:
                    t["not_found"] += 1
                    continue
            r = read_fenn(img, board, dice=dice)
            exact = sorted([(d.colour, d.value, d.field) for d in r.dice], key=str) == truth
            t["still"] += bool(lab["still"])
            t["exact"] += bool(exact and lab["still"])
            t["sure"] += bool(r.sure)
            t["sure_wrong"] += bool(r.sure and not exact)
            print(lab["image"], kind, "still" if lab["still"] else "hand/lifted", "exact" if exact else "not exact",
                  "sure" if r.sure else "unsure", " ".join(x.value for x in r.reasons))
    print(f"{len(labels)} scenes")
    for kind, t in totals.items():
        print(f"board {kind}: exact {t['exact']} of {t['still']} still read, sure {t['sure']}, "
              f"sure but wrong {t['sure_wrong']}, board not found {t['not_found']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
