"""The faces of a dice set as data: where the pips of each value lie, which
values each die carries and the colour of its pips (standard d6, Miwin's dice).

The renderer draws faces from it and the reader fits it; it imports nothing
of either, so :mod:`hardware.render` does not import the reader.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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


# Faces with 7, 8 and 9 pips on Miwin's dice have no documented layout
# (fenn.md): these are the mock camera's; the reader counts pips and never
# matches one pattern, so any layout of those counts reads the same.
MIWIN_LAYOUT = {
    **PIP_LAYOUT,
    7: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1), (0, 0)],
    8: [(x, y) for y in (-1, 0, 1) for x in (-1, 0, 1) if (x, y) != (0, 0)],
    9: [(x, y) for y in (-1, 0, 1) for x in (-1, 0, 1)],
}

#: Another layout of 7, 8 and 9 (a renderer's second choice, so the reader is tested on counting).
MIWIN_LAYOUT_ALT = {
    **PIP_LAYOUT,
    7: [(x, y) for y in (-1, 0, 1) for x in (-1, 0, 1) if (x, y) not in ((0, -1), (0, 1))],
    8: [(x, y) for y in (-1.2, -0.4, 0.4, 1.2) for x in (-0.8, 0.8)],
    9: [(0, 0)] + [(round(1.15 * np.cos(a), 3), round(1.15 * np.sin(a), 3))
                   for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)],
}


@dataclass(frozen=True)
class DiceSet:
    """A set of dice as data: ``faces`` by die name (the values each die
    carries) and ``pips`` by die name (the pips' colour name), ``layout`` the
    pip places of each value (what the mock camera draws). ``known``: the
    values whose layout is documented, which the face reader may fit; the
    others it reads by counting alone (None: every value in ``layout``).
    Standard d6 and Miwin's dice are two of these, read by one pipeline
    (:mod:`vision.face` takes the set: the counts it accepts, the layouts it
    fits, whether it tells dice apart by their pips' colour).

    >>> MIWIN.die_of("blue"), MIWIN.carries("blue", 8), MIWIN.most, MIWIN.by_colour
    ('blue', False, 9, True)
    >>> D6.most, D6.by_colour, D6.known_layout(6), MIWIN.known_layout(8)
    (6, False, True, False)
    """

    name: str
    faces: dict
    pips: dict
    layout: dict
    known: tuple | None = None

    @property
    def values(self) -> tuple[int, ...]:
        """Every value some die of the set carries, ascending."""
        return tuple(sorted({v for vs in self.faces.values() for v in vs}))

    @property
    def most(self) -> int:
        """The largest value of the set (the most pips a face shows)."""
        return max(self.values)

    @property
    def by_colour(self) -> bool:
        """True when the set's dice differ by their pips' colour (the reader then names each die)."""
        return len(set(self.pips.values())) > 1

    def known_layout(self, value: int) -> bool:
        """True when the layout of ``value`` pips is documented (the reader may fit it)."""
        return value in (self.layout if self.known is None else self.known)

    def carries(self, die: str, value: int) -> bool:
        """True when die ``die`` has a face of ``value`` pips."""
        return value in self.faces.get(die, ())

    def die_of(self, pip_colour: str) -> str | None:
        """The die whose pips are ``pip_colour``, or None."""
        return next((d for d, c in self.pips.items() if c == pip_colour), None)


#: A standard die: faces 1-6, black pips.
D6 = DiceSet("d6", {"d6": (1, 2, 3, 4, 5, 6)}, {"d6": "black"}, PIP_LAYOUT)
#: Miwin's dice III (blue), IV (red), V (black), as on the author's site (fenn.md, F1).
MIWIN = DiceSet("miwin", {"blue": (1, 2, 5, 6, 7, 9), "red": (1, 3, 4, 5, 8, 9), "black": (2, 3, 4, 6, 7, 8)},
                {"blue": "blue", "red": "red", "black": "black"}, MIWIN_LAYOUT, known=tuple(PIP_LAYOUT))
#: The same dice with blue and red swapped (``dice = "wikipedia"``, F1).
MIWIN_SWAPPED = DiceSet("wikipedia", {"blue": (1, 3, 4, 5, 8, 9), "red": (1, 2, 5, 6, 7, 9),
                                      "black": (2, 3, 4, 6, 7, 8)},
                        {"blue": "blue", "red": "red", "black": "black"}, MIWIN_LAYOUT, known=tuple(PIP_LAYOUT))


#: The dice sets by name (the ``[fenn] dice`` setting names Miwin's two).
DICE_SETS = {d.name: d for d in (D6, MIWIN, MIWIN_SWAPPED)}
