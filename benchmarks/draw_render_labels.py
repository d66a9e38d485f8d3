"""Draw a rendered family's labels onto its images, to look at whether they are right.

    .venv/bin/python benchmarks/draw_render_labels.py ~/.cache/dice-companion/renders/fenn /tmp/drawn --first 5

Fenn: the board's outline (corner 0, field 1's outer end, ringed), its 8 field
boundaries (from the corners), each die's centre with colour, value and field,
the black die and stray dice. Trays: the tray's outline and corners, each die's
centre and value. Writes ``OUTDIR/<image>.png``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import cv2
import numpy as np

INK = {"blue": (255, 120, 0), "red": (0, 0, 255), "black": (0, 255, 255), "stray": (255, 0, 255), "d6": (0, 255, 0)}


def _mark(img, xy, colour, text):
    x, y = int(round(xy[0])), int(round(xy[1]))
    cv2.drawMarker(img, (x, y), colour, cv2.MARKER_CROSS, 24, 2)
    cv2.putText(img, text, (x + 14, y - 14), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 4)
    cv2.putText(img, text, (x + 14, y - 14), cv2.FONT_HERSHEY_SIMPLEX, 0.8, colour, 2)


def draw(img: np.ndarray, label: dict) -> np.ndarray:
    """``img`` (H×W×3 uint8 BGR) with ``label`` (a labels.json object, Fenn or tray) drawn on a copy."""
    out = img.copy()
    if "board_corners" in label:
        c = np.float32(label["board_corners"])
        cv2.polylines(out, [c.astype(np.int32)], True, (0, 255, 0), 2)
        cv2.circle(out, tuple(int(v) for v in c[0]), 12, (0, 255, 0), 3)
        for k in range(1, 9):
            a, b = c[0] + (c[1] - c[0]) * k / 9, c[3] + (c[2] - c[3]) * k / 9
            cv2.line(out, tuple(int(v) for v in a), tuple(int(v) for v in b), (0, 200, 0), 1)
        for d in label["dice"]:
            _mark(out, d["center"], INK[d["colour"]], f"{d['colour'][0]}{d['value']}@{d['field']}")
        _mark(out, label["black"]["center"], INK["black"], f"k{label['black']['value']}")
        for s in label.get("stray", []):
            _mark(out, s["center"], INK["stray"], f"s{s['value']}")
        flags = f"still={label['still']} hand={label['hand']} lifted={label['lifted']}"
    else:
        poly = np.int32(label.get("tray_outline", label["tray_corners"]))
        cv2.polylines(out, [poly], True, (0, 255, 0), 2)
        for i, p in enumerate(label["tray_corners"]):
            cv2.putText(out, str(i), (int(p[0]), int(p[1])), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 255, 0), 2)
        for d in label["dice"]:
            _mark(out, d["center"], INK["d6"], str(d["value"]))
        flags = f"values={label['values']} hand={label['hand']}"
    cv2.putText(out, flags, (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 0), 5)
    cv2.putText(out, flags, (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 255, 255), 2)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("outdir")
    ap.add_argument("--first", type=int, default=5)
    args = ap.parse_args(argv)
    labels = json.load(open(os.path.join(args.folder, "labels.json")))
    os.makedirs(args.outdir, exist_ok=True)
    for label in labels[:args.first]:
        img = cv2.imread(os.path.join(args.folder, label["image"]))
        if img is None:
            print(f"cannot read {label['image']}", file=sys.stderr)
            return 1
        cv2.imwrite(os.path.join(args.outdir, os.path.splitext(label["image"])[0] + ".png"), draw(img, label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
