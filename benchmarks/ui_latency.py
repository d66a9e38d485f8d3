"""Benchmark of the touchscreen's feel (issue 4), offscreen on this machine.

1. CONTINUE → new prompt: the time from a press of the CONTINUE button to the
   first frame drawn (window flip) that shows the new prompt; 30 presses, each
   followed by an undo. Median and worst printed.
2. Camera picture frame rate while the reader runs: frames of the mock camera
   (1640×1232) shown on the game screen per second over 6 s, while a worker
   thread reads the latest frame with ``read_throw`` again and again (and the
   at-rest watcher runs as in play). The frame worker is capped at 15 fps.

Run: ``.venv/bin/python benchmarks/ui_latency.py`` (prints a small table).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import threading
import time

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ["KIVY_NO_ARGS"] = "1"
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from companion.config import DEFAULTS  # noqa: E402
from ui.app import run_app  # noqa: E402
from ui.snapshot import drive, enter_players, wait_for  # noqa: E402

PRESSES = 30
FPS_SECONDS = 6.0


def script(app, rep):
    from kivy.core.window import Window

    from companion.prompts import prompt
    from hardware.render import RenderStyle

    # The Pi camera's working size (issue 3): 1640×1232 frames, dice twice as large as the default mock.
    app.camera.style = RenderStyle(size=(1640, 1232), die_size=112.0)
    app.camera.throw([6, 4, 1, 1, 2, 2, 3, 3])
    enter_players(app.start_screen, ["Sarah", "Tim", "Maria"], first=0)
    app.start_screen.start_btn.dispatch("on_release")
    yield 0.5
    session, g = app.session, app.session.game
    session.throw([6, 4, 1, 1, 2, 2, 3, 3])
    yield 0.3
    flips = []
    Window.bind(on_flip=lambda *_: flips.append(time.perf_counter()))
    latencies = []
    for _ in range(PRESSES):
        want = None
        t0 = time.perf_counter()
        app.game_screen.continue_btn.dispatch("on_release")
        # wait until the label shows the new prompt, then for the flip that drew it
        # (the screen keeps a prompt's last words together with no-break spaces)
        yield from wait_for(lambda: app.game_screen.prompt.text.replace("\xa0", " ").endswith(prompt(g))
                            and not g.decision_due, 5, 0.001)
        shown = time.perf_counter()
        n = len(flips)
        yield from wait_for(lambda n=n: len(flips) > n, 5, 0.001)
        want = flips[n] if len(flips) > n else shown
        latencies.append(want - t0)
        session.undo()
        yield 0.05
    rep["latency_ms"] = [round(1000 * x, 1) for x in latencies]
    # Frame rate while the reader runs flat out on a worker thread.
    from vision.reader import read_throw

    stop = threading.Event()
    reads = []

    def reader():
        while not stop.is_set():
            f = app.worker.latest
            if f is not None:
                t = time.perf_counter()
                read_throw(f, expect=8)
                reads.append(time.perf_counter() - t)

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    yield 0.5
    n0, t0 = app.game_screen.camera_view.frames_shown, time.perf_counter()
    yield FPS_SECONDS
    n1, t1 = app.game_screen.camera_view.frames_shown, time.perf_counter()
    stop.set()
    th.join(5)
    rep["fps"] = round((n1 - n0) / (t1 - t0), 1)
    rep["reads_during_fps"] = len(reads)
    rep["read_ms_median"] = round(1000 * statistics.median(reads), 1) if reads else None
    rep["frame_size"] = list(app.worker.latest.shape[:2][::-1])


def main() -> int:
    import cv2

    cv2.setNumThreads(1)
    cfg = json.loads(json.dumps(DEFAULTS))
    cfg["app"]["data_dir"] = tempfile.mkdtemp(prefix="companion-bench-")
    cfg["camera"].update(source="mock", seed=5)
    cfg["gpio"]["enabled"] = False
    cfg["app"]["guard"] = 0.0  # the press's own latency, not the stray-tap guard's wait
    rep: dict = {}
    run_app(cfg, driver=lambda app: drive(app, script(app, rep), rep), size=(800, 480))
    if "error" in rep:
        print(rep.get("traceback", rep["error"]), file=sys.stderr)
        return 1
    if "latency_ms" not in rep:
        print(f"the script did not finish: {sorted(rep)}", file=sys.stderr)
        return 1
    lat = rep["latency_ms"]
    # The fixed workloads (benchmarks/pi_workload.py) timed here, so the figures travel to a Pi (docs/pi.md).
    import numpy as np

    from benchmarks.pi_workload import opencv_workload, python_workload

    img = np.random.default_rng(1).integers(0, 256, (1232, 1640, 3), dtype=np.uint8)
    cv_ms = statistics.median(opencv_workload(img) for _ in range(20)) * 1000
    py_ms = statistics.median(python_workload() for _ in range(5)) * 1000
    med = statistics.median(lat)
    print(f"workloads: OpenCV {cv_ms:.2f} ms, Python {py_ms:.0f} ms")
    print("| figure | value | × workload |")
    print("|---|---|---|")
    print(f"| CONTINUE press -> new prompt drawn, median of {len(lat)} | {med:.1f} ms | {med / py_ms:.2f}× Python |")
    print(f"| CONTINUE press -> new prompt drawn, worst | {max(lat):.1f} ms | {max(lat) / py_ms:.2f}× Python |")
    print(f"| camera picture while the reader runs ({rep['frame_size'][0]}x{rep['frame_size'][1]}) "
          f"| {rep['fps']} fps | |")
    print(f"| reads done meanwhile (median read time) | {rep['reads_during_fps']} ({rep['read_ms_median']} ms) "
          f"| {float(rep['read_ms_median']) / cv_ms:.1f}× OpenCV |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
