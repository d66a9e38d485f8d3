"""The touchscreen app (Kivy).

Importing the package, before Kivy loads: Kivy's clipboard is SDL2's own, and
the probe for an X11 cut buffer (xclip or xsel, absent on a kiosk and not
needed for typing names) no longer logs its tracebacks at every start.
"""

import logging
import os

os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")


class _NoCutBufferProbe(logging.Filter):
    """Drops Kivy's "no cut buffer provider" record, which carries the xclip and xsel tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Cutbuffer: Unable to find any valuable Cutbuffer provider")


logging.getLogger("kivy").addFilter(_NoCutBufferProbe())
