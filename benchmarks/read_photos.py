"""Benchmark: run ``companion read --json`` over a labels file and print per-category figures.

Usage: python benchmarks/read_photos.py [LABELS.json]   (default ../shared/photos/labels.json)

Prints, per category: images, exact-image rate (the multiset of values read
equals the truth), die recall, die precision and the median ms per image (the
``ms`` that ``companion read`` reports: processing only, decoding excluded).
Fails (exit 1) when the labels file is absent.
"""

import json
import os
import statistics
import subprocess
import sys
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    labels_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "photos", "labels.json")
    if not os.path.exists(labels_path):
        print(f"error: {labels_path} is absent: the shared photos are needed for this benchmark", file=sys.stderr)
        return 1
    base = os.path.dirname(os.path.abspath(labels_path))
    labels = json.load(open(labels_path))
    paths = [os.path.join(base, e["file"]) for e in labels]
    env = dict(os.environ, OPENCV_NUM_THREADS="1", OMP_NUM_THREADS="1")
    cmd = [sys.executable, "-c", "import cv2,sys; cv2.setNumThreads(1); from companion.cli import main; sys.exit(main())", "read", "--json", *paths]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    reads = {}
    for line in proc.stdout.splitlines():
        r = json.loads(line)
        reads[r["image"]] = r
    by = defaultdict(lambda: {"n": 0, "exact": 0, "true": 0, "read": 0, "matched": 0, "ms": []})
    for e, p in zip(labels, paths):
        r = reads.get(p, {"error": "no output"})
        got = [d["value"] for d in r.get("dice", [])]
        c = by[e["category"]]
        c["n"] += 1
        c["exact"] += sorted(got) == sorted(e["values"]) and "error" not in r
        c["true"] += len(e["values"])
        c["read"] += len(got)
        c["matched"] += sum((Counter(got) & Counter(e["values"])).values())
        if "ms" in r:
            c["ms"].append(r["ms"])
    print(f"companion read over {labels_path} ({len(labels)} images)")
    print("| category | images | exact-image rate | die recall | die precision | median ms |")
    print("|---|---|---|---|---|---|")
    for cat in sorted(by):
        c = by[cat]
        print(f"| {cat} | {c['n']} | {c['exact'] / c['n']:.3f} | {c['matched'] / max(1, c['true']):.3f} | "
              f"{c['matched'] / max(1, c['read']):.3f} | {statistics.median(c['ms']) if c['ms'] else float('nan'):.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
