"""The ``companion`` command.

::

    companion                         start the touchscreen app (same as: companion kiosk)
    companion kiosk [--config F]      start the touchscreen app
    companion read [--json] [--expect N] [--area F | --find-tray] [--annotate DIR] [--classical] IMAGE...
    companion replay [--json] SCRIPT.jsonl...
    companion games [--json] [--config F]
    companion export [--config F] ID > game.jsonl
    companion stats [--game fenn] [--json] [--config F]
    companion fenn solve [--json] [--config F]
    companion read --game fenn [--board BOARD.json | --find-board] [--dice miwin|wikipedia] [--json] IMAGE...
    companion calibrate --game fenn [--config F] [--image IMAGE] [--ends "X,Y;X,Y"]
    companion eval-vision [--workers N] LABELS.json
    companion odds [--json]
    companion calibrate [--config F] [--image IMAGE] [--corners "X,Y;X,Y;..."]
    companion snapshot [--size WxH] [--lang LL] [--long-names] OUTDIR
    companion web [--config F] [--check]
    companion doctor [--config F] [--json] [--pulse]

Exit codes: 0 fine; 1 an image could not be read (``read``) or labels are
missing (``eval-vision``); 2 a script had an illegal or unreadable event
(``replay``) or the command line was wrong; ``doctor``: 1 when a check
failed (✖), 2 for a broken config.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

__all__ = ["main", "build_parser"]


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of the ``companion`` command."""
    p = argparse.ArgumentParser(prog="companion", description="Physical-dice companion: reads dice, keeps score.")
    p.add_argument("--config", dest="top_config", metavar="F",
                   help="config file (TOML) for the app started without a command (as 'companion kiosk --config F')")
    sub = p.add_subparsers(dest="command")

    k = sub.add_parser("kiosk", help="start the touchscreen app (the default)")
    k.add_argument("--config", help="config file (TOML)")

    r = sub.add_parser("read", help="read the dice in photos")
    r.add_argument("--json", action="store_true", help="one JSON line per image")
    r.add_argument("--annotate", metavar="DIR", help="write annotated copies of the images to DIR")
    r.add_argument("--expect", type=int, metavar="N", help="the throw has N dice (a read of another count is not sure)")
    g = r.add_mutually_exclusive_group()
    g.add_argument("--area", metavar="CALIBRATION.json", help="read only inside this stored tray area")
    g.add_argument("--find-tray", action="store_true", help="find the dice tray in each image and read only inside it")
    r.add_argument("--game", choices=("durchmarsch", "fenn"), default="durchmarsch",
                   help="fenn: read Miwin's dice on the board of 9 fields")
    g.add_argument("--board", metavar="BOARD.json", help="fenn: the stored board (companion calibrate --game fenn)")
    g.add_argument("--find-board", action="store_true", help="fenn: find the board in each image")
    r.add_argument("--dice", choices=("miwin", "wikipedia"), default="miwin",
                   help="fenn: the set's colours (F1: wikipedia has blue and red the other way round)")
    r.add_argument("--classical", action="store_true",
                   help="classical passes only: no learned face classifier looking for missed dice")
    r.add_argument("images", nargs="+", metavar="IMAGE")

    rp = sub.add_parser("replay", help="play recorded games (JSON Lines scripts)")
    rp.add_argument("--json", action="store_true", help="one JSON line per script with the final state")
    rp.add_argument("scripts", nargs="+", metavar="SCRIPT")

    gl = sub.add_parser("games", help="list the stored games (id, game, players, date, result)")
    gl.add_argument("--json", action="store_true", help="one JSON line per game")
    gl.add_argument("--config", help="config file (TOML): data_dir")

    ex = sub.add_parser("export", help="write a stored game as a replay script (JSON Lines) to stdout")
    ex.add_argument("id", type=int, metavar="ID", help="the game's id (see: companion games)")
    ex.add_argument("--config", help="config file (TOML): data_dir")

    st = sub.add_parser("stats", help="each player's games, wins, rows completed, misthrows and longest march")
    st.add_argument("--game", choices=("durchmarsch", "fenn"), default="durchmarsch",
                    help="fenn: each player's games, wins, draws, losses and hints asked for")
    st.add_argument("--json", action="store_true", help="one JSON line per player")
    st.add_argument("--config", help="config file (TOML): data_dir")

    fn = sub.add_parser("fenn", help="Fenn: the solved game")
    fsub = fn.add_subparsers(dest="fenn_command", required=True)
    fs = fsub.add_parser("solve", help="every position's value for the player to move (win, loss, draw)")
    fs.add_argument("--json", action="store_true", help="one JSON line per position")
    fs.add_argument("--config", help="config file (TOML): the [fenn] settings")

    c = sub.add_parser("calibrate", help="find the dice tray and the dice size; store them for the app")
    c.add_argument("--config", help="config file (TOML): camera and data_dir")
    c.add_argument("--image", help="calibrate from this photo instead of the camera")
    c.add_argument("--corners", metavar="X,Y;X,Y;...", help="the tray's corners in pixels instead of finding it")
    c.add_argument("--game", choices=("durchmarsch", "fenn"), default="durchmarsch",
                   help="fenn: find the board of 9 fields instead of the tray")
    c.add_argument("--ends", metavar="X,Y;X,Y", help="fenn: the middles of fields 1 and 9 in pixels instead of finding it")

    wb = sub.add_parser("web", help="serve the table's page: the game live, the games, leaderboards, health")
    wb.add_argument("--config", help="config file (see companion/config.py)")
    wb.add_argument("--check", action="store_true", help="only say whether [web] enabled is on (exit 0) or off (exit 1)")
    o = sub.add_parser("odds", help="the chance of forming each target, for 8, 7, 6 and 5 dice")
    o.add_argument("--json", action="store_true", help="one JSON line per case")

    sn = sub.add_parser("snapshot", help="render every screen to PNG files, offscreen")
    sn.add_argument("--size", default="800x480", help="window size WIDTHxHEIGHT in px (default 800x480)")
    sn.add_argument("--lang", default="en", choices=("de", "en", "fr", "it"), help="language of the screens")
    sn.add_argument("--long-names", action="store_true",
                    help="four players with the longest names taken (20 characters), to check every screen fits them")
    sn.add_argument("--quick", action="store_true", help="a quarter of the waits between steps (for checks; a "
                    "slow machine may save a screen before it is drawn)")
    sn.add_argument("outdir", metavar="OUTDIR")

    dr = sub.add_parser("doctor", help="check camera, buttons, screen, sound, clock, disk, calibration: one line each")
    dr.add_argument("--config", help="config file (TOML)")
    dr.add_argument("--json", action="store_true", help="one JSON line per check")
    dr.add_argument("--pulse", action="store_true", help="light the button LEDs, sound the buzzer and the speaker once")

    e = sub.add_parser("eval-vision", help="accuracy of the dice reader on a labelled folder")
    e.add_argument("labels", metavar="LABELS.json")
    e.add_argument("--workers", type=int, default=1, help="parallel processes (timings are per image)")
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    if args.command in (None, "kiosk"):
        return _kiosk(getattr(args, "config", None) or args.top_config)
    if args.command == "read" and args.game == "fenn":
        from .fenn_cli import read_fenn_images

        return read_fenn_images(args)
    if args.command == "read":
        if args.board or args.find_board:
            print("error: --board and --find-board are for --game fenn", file=sys.stderr)
            return 2
        return _read(args)
    if args.command == "replay":
        return _replay(args)
    if args.command == "games":
        return _games(args)
    if args.command == "export":
        return _export(args)
    if args.command == "stats":
        return _stats(args)
    if args.command == "fenn":
        return _fenn_solve(args)
    if args.command == "eval-vision":
        return _eval(args)
    if args.command == "web":
        return _web(args)
    if args.command == "odds":
        return _odds(args)
    if args.command == "calibrate" and args.game == "fenn":
        from .fenn_cli import calibrate_board

        return calibrate_board(args)
    if args.command == "calibrate":
        return _calibrate(args)
    if args.command == "doctor":
        return _doctor(args)
    if args.command == "snapshot":
        from ui.snapshot import main as snapshot_main

        return snapshot_main(args.size, args.lang, args.outdir, args.long_names, pace=0.25 if args.quick else 1.0)
    return 2  # pragma: no cover - argparse rejects unknown commands


def _read(args) -> int:
    import cv2

    from vision.calibrate import CalibrationError, find_tray, load_area
    from vision.reader import annotate, read_throw

    from .inputs import image_error, load_input_image
    from .prompts import reason_text

    status = 0
    stored = None
    if args.area:
        try:
            stored = load_area(args.area)
        except CalibrationError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        if stored is None:
            print(f"error: {args.area}: no such calibration file", file=sys.stderr)
            return 2
    if args.annotate:
        os.makedirs(args.annotate, exist_ok=True)
    for path in args.images:
        t0 = time.perf_counter()
        try:
            img = load_input_image(path)
            area = None
            if stored is not None:
                area = stored.scaled((img.shape[1], img.shape[0]))
            elif args.find_tray:
                try:
                    area = find_tray(img)
                except CalibrationError:
                    area = None  # no tray: read the whole picture
            read = read_throw(img, expect=args.expect, area=area, learned=not args.classical)
        except (ValueError, cv2.error) as e:  # UnreadableImage is a ValueError
            status = 1
            image_error(args, path, e)
            continue
        dice = read.dice
        ms = (time.perf_counter() - t0) * 1000
        if args.json:
            out = {
                "image": path,
                "dice": [
                    {
                        "value": d.value,
                        "center": [round(d.center[0], 1), round(d.center[1], 1)],
                        "size": round(d.size, 1),
                        "confidence": round(d.confidence, 3),
                    }
                    for d in dice
                ],
                "sure": read.sure,
                "reasons": [r.value for r in read.reasons],
                "ms": round(ms, 1),
            }
            print(json.dumps(out), flush=True)
        else:
            vals = " ".join(str(d.value) for d in dice) or "no dice"
            sure = "sure" if read.sure else "not sure: " + "; ".join(reason_text(r) for r in read.reasons)
            print(f"{path}: {len(dice)} dice: {vals} ({sure}) ({ms:.1f} ms)")
        if args.annotate:
            name = os.path.splitext(os.path.basename(path))[0] + ".annotated.jpg"
            cv2.imwrite(os.path.join(args.annotate, name), annotate(img, dice))
    return status


def _replay(args) -> int:
    from .files import short_path
    from .replay import ReplayError, replay_script

    status = 0
    for path in args.scripts:
        try:
            done = replay_script(path)
            state = done.state
        except (ReplayError, OSError, ValueError) as e:
            status = 2
            msg = str(e) if isinstance(e, ValueError) else f"line 0: cannot open script: {e.strerror or e}"
            msg = " ".join(msg.split())[:300]
            if args.json:
                print(json.dumps({"script": path, "error": msg}), flush=True)
            else:
                print(f"{short_path(path)}: error: {msg}", file=sys.stderr)
            continue
        if args.json:
            out = dict(state)
            if done.throws is not None:
                out["throws"] = done.throws
            print(json.dumps(out), flush=True)
        else:
            print(_format_state(path, state))
            if done.throws is not None:
                t = done.throws
                print(f"  throws: {t['read']} read, {t['asked']} asked, {t['silent_errors']} silent errors")
    return status


def _open_store(config_path: str | None):
    """The store of the config's data_dir, or None after printing why it cannot be opened."""
    from .config import ConfigError, load_config
    from .storage import StorageError, Store

    try:
        return Store(load_config(config_path)["app"]["data_dir"], tidy=False)  # the app may be writing now
    except (ConfigError, StorageError) as e:
        print(f"error: {e}", file=sys.stderr)
        return None


def _how_ended(store, g) -> str | None:
    """How a stored game ended: its ``Termination`` value (``"row"``, ``"goal"``,
    ``"repetition"``, ...), ``"abandoned"`` when the players ended it unplayed to
    its end, None while unfinished (or when its events cannot be replayed)."""
    if g.finished is None:
        return None
    from .storage import StorageError

    try:
        outcome = store.load(g.id).game.outcome()
    except StorageError:
        return None
    return outcome.termination.value if outcome is not None else "abandoned"


def _games(args) -> int:
    store = _open_store(args.config)
    if store is None:
        return 2
    try:
        for g in store.games():
            # Replaying a game is only needed where its end is shown: in JSON, or a finished game without a winner.
            ended = _how_ended(store, g) if args.json or g.winner is None else None
            if g.finished is None:
                result = "unfinished"
            else:
                result = (f"won by {g.winner}" if g.winner else
                          "drawn by a third repetition" if ended == "repetition" else
                          "ended by the players" if ended == "abandoned" else "ended without a winner")
            if args.json:
                print(json.dumps({"id": g.id, "game": g.game, "players": list(g.players),
                                  "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(g.started)),
                                  "finished": g.finished is not None, "winner": g.winner, "events": g.events,
                                  "ended": ended}),
                      flush=True)
            else:
                date = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.started))
                print(f"{g.id:>5}  {g.game:<12} {date}  {', '.join(g.players)}  ({g.events} events, {result})")
    finally:
        store.close()
    return 0


def _fenn_solve(args) -> int:
    """``companion fenn solve``: the retrograde analysis under the config's [fenn] settings."""
    from .config import ConfigError, load_config
    from .fenn import COLOURS, START
    from .fenn_solver import counts, solve

    try:
        settings = load_config(args.config)["fenn"]
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    table = solve(**settings)
    if args.json:
        try:
            for ((blue, red), black, mover), (value, plies) in sorted(table.items()):
                print(json.dumps({"to_move": COLOURS[mover], "blue": list(blue), "red": list(red),
                                  "black": black, "value": value, "plies": plies}))
        except BrokenPipeError:
            sys.stdout = open(os.devnull, "w")
        return 0
    c = counts(table)
    print(f"Fenn solved ({', '.join(f'{k} = {v}' for k, v in settings.items())}): {len(table)} positions")
    print(f"  for the player to move: {c['win']} won, {c['loss']} lost, {c['draw']} drawn")
    for black, mover in ((6, 0), (4, 1)):
        value, plies = table[(START, black, mover)]
        who = COLOURS[mover]
        print(f"  start, black {black} ({who} begins): {value}" + (f" in {plies} plies" if plies else ""))
    print(f"  longest forced win: {max((p for v, p in table.values() if v == 'win'), default=0)} plies")
    return 0


def _stats(args) -> int:
    from .stats import fenn_totals, totals

    store = _open_store(args.config)
    if store is None:
        return 2
    fenn = getattr(args, "game", "durchmarsch") == "fenn"
    try:
        rows = fenn_totals(store) if fenn else totals(store)
    finally:
        store.close()
    if args.json:
        for t in rows:
            print(json.dumps(t.to_dict()), flush=True)
        return 0
    if fenn:
        print("player | games | wins | draws | losses | hints")
        print("-------+-------+------+-------+--------+------")
        for t in rows:
            print(f"{t.name} | {t.games} | {t.wins} | {t.draws} | {t.losses} | {t.hints}")
        return 0
    print("player | games | wins | rows completed | misthrows | longest march")
    print("-------+-------+------+----------------+-----------+--------------")
    for t in rows:
        print(f"{t.name} | {t.games} | {t.wins} | {t.rows_completed} | {t.misthrows} | {t.longest_march}")
    return 0


def _export(args) -> int:
    from .replay import export_game
    from .storage import StorageError

    store = _open_store(args.config)
    if store is None:
        return 2
    missing: list[int] = []
    try:
        lines = export_game(store, args.id, missing=missing)
    except StorageError as e:
        print(f"error: {' '.join(str(e).split())[:300]}", file=sys.stderr)
        return 2
    finally:
        store.close()
    if missing:
        print(f"warning: game {args.id}: the picture of event{'s' if len(missing) > 1 else ''} "
              f"{', '.join(map(str, missing))} is missing; exported as the values scored", file=sys.stderr)
    for line in lines:
        print(json.dumps(line))
    return 0


def _format_state(path: str, state: dict) -> str:
    lines = [f"{path}:"]
    for p in state["players"]:
        rows = []
        for i, r in enumerate(p["rows"]):
            marks = " ".join("X" if n > 10 - r["marked"] else str(n) for n in range(10, 0, -1))
            miss = "[x]" * r["misthrows"] + "[ ]" * (2 - r["misthrows"])
            pointer = ">" if i == p["row"] and not p["eliminated"] else " "
            rows.append(f"  {pointer} {marks}  {miss}{'  struck' if r['struck'] else ''}")
        lines.append(f"  {p['name']}{' (eliminated)' if p['eliminated'] else ''}")
        lines.extend(rows)
    if state["finished"]:
        lines.append(f"  winner: {state['winner']}")
    else:
        t = state["turn"]
        lines.append(f"  next: {t['player']} row {t['row'] + 1}, target {t['target']}, {t['dice']} dice ({t['phase']})")
    return "\n".join(lines)


def _eval(args) -> int:
    from vision.evaluate import evaluate, format_table, load_labels, summarise

    if not os.path.exists(args.labels):
        print(f"error: {args.labels}: no such labels file", file=sys.stderr)
        return 1
    try:
        entries = load_labels(args.labels)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    results = evaluate(entries, workers=max(1, args.workers))
    print(format_table(summarise(results)))
    return 0


def _calibrate(args) -> int:
    """Find the tray (or take the corners given), measure the dice lying in it,
    fix the Pi camera's exposure and white balance, and write
    ``<data_dir>/calibration.json``. Exit 2 on a config, camera or calibration error."""
    from hardware.camera import CameraError, open_camera
    from vision.calibrate import CalibrationError, calibrate
    from vision.reader import UnreadableImage

    from .calibration import store_calibration
    from .config import ConfigError, load_config
    from .inputs import load_input_image

    try:
        cfg = load_config(args.config)
        controls = {}
        if args.image:
            frame = load_input_image(args.image)
        else:
            cam = open_camera(cfg["camera"])
            try:
                frame = cam.read()
                controls = cam.lock_exposure()
            finally:
                cam.close()
        size = (frame.shape[1], frame.shape[0])
        corners = None
        if args.corners:
            corners = [tuple(float(v) for v in p.split(",")) for p in args.corners.split(";") if p.strip()]
        area, warning = calibrate(frame, corners)
        if warning:
            print(f"warning: {warning}", file=sys.stderr)
        path = store_calibration(cfg["app"]["data_dir"], area, controls)
    except (ConfigError, CameraError, CalibrationError, UnreadableImage, ValueError, OSError) as e:
        print(f"error: {' '.join(str(e).split())[:300]}", file=sys.stderr)
        return 2
    die = f"{area.die_size:.0f} px" if area.die_size else "not measured"
    print(f"tray: {len(area.polygon)} corners in a {size[0]}×{size[1]} frame; die size {die}; saved to {path}")
    return 0


def _web(args) -> int:
    """``companion web``: serve the page (read-only) on ``[web] listen``; ``--check``: is it enabled."""
    from .config import ConfigError, load_config
    from .web.address import base_url

    try:
        cfg = load_config(args.config)
        url = base_url(cfg)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.check:
        print("the table's page is " + ("on" if cfg["web"]["enabled"] else "off ([web] enabled = false)"))
        return 0 if cfg["web"]["enabled"] else 1
    from .web.server import serve

    if not cfg["web"]["enabled"]:
        print("note: [web] enabled = false: served now, but the app shows no QR codes", file=sys.stderr)
    print(f"the table's page: {url} (listening on {cfg['web']['listen']}; Ctrl+C stops it)", file=sys.stderr)
    return serve(cfg)


def _odds(args) -> int:
    from .odds import DICE_COUNTS, TARGETS, odds_table

    table = odds_table()
    if args.json:
        try:
            for row in table:
                print(json.dumps(row), flush=True)
        except BrokenPipeError:  # `companion odds --json | head`: the reader left early
            sys.stdout = open(os.devnull, "w")
        return 0
    by = {(r["target"], r["dice"]): r["chance"] for r in table}
    print("Durchmarsch: the chance that one throw forms the target")
    print("(10-7: two dice that add up to it; 6-1: one die showing it)")
    print()
    print("target | " + " | ".join(f"{n} dice" for n in DICE_COUNTS))
    print("-------+" + "+".join("--------" for _ in DICE_COUNTS))
    for t in TARGETS:
        print(f"{t:>6} | " + " | ".join(f"{by[t, n] * 100:5.1f} %" for n in DICE_COUNTS))
    return 0


def _doctor(args) -> int:
    """``companion doctor``: every check of :mod:`companion.doctor`, one line each
    (in the config's language), or one JSON line each; exit 1 when any failed."""
    import logging

    from . import doctor, i18n
    from .config import ConfigError, load_config

    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    logging.getLogger("hardware").setLevel(logging.ERROR)  # the checks say it in words
    before = i18n.language()
    i18n.set_language(cfg["app"]["language"])
    try:
        checks = doctor.run_checks(cfg, pulse=args.pulse)
        for c in checks:
            print(json.dumps(c.to_dict(), ensure_ascii=False) if args.json else doctor.format_line(c))
    finally:
        i18n.set_language(before)  # main() leaves the language as it found it (tests call it in-process)
    return doctor.exit_code(checks)


def _kiosk(config_path: str | None) -> int:
    from .config import ConfigError, load_config

    try:
        cfg = load_config(config_path)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from ui.app import run_app

    return run_app(cfg)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
