"""Fenn on the camera: how well the reader reads mock Fenn scenes, and whole games refereed.

Usage: python benchmarks/fenn_camera.py [--scenes N] [--games G]

Scenes: N mock Fenn scenes at 1640×1232 (hardware/fenn_scene.py: wood or
leather boards, with or without numbers, fenn.md's layouts of 7-9 and
another, perspective, light gradient, noise, blur), the board calibrated on an
empty frame of the same set-up, the dice at positions of random legal games;
one in ten has a hand moving a die and one in twenty a die lifted (those must
never be read surely). Printed: the share read exactly (every die's colour,
value and field), the share sure, the sure-but-wrong count, the median read
time single-threaded and its ratio to the fixed OpenCV workload of
benchmarks/read_photos.py. Games: G random legal games rendered turn by turn
and refereed through the session (GameSession.read and take, the app's path);
an asked turn is confirmed as the players would. Printed: games refereed to
the right end, turns taken at once, asked, and taken wrongly.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

import cv2

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from companion.fenn import BlackThrow, Fenn, Pass, Turn  # noqa: E402
from hardware.fenn_scene import FennScene  # noqa: E402
from vision.diceset import MIWIN  # noqa: E402
from vision.fenn import BoardError, find_board  # noqa: E402  (BoardArea in touched())
from vision.reader import Reader  # noqa: E402


def workload(img):
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    g = cv2.GaussianBlur(g, (5, 5), 0)
    cv2.adaptiveThreshold(g, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 11, 2)


_FINGER = random.Random(5)


def touched(scene, rng=_FINGER):
    """The board from its two ends touched on the screen (a finger's few pixels off)."""
    from vision.fenn import BoardArea

    def touch(x, y):
        px, py = scene.to_frame(x, y)
        return px + rng.uniform(-6, 6), py + rng.uniform(-6, 6)

    return BoardArea.from_ends(touch(0.5, 0.5), touch(8.5, 0.5), scene.size)


def random_position(rng: random.Random):
    """A position of a random legal game: ``(blue, red, black)``."""
    g = Fenn(["A", "B"])
    g.apply(BlackThrow(rng.choice((4, 6))))
    for _ in range(rng.randrange(0, 25)):
        if g.is_over:
            break
        ends = g.turn_ends()
        if not ends:
            g.apply(Pass())
            continue
        f, t, b = rng.choice(sorted(ends))
        if f in (1, 9) and (f, t, b) and rng.random() < 0.9:
            continue  # a win ends the game: mostly keep playing instead
        g.apply(Turn(f, t, b))
    p = g.position()
    return p.dice[0], p.dice[1], p.black


def scenes(n: int) -> None:
    cv2.setNumThreads(1)
    rng = random.Random(7)
    reader = Reader(dice=MIWIN)  # the one pipeline, with Miwin's dice set
    exact = sure = wrong = clean = 0
    ms, work, no_board = [], [], 0
    for i in range(n):
        scene = FennScene(seed=10_000 + i)
        try:
            board = find_board(scene.frame(blue=None, red=None, black=None, seed=i)[0])
        except BoardError:  # the players touch the middles of fields 1 and 9 on the screen instead
            no_board += 1
            board = touched(scene)
        blue, red, black = random_position(rng)
        trouble = "hand" if i % 10 == 3 else "lifted" if i % 20 == 7 else None
        colour = rng.choice(("blue", "red"))
        frame, truth = scene.frame(blue=blue, red=red, black=black, seed=i, hand=colour if trouble == "hand" else None,
                                   lifted=colour if trouble == "lifted" else None)
        t0 = time.perf_counter()
        r = reader.read_board(frame, board)
        ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        workload(frame)
        work.append((time.perf_counter() - t0) * 1000)
        got = [(d.colour, d.value, d.field) for d in r.dice]
        want = [(d["colour"], d["value"], d["field"]) for d in truth]
        if trouble is None:
            clean += 1
            exact += got == want
            wrong += r.sure and got != want
        else:
            wrong += r.sure
        sure += r.sure
    m, w = statistics.median(ms), statistics.median(work)
    print(f"scenes: {n}; the board found by calibration in {n - no_board}, touched at its two ends in {no_board}; "
          f"clean {clean}, with a hand or a lifted die {n - clean}")
    print("| scenes (1640×1232) | read exactly | sure | sure but wrong | median ms | × workload |")
    print("|---|---|---|---|---|---|")
    print(f"| {n} | {exact / max(clean, 1):.3f} ({exact} of {clean}) | {sure / n:.3f} | "
          f"{wrong} | {m:.1f} | {m / w:.1f}× |")


def games(n: int) -> None:
    from companion.session import ASKED, SCORED, GameSession
    from companion.storage import Store

    rng = random.Random(11)
    right = taken = asked = wrong = turns = 0
    for k in range(n):
        scene = FennScene(seed=20_000 + k)
        try:
            board = find_board(scene.frame(blue=None, red=None, black=None, seed=k)[0])
        except BoardError:
            board = touched(scene)
        with tempfile.TemporaryDirectory() as tmp:
            s = GameSession(Store(tmp), board=board)
            s.start(["Anna", "Ben"], first=0, game="fenn")
            ref = Fenn(["Anna", "Ben"])
            events = []
            while ref.to_act is None:
                v = rng.choice((2, 3, 4, 6, 7, 8))
                ref.apply(BlackThrow(v))
                events.append(BlackThrow(v))
            for _ in range(60):
                if ref.is_over:
                    break
                ends = ref.turn_ends()
                if not ends:
                    ref.apply(Pass())
                    events.append(Pass())
                    continue
                f, t, b = rng.choice(sorted(ends))
                ref.apply(Turn(f, t, b))
                events.append(Turn(f, t, b))
            for i, e in enumerate(events):
                if isinstance(e, Pass):
                    s.apply(e)  # a pass is tapped on the screen
                    continue
                before = s.game.to_dict()
                g = Fenn(["Anna", "Ben"])
                for x in events[:i + 1]:
                    g.apply(x)
                p = g.position()
                black = e.value if isinstance(e, BlackThrow) else p.black
                frame, _ = scene.frame(blue=p.dice[0], red=p.dice[1], black=black, seed=i)
                turns += 1
                got = s.take(s.read(frame), frame)
                if got == SCORED:
                    taken += 1
                    if s.game.events[-1] != e and s.game.to_dict() != g.to_dict():
                        wrong += 1
                elif got == ASKED:
                    asked += 1
                    s.apply(e)  # the players confirm the turn on the screen
                else:
                    assert s.game.to_dict() == before
                    s.apply(e)
            right += s.game.to_dict() == ref.to_dict() and s.game.is_over == ref.is_over
            s.store.close()
    print(f"games: {n} random legal games refereed from rendered frames: {right} to the right end; "
          f"{turns} turns and start throws read: {taken} taken at once, {asked} asked, {wrong} taken wrongly")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=500)
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    if args.scenes:
        scenes(args.scenes)
    games(args.games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
