"""Benchmark of the dice reader: accuracy, sureness and speed.

Usage: python benchmarks/read_photos.py [LABELS.json] [--face-net-folds FOLD0.npz FOLD1.npz]
(default labels: ../shared/photos/labels.json)

With ``--face-net-folds``, each photo is read with the face classifier trained
on the other half of the photos (``training/train_face_net.py --fold K``; a
photo's half is the parity of its name's first hex digit): a two-fold
cross-validated figure, free of photos the network learned from.

Prints three tables:

1. Accuracy per category, from ``companion read --json`` over every image:
   exact-image rate (the multiset of values read equals the truth), die
   recall, die precision, median ms per image. The ``tray-top-down``
   photos are read as the product reads them, inside the tray found by
   calibration (``--find-tray``; its time is included); the others whole.
2. Sure or ask, from ``companion read --json --expect N`` with each image's
   true dice count (as in a game, where the rules know the count): the share
   of reads marked sure, and how many sure reads were wrong.
3. Speed on 1640×1232 frames, single thread (``cv2.setNumThreads(1)``):
   median read time and motion-check time, and both relative to a fixed
   OpenCV workload on the same frame (grey + 5×5 blur + adaptive threshold),
   so figures from different machines compare.

Exits 1 when the labels file is absent.
"""

import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.shared_photos import PHOTOS  # noqa: E402
from benchmarks.shared_photos import half as photo_half  # noqa: E402

#: Categories read as the product reads its own tray: inside the tray found by calibration.
TRAY_CATEGORIES = {"tray-top-down"}


#: With --face-net-folds: the weights trained on photos of even, and of odd, first hex digit.
FOLDS: list[str] = []


def _run_read(paths, *extra):
    if FOLDS:
        out = {}
        for half in (0, 1):
            mine = [p for p in paths if photo_half(p) == half]
            if mine:
                # Read with the model trained on the other half.
                out.update(_run_read_with(mine, extra, FOLDS[1 - half]))
        return out
    return _run_read_with(paths, extra, None)


def _run_read_with(paths, extra, weights):
    env = dict(os.environ, OPENCV_NUM_THREADS="1", OMP_NUM_THREADS="1")
    if weights:
        env["DICE_FACE_NET"] = os.path.abspath(weights)
    code = "import cv2,sys; cv2.setNumThreads(1); from companion.cli import main; sys.exit(main())"
    proc = subprocess.run([sys.executable, "-c", code, "read", "--json", *extra, *paths],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    return {r["image"]: r for r in map(json.loads, proc.stdout.splitlines())}


def accuracy(labels, paths):
    by_cat = defaultdict(list)
    for e, p in zip(labels, paths):
        by_cat[e["category"]].append((e, p))
    reads = {}
    for cat, items in by_cat.items():
        extra = ("--find-tray",) if cat in TRAY_CATEGORIES else ()
        reads.update(_run_read([p for _, p in items], *extra))
    rows = {}
    for cat, items in sorted(by_cat.items()):
        c = {"n": 0, "exact": 0, "true": 0, "read": 0, "matched": 0, "ms": []}
        for e, p in items:
            r = reads.get(p, {"error": "no output"})
            got = [d["value"] for d in r.get("dice", [])]
            c["n"] += 1
            c["exact"] += sorted(got) == sorted(e["values"]) and "error" not in r
            c["true"] += len(e["values"])
            c["read"] += len(got)
            c["matched"] += sum((Counter(got) & Counter(e["values"])).values())
            if "ms" in r:
                c["ms"].append(r["ms"])
        rows[cat] = c
    print("| category | images | exact-image rate | die recall | die precision | median ms |")
    print("|---|---|---|---|---|---|")
    for cat, c in rows.items():
        note = " (in the tray found)" if cat in TRAY_CATEGORIES else ""
        print(f"| {cat}{note} | {c['n']} | {c['exact'] / c['n']:.3f} | {c['matched'] / max(1, c['true']):.3f} | "
              f"{c['matched'] / max(1, c['read']):.3f} | {statistics.median(c['ms']) if c['ms'] else float('nan'):.1f} |")


def sureness(labels, paths):
    groups = defaultdict(list)
    for e, p in zip(labels, paths):
        groups[(e["category"], len(e["values"]))].append((e, p))
    stats = defaultdict(lambda: {"n": 0, "sure": 0, "wrong_sure": 0})
    for (cat, count), items in sorted(groups.items()):
        extra = ["--expect", str(count)] + (["--find-tray"] if cat in TRAY_CATEGORIES else [])
        reads = _run_read([p for _, p in items], *extra)
        for e, p in items:
            r = reads.get(p, {})
            got = sorted(d["value"] for d in r.get("dice", []))
            s = stats[cat]
            s["n"] += 1
            if r.get("sure"):
                s["sure"] += 1
                s["wrong_sure"] += got != sorted(e["values"])
    print("| category | images | share sure | sure but wrong |")
    print("|---|---|---|---|")
    tot = {"n": 0, "sure": 0, "wrong_sure": 0}
    for cat, s in sorted(stats.items()):
        for k in tot:
            tot[k] += s[k]
        print(f"| {cat} | {s['n']} | {s['sure'] / s['n']:.3f} | {s['wrong_sure']} of {s['sure']} |")
    rate = tot["wrong_sure"] / max(1, tot["sure"])
    print(f"| all | {tot['n']} | {tot['sure'] / tot['n']:.3f} | {tot['wrong_sure']} of {tot['sure']} "
          f"(1 in {1 / rate:.0f}) |" if rate else f"| all | {tot['n']} | {tot['sure'] / tot['n']:.3f} | "
          f"0 of {tot['sure']} |")


def speed(labels, base):
    import cv2

    from hardware.render import RenderStyle, TrayScene
    from vision.calibrate import find_tray, measure_dice
    from vision.reader import read_throw
    from vision.rest import RestDetector

    cv2.setNumThreads(1)
    size = (1640, 1232)
    frames = []  # (name, frame, area, dice due)
    tray = [e for e in labels if e["category"] in TRAY_CATEGORIES]
    if tray:
        imgs = [cv2.resize(cv2.imread(os.path.join(base, e["file"])), size, interpolation=cv2.INTER_AREA) for e in tray]
        area = measure_dice(imgs[0], find_tray(imgs[0]))  # calibrated once, as at set-up
        frames += [("tray-top-down photos", im, area, len(e["values"])) for e, im in zip(tray, imgs)]
    scene = TrayScene(seed=7, style=RenderStyle(size=size, die_size=150, tilt=0, specks=0))
    mock_area = None
    for k in range(10):
        values = [1 + (k + j) % 6 for j in range(8 - k % 4)]
        f = scene.frame(scene.place(values))
        if mock_area is None:
            mock_area = measure_dice(f, find_tray(f))
        frames.append(("mock camera, 5-8 dice", f, mock_area, len(values)))

    def med_ms(fn, arg, reps=5):
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn(arg)
            ts.append((time.perf_counter() - t0) * 1000)
        return statistics.median(ts)

    def workload(img):
        g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        g = cv2.GaussianBlur(g, (5, 5), 0)
        cv2.adaptiveThreshold(g, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 11, 2)

    print("| frames (1640×1232) | n | read ms (median) | read / workload | motion ms | motion / workload | workload ms |")
    print("|---|---|---|---|---|---|---|")
    for name in dict.fromkeys(n for n, _, _, _ in frames):
        sel = [(f, a, due) for n, f, a, due in frames if n == name]
        reads, motions, works = [], [], []
        for f, a, due in sel:
            # As in a game: the calibrated area, and the number of dice due.
            reads.append(med_ms(lambda im, a=a, due=due: read_throw(im, area=a, expect=due), f))
            det = RestDetector(area=a.polygon)
            det.update(f, 0.0)
            motions.append(med_ms(lambda im, det=det: det.update(im, 1.0), f, reps=20))
            works.append(med_ms(workload, f, reps=20))
        r, m, w = statistics.median(reads), statistics.median(motions), statistics.median(works)
        print(f"| {name} | {len(sel)} | {r:.1f} | {r / w:.1f}× | {m:.2f} | {m / w:.2f}× | {w:.2f} |")


def main() -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Benchmark of the dice reader: accuracy, sureness and speed.")
    ap.add_argument("labels", nargs="?", default=os.path.join(PHOTOS, "labels.json"))
    ap.add_argument("--face-net-folds", nargs=2, metavar=("FOLD0", "FOLD1"), default=None,
                    help="read each photo with the face classifier trained on the other half")
    args = ap.parse_args()
    labels_path = args.labels
    if args.face_net_folds:
        FOLDS[:] = args.face_net_folds
    if not os.path.exists(labels_path):
        print(f"error: {labels_path} is absent: the shared photos are needed for this benchmark", file=sys.stderr)
        return 1
    base = os.path.dirname(os.path.abspath(labels_path))
    labels = json.load(open(labels_path))
    paths = [os.path.join(base, e["file"]) for e in labels]
    print(f"Dice reader over {labels_path} ({len(labels)} images)\n")
    print("Accuracy")
    accuracy(labels, paths)
    print("\nSure or ask (each image read with --expect its true dice count)")
    sureness(labels, paths)
    print("\nSpeed, single thread")
    speed(labels, base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
