"""Start the app on each damaged data folder of issue 39 and keep what it says.

For every damage in ``tests/storage_damage.py`` (a zeroed page, cells that are
not what they should be, a games table of another layout, a looping link as
the database, a damaged ``-wal``, a file that is not a database) and a
database locked by another program for 3 s, the real app is started
offscreen (mock camera, gpiozero's MockFactory) in a child process; after a
second its window is saved as ``OUTDIR/<damage>.png`` and the texts it shows
are printed, with whether it started at all.

    .venv/bin/python benchmarks/damaged_storage.py [--lang de] [--size 1280x720] [--only "zeroed page"] OUTDIR

Prints one line per damage: ``started`` (the app built its screens and was
stopped by the script) and the notice or dialog shown.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))


def child(data: str, png: str, lang: str, size: tuple[int, int]) -> None:
    """Run the app on ``data``; save the window after a second; print what it shows as JSON."""
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_HOME", os.path.join(os.path.dirname(png), ".kivy"))
    from gpiozero.pins.mock import MockFactory

    from companion.config import DEFAULTS
    from ui.app import run_app
    from ui.snapshot import drive, shot

    cfg = json.loads(json.dumps(DEFAULTS))
    cfg["app"]["data_dir"], cfg["app"]["language"] = data, lang
    cfg["camera"] = {"source": "mock", "seed": 7}
    cfg["_pin_factory"] = MockFactory()
    report: dict = {}

    def steps(app, window):
        yield 1.2
        shot(window, os.path.dirname(png), os.path.basename(png)[:-4], report)
        report["started"] = True

    def driver(app):
        from kivy.core.window import Window

        drive(app, steps(app, Window), report)

    run_app(cfg, driver=driver, size=size)
    print(json.dumps(report))


def locked(root: str) -> str:
    """A data folder whose database another program holds locked for 3 s."""
    from storage_damage import make_games

    make_games(root, n=3)
    db = sqlite3.connect(os.path.join(root, "companion.db"), isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("BEGIN EXCLUSIVE")
    threading.Timer(3.0, lambda: (db.execute("COMMIT"), db.close())).start()
    return root


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", nargs="?", default="")
    ap.add_argument("--lang", default="en", choices=("de", "en", "fr", "it"))
    ap.add_argument("--size", default="800x480", help="window size WIDTHxHEIGHT in px")
    ap.add_argument("--only", action="append", help="only this damage (repeatable)")
    ap.add_argument("--child", nargs=2, metavar=("DATA", "PNG"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.lang, tuple(int(v) for v in args.size.split("x")))
        return 0
    from storage_damage import DAMAGES, damaged

    os.makedirs(args.outdir, exist_ok=True)
    cases = [c for c in list(DAMAGES) + ["locked for 3 s"] if not args.only or c in args.only]
    started = 0
    for name in cases:
        slug = name.replace(" ", "-").replace("/", "")
        data = os.path.join(tempfile.mkdtemp(prefix="companion-damaged-"), "data")
        if name in DAMAGES:
            damaged(data, name)
        else:
            locked(data)
        png = os.path.join(os.path.abspath(args.outdir), f"{args.lang}-{args.size}-{slug}.png")
        t0 = time.monotonic()
        p = subprocess.run([sys.executable, __file__, "--lang", args.lang, "--size", args.size, "--child", data, png],
                           capture_output=True, text=True, timeout=300, env=dict(os.environ, PYTHONPATH=ROOT))
        lines = [line for line in p.stdout.splitlines() if line.startswith("{")]
        report = json.loads(lines[-1]) if lines else {}
        ok = p.returncode == 0 and report.get("started")
        started += bool(ok)
        said = [t for t in report.get("texts", {}).values()]
        words = ("damaged", "beschädigt", "endommag", "danneggiat", "cannot be read", "nicht lesbar", "illisible",
                 "illeggibil", "unfinished", "nicht beendet", "non termin", "non finit", "in corso")
        notice = next((t for t in (said[0] if said else []) if any(w in t.casefold() for w in words)), "")
        kept = sorted(n for n in os.listdir(data) if ".damaged-" in n or n.endswith(".at-start"))
        print(f"{name:32s} {'started' if ok else 'DID NOT START'} in {time.monotonic() - t0:4.1f} s; "
              f"kept: {', '.join(kept) or '-'}; says: {notice or '(the start screen)'}", flush=True)
        if not ok:
            print(p.stderr[-2000:])
    print(f"the app started on {started} of {len(cases)} damaged data folders")
    return 0 if started == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
