"""Measure the dice reader on a labelled folder of photos.

A labels file is JSON: a list of ``{"file": "<path relative to the labels
file>", "values": [sorted true pip values], "category": "..."}`` (the format of
``shared/photos/labels.json``; other keys are ignored).

Per category it reports the exact-image rate (the multiset of values read
equals the truth), die recall and die precision (dice matched by value, as
multisets), the median read time per image in milliseconds (decoding
excluded), and, reading each image as a throw of its true dice count, the
share of reads the reader was sure of and how many sure reads were wrong.
When the folder holds a ``calibration.json`` (a folder the app recorded), the
images are read inside that tray area, as the app read them.

Example::

    python -m vision.evaluate ../shared/photos/labels.json
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from .reader import UnreadableImage, load_image, read_throw

__all__ = ["ImageResult", "load_labels", "evaluate", "summarise", "format_table"]


@dataclass(frozen=True)
class ImageResult:
    """The reader's result on one labelled image."""

    file: str
    category: str
    truth: tuple[int, ...]
    read: tuple[int, ...]
    ms: float
    error: str | None = None
    sure: bool = False

    @property
    def matched(self) -> int:
        """Dice read with a true value (multiset intersection size)."""
        return sum((Counter(self.truth) & Counter(self.read)).values())

    @property
    def exact(self) -> bool:
        """True when the multiset of values read equals the truth."""
        return self.error is None and sorted(self.truth) == sorted(self.read)


def load_labels(path: str) -> list[dict]:
    """Load and check a labels file; ``file`` entries become absolute paths.

    When the folder holds a ``calibration.json``, it is loaded once and
    each entry carries it as ``"_area"`` (a ``TrayArea``), else None.
    Raises ``FileNotFoundError`` when it is missing and ``ValueError`` when it
    is not a list of entries with ``file`` and ``values``.
    """
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not JSON: {e}") from None
    if not isinstance(data, list):
        raise ValueError(f"{path}: a labels file is a JSON list")
    base = os.path.dirname(os.path.abspath(path))
    from .calibrate import CalibrationError, load_area

    try:  # a folder the app recorded keeps its tray area beside the labels
        area = load_area(os.path.join(base, "calibration.json"))
    except CalibrationError:
        area = None
    out = []
    for i, e in enumerate(data):
        if not isinstance(e, dict) or "file" not in e or "values" not in e:
            raise ValueError(f"{path}: entry {i} needs 'file' and 'values'")
        out.append({**e, "file": os.path.join(base, e["file"]), "category": e.get("category", "all"), "_area": area})
    return out


def _one(entry: dict) -> ImageResult:
    import cv2

    cv2.setNumThreads(1)
    truth = tuple(sorted(entry["values"]))
    try:
        img = load_image(entry["file"])
    except UnreadableImage as e:
        return ImageResult(entry["file"], entry["category"], truth, (), 0.0, str(e))
    area = entry.get("_area")
    if area is not None:
        area = area.scaled((img.shape[1], img.shape[0]))
    t0 = time.perf_counter()
    r = read_throw(img, expect=len(truth), area=area)
    ms = (time.perf_counter() - t0) * 1000
    return ImageResult(entry["file"], entry["category"], truth, tuple(sorted(r.values)), ms, sure=r.sure)


def evaluate(entries: list[dict], *, workers: int = 1) -> list[ImageResult]:
    """Read every labelled image; ``workers`` > 1 reads in parallel processes."""
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            return list(ex.map(_one, entries, chunksize=4))
    return [_one(e) for e in entries]


def summarise(results: list[ImageResult]) -> dict[str, dict]:
    """Per-category figures: images, exact, recall, precision, median_ms."""
    by = defaultdict(list)
    for r in results:
        by[r.category].append(r)
    out = {}
    for cat, rs in by.items():
        true_n = sum(len(r.truth) for r in rs)
        read_n = sum(len(r.read) for r in rs)
        matched = sum(r.matched for r in rs)
        out[cat] = {
            "images": len(rs),
            "exact": sum(r.exact for r in rs) / len(rs),
            "recall": matched / true_n if true_n else 1.0,
            "precision": matched / read_n if read_n else 1.0,
            "median_ms": statistics.median(r.ms for r in rs),
            "errors": sum(r.error is not None for r in rs),
            "sure": sum(r.sure for r in rs) / len(rs),
            "wrong_sure": sum(r.sure and not r.exact for r in rs),
            "n_sure": sum(r.sure for r in rs),
        }
    return out


def format_table(summary: dict[str, dict]) -> str:
    """A Markdown table of :func:`summarise`'s figures."""
    lines = [
        "| category | images | exact-image rate | die recall | die precision | median ms | share sure | sure but wrong |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for cat in sorted(summary):
        s = summary[cat]
        lines.append(
            f"| {cat} | {s['images']} | {s['exact']:.3f} | {s['recall']:.3f} | {s['precision']:.3f} | "
            f"{s['median_ms']:.1f} | {s['sure']:.3f} | {s['wrong_sure']} of {s['n_sure']} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - developer shortcut
    import sys

    res = evaluate(load_labels(sys.argv[1]), workers=int(os.environ.get("WORKERS", "2")))
    print(format_table(summarise(res)))
