"""Fenn's solver: how long the retrograde analysis, the cached table and a hint take.

Usage: python benchmarks/fenn_solve.py [--repeat N]

Prints, single-threaded on this machine: the solve of all positions under each
of the settings (median of N runs), loading the table from the disk cache,
and the hints of one position (every end of a turn valued). "workload" is a
fixed pure-Python workload timed here, so the ratio travels between machines:
a Raspberry Pi 4 (Cortex-A72, 1.5 GHz) runs pure Python about 5-8 times slower
than this machine's core, which gives the Pi estimate (the slower end).
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from companion.fenn import BlackThrow, Fenn  # noqa: E402
from companion.fenn_hints import HintBook, hints  # noqa: E402
from companion.fenn_solver import counts, solve  # noqa: E402

PI4_SLOWER = 8  # pure Python on a Pi 4 against this machine, the slower end of 5-8 (see the module text)


def workload() -> float:
    """A fixed pure-Python workload (dicts, tuples, a deque): seconds."""
    from collections import deque

    t0 = time.perf_counter()
    d, q = {}, deque(range(1000))
    for i in range(300_000):
        k = (i % 977, i % 13)
        d[k] = d.get(k, 0) + 1
        q.append(q.popleft())
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    w = statistics.median(workload() for _ in range(args.repeat))
    print(f"workload: {w * 1000:.0f} ms")
    print("| settings | positions | win / loss / draw | solve s | × workload | Pi 4 estimate s |")
    print("|---|---|---|---|---|---|")
    for settings in ({}, {"faces": "tip"}, {"stuck": "lose"}, {"dice": "wikipedia"}):
        times, table = [], None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            table = solve(**settings)
            times.append(time.perf_counter() - t0)
        t = statistics.median(times)
        c = counts(table)
        name = ", ".join(f"{k} = {v}" for k, v in settings.items()) or "defaults"
        print(f"| {name} | {len(table)} | {c['win']} / {c['loss']} / {c['draw']} | {t:.2f} | {t / w:.1f}× | "
              f"{t * PI4_SLOWER:.1f} |")
    with tempfile.TemporaryDirectory() as tmp:
        first = HintBook({}, cache_dir=tmp)
        first.wait()
        loads = []
        for _ in range(args.repeat):
            b = HintBook({}, cache_dir=tmp)
            b.wait()
            assert b.source == "cache"
            loads.append(b.seconds)
        size = sum(os.path.getsize(os.path.join(tmp, f)) for f in os.listdir(tmp))
        load = statistics.median(loads)
        print(f"from the cache ({size / 1e6:.1f} MB): {load:.2f} s (Pi 4 estimate {load * PI4_SLOWER:.1f} s)")
        g = Fenn(["Anna", "Ben"])
        g.apply(BlackThrow(6))
        t0 = time.perf_counter()
        for _ in range(20):
            hs = hints(g, first.table)
        h = (time.perf_counter() - t0) / 20
        print(f"hints of the start position ({len(hs)} turns): {h * 1000:.1f} ms "
              f"(Pi 4 estimate {h * PI4_SLOWER * 1000:.0f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
