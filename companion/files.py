"""Files written so that a power cut never leaves half of one.

    >>> import os, tempfile
    >>> from companion.files import write_atomically
    >>> folder = tempfile.mkdtemp()
    >>> write_atomically(os.path.join(folder, "a.json"), b"{}")
    >>> open(os.path.join(folder, "a.json")).read()
    '{}'
"""

from __future__ import annotations

import logging
import os
import stat
import tempfile

__all__ = ["write_atomically", "remove_stale_temp", "short_path", "read_input", "InputError", "check_regular"]

log = logging.getLogger(__name__)


class InputError(ValueError):
    """A file given to the companion that it will not read: not a regular file
    (a FIFO, a device, a folder), too large, or not text of the expected
    encoding. The message names the (shortened) path and why."""


def short_path(path, most: int = 80) -> str:
    """``path`` for a message: whole when short, else its start and end with
    "..." between (at most ``most`` characters), control characters escaped.

    >>> short_path("/a/" + "x" * 200 + "/b.json", most=30)
    '/a/xxxxxxxxxxxx...xxxxx/b.json'
    """
    text = str(path)
    text = text.encode("unicode_escape", "backslashreplace").decode("ascii") if not text.isprintable() else text
    if len(text) <= most:
        return text
    tail = most * 2 // 5
    return text[: most - tail - 3] + "..." + text[-tail:]


def check_regular(path: str) -> os.stat_result:
    """The ``stat`` of ``path`` after checking it is a regular file (a symlink
    is followed). Raises :class:`InputError` for a FIFO, device, folder or a
    looping link, and ``FileNotFoundError`` when there is nothing there."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise
    except (OSError, ValueError) as e:
        raise InputError(f"{short_path(path)}: cannot be read: {getattr(e, 'strerror', None) or e}") from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{short_path(path)}: not a regular file")
    return st


def read_input(path: str, *, most: int) -> bytes:
    """The bytes of the regular file ``path`` of at most ``most`` bytes.

    Raises :class:`InputError` for a non-regular file, one over ``most``
    bytes or one that cannot be read, ``FileNotFoundError`` when missing.
    """
    st = check_regular(path)
    if st.st_size > most:
        raise InputError(f"{short_path(path)}: {st.st_size} bytes, more than the {most} allowed")
    try:
        with open(path, "rb") as f:
            data = f.read(most + 1)
    except OSError as e:
        raise InputError(f"{short_path(path)}: cannot be read: {e.strerror or e}") from None
    if len(data) > most:
        raise InputError(f"{short_path(path)}: more than the {most} bytes allowed")
    return data


def remove_stale_temp(folder: str, *, most_files: int = 100_000) -> int:
    """Remove the temporary files an interrupted :func:`write_atomically` left
    under ``folder`` (``.<name>-<random>.tmp``); returns how many. Nothing
    else is touched; at most ``most_files`` entries are looked at."""
    removed = seen = 0
    for here, _dirs, files in os.walk(folder):
        for name in files:
            seen += 1
            if name.startswith(".") and name.endswith(".tmp") and "-" in name:
                try:
                    os.unlink(os.path.join(here, name))
                    removed += 1
                except OSError as e:
                    log.warning("stale temporary file %s not removed: %s", short_path(name), e)
        if seen > most_files:
            break
    if removed:
        log.info("%d temporary files of interrupted writes removed under %s", removed, short_path(folder))
    return removed


def write_atomically(path: str, data: bytes, *, sync: bool = True) -> None:
    """Write ``data`` to ``path`` so that a power cut leaves the old file or
    the new one, never half of one: a temporary file in the same folder is
    written, flushed to the disk (``fsync``) and renamed over ``path``.
    ``sync=False`` skips the flush to the disk (for a file rewritten every few
    seconds whose loss is harmless, like the app's heartbeat: readers never see
    half of it, but after a power cut it may be empty).

    The folder must exist. Raises ``OSError`` when it cannot be written; the
    temporary file is then removed, and ``path`` is as it was.
    """
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + "-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if sync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
