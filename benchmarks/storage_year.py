"""What storage a year at a café comes to, with the default bounds.

Usage: python benchmarks/storage_year.py [--games N] [--seed S]

Plays N whole demo games (random legal throws and decisions) through a
:class:`companion.session.GameSession` with the throw recorder, each throw
with a mock-camera frame at 1640×1232 (``hardware.camera.MockCamera``), as the
app keeps them: the throw's frame in the store and in the recorded test set
(JPEG, quality 92), one database row per event. Prints the bytes per throw
and per event, and what a year of 300 throws a day comes to with the default
bounds (``app.keep_frame_games``, ``app.keep_recorded``) and without them.
"""

import argparse
import os
import random
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

THROWS_A_DAY = 300


def folder_bytes(path: str) -> int:
    total = 0
    for folder, _, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(folder, f)) for f in files)
    return total


def main(argv=None) -> int:
    from companion.config import DEFAULTS
    from companion.recording import ThrowRecorder
    from companion.session import GameSession
    from companion.storage import Store
    from hardware.camera import MockCamera

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    cam = MockCamera(seed=args.seed)
    throws = events = 0
    with tempfile.TemporaryDirectory() as data:
        store = Store(data)
        s = GameSession(store, recorder=ThrowRecorder(os.path.join(data, "recorded")))
        for g in range(args.games):
            s.start([f"A{g}", f"B{g}", f"C{g}"], first=0)
            while not s.game.is_over:
                if s.game.decision_due:
                    s.decide("continue" if rng.random() < 0.55 else "stop")
                else:
                    values = [rng.randint(1, 6) for _ in range(s.game.dice_to_throw)]
                    cam.throw(values)
                    s.throw(values, frame=cam.read())
                    throws += 1
                events += 1
        store.close()
        frames = folder_bytes(os.path.join(data, "frames"))
        recorded = folder_bytes(os.path.join(data, "recorded"))
        db = sum(os.path.getsize(os.path.join(data, f)) for f in os.listdir(data) if f.startswith("companion.db"))
    per_game = throws / args.games
    frame_b, rec_b, db_event = frames / throws, recorded / throws, db / events
    year_throws = THROWS_A_DAY * 365
    year_events = year_throws * events / throws
    keep_games, keep_rec = DEFAULTS["app"]["keep_frame_games"], DEFAULTS["app"]["keep_recorded"]
    bounded = keep_games * per_game * frame_b + keep_rec * rec_b + year_events * db_event
    unbounded = year_throws * (frame_b + rec_b) + year_events * db_event
    mb = 1e6
    print(f"{args.games} games, {throws} throws ({per_game:.0f} a game), {events} events, frames 1640x1232")
    print()
    print("| figure | value |")
    print("|---|---|")
    print(f"| stored frame (JPEG q92) | {frame_b / 1e3:.0f} kB a throw |")
    print(f"| recorded frame (test set) | {rec_b / 1e3:.0f} kB a throw |")
    print(f"| database | {db_event:.0f} B an event |")
    print(f"| a year of {THROWS_A_DAY} throws a day, defaults (pictures of {keep_games} games, "
          f"{keep_rec} recorded throws) | {bounded / mb:.0f} MB ({year_events * db_event / mb:.0f} MB of it the database) |")
    print(f"| the same without bounds | {unbounded / mb:.0f} MB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
