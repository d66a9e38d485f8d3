"""Sure or ask on varied mock-camera trays, read as a game reads them.

Usage: python benchmarks/mock_trays.py [--trays N] [--first-seed S] [--jobs J]

Each tray is rendered by :class:`hardware.render.TrayScene` in a style drawn
from the tray's seed: die size 110, 130 or 150 px on a 1640×1232 frame,
tilt 0-0.6, 0-8 specks, white, mixed or coloured dice, dice touching
(share 0-0.6), sensor noise and a lighting gradient. The tray is calibrated
from six dice apart (``find_tray`` and ``measure_dice``), then a throw of
5-8 random values is read with the calibrated area and the dice count
(``read_throw(area=..., expect=N)``), as a game makes it.

Prints the number of trays read, how many reads were exact, how many were
sure, and how many sure reads were wrong (the issue's limit: 1 in 200), and
lists each sure but wrong read with its seed and style, so it can be
replayed. Trays whose dice do not fit the frame are skipped; trays whose
calibration fails (the set-up screen would ask the players to try again)
are counted and listed.
"""

import argparse
import os
import random
import sys
from multiprocessing import Pool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def tray(seed: int):
    """The style and throw of tray ``seed``: ``(RenderStyle, values)``."""
    from hardware.render import RenderStyle

    rng = random.Random(1000 + seed)
    style = RenderStyle(size=(1640, 1232), die_size=rng.choice([110, 130, 150]), tilt=rng.choice([0, 0, 0.3, 0.6]),
                        specks=rng.choice([0, 3, 8]), coloured=rng.choice([0, 0.3, 1]),
                        touching=rng.choice([0, 0.3, 0.6]), noise=rng.choice([2, 5, 8]),
                        gradient=rng.choice([0, 0.3]))
    values = [rng.randint(1, 6) for _ in range(rng.choice([5, 6, 7, 8]))]
    return style, values


def read_one(seed: int):
    """``(seed, true values, values read, sure, style)``; ``(seed, "not calibrated")``
    when calibration fails; None when the dice do not fit the frame."""
    import cv2

    from hardware.render import TrayScene
    from vision.calibrate import CalibrationError, find_tray, measure_dice
    from vision.reader import read_throw

    cv2.setNumThreads(1)
    style, values = tray(seed)
    scene = TrayScene(seed=seed, style=style)
    try:
        calib = scene.frame(scene.place([1, 2, 3, 4, 5, 6]))
        frame = scene.frame(scene.place(values))
    except ValueError:  # the dice do not fit the frame
        return None
    try:
        area = measure_dice(calib, find_tray(calib))
    except CalibrationError:  # the set-up screen would ask for another try
        return seed, "not calibrated"
    read = read_throw(frame, area=area, expect=len(values))
    return seed, sorted(values), sorted(read.values), read.sure, style


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trays", type=int, default=400, help="how many trays (default 400)")
    ap.add_argument("--first-seed", type=int, default=0, help="the first tray's seed (default 0)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)")
    args = ap.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.trays)
    with Pool(args.jobs) as pool:
        results = [r for r in pool.map(read_one, seeds, chunksize=4) if r is not None]
    uncalibrated = [r[0] for r in results if len(r) == 2]
    results = [r for r in results if len(r) > 2]
    exact = sum(truth == got for _, truth, got, _, _ in results)
    sure = sum(s for *_, s, _ in results)
    wrong = [r for r in results if r[3] and r[1] != r[2]]
    print(f"| mock trays (seeds {seeds.start}-{seeds.stop - 1}) | read | exact | sure | sure but wrong |")
    print("|---|---|---|---|---|")
    print(f"| calibrated, with the dice count | {len(results)} | {exact} | {sure} | {len(wrong)} |")
    if uncalibrated:
        print(f"not calibrated (calibration asked for another try): {len(uncalibrated)} trays, seeds {uncalibrated}")
    for seed, truth, got, _, style in wrong:
        print(f"sure but wrong: seed {seed}: {got} for {truth}; {style}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
