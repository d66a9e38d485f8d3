"""Durchmarsch trays from a folder of labelled frames (the photo-realistic renders), read as a game reads them.

Usage: python benchmarks/render_trays.py [FOLDER] [--jobs J] [--limit N]
(default folder: ``$DICE_RENDERS/trays`` or ``~/.cache/dice-companion/renders/trays``)

``FOLDER`` holds the frames and a ``labels.json`` in the form of
``/work/RENDER_FORMAT.md`` (made by ``benchmarks/blender_scenes.py``): one
object per frame with ``image``, ``values`` (the sorted top faces of the
dice in the tray) and ``tray_corners`` (the tray's inner outline, frame px).
Each frame is calibrated as at set-up (:func:`vision.calibrate.calibrate`:
the tray found, the dice lying in it measured; when no tray is found, the
players touch its corners: ``tray_corners``), then read with that area and
the number of dice in the tray (``Reader.read(area=..., expect=N)``), as
``GameSession.read`` reads a throw. Frames with a hand over the tray are
read too and must not be sure.

Prints how many frames were read, exact, sure, asked, sure but wrong, the
median read time single-threaded (``cv2.setNumThreads(1)``) and its ratio to
a fixed OpenCV workload on the same frame (grey, 5×5 blur, adaptive
threshold: ``benchmarks/read_photos.py``'s), how many trays were calibrated by
their corners, and each sure but wrong read by its image. The reader was
never tuned on this family. Exits 1 when the folder has no labels.json.
"""

import argparse
import json
import os
import statistics
import sys
import time
from multiprocessing import Pool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from blender_scenes import DEFAULT_OUT  # noqa: E402  (the renders' cache: $DICE_RENDERS or ~/.cache/...)

DEFAULT = os.path.join(DEFAULT_OUT, "trays")


def workload(img):
    """The fixed OpenCV workload the read time is compared with (``benchmarks/read_photos.py``)."""
    import cv2

    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    g = cv2.GaussianBlur(g, (5, 5), 0)
    cv2.adaptiveThreshold(g, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 11, 2)


def calibrated(image, corners):
    """The tray area as set-up makes it from ``image`` (``H×W×3 uint8 BGR``): ``(area, how)``, ``how``
    "found" (tray found, dice measured), "found, no size" (dice not measured: the size is estimated
    from each throw) or "touched" (no tray found: the ``corners``, ``(x, y)`` px, touched instead)."""
    from vision.calibrate import CalibrationError, calibrate

    try:
        area, warning = calibrate(image)
        how = "found"
    except CalibrationError:
        area, warning = calibrate(image, corners=corners)
        how = "touched"
    return area, how + (", no size" if warning else "")


def timed_read(frame, area, due):
    """``(read, ms, workload ms)``: ``frame`` read as ``GameSession.read`` reads it (``Reader.read`` with
    the calibrated ``area`` and the ``due`` count), its time, and the fixed workload's on the same frame."""
    from vision.reader import Reader

    reader = Reader()
    reader.read(frame, area=area, expect=due)  # the classifier loaded before timing
    t0 = time.perf_counter()
    read = reader.read(frame, area=area, expect=due)
    ms = (time.perf_counter() - t0) * 1000
    works = []
    for _ in range(5):
        t0 = time.perf_counter()
        workload(frame)
        works.append((time.perf_counter() - t0) * 1000)
    return read, ms, statistics.median(works)


def read_one(entry_and_folder):
    """``(name, true values, values read, sure, hand, ms, workload ms, how, reasons)`` for one labelled frame."""
    import cv2

    cv2.setNumThreads(1)
    entry, folder = entry_and_folder
    frame = cv2.imread(os.path.join(folder, entry["image"]))
    if frame is None:
        raise FileNotFoundError(os.path.join(folder, entry["image"]))
    # A round tray is touched round its felt's outline; a square one at its corners.
    area, how = calibrated(frame, [tuple(p) for p in entry.get("tray_outline") or entry["tray_corners"]])
    truth = sorted(int(v) for v in entry["values"])
    read, ms, work = timed_read(frame, area, len(truth))
    return (entry["image"], truth, sorted(read.values), read.sure, bool(entry.get("hand")), ms, work, how,
            [str(r) for r in read.reasons])


def report(title, results):
    """Print the figures of ``results``: tuples ``(id, truth, read, sure, extra, ms, workload ms, how, reasons)``
    (``extra``: a mock tray's style, or whether a hand is over a rendered tray)."""
    still = [r for r in results if r[4] is not True]
    exact = sum(r[1] == r[2] for r in still)
    sure = sum(r[3] for r in still)
    wrong = [r for r in results if r[3] and r[1] != r[2]]
    hands = [r for r in results if r[4] is True]
    ms = statistics.median(r[5] for r in results) if results else 0.0
    ratio = statistics.median(r[5] / r[6] for r in results) if results else 0.0
    n = max(1, len(still))
    print(f"| {title} | read | exact | sure | asked | sure but wrong | median ms | × workload |")
    print("|---|---|---|---|---|---|---|---|")
    print(f"| calibrated, with the dice count | {len(still)} | {exact} ({exact / n:.3f}) | {sure} | "
          f"{len(still) - sure} ({(len(still) - sure) / n:.3f}) | {len(wrong)} | {ms:.0f} | {ratio:.1f}× |")
    if hands:
        print(f"hand over the tray: {len(hands)} frames, {sum(r[3] for r in hands)} sure")
    hows = {}
    for r in results:
        hows[r[7]] = hows.get(r[7], 0) + 1
    print("calibration: " + ", ".join(f"{k} {v}" for k, v in sorted(hows.items())))
    doubts = {}
    for r in still:
        for reason in r[8] if not r[3] else ():
            doubts[reason] = doubts.get(reason, 0) + 1
    print("reasons of the reads asked: " + ", ".join(f"{k} {v}" for k, v in sorted(doubts.items(), key=lambda x: -x[1])))
    for r in wrong:
        print(f"sure but wrong: {r[0]}: {r[2]} for {r[1]}; {r[4]}")
    not_exact = [r[0] for r in still if r[1] != r[2]]
    if not_exact:
        print(f"not exact: {not_exact}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", nargs="?", default=DEFAULT, help=f"the renders' folder (default {DEFAULT})")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)")
    ap.add_argument("--limit", type=int, default=None, help="read only the first N frames")
    args = ap.parse_args()
    path = os.path.join(args.folder, "labels.json")
    if not os.path.exists(path):
        print(f"error: {path} is absent: render the trays first (benchmarks/blender_scenes.py)", file=sys.stderr)
        return 1
    with open(path, encoding="utf-8") as f:
        labels = json.load(f)[: args.limit]
    with Pool(args.jobs) as pool:
        results = pool.map(read_one, [(e, args.folder) for e in labels], chunksize=2)
    report(f"rendered trays ({os.path.basename(os.path.normpath(args.folder))})", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
