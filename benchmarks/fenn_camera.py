"""Fenn on the camera: how well the reader reads Fenn scenes of two families, and whole games refereed.

Usage:
    python benchmarks/fenn_camera.py [--family mock] [--scenes N] [--games G]
    python benchmarks/fenn_camera.py --family renders [--dir DIR] [--game-dir DIR]

Families (issue 38: tune on one, report on the other):

- ``mock`` (the reader is tuned on this one): N scenes of the mock camera
  (hardware/fenn_scene.py: tables of wood, planks, checked or striped cloth,
  felt, plain; leather or wooden boards at any angle; a camera 25-60 cm
  above, tilted up to 12°; light of a colour and direction; clutter; a stray
  d6 in one frame in four; the black die anywhere beside the board), the
  dice at positions of random legal games; one in ten has a hand moving a
  die and one in ten a die held 0.6-1 field above its field, tilted (those must
  never be read surely).
- ``renders``: the Blender Cycles renders of
  benchmarks/blender_scenes.py, a folder with ``labels.json`` (docs/renders.md:
  board_corners, dice, black, still, hand, lifted, stray, dice_set), by default
  ``$DICE_RENDERS/fenn`` or ``~/.cache/dice-companion/renders/fenn``; each
  scene read with its own dice set (the game's ``dice`` option). The
  benchmark reads whatever scenes are there and prints their count. Renders
  0-199 were looked at while the reader was mended (issue 38; its own figures
  come from ``--dir`` on a folder of renders 200 and up, never looked at).
  ``--verbose`` prints a line per scene and way (exact or what was read, sure
  or why it asks).

Each scene is read twice: with the board **found** (mock: by calibration on
the start position of the same set-up, dice on fields 1 and 9, as the players
set up and then calibrate; renders: in the frame itself, its direction —
which end is field 1 — taken from the truth, as the start frame's dice give
it; a board not found is touched at its two ends, a finger's few pixels off,
and counted) and with the board **calibrated** from its true corners.
Printed per way: the share read exactly (every die's colour, value and
field, among still scenes), sure, sure but wrong, sure on still scenes, a
hand or a lifted die read surely (must be 0), strays reported, the median
read time single-threaded and its ratio to the fixed OpenCV workload of
benchmarks/read_photos.py. Renders whose labels give each die's ``along`` (461
and up) also print, per way, how far from it the reader puts blue's and red's
foot along the board on still scenes (``FennDie.at``; a die is asked about
within ``board.line_margin`` of a line between fields, so an error larger
than that can put it surely on the wrong field).

Games: G random legal games (mock) rendered turn by turn, or the renders'
game folder (``--game-dir``, e.g. ``fenn-game-1``: frames in play order, each
with its replay event), refereed through the session (GameSession.read and
take, the app's path); an asked turn is confirmed as the players would.
Printed: games refereed to the right end, turns taken at once, asked, and
taken wrongly.
"""

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from companion.fenn import BlackThrow, Fenn, Pass, Turn  # noqa: E402
from hardware.fenn_scene import FennScene  # noqa: E402
from vision.diceset import DICE_SETS, MIWIN  # noqa: E402
from vision.fenn import BoardArea, BoardError, find_board, measure_tilt  # noqa: E402
from vision.reader import Reader  # noqa: E402


def workload(img):
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    g = cv2.GaussianBlur(g, (5, 5), 0)
    cv2.adaptiveThreshold(g, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 11, 2)


_FINGER = random.Random(5)


def touched(scene, rng=_FINGER):
    """The board from its two ends touched on the screen (a finger's few pixels off)."""

    def touch(x, y):
        px, py = scene.to_frame(x, y)
        return px + rng.uniform(-6, 6), py + rng.uniform(-6, 6)

    return BoardArea.from_ends(touch(0.5, 0.5), touch(8.5, 0.5), scene.size)


def calibrate(start, touch) -> tuple[BoardArea, bool]:
    """The board as the players calibrate it on ``start`` (a frame of the start position, F2, ``H×W×3
    uint8 BGR``): found there, else ``touch()`` (its two ends touched on the screen), with the table's
    tilt under it measured from the still dice (:func:`vision.fenn.measure_tilt`). Returns ``(board,
    found)``."""
    try:
        board, found = find_board(start), True
    except BoardError:
        board, found = touch(), False
    return measure_tilt(start, board), found


def _touched_corners(corners, size, rng=_FINGER):
    """The board touched at the middles of fields 1 and 9, from its true ``corners``."""
    c = np.float64(corners)
    H = cv2.getPerspectiveTransform(np.float32([[0, 0], [9, 0], [9, 1], [0, 1]]), np.float32(c))
    a, b = cv2.perspectiveTransform(np.float32([[[0.5, 0.5], [8.5, 0.5]]]), H)[0]
    return BoardArea.from_ends(a + [rng.uniform(-6, 6), rng.uniform(-6, 6)],
                               b + [rng.uniform(-6, 6), rng.uniform(-6, 6)], size)


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


def _oriented(found: BoardArea, truth) -> BoardArea:
    """``found`` turned end for end when its field 1 lies at the truth's field 9 (the direction the
    start position's dice give; a frame in mid-game does not show it)."""
    c, t = np.float64(found.corners), np.float64(truth)
    if np.hypot(*(c[0] - t[0])) + np.hypot(*(c[3] - t[3])) > np.hypot(*(c[1] - t[0])) + np.hypot(*(c[2] - t[3])):
        c = c[[1, 0, 3, 2]]
        u, v = c[1] - c[0], c[3] - c[0]
        if u[0] * v[1] - u[1] * v[0] < 0:
            c = c[[3, 2, 1, 0]]
    return replace(found, corners=tuple(map(tuple, c)))


class Tally:
    """The figures of one way of reading (board found or calibrated)."""

    def __init__(self):
        self.n = self.still = self.exact = self.sure = self.wrong = self.sure_still = self.trouble_sure = 0
        self.strays = self.strays_seen = 0
        self.ms, self.work = [], []
        self.off: list[float] = []  # still blue and red: the foot read along the board less the truth, fields

    def add(self, r, want, still: bool, strays: int, work_ms: float, along: dict | None = None):
        """One read: ``want`` the true ``(colour, value, field)``s; ``along`` the true place along the board
        of blue's and red's foot (fields, the renders' labels), where known."""
        got = [(d.colour, d.value, d.field) for d in r.dice]
        if still and along:
            self.off += [d.at[0] - along[d.colour] for d in r.dice if d.colour in along and d.at is not None]
        self.n += 1
        self.sure += r.sure
        self.ms.append(r.ms)
        self.work.append(work_ms)
        self.strays += strays
        self.strays_seen += min(strays, len(r.strays))
        if still:
            self.still += 1
            self.exact += got == want
            self.wrong += r.sure and got != want
            self.sure_still += r.sure
        else:
            self.trouble_sure += r.sure
            self.wrong += r.sure

    def row(self, name: str) -> str:
        m, w = statistics.median(self.ms), statistics.median(self.work)
        return (f"| {name} | {self.n} | {self.exact / max(self.still, 1):.3f} ({self.exact} of {self.still}) | "
                f"{self.sure / max(self.n, 1):.3f} | {self.wrong} | {self.sure_still / max(self.still, 1):.3f} | "
                f"{self.trouble_sure} of {self.n - self.still} | {self.strays_seen} of {self.strays} | "
                f"{m:.1f} | {m / w:.1f}× |")

    def place(self, name: str) -> str:
        """How far from the truth the reader puts blue's and red's foot along the board (still scenes)."""
        if not self.off:
            return ""
        a = np.abs(self.off)
        return (f"| {name} | {len(a)} | {np.median(a):.3f} | {np.percentile(a, 90):.3f} | {a.max():.3f} | "
                f"{np.mean(self.off):+.3f} |")


PLACE_HEADER = ("| board | blue and red dice | median error (fields) | 9 in 10 within | largest | mean (toward field 9 +) |"
                "\n|---|---|---|---|---|---|")

HEADER = ("| board | scenes | read exactly | sure | sure but wrong | sure on still | hand/lifted sure | "
          "strays reported | median ms | × workload |\n|---|---|---|---|---|---|---|---|---|---|")


def _say(scene: str, way: str, r, want, still: bool) -> None:
    """One scene's line (``--verbose``): still or not, exact or what was read, sure or why it asks."""
    got = [(d.colour, d.value, d.field) for d in r.dice]
    print(f"{scene} {way}: {'still' if still else 'hand/lifted'}, "
          f"{'exact' if got == want else f'read {got}, truth {want}'}, "
          f"{'sure' if r.sure else 'asks: ' + ' '.join(str(x) for x in r.reasons)}")


def _timed_workload(frame) -> float:
    t0 = time.perf_counter()
    workload(frame)
    return (time.perf_counter() - t0) * 1000


#: Added to a mock scene's number for the seed of its start frame (the set-up calibrated on).
START_SEED = 100_000


def mock_scenes(n: int, verbose: bool = False) -> None:
    cv2.setNumThreads(1)
    rng = random.Random(7)
    reader = Reader(dice=MIWIN)  # the one pipeline, with Miwin's dice set
    found, calibrated, not_found = Tally(), Tally(), 0
    for i in range(n):
        scene = FennScene(seed=10_000 + i)
        # the players set up (F2) and calibrate; where no board is found they touch fields 1 and 9. The
        # start frame has a seed of its own: its black die lies elsewhere than in the scene's frame (it is
        # thrown each turn), so calibration has not measured the table where the die later lies.
        board, was_found = calibrate(scene.frame(blue=(1, 5), red=(9, 5), black=6, seed=START_SEED + i,
                                                 stray=False)[0], lambda scene=scene: touched(scene))
        not_found += not was_found
        true_board = BoardArea(tuple(scene.board_corners()), scene.size)
        blue, red, black = random_position(rng)
        trouble = "hand" if i % 10 == 3 else "lifted" if i % 10 == 7 else None
        colour = rng.choice(("blue", "red"))
        frame, truth = scene.frame(blue=blue, red=red, black=black, seed=i, hand=colour if trouble == "hand" else None,
                                   lifted=colour if trouble == "lifted" else None)
        want = [(d["colour"], d["value"], d["field"]) for d in truth if d["colour"] != "stray"]
        strays = sum(d["colour"] == "stray" for d in truth)
        w = _timed_workload(frame)
        for name, tally, b in (("found", found, board), ("calibrated", calibrated, true_board)):
            r = reader.read_board(frame, b)
            tally.add(r, want, trouble is None, strays, w)
            if verbose:
                _say(f"mock {10_000 + i} ({trouble or 'still'})", name, r, want, trouble is None)
    print(f"mock family (tuned on): {n} scenes; the board found by calibration on the start position in "
          f"{n - not_found}, touched at its two ends in {not_found}")
    print(HEADER)
    print(found.row("found"))
    print(calibrated.row("calibrated"))


def _render_dir(kind: str) -> str:
    from benchmarks.blender_scenes import DEFAULT_OUT  # the renders' cache, named once

    return os.path.join(DEFAULT_OUT, kind)


def _want(label) -> list:
    dice = sorted(label["dice"], key=lambda d: ("blue", "red").index(d["colour"]))
    out = [(d["colour"], d["value"], d["field"]) for d in dice]
    if label.get("black"):
        out.append(("black", label["black"]["value"], None))
    return out


def render_scenes(folder: str, verbose: bool = False) -> None:
    from vision.reader import load_image

    cv2.setNumThreads(1)
    with open(os.path.join(folder, "labels.json"), encoding="utf-8") as f:
        labels = json.load(f)
    readers = {name: Reader(dice=DICE_SETS[name]) for name in ("miwin", "wikipedia")}  # the game's dice option
    starts = _starts(folder)
    found, at_start, calibrated, not_found, start_not_found = Tally(), Tally(), Tally(), 0, 0
    for label in labels:
        reader = readers[label.get("dice_set", "miwin")]
        frame = load_image(os.path.join(folder, label["image"]))
        size = (frame.shape[1], frame.shape[0])
        try:
            board = _oriented(find_board(frame), label["board_corners"])
        except BoardError:
            not_found += 1
            board = _touched_corners(label["board_corners"], size)
        true_board = BoardArea(tuple(map(tuple, label["board_corners"])), size)
        ways = [("found", found, board), ("calibrated", calibrated, true_board)]
        if label["seed"] in starts:  # the players set up for the start on this table and calibrate (F2)
            b, was_found = calibrate(load_image(starts[label["seed"]]),
                                     lambda c=label["board_corners"], size=size: _touched_corners(c, size))
            start_not_found += not was_found
            ways.append(("found at the start", at_start, b))
        still = bool(label.get("still", True))
        w = _timed_workload(frame)
        for name, tally, b in ways:
            r = reader.read_board(frame, b)
            tally.add(r, _want(label), still, len(label.get("stray") or []), w,
                      {d["colour"]: d["along"] for d in label["dice"] if "along" in d})
            if verbose:
                _say(label["image"], name, r, _want(label), still)
    print(f"Blender family (0-199 looked at, 200 and up never): {len(labels)} scenes from {folder}; the board found in "
          f"{len(labels) - not_found}, touched at its two ends in {not_found}")
    if at_start.n:
        print(f"  found at the start: {at_start.n} scenes with their start position rendered (the board found on it "
              f"in {at_start.n - start_not_found}, touched in {start_not_found}; the table's tilt measured there)")
    print(HEADER)
    print(found.row("found"))
    if at_start.n:
        print(at_start.row("found at the start"))
    print(calibrated.row("calibrated"))
    places = [t.place(name) for name, t in (("found", found), ("found at the start", at_start),
                                              ("calibrated", calibrated))]
    if any(places):
        print("\nWhere the foot of blue and red is read along the board, against the labels' `along` (still scenes):")
        print(PLACE_HEADER)
        print("\n".join(p for p in places if p))


def _starts(folder: str) -> dict:
    """The start positions rendered on the scenes' set-ups (``--kind fenn-start``, in ``fenn-start`` beside
    ``folder``, named ``fenn-start-<scene seed>.jpg``): ``{scene seed: image path}``."""
    where = os.path.join(os.path.dirname(os.path.abspath(folder).rstrip("/")), "fenn-start")
    try:
        with open(os.path.join(where, "labels.json"), encoding="utf-8") as f:
            labels = json.load(f)
    except OSError:
        return {}
    return {int(lab["image"][len("fenn-start-"):-len(".jpg")]): os.path.join(where, lab["image"]) for lab in labels}


def referee(frames, board, options: dict | None = None, log=None) -> tuple:
    """Referee one game through the session as the app does. ``frames``: ``(frame or None, event)`` in
    play order (a pass is tapped, no frame); ``options``: the game's settings (e.g. ``{"dice":
    "wikipedia"}``); ``log``: called with ``(index, event, outcome)`` per frame read. Returns ``(right end,
    taken, asked, wrong, read)``."""
    from companion.session import ASKED, SCORED, GameSession
    from companion.storage import Store

    taken = asked = wrong = turns = 0
    with tempfile.TemporaryDirectory() as tmp:
        s = GameSession(Store(tmp), board=board)
        s.start(["Anna", "Ben"], first=0, game="fenn", options=options)
        ref = Fenn(["Anna", "Ben"], **(options or {}))
        for frame, e in frames:
            ref.apply(e)
            if isinstance(e, Pass) or frame is None:
                s.apply(e)  # a pass is tapped on the screen
                continue
            before = s.game.to_dict()
            turns += 1
            got = s.take(s.read(frame), frame)
            if log:
                log(turns, e, got)
            if got == SCORED:
                taken += 1
                if s.game.to_dict() != ref.to_dict():
                    wrong += 1
                    s.undo()  # the players see the wrong turn on the screen and take it back
                    s.apply(e)
            elif got == ASKED:
                asked += 1
                s.apply(e)  # the players confirm the turn on the screen
            else:
                assert s.game.to_dict() == before
                s.apply(e)
        right = s.game.to_dict() == ref.to_dict() and s.game.is_over == ref.is_over
        s.store.close()
    return right, taken, asked, wrong, turns


def mock_games(n: int) -> None:
    rng = random.Random(11)
    right = taken = asked = wrong = turns = 0
    for k in range(n):
        scene = FennScene(seed=20_000 + k)
        board, _found = calibrate(scene.frame(blue=(1, 5), red=(9, 5), black=6, seed=k, stray=False)[0],
                                  lambda scene=scene: touched(scene))
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
        g = Fenn(["Anna", "Ben"])
        frames = []
        for i, e in enumerate(events):
            g.apply(e)
            if isinstance(e, Pass):
                frames.append((None, e))
                continue
            p = g.position()
            black = e.value if isinstance(e, BlackThrow) else p.black
            frames.append((scene.frame(blue=p.dice[0], red=p.dice[1], black=black, seed=i)[0], e))
        got = referee(frames, board)
        right += got[0]
        taken, asked, wrong, turns = taken + got[1], asked + got[2], wrong + got[3], turns + got[4]
    print(f"mock games: {n} random legal games refereed from rendered frames: {right} to the right end; "
          f"{turns} turns and start throws read: {taken} taken at once, {asked} asked, {wrong} taken wrongly")


def render_game(folder: str, verbose: bool = False) -> None:
    from vision.reader import load_image

    with open(os.path.join(folder, "labels.json"), encoding="utf-8") as f:
        labels = json.load(f)
    options = {}
    script = os.path.join(folder, "game.jsonl")
    if os.path.exists(script):  # the replay script's first line: players and the game's settings
        with open(script, encoding="utf-8") as f:
            options = json.loads(f.readline()).get("options") or {}
    frames = []
    for label in labels:
        ev = label["event"]
        if "black" in ev:
            e = BlackThrow(int(ev["black"]))
        elif ev.get("turn") == "pass":
            e = Pass()
        else:
            t = ev["turn"]
            e = Turn(int(t["field"]), int(t["top"]), int(t["black"]))
        frames.append((load_image(os.path.join(folder, label["image"])), e))
    first = next(f for f, _e in frames if f is not None)
    size = (first.shape[1], first.shape[0])
    # calibrated on the first frame (the start position), as the players do; touched the same each run
    board, was_found = calibrate(first, lambda: _touched_corners(labels[0]["board_corners"], size, random.Random(38)))
    how = "found on the first frame" if was_found else "touched at its ends"
    log = (lambda i, e, got: print(f"  frame {i}: {e} -> {got}")) if verbose else None
    right, taken, asked, wrong, turns = referee(frames, board, options, log)
    print(f"Blender game {os.path.basename(folder.rstrip('/'))}: {len(frames)} frames, the board {how}; "
          f"refereed to the right end: {right}; {turns} read: {taken} taken at once, {asked} asked, "
          f"{wrong} taken wrongly")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", choices=("mock", "renders"), default="mock")
    ap.add_argument("--dir", help="renders: the folder of Fenn scenes with labels.json")
    ap.add_argument("--game-dir", help="renders: a game folder (fenn-game-<seed>)")
    ap.add_argument("--scenes", type=int, default=200)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--verbose", action="store_true", help="a line per scene and way (exact, sure, reasons)")
    args = ap.parse_args()
    if args.family == "mock":
        if args.scenes:
            mock_scenes(args.scenes, args.verbose)
        if args.games:
            mock_games(args.games)
        return 0
    folder = args.dir or _render_dir("fenn")
    if not os.path.exists(os.path.join(folder, "labels.json")):
        print(f"no renders in {folder} (benchmarks/blender_scenes.py makes them)", file=sys.stderr)
        return 2
    render_scenes(folder, args.verbose)
    game = args.game_dir or _render_dir("fenn-game-1")
    if os.path.exists(os.path.join(game, "labels.json")):
        render_game(game, args.verbose)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
