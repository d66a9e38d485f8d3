"""A Durchmarsch score sheet: four rows of the numbers 10 to 1 and two misthrow boxes each.

Plain frozen data; :class:`companion.durchmarsch.Durchmarsch` keeps one
:class:`Sheet` per player and replaces it as the game goes on.

    >>> Sheet("Sarah").rows[0].target
    10
    >>> Row(marked=3, misthrows=2).struck
    True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ROWS", "NUMBERS", "MISTHROWS_TO_STRIKE", "Row", "Sheet"]

#: Rows on a sheet (rulebook, "Goal of the game").
ROWS = 4
#: Numbers in a row, crossed off from the 10 down to the 1.
NUMBERS = 10
#: The second misthrow in a row strikes it out (rulebook, "Misthrows").
MISTHROWS_TO_STRIKE = 2


@dataclass(frozen=True)
class Row:
    """One row of a sheet.

    ``marked`` counts the numbers crossed off from the 10 down (0-10);
    ``misthrows`` the misthrow boxes ticked (0-2). A row with two misthrows is
    struck out (ruling R7: its marks stay on the sheet, but the row is dead).
    """

    marked: int = 0
    misthrows: int = 0

    @property
    def struck(self) -> bool:
        """True once the row has its second misthrow."""
        return self.misthrows >= MISTHROWS_TO_STRIKE

    @property
    def complete(self) -> bool:
        """True once every number 10...1 is crossed off."""
        return self.marked >= NUMBERS

    @property
    def target(self) -> int | None:
        """The first unmarked number (10...1), or None for a complete row."""
        return None if self.complete else NUMBERS - self.marked


@dataclass(frozen=True)
class Sheet:
    """A player's score sheet: four rows and the row the player plays now or next.

    ``row`` is the index (0 = top) of the row the player plays now or next
    (ruling R2: it moves at the moment of a misthrow).
    """

    name: str
    rows: tuple[Row, ...] = (Row(),) * ROWS
    row: int = 0

    @property
    def eliminated(self) -> bool:
        """True when all four rows are struck out (rulebook, "Misthrows")."""
        return all(r.struck for r in self.rows)

    def to_dict(self) -> dict:
        """The sheet as plain JSON-ready data (the replay format of issue 2)."""
        return {
            "name": self.name,
            "row": self.row,
            "eliminated": self.eliminated,
            "rows": [
                {"marked": r.marked, "misthrows": r.misthrows, "struck": r.struck}
                for r in self.rows
            ],
        }
