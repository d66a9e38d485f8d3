"""The reader config's error and range check, shared by its groups (:mod:`vision.config`)."""

from __future__ import annotations

import math
from dataclasses import fields

__all__ = ["ConfigError"]


class ConfigError(ValueError):
    """A reader config with a number out of its range; the message names the field."""


def _check(obj, ranges: dict) -> None:
    for f in fields(obj):
        if f.name not in ranges:
            continue
        lo, hi = ranges[f.name]
        v = getattr(obj, f.name)
        for x in v if isinstance(v, tuple) else (v,):
            if not isinstance(x, (int, float)) or isinstance(x, bool) or not math.isfinite(x) or not lo <= x <= hi:
                raise ConfigError(f"{f.name} must be within [{lo}, {hi}], got {v!r}")
