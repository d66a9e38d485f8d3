"""Images given on the command line or in a replay script, checked before any
reader sees them: each bad one is its own one-line error, the rest go on.

    >>> import numpy as np, cv2, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "tiny.png")
    >>> _ = cv2.imwrite(p, np.zeros((8, 8, 3), np.uint8))
    >>> load_input_image(p)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    vision.dice.UnreadableImage: .../tiny.png: 8×8 px; an image is 16 to 20000 px a side
"""

from __future__ import annotations

import contextlib
import json
import os
import sys

import numpy as np

from .files import InputError, check_regular, short_path

__all__ = ["load_input_image", "image_error", "MOST_BYTES", "SIDES", "MOST_PIXELS"]

#: The largest image file read, bytes (a Pi camera JPEG is about 1 MB).
MOST_BYTES = 64 * 1024 * 1024
#: The smallest and largest side of an image read, pixels.
SIDES = (16, 20000)
#: The most pixels of an image read (OpenCV's own limit is 2^30).
MOST_PIXELS = 60_000_000


def load_input_image(path: str) -> np.ndarray:
    """The image at ``path`` as ``H×W×3 uint8 BGR``.

    Raises :class:`vision.dice.UnreadableImage` (a ``ValueError``) naming the
    shortened path when it is missing, not a regular file (a FIFO is never
    opened), over :data:`MOST_BYTES`, not an image OpenCV can decode, or of a
    size outside :data:`SIDES` / :data:`MOST_PIXELS`.
    """
    import cv2

    from vision.dice import UnreadableImage

    name = short_path(path)
    try:
        st = check_regular(path)
    except FileNotFoundError:
        raise UnreadableImage(f"{name}: no such file") from None
    except InputError as e:
        raise UnreadableImage(str(e)) from None
    if st.st_size > MOST_BYTES:
        raise UnreadableImage(f"{name}: {st.st_size} bytes, more than the {MOST_BYTES} allowed")
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)  # the one line below says it
    try:
        data = np.fromfile(path, dtype=np.uint8)
        with _codec_quiet():
            img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except (OSError, cv2.error) as e:
        raise UnreadableImage(f"{name}: not an image OpenCV can decode ({str(e).strip().splitlines()[-1][:80]})") \
            from None
    finally:
        cv2.utils.logging.setLogLevel(level)
    if img is None:
        raise UnreadableImage(f"{name}: not an image OpenCV can decode")
    h, w = img.shape[:2]
    if not (SIDES[0] <= min(h, w) and max(h, w) <= SIDES[1]) or h * w > MOST_PIXELS:
        raise UnreadableImage(f"{name}: {w}×{h} px; an image is {SIDES[0]} to {SIDES[1]} px a side")
    return img


@contextlib.contextmanager
def _codec_quiet():
    """Keep the image codecs' own complaints (libpng writes to file descriptor 2
    itself) off the terminal while one image is decoded: its one error line
    says what went wrong."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def image_error(args, path: str, err: Exception) -> None:
    """One line for an image that cannot be read (JSON on stdout with ``--json``,
    else on stderr), the path shortened; the call goes on with the next image."""
    msg = " ".join(str(err).split())
    for prefix in (short_path(path) + ": ", str(path) + ": "):
        msg = msg[len(prefix):] if msg.startswith(prefix) else msg
    msg = msg[:300]
    if args.json:
        print(json.dumps({"image": path, "error": msg}), flush=True)
    else:
        print(f"{short_path(path)}: error: {msg}", file=sys.stderr)
