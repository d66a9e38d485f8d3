"""Why a read is not sure, and why a die is doubted: codes, never words.

The reader says *why* with these enum members; the words for the players
are made in one place, :mod:`companion.prompts`, through gettext. Nothing
parses an English sentence. The values are the codes ``companion read
--json`` prints.
"""

from __future__ import annotations

import enum

__all__ = ["Reason", "Doubt", "FennReason"]


class Reason(str, enum.Enum):
    """Why a read (a whole throw) is not sure. A sure read has none."""

    #: Dice read surely whose value the learned face classifier all but ruled out.
    VETOED = "vetoed"
    #: Dice the classical passes read weakly were read again by the classifier.
    REREAD = "reread"
    #: Readings the classifier took for no die (left out).
    NO_DIE = "no_die"
    #: Dice found only by the classifier (never sure).
    LEARNED_ONLY = "learned_only"
    #: Readings whose face showed no pips (a hole, a counter), left out.
    NO_PIPS = "no_pips"
    #: Some dice are read with less than the sure confidence, or doubted.
    HARD_TO_READ = "hard_to_read"
    #: The dice read are not all of one size.
    MIXED_SIZES = "mixed_sizes"
    #: Something die-sized could not be read.
    UNEXPLAINED = "unexplained"
    #: Something else lies in the tray.
    FOREIGN = "foreign"
    #: The count of dice read is not the count expected.
    WRONG_COUNT = "wrong_count"
    #: No dice at all (no count expected).
    NO_DICE = "no_dice"

    def __str__(self) -> str:
        return self.value


class Doubt(str, enum.Enum):
    """Why one die is never sure, whatever its confidence (see ``Die.doubts``)."""

    #: Its pips differ from the face in colour only.
    BY_COLOUR = "by colour"
    #: Something of a die lies just above it: it may be that die's front face.
    FRONT_FACE = "front face"
    #: A lone pip off its face's middle.
    OFF_CENTRE = "off centre"
    #: Another reading of its place saw other pips.
    RIVAL_READ = "rival reading"
    #: Its pips fit its face's outline only loosely: they may be part of a
    #: larger face. The learned classifier may lift it (it confirms the value).
    LOOSE_FIT = "loose fit"
    #: Its pips are squashed flatter than 2:3: it may be a side face.
    SIDE_FACE = "side face"
    #: Found from its pips, its face's outline not seen, and its pips' tests
    #: not all strong. The learned classifier may lift it.
    PIPS_ONLY = "pips only"
    #: Found, or read as another value, by the learned classifier alone.
    LEARNED = "learned"
    #: The learned classifier all but ruled its value out. A second look of
    #: the classifier that confirms the value lifts it.
    VETOED = "vetoed"

    def __str__(self) -> str:
        return self.value


class FennReason(str, enum.Enum):
    """Why a read of the Fenn board (:func:`vision.fenn.read_fenn`) is not sure. A sure read has none."""

    #: Not all three dice were found.
    MISSING_DIE = "missing_die"
    #: Two dice have pips of one colour, or the colour of a die's pips is unclear.
    COLOURS = "colours"
    #: A die shows a value it does not carry (a misread, or the other kind of set: F1).
    NOT_A_FACE = "not_a_face"
    #: The dice carry the other set's values: blue and red are swapped (F1).
    OTHER_SET = "other_set"
    #: A die stands across a line between two fields.
    BETWEEN_FIELDS = "between_fields"
    #: The blue or red die lies off the board, or the black die on it (F14).
    OFF_BOARD = "off_board"
    #: A face is hard to read (its pips unclear).
    HARD_TO_READ = "hard_to_read"
    #: Something else is over the board (a hand, a cup, a die held up in mid-move).
    FOREIGN = "foreign"
    #: A die that is none of the game's lies on the table (a stray d6): left out of the read. A note,
    #: not a doubt: a read with only this reason is sure.
    STRAY_DIE = "stray_die"

    def __str__(self) -> str:
        return self.value


#: The doubts the learned classifier lifts when it confirms a die's value (see
#: :mod:`vision.learned`); every other doubt stays, and a die with a doubt is
#: never sure, whatever its confidence and the configured sure threshold.
LIFTED_BY_CONFIRMATION = frozenset({Doubt.LOOSE_FIT, Doubt.PIPS_ONLY, Doubt.VETOED})
