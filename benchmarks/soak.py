"""A soak of simulated demo play: memory, file handles and threads over time.

Usage: python benchmarks/soak.py [--minutes M] [--data DIR]

Plays demo games without a screen, as the app's demo does: the mock camera
renders each throw (1640×1232), the session reads it with the reader and
scores or asks (a question is answered with the true values, as players
correcting on the screen), decisions are random, now and then a throw is
undone, and each finished game gets a rematch. Everything goes through the
app's own pieces (:class:`ui.controller.TableController` with a view that only
records, :class:`companion.session.GameSession`, the store and the throw
recorder with the default bounds). Every minute it prints one line: minutes,
resident memory (MB), open file handles, threads, games, throws, questions.
A flat memory curve and constant handles and threads mean no leak.
"""

import argparse
import os
import random
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


class QuietView:
    """A view that records nothing but the screen shown (the controller's view)."""

    def __init__(self):
        self.screen = "start"
        self.asked = None

    def show(self, name):
        self.screen = name

    def current(self):
        return self.screen

    def open_correction(self, values, frame, *, mode, due, dice, why):
        self.screen = "correction"
        self.asked = mode

    def undo_open(self):
        return False

    def __getattr__(self, name):
        return lambda *a, **k: None


def main(argv=None) -> int:
    from companion.config import DEFAULTS
    from companion.recording import ThrowRecorder
    from companion.session import GameSession
    from companion.storage import Store
    from hardware.camera import MockCamera
    from ui.controller import TableController

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=120.0)
    ap.add_argument("--data", default=None, help="data folder (default: a temporary one)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    data = args.data or tempfile.mkdtemp(prefix="soak-")
    rng = random.Random(args.seed)
    cam = MockCamera(seed=args.seed)
    session = GameSession(Store(data), recorder=ThrowRecorder(os.path.join(data, "recorded")),
                          keep_frame_games=DEFAULTS["app"]["keep_frame_games"],
                          keep_recorded=DEFAULTS["app"]["keep_recorded"])
    view = QuietView()
    table = TableController(session, view, camera=cam, demo=True, rng=rng)
    session.start(["Sarah", "Tim", "Maria"], first=0)
    games = throws = asked = undos = 0
    t0 = time.monotonic()
    next_sample = 0.0
    print("| minutes | RSS MB | open files | threads | games | throws | asked | undone |", flush=True)
    print("|---|---|---|---|---|---|---|---|", flush=True)
    while True:
        now = time.monotonic() - t0
        if now >= next_sample:
            print(f"| {now / 60:.0f} | {rss_mb():.1f} | {open_files()} | {threading.active_count()} | "
                  f"{games} | {throws} | {asked} | {undos} |", flush=True)
            next_sample += 60.0
            if now >= args.minutes * 60:
                break
        g = session.game
        if g.is_over:
            games += 1
            table.rematch()
            continue
        if g.decision_due:
            if rng.random() < 0.05:
                table.ask_undo()
                session.undo()
                undos += 1
            else:
                table.action("continue" if rng.random() < 0.55 else "stop")
            continue
        values = [rng.randint(1, 6) for _ in range(g.dice_to_throw)]
        cam.throw(values)
        frame = cam.read()
        read = session.read(frame)
        view.asked = None
        table.read_done(frame, read)
        if view.asked == "ask":
            asked += 1
            table.confirm_correction(values, "ask")
        throws += 1
    session.store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
