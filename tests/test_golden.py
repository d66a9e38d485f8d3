"""The golden outputs recorded before the reshape (issue 29) still come out.

Reads (vendored photos, 200 mock trays, every shared photo when
``../shared/photos`` is there), replays and the texts of every snapshot
screen are compared with ``tests/golden/*.jsonl``; see
``tests/golden/golden.py`` for how they were recorded. A failure names each
output that changed: a deliberate change is re-recorded in its own commit
with its measured effect. The slow ones (minutes) are marked ``slow``:
``pytest -m "not slow"`` leaves them out while working.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden"))

import golden  # noqa: E402


@pytest.mark.parametrize("kind", ["fixtures", "replay", "fenn"])
def test_golden_outputs(kind):
    assert golden.differences(kind) == []


@pytest.mark.slow
def test_golden_mock_trays():
    assert golden.differences("mock") == []


@pytest.mark.slow
def test_golden_screens():
    assert golden.differences("screens") == []


@pytest.mark.slow
def test_golden_shared_photos(shared_photos):
    assert golden.differences("shared") == []
