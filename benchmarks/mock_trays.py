"""Sure or ask on varied mock-camera trays, read as a game reads them.

Usage: python benchmarks/mock_trays.py [--trays N] [--first-seed S] [--jobs J]

Each tray is rendered by :class:`hardware.render.TrayScene` in a style drawn
from the tray's seed, from a wide space (issue 38): a table of light or dark
wood with grain, planks, checked or striped cloth, felt of any colour or plain
white/grey; a tray of felt in one of nine colours, 8-20% of the frame's side
from its edges; light from any side, warm, neutral or cool, hard or soft
shadows of any depth; a camera straight down or leaning 4-12°, the tray
turned up to 10°; dice of 0.07-0.115 of the tray's width (70-160 px on a
1640×1232 frame), white or of the
bodies of :data:`hardware.render.WIDE_SET` (cream, red, black, green, honey
wood, blue, yellow, brown), some translucent; 0-3 things beside the tray (a
cup, cards, coins, a phone, a stray die); 0-8 specks; dice touching (share
0-0.6), sensor noise; for a third of the trays a higher camera (a tray of
40-64% of the frame, dice down to 35 px); for two thirds a camera near
enough for the dice away from the middle to show their side faces and pips;
for three quarters the walls' shadow on the felt and the dice in it, for half of those cast
sharp-edged and dark; for half the dice let lie against the walls; for a third some dice of
the felt's own colour (what the Blender renders showed the mock
world lacked; nothing fitted to them). The tray is calibrated as at set-up from six dice
apart (:func:`vision.calibrate.calibrate`; when no tray is found, from its
corners touched), then a throw of 5-8 random values is read with the
calibrated area and the dice count (``Reader.read(area=..., expect=N)``),
as a game makes it (``GameSession.read``).

Prints how many trays were read, exact, sure, asked, sure but wrong, the
median read time single-threaded and its ratio to a fixed OpenCV workload
(``benchmarks/read_photos.py``'s) on the same frame, and how many trays
were calibrated by their corners touched; lists each sure but wrong read
with its seed and style, so it can be replayed. Trays whose dice do not fit
the frame are skipped. The reader's numbers were tuned on this family (and
the shared photos); ``benchmarks/render_trays.py`` measures the rendered
family it was never tuned on.
"""

import argparse
import math
import os
import random
import sys
from dataclasses import replace
from multiprocessing import Pool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))


#: The trays' felt or wood inside, BGR: dark green, blue, red, black, grey, brown, tan, purple.
TRAY_COLOURS = ((70, 60, 45), (40, 80, 30), (110, 60, 25), (35, 35, 120), (30, 30, 32), (95, 95, 95),
                (35, 55, 85), (90, 140, 175), (90, 40, 70))
#: Lights: (B, G, R) factors of warm, neutral and cool light.
TINTS = ((1.0, 1.0, 1.0), (0.85, 0.95, 1.05), (1.05, 1.0, 0.92))


def tray(seed: int):
    """The style and throw of tray ``seed``: ``(RenderStyle, values)``."""
    from hardware.render import WIDE_SET, RenderStyle
    from hardware.tray_table import CLUTTER, TABLES

    rng = random.Random(1000 + seed)
    light = rng.uniform(0, 2 * math.pi)
    reach = rng.uniform(0.06, 0.2)
    clutter = tuple(rng.sample(CLUTTER, rng.choice([0, 1, 2, 3])))
    inset = rng.uniform(0.08, 0.2)  # a higher camera: more table, a smaller tray and smaller dice
    die = rng.choice([0.07, 0.085, 0.1, 0.115]) * 1640 * (1 - 2 * inset)
    style = RenderStyle(size=(1640, 1232), die_size=round(die),
                        specks=rng.choice([0, 3, 8]), coloured=rng.choice([0, 0.3, 0.7, 1]), palette=WIDE_SET,
                        touching=rng.choice([0, 0.3, 0.6]), noise=rng.choice([2, 5, 8]),
                        gradient=rng.choice([0, 0.3, 0.5]), tray=rng.choice(TRAY_COLOURS),
                        table=rng.choice(TABLES), tray_inset=inset,
                        light=(reach * math.cos(light), reach * math.sin(light)), shadow=rng.uniform(0.35, 0.75),
                        soft=rng.choice([0, 0.05, 0.15]), tint=rng.choice(TINTS),
                        camera_tilt=rng.choice([0, 0, 4, 8, 12]), turn=rng.uniform(-10, 10), clutter=clutter,
                        translucent=rng.choice([0, 0, 0.3]))
    values = [rng.randint(1, 6) for _ in range(rng.choice([5, 6, 7, 8]))]
    # Drawn after the rest, so each seed's table, light and throw stay as they were: a camera higher
    # up for a third of the trays (a tray of 40-64% of the frame's width, dice down to 35 px), and a
    # camera near enough (a 62-65° lens, the frame's width about 1.2 camera heights) for the dice away
    # from the middle to show their side faces and pips, and the walls' shadow on the felt.
    if rng.random() < 1 / 3:
        inset = rng.uniform(0.18, 0.3)
        die = rng.choice([0.06, 0.07, 0.085, 0.1]) * 1640 * (1 - 2 * inset)
        style = replace(style, tray_inset=inset, die_size=round(die))
    near = max(12.0, 1640 / (1.2 * style.die_size)) * rng.uniform(0.9, 1.4)
    style = replace(style, camera_height=rng.choice([0, near, near]), wall_shade=rng.choice([0, 0.5, 1.0, 2.0]))
    # Drawn after those (the earlier draws stay): for half the trays the walls' shadow cast sharp-edged
    # and dark (0.15-0.45 of the light; a die in it shaded as deep), for half the dice let lie against
    # the walls, and for a third some dice of the felt's own colour.
    dark = rng.uniform(0.15, 0.45) if rng.random() < 0.5 else 0.0
    style = replace(style, wall_dark=dark, to_wall=rng.choice([0, 0.65]), own_colour=rng.choice([0, 0, 0.3]))
    return style, values


def read_one(seed: int):
    """``(seed, true values, values read, sure, style, ms, workload ms, how, reasons)``: ``how`` is how the tray
    was calibrated ("found", "touched": its corners touched when it was not found, "found, no size": the
    dice not measured); None when the dice do not fit the frame."""
    import cv2
    from render_trays import calibrated, timed_read

    from hardware.render import TrayScene

    cv2.setNumThreads(1)
    style, values = tray(seed)
    scene = TrayScene(seed=seed, style=style)
    try:
        calib = scene.frame(scene.place([1, 2, 3, 4, 5, 6], touching=0))
        frame = scene.frame(scene.place(values))
    except ValueError:  # the dice do not fit the frame
        return None
    area, how = calibrated(calib, scene.polygon)
    read, ms, work = timed_read(frame, area, len(values))
    return seed, sorted(values), sorted(read.values), read.sure, style, ms, work, how, [str(r) for r in read.reasons]


def main() -> int:
    from render_trays import report

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trays", type=int, default=400, help="how many trays (default 400)")
    ap.add_argument("--first-seed", type=int, default=0, help="the first tray's seed (default 0)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)")
    args = ap.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.trays)
    with Pool(args.jobs) as pool:
        results = [r for r in pool.map(read_one, seeds, chunksize=4) if r is not None]
    report(f"mock trays (seeds {seeds.start}-{seeds.stop - 1})", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
