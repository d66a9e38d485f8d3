"""The Fenn commands of ``companion``: read boards in photos, calibrate the board.

``companion read --game fenn [--board BOARD.json | --find-board] [--json] IMAGE...``
prints one line per image (issue 32's format)::

    {"image": "a.jpg", "dice": [{"colour": "blue", "value": 7, "center": [x, y], "size": 81.0,
     "field": 3, "confidence": 0.98}, ...], "sure": true, "reasons": [], "ms": 14.2}

An unreadable image, or one where no board is found, gives ``{"image": ...,
"error": ...}``; the others are still read; the exit code is 1 then (2 for a
bad board file). ``companion calibrate --game fenn`` finds the board in a
camera frame (or ``--image``; or takes the middles of fields 1 and 9 with
``--ends``) and writes ``<data_dir>/board.json``.
"""

from __future__ import annotations

import json
import os
import sys

__all__ = ["read_fenn_images", "calibrate_board", "load_stored_board"]


def read_fenn_images(args) -> int:
    """``companion read --game fenn``: see the module text. Returns the exit code."""
    import cv2

    from vision.diceset import DICE_SETS
    from vision.fenn import BoardError, find_board, load_board
    from vision.reader import Reader

    from .inputs import image_error, load_input_image
    from .prompts import reason_text

    stored = None
    if args.board:
        try:
            stored = load_board(args.board)
        except BoardError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    status = 0
    reader = Reader(dice=DICE_SETS[getattr(args, "dice", "miwin")])
    for path in args.images:
        try:
            img = load_input_image(path)
            board = stored if stored is not None else find_board(img)
            r = reader.read_board(img, board)
        except (ValueError, BoardError, cv2.error) as e:  # UnreadableImage is a ValueError
            status = 1
            image_error(args, path, e)
            continue
        if args.json:
            print(json.dumps({"image": path, **r.to_dict()}), flush=True)
        else:
            dice = ", ".join(f"{d.colour or '?'} {d.value}" + (f" on {d.field}" if d.field else " beside")
                             for d in r.dice)
            why = "" if r.sure else "  (not sure: " + "; ".join(reason_text(x) for x in r.reasons) + ")"
            print(f"{path}: {dice}{why}")
    return status


def load_stored_board(data_dir: str):
    """The board stored in ``data_dir`` (:data:`vision.fenn.BOARD_FILE`), or None
    when there is none or it cannot be read (logged)."""
    import logging

    from vision.fenn import BOARD_FILE, BoardError, load_board

    path = os.path.join(data_dir, BOARD_FILE)
    if not os.path.exists(path):
        return None
    try:
        return load_board(path)
    except BoardError as e:
        logging.getLogger(__name__).warning("board calibration ignored: %s", e)
        return None


def calibrate_board(args) -> int:
    """``companion calibrate --game fenn``: find the board (or take ``--ends``) and store it."""
    from hardware.camera import CameraError, open_camera
    from vision.fenn import BOARD_FILE, BoardArea, BoardError, find_board, measure_tilt
    from vision.reader import UnreadableImage

    from .config import ConfigError, load_config
    from .files import write_atomically
    from .inputs import load_input_image

    try:
        cfg = load_config(args.config)
        if args.image:
            frame = load_input_image(args.image)
        else:
            cam = open_camera(cfg["camera"])
            try:
                frame = cam.read()
            finally:
                cam.close()
        size = (frame.shape[1], frame.shape[0])
        if args.ends:
            ends = [tuple(float(v) for v in p.split(",")) for p in args.ends.split(";") if p.strip()]
            if len(ends) != 2:
                raise BoardError("--ends takes two points: the middles of fields 1 and 9")
            board = BoardArea.from_ends(ends[0], ends[1], size)
        else:
            board = find_board(frame)
        board = measure_tilt(frame, board)  # the table's tilt under the board, from the start position's still dice
        os.makedirs(cfg["app"]["data_dir"], exist_ok=True)
        path = os.path.join(cfg["app"]["data_dir"], BOARD_FILE)
        write_atomically(path, json.dumps(board.to_dict()).encode())
    except (ConfigError, CameraError, BoardError, UnreadableImage, ValueError, OSError) as e:
        print(f"error: {' '.join(str(e).split())[:300]}", file=sys.stderr)
        return 2
    print(f"board: field 1 at {tuple(round(v) for v in board.corners[0])}, field 9 at "
          f"{tuple(round(v) for v in board.corners[1])} in a {size[0]}×{size[1]} frame, the table tilted "
          f"{board.across:+.3f} a field across it and "
          f"{'by its lines along' if board.along is None else f'{board.along:+.3f} along'}; saved to {path}")
    return 0
