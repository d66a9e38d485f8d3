"""Golden outputs that guard a refactor: reads, replays and screens recorded once, compared after.

Usage (from the project root)::

    .venv/bin/python tests/golden/golden.py record [fixtures|shared|mock|fenn|replay|screens|all]
    .venv/bin/python tests/golden/golden.py check  [fixtures|shared|mock|fenn|replay|screens|all]

- ``fixtures``: the vendored photos (``tests/fixtures/photos``), read as
  ``companion read --json`` reads them (no count, no tray).
- ``shared``: every photo of ``../shared/photos`` read the same way (slow: a
  few minutes on two cores; the test suite checks it only when asked with
  ``-m slow``).
- ``mock``: 200 mock trays (``benchmarks/mock_trays.py``'s seeds 0-199),
  calibrated and read with the dice count, as a game reads them.
- ``screens``: the texts each screen of ``companion snapshot`` shows, in every
  language at 800×480 (the live picture's pixels vary from run to run, and so
  does the order the mock camera lays the dice in: runs of die values are
  shown as ``#``, and which two dice formed a target is not compared).
- ``replay``: the replay scripts in ``tests/golden/scripts``, played as
  ``companion replay --json`` plays them (Durchmarsch and Fenn).
- ``fenn``: 60 mock Fenn scenes (``hardware/fenn_scene.py``'s widened family,
  seeds 0-59, the dice at positions of random legal games), the board found on
  the start position of the same set-up (or touched at its ends), read as the
  session reads them (with the stray dice reported).

A read is kept as its values (left to right), whether it is sure, and its
reasons as codes (:class:`vision.reasons.Reason` values). A Durchmarsch read's
values are compared as a multiset: which of two dice about one column of the
frame comes first is no behaviour, and it moves with the machine (the same
OpenCV and NumPy on a CPU without AVX-512 put four of the 200 mock trays' dice
in another order, their values, sureness and reasons the same). A change of any
golden output is a deliberate change: record it in its own commit with its
measured effect.
"""

from __future__ import annotations

import glob
import json
import os
import sys
from multiprocessing import get_context

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

FIXTURES = os.path.join(ROOT, "tests", "fixtures", "photos")
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "photos"))
SCRIPTS = os.path.join(HERE, "scripts")
MOCK_TRAYS = 200


def reason_codes(reasons) -> list[str]:
    """The reasons of a read as codes: an enum's value, or a code for a sentence."""
    out = []
    for r in reasons:
        out.append(r.value if hasattr(r, "value") else _code(str(r)))
    return out


_SENTENCES = (
    ("doubted by the learned face classifier", "vetoed"),
    ("read again by the learned face classifier", "reread"),
    ("taken for no die by the learned face classifier", "no_die"),
    ("found only by the learned face classifier", "learned_only"),
    ("showed no pips", "no_pips"),
    ("hard to read", "hard_to_read"),
    ("not all of one size", "mixed_sizes"),
    ("something die-sized could not be read", "unexplained"),
    ("something else is in the tray", "foreign"),
    ("were thrown", "wrong_count"),
    ("no dice", "no_dice"),
)


def _code(sentence: str) -> str:
    for part, code in _SENTENCES:
        if part in sentence:
            return code
    raise ValueError(f"no code for reason {sentence!r}")


def _read_file(path: str) -> dict:
    import cv2

    from vision.reader import load_image, read_throw

    cv2.setNumThreads(1)
    r = read_throw(load_image(path))
    return {"values": list(r.values), "sure": r.sure, "reasons": reason_codes(r.reasons)}


def _mock_tray(seed: int) -> dict | None:
    import cv2
    from mock_trays import tray

    from hardware.render import TrayScene
    from vision.calibrate import CalibrationError, find_tray, measure_dice
    from vision.reader import read_throw

    cv2.setNumThreads(1)
    style, values = tray(seed)
    scene = TrayScene(seed=seed, style=style)
    try:
        calib = scene.frame(scene.place([1, 2, 3, 4, 5, 6], touching=0))  # apart, as set-up asks
        frame = scene.frame(scene.place(values))
    except ValueError:
        return None
    try:
        area = measure_dice(calib, find_tray(calib))
    except CalibrationError:
        return {"id": seed, "calibrated": False}
    r = read_throw(frame, area=area, expect=len(values))
    return {"id": seed, "values": list(r.values), "sure": r.sure, "reasons": reason_codes(r.reasons)}


def _named(path: str, base: str) -> dict:
    return {"id": os.path.relpath(path, base), **_read_file(path)}


def _fixture(path):
    return _named(path, FIXTURES)


def _shared(path):
    return _named(path, SHARED)


def _pool(jobs: int):
    """Worker processes started fresh ("spawn"): a fork of a process that already
    runs threads (OpenCV's, the test suite's) can hang for ever in the child."""
    return get_context("spawn").Pool(jobs)


def outputs(kind: str, jobs: int = 2) -> list[dict]:
    """The current outputs of ``kind`` (fixtures, shared, mock, fenn, replay or screens), in a fixed order."""
    if kind == "fixtures":
        files = sorted(glob.glob(os.path.join(FIXTURES, "*.jpg")))
        return [_fixture(f) for f in files]
    if kind == "shared":
        if not os.path.isdir(SHARED):
            raise FileNotFoundError(f"{SHARED}: the shared photos are not here")
        with open(os.path.join(SHARED, "labels.json"), encoding="utf-8") as f:
            files = [os.path.join(SHARED, e["file"]) for e in json.load(f)]
        with _pool(jobs) as pool:
            return pool.map(_shared, files, chunksize=4)
    if kind == "mock":
        with _pool(jobs) as pool:
            return [r for r in pool.map(_mock_tray, range(MOCK_TRAYS), chunksize=4) if r is not None]
    if kind == "screens":
        return [screen_texts(lang) for lang in ("de", "en", "fr", "it")]
    if kind == "replay":
        return [replay_output(p) for p in sorted(glob.glob(os.path.join(SCRIPTS, "*.jsonl")))]
    if kind == "fenn":
        return [_fenn_scene(seed) for seed in range(FENN_SCENES)]
    raise ValueError(f"unknown golden kind {kind!r}")


FENN_SCENES = 60


def _fenn_scene(seed: int) -> dict:
    """One mock Fenn scene read: the dice (colour, value, field), sure, reasons."""
    import random

    from fenn_camera import calibrate, random_position, touched

    from hardware.fenn_scene import FennScene
    from vision.fenn import read_fenn

    scene = FennScene(seed=seed)
    # calibrated as the players do: the dice set up for the start (F2), the board found or touched
    board, _found = calibrate(scene.frame(blue=(1, 5), red=(9, 5), black=6, seed=seed, stray=False)[0],
                              lambda: touched(scene, random.Random(seed)))
    blue, red, black = random_position(random.Random(seed))
    frame, _ = scene.frame(blue=blue, red=red, black=black, seed=seed, hand="red" if seed % 10 == 3 else None)
    r = read_fenn(frame, board)
    return {"id": seed, "dice": [[d.colour, d.value, d.field] for d in r.dice], "sure": r.sure,
            "reasons": [str(x) for x in r.reasons], "strays": [d.value for d in r.strays]}


def replay_output(path: str) -> dict:
    """``companion replay --json``'s line for the script at ``path``, as a dict."""
    import io
    from contextlib import redirect_stdout

    from companion.cli import main

    buf = io.StringIO()
    with redirect_stdout(buf):
        main(["replay", "--json", path])
    line = json.loads(buf.getvalue().splitlines()[0])
    line["script"] = os.path.basename(path)
    return line


def _normal(text: str) -> str:
    import re

    text = re.sub(r"\d \+ \d", "x + y", text)
    text = re.sub(r"\d{1,2}\.\d{1,2}\. \d{1,2}:\d{2}", "DD.MM. hh:mm", text)  # when a game started
    return re.sub(r"\b\d(?: \d\b)+", "#", text)


def screen_texts(lang: str) -> dict:
    """The visible texts of every screen ``companion snapshot`` saves in ``lang`` at 800×480."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as out:
        p = subprocess.run([sys.executable, "-m", "companion.cli", "snapshot", "--size", "800x480", "--lang", lang, out],
                           capture_output=True, text=True, cwd=ROOT, timeout=300)
    report = json.loads(p.stdout.strip().splitlines()[-1])
    if report.get("error"):
        raise RuntimeError(f"snapshot {lang}: {report['error']}")
    return {"id": lang, "texts": {k: sorted(_normal(t) for t in v) for k, v in report["texts"].items()}}


def golden_path(kind: str) -> str:
    return os.path.join(HERE, f"{kind}.jsonl")


def load(kind: str) -> list[dict]:
    """The recorded golden outputs of ``kind``."""
    with open(golden_path(kind), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def record(kind: str) -> None:
    rows = outputs(kind)
    with open(golden_path(kind), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    print(f"{kind}: {len(rows)} recorded")


def _as_compared(output: dict) -> dict:
    """``output`` as :func:`differences` compares it: a Durchmarsch read's ``values`` (a list of pips)
    sorted, so that only the order of dice across the frame may differ."""
    values = output.get("values")
    if isinstance(values, list) and all(isinstance(v, int) for v in values):
        return {**output, "values": sorted(values)}
    return output


def differences(kind: str) -> list[str]:
    """Lines naming every output of ``kind`` that differs from its golden one."""
    want = load(kind)
    got = outputs(kind)
    out = []
    if len(want) != len(got):
        out.append(f"{kind}: {len(got)} outputs, golden has {len(want)}")
    for w, g in zip(want, got):
        g = json.loads(json.dumps(g, sort_keys=True))
        if _as_compared(w) != _as_compared(g):
            out.append(f"{kind}: {w.get('id', w.get('script'))}: golden {w}, now {g}")
    return out


KINDS = ("fixtures", "fenn", "mock", "replay", "screens", "shared")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in ("record", "check"):
        print(__doc__)
        return 2
    kinds = KINDS if len(argv) < 2 or argv[1] == "all" else (argv[1],)
    bad = 0
    for kind in kinds:
        if argv[0] == "record":
            record(kind)
        else:
            diff = differences(kind)
            print("\n".join(diff) if diff else f"{kind}: all as golden")
            bad += len(diff)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
