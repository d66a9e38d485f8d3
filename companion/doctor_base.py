"""What a check of ``companion doctor`` says: a :class:`Mark` and a :class:`Check`
(shared by :mod:`companion.doctor` and :mod:`companion.doctor_machine`).

    >>> Check("pin", "Settings PIN", Mark.FAIL, "still 1234").to_dict()["mark"]
    'fail'
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass

__all__ = ["Mark", "Check", "is_raspberry_pi"]


class Mark(enum.Enum):
    """A check's verdict: fine, something to do, or a part not on this machine."""

    OK = "ok"
    FAIL = "fail"
    ABSENT = "absent"

    @property
    def symbol(self) -> str:
        """✔, ✖ or ○."""
        return {"ok": "✔", "fail": "✖", "absent": "○"}[self.value]


@dataclass(frozen=True)
class Check:
    """One check's result: ``key`` (e.g. ``"camera"``), ``title`` (words), ``mark``,
    ``said`` (what was found) and ``todo`` (what to do; empty when nothing)."""

    key: str
    title: str
    mark: Mark
    said: str
    todo: str = ""

    def to_dict(self) -> dict:
        """JSON-ready form (``mark`` as ``"ok"``, ``"fail"`` or ``"absent"``)."""
        d = asdict(self)
        d["mark"] = self.mark.value
        return d


def is_raspberry_pi(model_file: str = "/proc/device-tree/model") -> bool:
    """True when the device tree names a Raspberry Pi (``"Raspberry Pi 4 Model B Rev 1.5"``)."""
    try:
        with open(model_file, "rb") as f:
            return b"Raspberry Pi" in f.read()
    except OSError:
        return False
