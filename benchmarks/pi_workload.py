"""The two fixed workloads the benchmarks divide by, timed on this machine, and
the factor that turns this repository's figures into figures for this machine.

Usage: python benchmarks/pi_workload.py [--repeat N]

- OpenCV: grey + 5×5 Gaussian blur + adaptive threshold of one 1640×1232 frame,
  single thread (the workload of ``read_photos.py`` and ``fenn_camera.py``).
- Python: the pure-Python workload of ``fenn_solve.py`` (dicts, tuples, a deque).

Run it on a Raspberry Pi: each printed factor is (this machine's time) /
(the development machine's time, :data:`REFERENCE`); multiply a figure of the
README by the factor of its kind (the reader's ms by the OpenCV one, the Fenn
solver's seconds by the Python one). docs/pi.md has the estimates and their sources.
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from benchmarks.fenn_solve import workload as python_workload  # noqa: E402

#: The development machine's medians, ms, on a quiet minute: the OpenCV one from docs/reader.md (the
#: speed table, 3.36 ms); the Python one from benchmarks/fenn_solve.py, whose solve takes 14.5× it and
#: 0.5-0.7 s quiet (README), so 0.6 s / 14.5 = 41 ms (docs/pi.md).
REFERENCE = {"opencv": 3.36, "python": 41.0}


def opencv_workload(img) -> float:
    """Seconds for the fixed OpenCV workload on ``img`` (``H×W×3 uint8 BGR``)."""
    t0 = time.perf_counter()
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    g = cv2.GaussianBlur(g, (5, 5), 0)
    cv2.adaptiveThreshold(g, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 11, 2)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    img = np.random.default_rng(1).integers(0, 256, (1232, 1640, 3), dtype=np.uint8)
    got = {"opencv": statistics.median(opencv_workload(img) for _ in range(args.repeat)) * 1000,
           "python": statistics.median(python_workload() for _ in range(max(3, args.repeat // 6))) * 1000}
    print("| workload | here ms | reference ms | factor (here / reference) |")
    print("|---|---|---|---|")
    for k, ms in got.items():
        print(f"| {k} | {ms:.2f} | {REFERENCE[k]:.2f} | {ms / REFERENCE[k]:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
