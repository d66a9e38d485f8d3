"""The reader's tuned numbers: one validated, grouped configuration.

Plain frozen data, like picamera2's configurations: build one, change what
you tune with :func:`dataclasses.replace`, and hand it to the reader::

    >>> from dataclasses import replace
    >>> from vision.config import ReaderConfig
    >>> cfg = ReaderConfig()
    >>> cfg.sure, cfg.learned.most
    (0.8, 0.6)
    >>> replace(cfg, sure=0.75).sure
    0.75
    >>> ReaderConfig(sure=1.5)
    Traceback (most recent call last):
    ...
    vision.config_base.ConfigError: sure must be within [0.0, 1.0], got 1.5

Each field's comment says what it is and what raising it does. How each
number was found (the photos and mock trays it was measured on) is in
``docs/tuning-log.md``; the method in ``docs/reader.md``. A die is sure only
with ``confidence >= sure`` and no doubt (:func:`vision.dice.is_sure`): the
``*_most`` numbers below are the confidence a doubted die is *shown* with,
never what keeps it unsure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

from .config_base import ConfigError, _check
from .config_tray import TrayConfig

__all__ = ["ConfigError", "ReaderConfig", "FaceConfig", "PipsConfig", "LearnedConfig", "VerdictConfig",
           "ColourConfig", "BoardConfig", "TrayConfig", "PipTestConfig"]


@dataclass(frozen=True)
class FaceConfig:
    """Reading a face from its outline and pips (:mod:`vision.face`, :mod:`vision.candidates`)."""

    #: Pips squashed flatter than this (short over long axis) may be a side face: never sure.
    #: Raising it doubts more slanted faces (fewer sure reads from a low camera).
    side_slant: float = 0.67
    #: A face flatter than this may be the front face of a die behind it (doubted if a die lies above it).
    #: Raising it checks more faces for a die above them.
    front_slant: float = 0.8
    #: How far a pip's measured slant may fall short of its face's; raising it lets more slanted faces pass.
    slant_error: float = 0.1
    #: A round dark spot covering this share of a face (side²) or more is a top face's pip;
    #: raising it ignores smaller spots.
    top_pip_least: float = 0.006
    #: How much darker or lighter than its surroundings a pip is (0-255); raising it finds fewer, surer pips.
    pip_contrast: int = 40
    #: Two pips are a whole two (sure despite a loose outline) only this share of the calibrated side apart or
    #: more (a two's corners: about 0.7; a three's middle and corner: about 0.35). Raising it doubts more twos.
    two_apart: float = 0.5
    #: In a calibrated tray, a face's farthest two pips lie this share of the dice's side (the median of the
    #: dice read) apart or more: any face of 2-6 pips has two at opposite corners (about 0.7), a four's
    #: neighbouring pips lie 0.5 apart, a three's middle and corner 0.35; closer, it is read, never sure.
    #: Raising it doubts more faces (a die seen smaller than the others: farther off, tilted).
    corners_apart: float = 0.6
    #: ... for a die read smaller than this share of the dice's side (the part-faces read on renders: 0.64-0.85;
    #: whole faces, about 1). Raising it doubts more faces.
    part_size: float = 0.9
    #: ... or, where two or more other dice are read surely as whole faces of 2-6 pips, whose farthest two
    #: pips lie closer than this share of theirs (the median): a whole face's corners span what the others'
    #: do (0.9-1.1 on the mock trays), a four's neighbouring pips 0.71 of it, a three's middle and corner
    #: 0.5. Raising it doubts more faces.
    part_span: float = 0.85
    #: ... and a face whose farthest two pips lie farther apart than this share of theirs took in pips beyond
    #: it (a near camera's side face under a four, its dashes counted: a six; held-out mock tray 1226, 1.37),
    #: doubted. Lowering it doubts more faces (a tilted camera's dice differ in size by up to about 10 %).
    whole_span: float = 1.25
    #: With a calibrated side, a face whose farthest two pips lie more than this share of it apart is read,
    #: never sure (a d6's opposite corners: about 0.7; a four and a near camera's side-face pips beside it,
    #: a six's pattern whitened, about 0.9). Raising it doubts fewer faces.
    pip_span: float = 0.85
    #: In a calibrated tray, a blob read unsurely has its pips read again as what stands out from a disc this
    #: share of the side across round them (:func:`vision.candidates.hat_pips`; a pip is about 0.2 side across).
    #: Raising it takes in broader light or dark parts (a sheen's edge, a face's corner) as pips.
    hat_disc: float = 0.4
    #: ... a part of those pips that is no round blob is opened with a disc this share of the side across (a
    #: glint's streak run into a pip on a glossy die is a few px wide): what is narrower goes. Raising it cuts
    #: wider streaks, and near a pip's width (0.2) pips too; 0 never.
    glint_cut: float = 0.1
    #: ... over this share of the strongest response in the blob (its pips'); raising it finds fewer, surer
    #: pips (faint ones lost); 0 never reads them so.
    hat_level: float = 0.5
    #: ... and read at most this confident (under the sure threshold: never sure alone, the classifier may
    #: confirm it); raising it to 1 lets such a face be sure by itself.
    hat_most: float = 0.79
    #: ... unless it shows this many pips or more: a pip lost in the sheen makes a smaller face, never a
    #: five or a six (a five read so whole is no four or three with pips lost). Raising it past 6 caps every
    #: such face; lowering it to 4 trusts a four that may be a five whose middle pip the sheen hid.
    hat_whole: int = 5
    #: The widest circle inside a square face over its side; raising it makes ``Die.inner`` smaller.
    inscribed: float = 0.95
    #: The confidence shown for a face with a loose fit or seen as a side face (it is doubted).
    #: Raising it ranks such faces higher against rival readings of the same place.
    not_sure_most: float = 0.79
    #: A face of a value with no documented layout (Miwin's 7-9) is read by counting; every face is
    #: point-symmetric, so its pips' middle must lie within this share of a side of the face's middle.
    #: A die off the camera's axis shows a side face, and its square found takes some in: 0.1-0.18
    #: off on the renders (issue 38; 0.1 from the mock scenes doubted 8 right counts there). Raising
    #: it trusts counts with a stray blot or a pip missed at the face's edge.
    counted_off_centre: float = 0.2
    #: A counted face's pips are of one size: the largest at most this many times the middle one
    #: (and the smallest at least its inverse). Raising it trusts faces with merged or broken pips.
    counted_spread: float = 1.7

    def __post_init__(self):
        _check(self, {"side_slant": (0.0, 1.0), "front_slant": (0.0, 1.0), "slant_error": (0.0, 1.0),
                      "top_pip_least": (0.0, 0.1), "pip_contrast": (1, 255), "inscribed": (0.5, 1.0),
                      "not_sure_most": (0.0, 1.0), "counted_off_centre": (0.0, 0.5), "counted_spread": (1.0, 4.0),
                      "two_apart": (0.0, 1.5), "corners_apart": (0.0, 1.5), "part_size": (0.0, 2.0), "pip_span": (0.3, 2.0),
                      "part_span": (0.0, 1.5), "whole_span": (1.0, 10.0),
                      "glint_cut": (0.0, 0.3), "hat_disc": (0.2, 1.0), "hat_level": (0.0, 1.0), "hat_most": (0.0, 1.0),
                      "hat_whole": (2, 10)})


@dataclass(frozen=True)
class ColourConfig:
    """Naming a pip colour, for a dice set whose dice differ by it (:func:`vision.face.pip_colour`)."""

    #: Pips darker than this (Lab L, 0-255) and greyer than ``black_chroma`` are black.
    #: Raising it takes dim blue or red pips for black.
    black_lightness: float = 95.0
    #: The most colour (Lab a*b* distance) a black pip shows (one darker than half ``black_lightness``,
    #: neither blue nor red, 1.6 times it); raising it takes dull colours for black.
    black_chroma: float = 28.0
    #: How strongly (Lab a* or b*) a pip must be red or blue to be named so; raising it asks more
    #: often in warm or cold light.
    pip_chroma: float = 22.0

    def __post_init__(self):
        _check(self, {"black_lightness": (1.0, 254.0), "black_chroma": (1.0, 100.0), "pip_chroma": (1.0, 100.0)})


@dataclass(frozen=True)
class BoardConfig:
    """Finding dice on a board of fields (Fenn; :mod:`vision.fenn`): the board's own plane."""

    #: Plane pixels per field. Raising it reads smaller pips (more detail) but costs time with its square.
    res: int = 80
    #: The die's side as a share of a field (the set's 18-25 mm dice on 2.5 cm fields); raising it expects
    #: larger dice (and finds smaller ones less).
    die: float = 0.86
    #: How far (Lab units) a pip's colour lies from its face's; raising it ignores faint marks but may
    #: lose pips in dim light.
    pip_contrast: float = 42.0
    #: How close (share of a field) to a field's line a die's centre may come and still be on its field.
    #: Raising it asks more often.
    line_margin: float = 0.16
    #: How far (fields) beyond the board's sides or ends the top face of a blue or red die may stand and
    #: still be on the field beside it (a die overhanging the board; a board found or touched a little
    #: off); raising it takes a die set down beside the board for one on it.
    edge_margin: float = 0.2
    #: The area a light region may have, as shares of the die's expected area, to be one die. Widening
    #: it takes odder shapes for dice (fewer "something over the board", more risk of a hand as a die).
    square_area: tuple = (0.55, 1.6)
    #: The longest a die's outline may be against its width; raising it accepts slanted or clipped
    #: dice, and more things that are none.
    square_aspect: float = 1.3
    #: The shortest straight segment taken as part of a board's side, as a share of the frame's longer
    #: side; raising it ignores short edges (faster, but a side broken by dice may be missed).
    min_side: float = 0.03
    #: How many of the longest straight lines are paired as a board's two sides; raising it finds a
    #: board among more lines (a grained table) at more cost.
    max_lines: int = 80
    #: The board's width as shares of the frame's longer side (a camera 25-65 cm above); widening it
    #: finds boards nearer or farther, and more strips that are none.
    width_range: tuple = (0.022, 0.11)
    #: How far (Lab units) a field's colour may lie from the board's and still be the board (and how
    #: far the table round it must); raising it takes a mottled board, and more cloths, for a board.
    field_colour: float = 22.0
    #: How many of the nine fields must show the board's colour (the rest may hold dice); raising it
    #: refuses more strips, and boards with three dice on them.
    min_fields: int = 6
    #: How many of the eight lines between the fields must be seen, clear of the fields' texture, for a
    #: strip to be a board (dice and their shadows hide the rest); raising it refuses more strips, and
    #: boards with dice on many fields.
    min_lines: int = 5
    #: Where no strip shows ``min_lines``, how many lines a strip may show and still be tried as the board:
    #: it is taken only where the blue and red dice read surely stand on it (:func:`vision.fenn.find_board`;
    #: black leather with dark printed lines shows 2-4, as a table's planks do). Raising it asks the players
    #: to touch the ends of more boards whose lines hardly show; lowering it tries more strips.
    fallback_lines: int = 2
    #: The least a field line's lightness (0-255) must stand out from the fields beside it; raising it
    #: ignores faint grain across a strip but may lose dark stitches on dark leather.
    line_contrast: float = 4.0
    #: The least evidence a strip must give to be the board (the finder's score: its field lines, ends,
    #: sides and plain fields; mock start frames 0.83 and up, a fresh render's real board 0.35, render 306's
    #: planks' grain 0.02): below it no board is found and the players touch its ends. Raising it asks them
    #: to touch more boards seen weakly; lowering it takes weaker strips (a table's grain) for the board.
    min_evidence: float = 0.25
    #: How much darker (or lighter) than what is round it (lightness, 0-255) a mark must be to be taken
    #: for a pip; raising it ignores faint specks (grain) but may lose pips in dim light.
    pip_depth: float = 28.0
    #: How far (Lab units) a face's pixels may lie from the colour round its pips; raising it finds faces
    #: in uneven light but lets a face run into a table of its colour.
    body_colour: float = 24.0
    #: A die's side against the set's dice: found from ``stray_size[0]`` up; one smaller than
    #: ``stray_size[1]`` of the set's dice is a stray d6. Raising the second takes more dice for strays.
    stray_size: tuple = (0.55, 0.75)
    #: How far (Lab units, lightness counted a third) a die's face may lie from the set's dice's faces
    #: and still be one of them; raising it takes more stray dice for the black die.
    stray_body: float = 22.0
    #: A stray die beside the board is surely not the black die where its pip pattern (faces of 2-6
    #: pips, :func:`vision.fenn.pip_scale`) is larger or smaller than the set's dice's on the board by
    #: more than this share and the black die taken is within it (no doubt which is the game's). The
    #: black die lay within 0.03 of blue and red on the renders, strays 0.06-0.6 off (issue 38).
    #: Raising it asks about fewer strays, and tells apart dice of nearer sizes.
    stray_pattern: float = 0.05
    #: The camera's focal length as a share of the frame's width (the Pi camera v2: 3.04 of 3.68 mm),
    #: to put a die's top face back over where it stands; raising it assumes a narrower view.
    focal: float = 0.826
    #: How much wider a die's pips may spread than the other dice's (each put back to its height over the
    #: board) before it is held up, in mid-move (:func:`vision.fenn.held_up`), as a share of the widening
    #: a lift of one die's height gives at this camera's height (about 4 % from 60 cm, 9 % from 25 cm);
    #: raising it overlooks more held dice, lowering it asks on more still boards found a little off.
    held_up: float = 0.4
    #: The steepest tilt of the table under the board, along it or across, that calibration takes from the
    #: still dice of the start position (:func:`vision.fenn.measure_tilt`; a share of a pattern's size
    #: per field: a camera 50 cm above tilted 12° gives about 0.01); raising it takes a steeper tilt, or a
    #: die held up at calibration, for the table's. The board finder bounds by it too how much the field
    #: lines' spacing may shrink a field along the board (:func:`vision.fenn_board.refine`: the view's
    #: perspective); raising it there takes a die's edge taken for a line as more of that shrink.
    tilt_most: float = 0.025
    #: How far (a share) the width of the strip found may lie from the width square fields give (its
    #: length over nine) before its sides are taken for lines along the board inside them and put that
    #: width apart (:func:`vision.fenn_board.refine`). A camera tilted 12° shows fields up to 2 % off
    #: square; renders 349-368 found strips 0.78-0.93 as wide. Raising it keeps more strips as found.
    square_within: float = 0.05
    #: A face read unsurely in a square ``reread_large`` times the set's die's side or more (its shadow or
    #: a side of its colour taken in: renders 476, 499, 1.4-1.5 times) is read again in a square of the
    #: die's size round its pips; the read kept where it reads the same die and value surer, in a regular
    #: pattern. A die held up looks 4-9 % larger, its sides seen (render 408: 1.26 times); re-read where
    #: the square is nearer the die's size, the mock family read a 2 as a sure 1 (scene 10055). Lowering
    #: it re-reads more squares, a held die's too.
    reread_large: float = 1.3
    #: How far (a share of a pattern's size per field) the tilt across a board found in the frame, or
    #: touched, may be off (:attr:`vision.fenn.BoardArea.across_known`): a die beside it is held up only
    #: beyond what such a tilt gives (:func:`vision.fenn_lift.held_up`). The boards found on issue 38's
    #: renders 349-368 put the black die 0.3-0.75 % a field off the true corners' read. Where no calibration
    #: measured the tilt along the board either (nor its lines tell it), it may be off a ninth as much along
    #: it: the corners lie nine fields apart along the board, one across (fresh render 423).
    #: Raising it overlooks more dice held up beside (or along) a board found, lowering it asks on more
    #: still boards found so.
    across_unknown: float = 0.01
    #: The least spread across the board (fields) of the dice measured at calibration for the tilt across
    #: to be taken; lowering it takes a tilt from dice nearly in a line along the board (noisier).
    across_span: float = 0.6
    #: The least spread along the board (fields) of the dice measured at calibration for the tilt along to
    #: be taken (else each frame's field lines tell it); blue and red at the start stand 8 apart (F2).
    along_span: float = 3.0
    #: How far (share of their spacing) a counted 7-9's pips may lie from their mirror images through
    #: their middle and still make a regular pattern; raising it is sure of more faces cut at an edge.
    pip_symmetry: float = 0.3
    #: How sure a read of marks of no die's colour on the board (neither the set's pip colours nor a
    #: d6's black) must be to count as a die at all (a stray d6 with white pips); below it the marks are
    #: a field's stitches. Raising it reports fewer such strays on the board and asks less.
    no_colour_die: float = 0.3
    #: How far (Lab units) a part of the board away from the dice may lie from the board's colour
    #: before it is something over it (a hand, a cup); raising it overlooks more.
    foreign_colour: float = 34.0
    #: The least area (fields²) of such a part to be something over the board; raising it overlooks
    #: fingers, lowering it may take a die's shadow for a hand.
    foreign_area: float = 0.3
    #: Such a region along one of the board's long sides, no wider across the board than this many
    #: fields, is the board's edge or the table beyond a side found a little inside (renders: 0.15-0.35);
    #: a hand or a cup reaching over the board covered 0.55 of its width or more. Raising it takes
    #: wider strips along a side for the board's edge.
    foreign_edge: float = 0.35
    #: How much a line between fields must stand out (a share of the median line) to be seen: one
    #: seen less, where no die stands, is hidden by something over the board; lines seen through a
    #: part of the board lighter or darker than it make that part a lamp's shine or a shadow on the
    #: board, not something over it (:func:`vision.fenn_over.something_over`). Raising it takes more
    #: boards for hidden, and fewer shines and shadows for what they are.
    line_seen: float = 0.3
    #: A part lighter than the board whose colour is the board's mixed with white light, no more than
    #: ``shine_most`` of the way to white, is a lamp's shine on the board, not something over it, where
    #: its hue is the board's: within ``shine_hue`` (Lab a, b) across the board's hue and ``shine_grey``
    #: toward grey of that mix, on a board whose mix shows ``shine_chroma`` or more
    #: (:func:`vision.fenn_over.something_over`). Fresh renders fenn-00461, -00466, -00479: shines
    #: 0.3-0.4 field², 0.4 of the way, 0.1-1 across and up to 8 toward grey; a light hand on a tan
    #: board (mock) lies 5 and more across, render fenn-00496's hand 2.2-2.8 across but 11 more
    #: colourful than the mix (``shine_hue`` bounds that too), a white cup beyond 0.6. Raising
    #: ``shine_hue`` takes hands of nearly the board's hue for shines; 0 ``shine_most`` takes none.
    shine_hue: float = 3.0
    #: ... (see ``shine_hue``).
    shine_grey: float = 12.0
    #: ... (see ``shine_hue``).
    shine_most: float = 0.6
    #: ... (see ``shine_hue``).
    shine_chroma: float = 8.0
    #: Before parts unlike the board's colour are looked for, the board's fall of light is taken out
    #: (:func:`vision.fenn_over.something_over`), but not where over ``even_other`` of its free part lies
    #: ``even_chroma`` or more (Lab a, b) from its median colour: a hand or a cup of another colour may cover
    #: much of the board and tilt the fit (render fenn-00355: a hand over five fields). Raising
    #: ``even_chroma`` or ``even_other`` evens boards with more of another colour on them (and may even a
    #: hand away); lowering them evens fewer lamp-lit boards (render fenn-00368).
    even_chroma: float = 12.0
    #: ... (see ``even_chroma``).
    even_other: float = 0.1

    def __post_init__(self):
        _check(self, {"res": (32, 200), "die": (0.4, 1.0), "pip_contrast": (10.0, 120.0),
                      "line_margin": (0.0, 0.49), "edge_margin": (0.0, 0.5), "square_area": (0.05, 4.0),
                      "square_aspect": (1.0, 3.0),
                      "min_side": (0.005, 0.5), "max_lines": (4, 400), "width_range": (0.005, 0.5),
                      "field_colour": (2.0, 100.0), "min_fields": (3, 9), "min_lines": (2, 8), "fallback_lines": (1, 8),
                      "line_contrast": (0.5, 60.0), "min_evidence": (0.0, 10.0), "pip_depth": (2.0, 200.0),
                      "body_colour": (2.0, 120.0), "stray_size": (0.2, 1.0), "stray_body": (1.0, 200.0),
                      "stray_pattern": (0.005, 1.0),
                      "focal": (0.2, 5.0), "foreign_colour": (2.0, 200.0), "foreign_area": (0.01, 9.0), "line_seen": (0.0, 1.0),
                      "shine_hue": (0.0, 60.0), "shine_grey": (0.0, 60.0),
                      "shine_most": (0.0, 1.0), "shine_chroma": (0.0, 120.0),
                      "foreign_edge": (0.0, 1.0), "even_chroma": (0.0, 255.0), "even_other": (0.0, 1.0),
                      "held_up": (0.05, 5.0), "tilt_most": (0.0, 0.2), "across_span": (0.2, 10.0), "along_span": (1.0, 9.0),
                      "square_within": (0.0, 1.0), "reread_large": (1.0, 3.0),
                      "across_unknown": (0.0, 0.2),
                      "pip_symmetry": (0.05, 2.0),
                      "no_colour_die": (0.0, 1.0)})
        lo, hi = self.square_area if len(self.square_area) == 2 else (1.0, 1.0)
        if len(self.square_area) != 2 or not lo < 1 < hi:
            raise ConfigError(f"square_area must be (low, high) around 1, got {self.square_area!r}")


@dataclass(frozen=True)
class PipsConfig:
    """Dice found from their pips where no face stood out (:mod:`vision.pipfirst`)."""

    #: Every test of a pip-first die's pips scores at least this for it to be sure; raising it doubts more.
    sure: float = 0.9
    #: The confidence shown for a pip-first die of 2-6 pips that is not sure (it is doubted).
    most: float = 0.79
    #: The confidence shown for a pip-first one that is not sure (it is doubted).
    one_most: float = 0.6
    #: A pip-first face flatter than this may be a front face; raising it checks more faces.
    front_slant: float = 0.8
    #: No pip is squashed flatter than this (short over long axis; a longer mark is a crack or print);
    #: raising it refuses more slanted pips.
    least_slant: float = math.sqrt(0.45)
    #: Dice read from their faces with this confidence or more hide their pips from pips first;
    #: raising it has pips first look again at more faces.
    blocking: float = 0.8
    #: A pip's diameter as a share of its die's side; raising it expects smaller dice for the pips found.
    pip_share: float = 0.18
    #: The smallest die whose pips are looked for, as a share of the picture's longer side;
    #: raising it ignores smaller dice.
    smallest_die: float = 0.03
    #: Share of a one's plain disc that may differ from its face; raising it takes more off-centre ones.
    one_off_face: float = 0.03
    #: The difference (0-255) from the face that counts as "differs" for ``one_off_face``.
    off_face_level: int = 40
    #: The reach of a two's second pip from its first, in die sides (least, most).
    two_reach: tuple[float, float] = (0.55, 0.95)
    #: A two's pips differ in area by at most this factor (renders: a one's pip and a side face's pip,
    #: foreshortened beside it, 1.97-2.05; twos' own: mock tray 139's 1.64, render 21's 1.66); raising it
    #: takes more such pairs for twos.
    two_areas: float = 1.8
    #: A one found from its pip lies this many sides or more from every die read (touching dice: 0.93-1.0,
    #: renders 510, 537; a die's side-face pips lie nearer); raising it refuses more ones beside dice.
    one_clear: float = 0.9

    def __post_init__(self):
        _check(self, {"sure": (0.0, 1.0), "most": (0.0, 1.0), "one_most": (0.0, 1.0), "front_slant": (0.0, 1.0),
                      "least_slant": (0.0, 1.0), "blocking": (0.0, 1.0), "pip_share": (0.01, 1.0),
                      "smallest_die": (0.0, 1.0), "one_off_face": (0.0, 1.0), "off_face_level": (1, 255),
                      "two_reach": (0.0, 3.0), "two_areas": (1.0, 10.0),
                      "one_clear": (0.5, 3.0)})


@dataclass(frozen=True)
class LearnedConfig:
    """The learned second look (:mod:`vision.learned`, :mod:`vision.facenet`)."""

    #: The confidence shown for a die the classifier alone found or reread (it is doubted).
    most: float = 0.6
    #: Larger die sides (times the dice read) searched when dice are missing; more entries search more sizes.
    larger: tuple[float, ...] = (1.3, 1.7)
    #: Without a count, a one found at a size beyond this (times the dice read) is not taken.
    #: Raising it takes more round spots as ones.
    ones_upto: float = 1.3
    #: The classifier's "no die" probability that drops a weak die; raising it drops fewer.
    no_die_sure: float = 0.97
    #: The classifier's sureness of another value that rereads a weak die; raising it rereads fewer.
    rejudge_sure: float = 0.9
    #: The same for a faint die (under 0.5, or with a free mark: ``Die.free_mark``); raising it rereads fewer.
    rejudge_faint: float = 0.5
    #: Crop sides (times the die's size) the classifier rejudges at without a calibration.
    rejudge_sides: tuple[float, ...] = (1.0, 1.2, 1.4)
    #: The classifier's agreement that confirms a weak die as sure; raising it confirms fewer.
    confirm_sure: float = 0.95
    #: The same for a die seen at a slant (flatter than the front slant); raising it confirms fewer.
    confirm_slanted: float = 0.99
    #: A weak die within these times the dice's side is looked at at its own size too.
    confirm_own_size: tuple[float, float] = (0.8, 1.25)
    #: A sure die whose value gets less than this share of the classifier's die probability is vetoed.
    #: Raising it vetoes more.
    veto_share: float = 0.1
    #: The confidence shown for a vetoed die (it is doubted).
    vetoed_most: float = 0.6
    #: The first search takes dice whose value gets this share of the die probability; raising it finds fewer.
    find_value: float = 0.9
    #: The second search's share, where the first left dice missing; raising it finds fewer.
    find_value_next: float = 0.7
    #: A searched place is a die when the classifier gives it this die probability; raising it finds fewer.
    find_die: float = 0.98
    #: In a calibrated tray, a die found with this probability or more whose classical pips say the same
    #: value is sure (:func:`vision.pip_test.pips_confirm`); raising it confirms fewer (above 1: none).
    confirm_found: float = 0.9
    #: ... its pips counted within this many sides of the place found; raising it counts farther pips.
    confirm_reach: float = 0.55
    #: ... and no other pip of theirs lies within this many sides of their middle; raising it confirms fewer.
    confirm_alone: float = 0.85
    #: ... for a face of three pips or more, this many (their middle is the face's: a pip it lacks lies within
    #: about 0.36, a touching die's pips 0.65 or more; renders: found fours, fives and sixes beside another die
    #: unconfirmed at 0.85); raising it confirms fewer.
    confirm_alone_face: float = 0.6
    #: In a calibrated tray, a die the classifier read as another value is sure when the classical pip test
    #: at its place reads that value too (as a found die, above; :func:`vision.reader.reread_confirmed`); 0 never.
    confirm_reread: int = 1
    #: In a calibrated tray, a weak reading the classifier left out as no die leaves the read sure when the dice
    #: left, all sure, make the count due (:func:`vision.reader.read_throw`); 0 never (such a read is asked).
    no_die_counted: int = 1
    #: In a calibrated tray, a die read surely that the classical pip test at its place reads as one larger
    #: value, not its own, is doubted (:func:`vision.pip_test.more_pips`; render trays-00623: a three with
    #: its middle pip lost, read as a sure two); 0 never (such dice stay sure, and such a read is scored).
    recount_sure: int = 1
    #: How near (die sides) the pip test's pips must lie to each pip the die was read with, and their middle
    #: to the middle of those, for the recount above to doubt it; raising it doubts more dice (mock tray 110:
    #: a one whose pip and its side face's the test took for a two 0.3 side off the one's middle).
    recount_near: float = 0.12
    #: In a calibrated tray with the count due, the dice not read surely are read again as the whole faces
    #: their pips make where the pip test and the classifier agree on each (:func:`vision.whole_face.cluster_faces`;
    #: render trays-00602: three touching dice read as four); 0 never (such reads are asked).
    cluster_faces: int = 1
    #: In a calibrated tray, a sure two the classifier agrees with at its pips' middle less than this and reads
    #: as a one at one pip is that one or asked (:func:`vision.whole_face.one_in_two`; renders trays-00658, -00689:
    #: a one and its side face's pip); raising it looks at more twos (mock 0: a two agreed 0.93); 0 never.
    one_in_two: float = 0.5
    #: A die found is read at these times the side searched, keeping the side surest of a die.
    find_sides: tuple[float, ...] = (1.0, 0.8, 1.25)
    #: Beyond this many places to look at, the scene is too busy to search; raising it searches busier scenes.
    most_crops: int = 2500
    #: A place is searched when this share of the square 0.6 side round it stands out from the smoothed
    #: background; raising it searches fewer places (faint dice may be missed).
    search_density: float = 0.15
    #: Where the count is due and the read short of it in a calibrated tray, the search tries places down to
    #: this share (a die of the felt's colour shows only its pips: mock tray 195's blue two on blue felt, its
    #: square about 0.1 standing out); raising it searches fewer places there (above ``search_density``: as
    #: elsewhere).
    search_density_short: float = 0.08
    #: Two dice found lie at least this many sides apart; raising it merges more near places into one die.
    found_apart: float = 0.85
    #: Where the count is due and the read short of it in a calibrated tray, a searched place given this die
    #: probability or more, yet under ``find_die``, is looked at again half a grid step round it, a die found
    #: there taken where its pips confirm it (the network's peak is narrower than the grid of a quarter side:
    #: mock trays 137, 212, a die touching two others found at one grid's alignment, not at another's);
    #: raising it looks again round fewer places (above ``find_die``: none).
    refine_from: float = 0.5
    #: A die found lies on the table: this share of a ring round it is plain table or known dice.
    #: Raising it refuses more finds in clutter.
    on_table: float = 0.25
    #: The table's own colour is within this Lab distance of the median colour; raising it counts more as table.
    table_near: float = 15.0
    #: Or that colour in shade: darker by at most this (Lab L); raising it counts deeper shade as table.
    table_shade_l: float = 40.0
    #: ... with its chroma within this of the table's; raising it counts other colours as table.
    table_shade_chroma: float = 10.0

    def __post_init__(self):
        unit = (0.0, 1.0)
        _check(self, {"most": unit, "larger": (1.0, 4.0), "ones_upto": (1.0, 4.0), "no_die_sure": unit,
                      "rejudge_sure": unit, "rejudge_faint": unit, "rejudge_sides": (0.5, 3.0),
                      "confirm_sure": unit, "confirm_slanted": unit, "confirm_own_size": (0.1, 10.0),
                      "veto_share": unit, "vetoed_most": unit, "find_value": unit, "find_value_next": unit,
                      "find_die": unit, "confirm_found": (0.0, 1.01), "confirm_reach": (0.3, 1.0),
                      "confirm_alone": (0.3, 2.0), "confirm_reread": (0, 1), "no_die_counted": (0, 1),
                      "recount_sure": (0, 1), "recount_near": (0.02, 0.5), "cluster_faces": (0, 1), "one_in_two": unit,
                      "confirm_alone_face": (0.3, 2.0), "find_sides": (0.3, 3.0), "most_crops": (1, 10**6),
                      "search_density": unit, "search_density_short": unit, "refine_from": (0.0, 1.01),
                      "found_apart": (0.0, 3.0), "on_table": unit, "table_near": (0.0, 255.0),
                      "table_shade_l": (0.0, 255.0), "table_shade_chroma": (0.0, 255.0)})


@dataclass(frozen=True)
class VerdictConfig:
    """The checks of the verdict (:mod:`vision.verdict`)."""

    #: Within 0.4 side of a die's centre, the 99th percentile colour distance (Lab) from the face's median
    #: is at least this, or it is no die (a blank hole, a coin). Raising it drops faint dice.
    pips_show: float = 15.0
    #: The face is looked at shrunk to at most this many pixels across; raising it looks at finer detail.
    pips_look: int = 24
    #: In a calibrated tray, a sure die with a spot like its pips this many sides from their middle that
    #: is none of them nor another die's is doubted (:func:`vision.verdict.pip_beside`); raising it
    #: doubts more dice.
    beside: float = 0.9
    #: ... for a face of three pips or more whose pips read span it (two at least ``faces.corners_apart`` of
    #: the dice's side apart: opposite corners), within this many of the dice's sides only: any pip of that
    #: face it lacks lies within about 0.36 of their middle, a side face's pips seen by a near camera 0.6-0.9
    #: (renders: 3 reads asked for them). Raising it doubts such faces for spots farther out.
    beside_spanned: float = 0.5
    #: ... and for a two whose pips lie no farther apart than this share of the other whole faces' pip
    #: spans (their farthest pips: a face's diagonal, the same on every face of 2-6 pips; two touching
    #: dice's middle pips lie 1.4 of it or more apart; mock trays 162, 174, 203 asked for a near camera's
    #: side-face pips beside a two). Raising it treats wider twos so.
    two_spans: float = 1.15

    def __post_init__(self):
        _check(self, {"pips_show": (0.0, 255.0), "pips_look": (8, 256), "beside": (0.0, 2.0), "beside_spanned": (0.0, 2.0),
                      "two_spans": (0.0, 2.0)})


@dataclass(frozen=True)
class PipTestConfig:
    """The classical pip test (:func:`vision.pip_test.pips_confirm`, :func:`vision.pip_test.pip_spots`):
    round spots of a pip's size at a die's place, counted and laid out as its value's face. Sizes are
    shares of the die's side (areas of its square)."""

    #: The black-hat (dark pips) or top-hat (light pips) width; raising it takes larger, fainter spots for
    #: pips (and more of a face's shaded edge), lowering it loses pips nearly as wide as it.
    hat: float = 0.45
    #: The largest spot (its area) taken as one pip before it is looked into again; raising it takes
    #: larger blots (pips run together, a shadow's core) for pips.
    spot_most: float = 0.08
    #: The least fill of its box a spot must have; raising it drops more pips cut or run into marks.
    roundness: float = 0.5
    #: Spots at most this wide and high are looked into again over Otsu's level (pips run together, a pip
    #: run into the shade between touching dice, 1.4 sides high in mock tray 5: 1.2 before issue 38's
    #: twenty-second round); raising it splits larger blots.
    split_within: float = 2.0
    #: A spot within this distance of a pip of a die read is that die's, and left out; raising it
    #: leaves out more spots beside dice read (a touching die's own pips).
    owned: float = 0.15
    #: The pips' middle lies within this distance of the die's place (a one: ``one_middle``); raising
    #: them takes pips further off the place looked at (a neighbour's).
    middle: float = 0.3
    one_middle: float = 0.25
    #: The farthest pip from their middle lies within this range (a face's corners, not a pip cluster
    #: or two dice's pips); widening it takes looser patterns for faces.
    corner_span: tuple = (0.25, 0.5)
    #: The least fit of the pips to their face's pattern (:func:`vision.face._pattern_fit`); raising it
    #: takes only faces seen squarer.
    pattern_fit: float = 0.9
    #: A face's pips are of one size: their areas within this factor of each other (a larger one first
    #: cut to its core); raising it takes a blot beside pips for a pip.
    sizes: float = 2.5

    def __post_init__(self):
        _check(self, {"hat": (0.05, 2.0), "spot_most": (0.0, 1.0), "roundness": (0.0, 1.0),
                      "split_within": (0.0, 5.0), "owned": (0.0, 1.0), "middle": (0.0, 1.0),
                      "one_middle": (0.0, 1.0), "corner_span": (0.0, 2.0), "pattern_fit": (0.0, 1.0),
                      "sizes": (1.0, 20.0)})
        if len(self.corner_span) != 2 or self.corner_span[0] > self.corner_span[1]:
            raise ConfigError(f"corner_span must be (least, most), got {self.corner_span!r}")


@dataclass(frozen=True)
class ReaderConfig:
    """All tuned numbers of the reader, grouped by stage.

    Top level: the working scale and the verdict's threshold. Groups:
    ``faces`` (:class:`FaceConfig`), ``pips`` (:class:`PipsConfig`),
    ``learned`` (:class:`LearnedConfig`), ``verdict`` (:class:`VerdictConfig`),
    ``colours`` (:class:`ColourConfig`, naming pip colours), ``board``
    (:class:`BoardConfig`, dice on a board of fields), ``tray``
    (:class:`TrayConfig`, finding the tray at calibration) and ``pip_test``
    (:class:`PipTestConfig`, the classical pip test).
    Raises :class:`ConfigError` for a number out of its range.
    """

    #: The longer image side (px) the reader works at; raising it reads small dice better, slower.
    work_size: int = 1024
    #: The colour distance (Lab) a die stands out from the table by; raising it finds fewer, clearer dice.
    min_contrast: float = 22.0
    #: The least die side, as a share of the longer image side; raising it ignores smaller things.
    min_die: float = 0.012
    #: The largest die side, as a share of the longer image side; raising it takes larger things as dice.
    max_die: float = 0.25
    #: Dice read with less confidence are dropped; raising it drops more weak dice (and may miss dice).
    min_confidence: float = 0.3
    #: A die is sure with at least this confidence and no doubt; raising it asks the players more often.
    sure: float = 0.8
    #: With a calibrated die size, the image is scaled so a die is this many px; raising it is slower.
    work_die: float = 56.0
    faces: FaceConfig = field(default_factory=FaceConfig)
    pips: PipsConfig = field(default_factory=PipsConfig)
    learned: LearnedConfig = field(default_factory=LearnedConfig)
    verdict: VerdictConfig = field(default_factory=VerdictConfig)
    colours: ColourConfig = field(default_factory=ColourConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    tray: TrayConfig = field(default_factory=TrayConfig)
    pip_test: PipTestConfig = field(default_factory=PipTestConfig)

    def __post_init__(self):
        _check(self, {"work_size": (64, 8192), "min_contrast": (0.0, 255.0), "min_die": (0.0, 1.0),
                      "max_die": (0.0, 1.0), "min_confidence": (0.0, 1.0), "sure": (0.0, 1.0),
                      "work_die": (8.0, 512.0)})
        if self.min_die >= self.max_die:
            raise ConfigError(f"min_die ({self.min_die}) must be less than max_die ({self.max_die})")
        for name, cls in (("faces", FaceConfig), ("pips", PipsConfig), ("learned", LearnedConfig),
                          ("verdict", VerdictConfig), ("colours", ColourConfig), ("board", BoardConfig),
                          ("tray", TrayConfig), ("pip_test", PipTestConfig)):
            if not isinstance(getattr(self, name), cls):
                raise ConfigError(f"{name} must be a {cls.__name__}, got {type(getattr(self, name)).__name__}")

    @property
    def sure_confidence(self) -> float:
        """The old name of :attr:`sure`."""
        return self.sure

    @classmethod
    def from_dict(cls, data: dict) -> "ReaderConfig":
        """A config from plain data (a TOML table): top-level numbers and the groups'
        tables. Raises :class:`ConfigError` for an unknown key or a bad number."""
        groups = {"faces": FaceConfig, "pips": PipsConfig, "learned": LearnedConfig, "verdict": VerdictConfig,
                  "colours": ColourConfig, "board": BoardConfig, "tray": TrayConfig, "pip_test": PipTestConfig}
        kw = {}
        for k, v in data.items():
            if k in groups:
                if not isinstance(v, dict):
                    raise ConfigError(f"{k} must be a table")
                try:
                    kw[k] = groups[k](**{n: tuple(x) if isinstance(x, list) else x for n, x in v.items()})
                except TypeError as e:
                    raise ConfigError(f"{k}: {e}") from None
            elif k in {f.name for f in fields(cls)}:
                kw[k] = v
            else:
                raise ConfigError(f"unknown reader setting {k!r}")
        return cls(**kw)


#: The default configuration.
DEFAULT = ReaderConfig()
