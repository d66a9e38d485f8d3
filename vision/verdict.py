"""Stage 6, the verdict: is the read sure, and if not, why (reasons as
:class:`vision.reasons.Reason` codes)."""

from __future__ import annotations

import cv2
import numpy as np

from .config import DEFAULT, ReaderConfig


def _shows_pips(image: np.ndarray, center, side: float, *, config: ReaderConfig = DEFAULT) -> bool:
    """Whether the face of a die of ``side`` px centred at ``center`` ``(x, y)`` px in ``image``
    (``H×W×3 uint8 BGR``) shows any mark: some colour within 0.4 side of the centre differs from the
    face's median colour by ``config.verdict.pips_show`` (the 99th percentile of the pixels there, the face shrunk
    to ``config.verdict.pips_look`` px across). A place wholly outside the picture shows none."""
    h, w = image.shape[:2]
    r = 0.4 * side
    x, y = center
    x0, y0 = max(0, int(x - r)), max(0, int(y - r))
    x1, y1 = min(w, int(np.ceil(x + r)) + 1), min(h, int(np.ceil(y + r)) + 1)
    if x1 <= x0 or y1 <= y0:
        return False
    crop = image[y0:y1, x0:x1]
    k = min(1.0, config.verdict.pips_look / (2.0 * r))
    if k < 1.0:
        crop = cv2.resize(crop, (max(1, round((x1 - x0) * k)), max(1, round((y1 - y0) * k))),
                          interpolation=cv2.INTER_AREA)
        k = crop.shape[1] / (x1 - x0)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    yy, xx = np.ogrid[:lab.shape[0], :lab.shape[1]]
    inside = np.hypot((xx + 0.5) / k + x0 - x, (yy + 0.5) / k + y0 - y) < r
    px = lab[inside]
    if len(px) == 0:
        return False
    spread = np.linalg.norm(px - np.median(px, axis=0), axis=1)
    return float(np.percentile(spread, 99)) >= config.verdict.pips_show
