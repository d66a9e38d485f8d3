"""Shared test helpers: where the shared photos are, and a fresh data folder."""

import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED_PHOTOS = os.path.join(ROOT, "..", "shared", "photos")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")


@pytest.fixture
def shared_photos():
    """The shared photo folder; skips the test with a reason when it is absent."""
    if not os.path.exists(os.path.join(SHARED_PHOTOS, "labels.json")):
        pytest.skip("../shared/photos is absent (the real dice photos live beside the project)")
    return SHARED_PHOTOS
