"""Files written so that a power cut never leaves half of one.

    >>> import os, tempfile
    >>> from companion.files import write_atomically
    >>> folder = tempfile.mkdtemp()
    >>> write_atomically(os.path.join(folder, "a.json"), b"{}")
    >>> open(os.path.join(folder, "a.json")).read()
    '{}'
"""

from __future__ import annotations

import os
import tempfile

__all__ = ["write_atomically"]


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
