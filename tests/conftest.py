"""Shared test helpers: where the shared photos are, and a fresh data folder."""

import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED_PHOTOS = os.path.join(ROOT, "..", "shared", "photos")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")

# Scripts the tests run in a child process (they read their command line and
# start Kivy on import): not modules to collect doctests from.
collect_ignore = ["keyboard_check.py", "sheet_check.py", "ui_driver.py", "ui_interact.py", "golden/golden.py",
                  "table_check_driver.py", "ui_guard.py"]


@pytest.fixture
def shared_photos():
    """The shared photo folder; skips the test with a reason when it is absent."""
    if not os.path.exists(os.path.join(SHARED_PHOTOS, "labels.json")):
        pytest.skip("../shared/photos is absent (the real dice photos live beside the project)")
    return SHARED_PHOTOS


@pytest.fixture
def classical_misses_a_die(monkeypatch):
    """Have the reader's classical passes (``vision.reader._read_work``) miss
    the first die they read, so the learned classifier is asked to look."""
    from vision import reader

    real = reader._read_work

    def miss_one(*a, **k):
        dice, unexplained, foreign, side, lab = real(*a, **k)
        return dice[1:], unexplained, foreign, side, lab

    monkeypatch.setattr(reader, "_read_work", miss_one)
