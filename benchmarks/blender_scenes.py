"""The photo-realistic family: Fenn scenes and Durchmarsch trays rendered by
Blender (Cycles on the CPU), for measuring the reader on scenes it was never
tuned on (issue 38). Format and folders: docs/renders.md.

    nice -n 15 .venv/bin/python benchmarks/blender_scenes.py --kind fenn --count 20
    nice -n 15 .venv/bin/python benchmarks/blender_scenes.py --kind trays --count 20 --start 0
    nice -n 15 .venv/bin/python benchmarks/blender_scenes.py --kind game --start 1

Seeded: scene ``seed`` is the same image every time (up to Cycles' noise). The
images are cached outside git in ``$DICE_RENDERS`` (default
``~/.cache/dice-companion/renders``), one folder per kind with a ``labels.json``;
images already there are skipped (a run resumes). This script needs Blender
(``apt-get install blender python3-numpy``: Debian 12 has 3.4, whose Python takes NumPy from Debian's
``python3-numpy``) and installs nothing itself.
The Fenn positions are those of random legal games (:mod:`companion.fenn`);
Blender builds and renders each scene in ``blender_scene_bpy.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from companion.fenn import BLACK_FACES, DICE, BlackThrow, Fenn, Pass, Turn  # noqa: E402
from vision.diceset import MIWIN_LAYOUT, MIWIN_LAYOUT_ALT, PIP_LAYOUT  # noqa: E402

BPY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "blender_scene_bpy.py")
DEFAULT_OUT = os.environ.get("DICE_RENDERS", os.path.expanduser("~/.cache/dice-companion/renders"))

#: A third layout of 7, 8 and 9 (neither the mock camera's nor its second): 7 a hexagon round the centre,
#: 8 a ring of eight, 9 a 3×3 grid turned 45°; units of a quarter side as in vision.diceset.
THIRD_LAYOUT = {
    **PIP_LAYOUT,
    7: [(0, 0)] + [(round(1.2 * c, 3), round(1.2 * s, 3)) for c, s in
                   ((1, 0), (0.5, 0.866), (-0.5, 0.866), (-1, 0), (-0.5, -0.866), (0.5, -0.866))],
    8: [(round(1.2 * c, 3), round(1.2 * s, 3)) for c, s in
        ((1, 0), (0.707, 0.707), (0, 1), (-0.707, 0.707), (-1, 0), (-0.707, -0.707), (0, -1), (0.707, -0.707))],
    9: [(round(0.8 * (i - j) * 0.707 * 1.4, 3), round(0.8 * (i + j) * 0.707 * 1.4, 3))
        for i in (-1, 0, 1) for j in (-1, 0, 1)],
}
LAYOUTS = {"fenn": MIWIN_LAYOUT, "alt": MIWIN_LAYOUT_ALT, "third": THIRD_LAYOUT}
#: Opposite faces of Miwin's dice III, IV, V (the table in ../shared/rules/fenn.md) and of a d6.
OPPOSITE = {
    (1, 2, 5, 6, 7, 9): {1: 9, 9: 1, 2: 7, 7: 2, 5: 6, 6: 5},
    (1, 3, 4, 5, 8, 9): {1: 9, 9: 1, 3: 8, 8: 3, 4: 5, 5: 4},
    (2, 3, 4, 6, 7, 8): {2: 7, 7: 2, 3: 8, 8: 3, 4: 6, 6: 4},
}


def _pips(layout: dict) -> dict:
    return {str(v): [[float(x), float(y)] for x, y in pts] for v, pts in layout.items()}


def random_game(rng: random.Random, dice: str, max_turns: int, towards_goal: float = 3.0):
    """A random legal Fenn game: a list of ``(event_json, position)`` with position ``{"blue": [field, top],
    "red": [...], "black": n}`` after each event (start throws, then whole turns or passes), and the game.
    A turn end that brings the mover nearer its goal is ``1 + towards_goal`` times as likely as another."""
    g = Fenn(["Blue", "Red"], dice=dice)
    out = []
    while g.to_dict()["black"] is None:
        v = rng.choice(BLACK_FACES)
        g.apply(BlackThrow(v))
        out.append(({"black": v}, _position(g, black=v)))
    for _ in range(max_turns):
        if g.is_over:
            break
        ends = sorted(g.turn_ends())
        if not ends:
            g.apply(Pass())
            out.append(({"turn": "pass"}, _position(g)))
            continue
        mover = g.to_dict()["to_move"]
        goal = 9 if mover == "Blue" else 1
        weights = [1 + towards_goal * (abs(goal - f) < abs(goal - _position(g)["blue" if mover == "Blue" else "red"][0]))
                   for f, _, _ in ends]
        field, top, black = rng.choices(ends, weights)[0]
        g.apply(Turn(field, top, black))
        out.append(({"turn": {"field": field, "top": top, "black": black}}, _position(g)))
    return out, g


def _position(g: Fenn, black: int | None = None) -> dict:
    d = g.to_dict()
    p = {c["colour"]: [c["field"], c["top"]] for c in d["players"]}
    p["black"] = d["black"] if black is None else black
    return p


def fenn_spec(seed: int) -> dict:
    """One still Fenn scene: a position of a random legal game (15 % the start), the dice set and layout,
    about 15 % with a hand or a lifted die, 25 % with a stray d6."""
    rng = random.Random(f"fenn-spec-{seed}")
    dice = rng.choice(["miwin", "miwin", "wikipedia"])
    if rng.random() < 0.15:
        pos = {"blue": [1, 5], "red": [9, 5], "black": rng.choice(BLACK_FACES)}
    else:
        events, g = random_game(rng, dice, 40, towards_goal=0.5)
        turns = [p for e, p in events if "turn" in e]
        # a turn end of the game, a finished game's last position about as often as any other
        pos = turns[-1] if g.is_over and rng.random() < 1 / len(turns) else rng.choice(turns[:-1] or turns)
    motion, lifted = random.Random(f"fenn-motion-{seed}").random(), rng.choice(["blue", "red"])
    spec = {"kind": "fenn", "seed": seed, "name": f"fenn-{seed:05d}", "dice_set": dice,
            "hand": motion < 0.08, "lifted": lifted if 0.08 <= motion < 0.15 else None,
            "stray": rng.randint(1, 6) if rng.random() < 0.25 else None}
    return _with_dice(spec, pos, rng.choice(list(LAYOUTS)))


def start_spec(seed: int) -> dict:
    """The start position (F2: blue on field 1, red on field 9, each showing 5; the black die showing the
    scene's face) on the set-up of Fenn scene ``seed`` (:func:`fenn_spec`: the same table, board, dice,
    black die's place, clutter, camera and lights), the dice placed on their fields afresh, nothing held:
    the frame the players calibrate on (``benchmarks/fenn_camera.py`` finds the board on it)."""
    scene = fenn_spec(seed)
    spec = dict(scene, setup=seed, seed=100_000 + seed, name=f"fenn-start-{seed:05d}", hand=False, lifted=None)
    return _with_dice(spec, {"blue": [1, 5], "red": [9, 5], "black": scene["black"]}, scene["layout"])


def _with_dice(spec: dict, pos: dict, layout: str) -> dict:
    faces = dict(DICE[spec["dice_set"]], black=BLACK_FACES)
    spec.update(blue=pos["blue"], red=pos["red"], black=pos["black"], layout=layout,
                layout_pips=_pips(LAYOUTS[layout]), d6_pips=_pips(PIP_LAYOUT),
                faces={c: list(v) for c, v in faces.items()},
                opposite={c: {str(k): w for k, w in OPPOSITE[tuple(v)].items()} for c, v in faces.items()})
    return spec


def tray_spec(seed: int) -> dict:
    """One Durchmarsch tray throw: 5-8 dice, 10 % with a hand over the tray."""
    rng = random.Random(f"tray-spec-{seed}")
    return {"kind": "trays", "seed": seed, "name": f"trays-{seed:05d}", "count": rng.randint(5, 8),
            "hand": rng.random() < 0.1, "d6_pips": _pips(PIP_LAYOUT)}


def game_specs(seed: int, frames: tuple[int, int] = (20, 24)) -> tuple[list[dict], list[dict]]:
    """The frames of one whole random legal game that ends within ``frames`` events (the first seed from
    ``seed`` on whose game does), and its replay script lines."""
    for attempt in range(10_000):
        rng = random.Random(f"game-{seed}-{attempt}")
        dice = rng.choice(["miwin", "wikipedia"])
        events, g = random_game(rng, dice, frames[1])
        if g.is_over and frames[0] <= len(events) <= frames[1]:
            break
    else:
        raise RuntimeError(f"no game of {frames} events from seed {seed}")
    layout = random.Random(f"game-{seed}").choice(list(LAYOUTS))
    specs = []
    for i, (event, pos) in enumerate(events):
        spec = {"kind": "fenn", "seed": i, "setup": f"game-{seed}", "name": f"fenn-game-{seed}-{i:05d}",
                "dice_set": dice, "hand": False, "lifted": None, "stray": None, "event": event}
        specs.append(_with_dice(spec, pos, layout))
    script = [{"game": "fenn", "players": ["Blue", "Red"], "options": {"dice": dice}}] + [e for e, _ in events]
    return specs, script


def label_of(spec: dict, truth: dict, size: tuple[int, int], samples: int) -> dict:
    """The labels.json object of a rendered scene (format: /work/RENDER_FORMAT.md, docs/renders.md)."""
    head = {"image": spec["name"] + ".jpg", "seed": spec["seed"], "width": size[0], "height": size[1],
            "samples": samples}
    if spec["kind"] == "trays":
        return {**head, **truth}
    out = {**head, **truth, "dice_set": spec["dice_set"], "layout": spec["layout"]}
    if "event" in spec:
        out["event"] = spec["event"]
    return out


def render(specs: list[dict], folder: str, samples: int, size: tuple[int, int], quality: int, log=print) -> int:
    """Render the ``specs`` not yet in ``folder`` (one Blender run each), adding each to its labels.json
    as it is done. Returns how many were rendered. A scene Blender fails on is logged and left out; raises
    RuntimeError when the first four all fail, or at once when Blender's Python has no NumPy."""
    import cv2
    os.makedirs(folder, exist_ok=True)
    labels_path = os.path.join(folder, "labels.json")
    labels = json.load(open(labels_path)) if os.path.exists(labels_path) else []
    have = {lab["image"] for lab in labels if os.path.exists(os.path.join(folder, lab["image"]))}
    todo = [s for s in specs if s["name"] + ".jpg" not in have]
    order = {s["name"] + ".jpg": i for i, s in enumerate(specs)}
    done = failed = 0
    with tempfile.TemporaryDirectory(prefix="blender-scenes-") as tmp:
        for spec in todo:
            t0 = time.time()
            spec_path = os.path.join(tmp, "spec.json")
            json.dump([spec], open(spec_path, "w"))
            cmd = ["blender", "-b", "--factory-startup", "-noaudio", "-P", BPY, "--", spec_path, tmp, str(samples),
                   str(size[0]), str(size[1])]
            run = subprocess.run(cmd, capture_output=True, text=True)
            png = os.path.join(tmp, spec["name"] + ".png")
            if run.returncode != 0 or not os.path.exists(png):
                log(f"Blender failed on {spec['name']} (left out, the others go on):\n{run.stdout[-3000:]}\n"
                    f"{run.stderr[-3000:]}")
                failed += 1
                if "No module named 'numpy'" in run.stdout + run.stderr:
                    raise RuntimeError("Blender's Python has no NumPy: install it with `apt-get install python3-numpy`")
                if failed > 3 and not done:
                    raise RuntimeError("Blender failed on the first scenes; see the messages above")
                continue
            truth = json.load(open(os.path.join(tmp, spec["name"] + ".json")))
            img = cv2.imread(png)
            cv2.imwrite(os.path.join(folder, spec["name"] + ".jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, quality])
            labels = [lab for lab in labels if lab["image"] != spec["name"] + ".jpg"] + [label_of(spec, truth, size, samples)]
            labels.sort(key=lambda lab: (order.get(lab["image"], 1 << 30), lab["image"]))
            with open(labels_path + ".tmp", "w") as f:
                json.dump(labels, f, indent=1)
            os.replace(labels_path + ".tmp", labels_path)
            done += 1
            log(f"{spec['name']}: {time.time() - t0:.0f} s")
    return done


def copy_fixtures(folder: str, names: list[str], dest: str, quality: int = 90, most: int = 400_000) -> None:
    """Copy the images ``names`` (e.g. ``fenn-00004``) of a rendered ``folder`` into ``dest`` (created) as JPEG
    of ``quality`` (lowered by 5 at a time while the file is over ``most`` bytes: a cloth's pattern and Cycles'
    grain cost bytes) and their labels added to ``dest``'s labels.json (the fixtures there kept; one of the same
    name replaced). Raises KeyError for an unknown name."""
    import cv2
    labels = {lab["image"]: lab for lab in json.load(open(os.path.join(folder, "labels.json")))}
    os.makedirs(dest, exist_ok=True)
    index = os.path.join(dest, "labels.json")
    kept = json.load(open(index)) if os.path.exists(index) else []
    out = [lab for lab in kept if lab["image"] not in {n + ".jpg" for n in names}]
    for name in names:
        lab = labels[name + ".jpg"]
        img = cv2.imread(os.path.join(folder, lab["image"]))
        q = quality
        while True:
            ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
            if len(data) <= most or q <= 50:
                break
            q -= 5
        with open(os.path.join(dest, lab["image"]), "wb") as f:
            f.write(data.tobytes())
        out.append(lab)
    with open(index, "w") as f:
        json.dump(out, f, indent=1)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kind", choices=["fenn", "fenn-start", "trays", "game"], required=True,
                    help="fenn-start: the start position on each Fenn scene's set-up, to calibrate on")
    ap.add_argument("--count", type=int, default=20, help="scenes to render (fenn, trays)")
    ap.add_argument("--start", type=int, default=0, help="first seed (game: the game's seed)")
    ap.add_argument("--out", default=DEFAULT_OUT, help=f"cache folder (default {DEFAULT_OUT}, env DICE_RENDERS)")
    ap.add_argument("--samples", type=int, default=16, help="Cycles samples per pixel (adaptive)")
    ap.add_argument("--size", default="1640x1232", help="WxH pixels (the Pi camera's 1640x1232)")
    ap.add_argument("--quality", type=int, default=95, help="JPEG quality")
    ap.add_argument("--fixtures", metavar="DEST", help="no rendering: copy the rendered --pick images of --kind "
                    "from --out into DEST/<kind>/ (JPEG quality 90) with their labels")
    ap.add_argument("--pick", default="", help="for --fixtures: image names, comma-separated (fenn-00004,...)")
    args = ap.parse_args(argv)
    if args.fixtures:
        copy_fixtures(os.path.join(args.out, args.kind), [n for n in args.pick.split(",") if n],
                      os.path.join(args.fixtures, args.kind))
        return 0
    if shutil.which("blender") is None:
        print("Blender is not installed: install it with `apt-get install blender python3-numpy` (Debian 12: "
              "Blender 3.4).",
              file=sys.stderr)
        return 2
    size = tuple(int(v) for v in args.size.lower().split("x"))
    if args.kind == "game":
        specs, script = game_specs(args.start)
        folder = os.path.join(args.out, f"fenn-game-{args.start}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "game.jsonl"), "w") as f:
            f.writelines(json.dumps(line) + "\n" for line in script)
    else:
        make = {"fenn": fenn_spec, "fenn-start": start_spec, "trays": tray_spec}[args.kind]
        specs = [make(s) for s in range(args.start, args.start + args.count)]
        folder = os.path.join(args.out, args.kind)
    t0 = time.time()
    try:
        n = render(specs, folder, args.samples, size, args.quality)
    except RuntimeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{n} rendered into {folder} in {time.time() - t0:.0f} s ({len(specs) - n} already there)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
