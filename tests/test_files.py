import os

import pytest

from companion.files import write_atomically


def test_write_atomically_replaces_the_file(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"old")
    write_atomically(str(path), b"new")
    assert path.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["a.json"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    """A write that fails at the rename (a full disk, a power cut's stand-in)
    leaves the old file whole and no temporary file beside it."""
    path = tmp_path / "a.json"
    path.write_bytes(b"old")

    def fail(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        write_atomically(str(path), b"new")
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["a.json"]
