"""The faces of a dice set as data: where the pips of each value lie.

The renderer draws faces from it and the reader fits it; it imports nothing
of either, so :mod:`hardware.render` does not import the reader.
"""

from __future__ import annotations

#: Pip centres of each face of a standard die, in units of the pip spacing
#: (x right, y down; the outer pips sit a quarter side from the centre, so
#: ±1 is a quarter side). The renderer draws faces from it; the reader fits it.
PIP_LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
