"""The reader config's group for finding the tray at calibration (a part of :mod:`vision.config`,
kept in its own file for the files' size; import it from there)."""

from __future__ import annotations

from dataclasses import dataclass

from .config_base import _check

__all__ = ["TrayConfig"]


@dataclass(frozen=True)
class TrayConfig:
    """Finding the tray at calibration by growing it from the picture's middle (:func:`vision.calibrate.find_tray`)."""

    #: The longer side (px) the picture is grown at; raising it follows thin tray walls, slower.
    work: int = 320
    #: The colour step (Lab, per channel) between neighbours the tray grows over; raising it lets the
    #: region cross fainter edges (leaks into a table of the tray's colour), lowering it stops at light fall-off.
    step: float = 3.0
    #: The farthest (Lab; lightness counted half) a tray pixel lies from the middle's colour; raising it
    #: takes in more shading, and more of a table of the tray's colour.
    bound: float = 30.0
    #: A step of lightness (Lab, per px) the tray does not grow over, a rim's or wall's edge; lowering it
    #: stops the region at fainter edges (and at a felt's grain), raising it lets it leak over a low rim.
    edge: float = 6.0
    #: The least share of a grown tray's convex outline that runs along the grown region (a square or
    #: round tray: nearly all, less where dice lie against its wall); raising it refuses more ragged
    #: regions (then the colours are clustered instead).
    solid: float = 0.8
    #: How far (px of the work size) the felt's colour beyond the grown region (its shade along the walls)
    #: joins it; raising it reaches into deeper shade, and into a table of the felt's colour.
    margin: int = 4
    #: How far (px of the work size) the felt in a wall's cast shadow (darker, its colour dimmed with
    #: it) beyond the grown region joins it: a die lying in the shadow lies in the tray; raising it
    #: reaches into deeper bands, and over a dark rim into a dark table of the felt's hue.
    shade_reach: int = 24
    #: How far (Lab a, b) a shaded pixel's colour may lie from the felt's colour dimmed to its lightness;
    #: raising it takes more of a shaded band, and a table's colour near the felt's, for felt.
    shade_chroma: float = 10.0
    #: The least share of what the shade adds to the tray's outline that is shaded felt; lowering it
    #: takes patchier bands (and leaks into a grained table of the felt's hue).
    shade_fill: float = 0.85
    #: The most a grown tray's outline may widen (its area, times) by taking in the felt in shade or the
    #: felt's colour beyond where the tray grew (a wall's shadow band, the felt beyond a shadow's sharp edge:
    #: renders trays-00941 and 00951 need 1.25); more is a leak into a table of the felt's hue (render
    #: trays-00962: a dark wood table as the tan felt in shade, 1.63). Raising it takes wider bands, and leaks.
    widest: float = 1.5
    #: In a read, a part of the picture far too big for a die that lies ``on_wall`` of it or more within
    #: ``wall_band`` die sides of the tray's outline found (or beyond it) is the tray's wall or rim, no
    #: foreign thing (an outline found out to the rim: render trays-00962's light walls and their shade lie
    #: 0.81 within one side, all within 1.5). Lowering ``on_wall`` or raising ``wall_band`` takes a hand
    #: reaching less far in (resting on the rim) for the wall.
    on_wall: float = 0.9
    #: ... (see ``on_wall``).
    wall_band: float = 1.5
    #: In a read, the felt in shade (its colour dimmed) this many die sides from the tray's outline is
    #: tray, not a foreign thing; raising it takes dark things farther in (a black cup) for shade.
    shade_walls: float = 2.5
    #: The least share of the picture a grown tray covers (a 23×17 cm tray from 50 cm covers about a
    #: tenth); lowering it takes smaller regions for the tray (a plate, a sheet of paper).
    least: float = 0.04
    #: Along the tray's outline, a band this share of a die side wide is not searched for foreign things
    #: (the wall, the rim, the table just beyond an outline found a little wide); raising it misses
    #: more of what lies against the wall.
    rim: float = 0.3
    #: How much the grown outline is widened (share of its size) to reach the tray's edge.
    grow: float = 0.02
    #: In a read with a calibrated die size, the tray's outline is widened by this many die sides: a die
    #: against a wall lies with its middle half a side from the wall, and the felt found (up to the walls'
    #: shade) may stop short of the wall by more than that (renders: 20 dice against a wall missed or cut
    #: by the outline). Raising it also takes in dice set aside against the tray's outer rim.
    wall_reach: float = 0.6
    #: At calibration, where no die was read surely at the size the picture's parts suggest (each die's
    #: shadow or its translucent body's glow taken into its outline: renders measured 2 sides), the dice
    #: are read at sides from this share of the tray's shorter side to that (dice 12-25 mm in trays of
    #: 16-28 cm: 0.05-0.16) (:func:`vision.calibrate.searched_sizes`); (0, 0) never. Widening it costs
    #: a read per step.
    size_search: tuple[float, float] = (0.05, 0.2)
    #: ... in steps of this factor; raising it reads fewer sizes (a die between two read less surely).
    size_step: float = 1.15
    #: ... and a side is the dice's where at least ``size_dice`` dice are read surely at it, the median of
    #: their sides within this share of it; raising it takes sizes the dice read disagree with more.
    size_agree: float = 0.15
    #: ... (the side with the most such dice is taken); raising it needs more dice in the tray.
    size_dice: int = 2
    #: At calibration, the dice's outlines (the median side of those read surely) may be at most this many
    #: times the side their pips say (:func:`vision.calibrate.pips_side`), and at least its inverse;
    #: beyond, the outlines took in the dice's shadows or glow (or were read in part) and the dice are
    #: sized by their pips. Whole outlines over pips: the mock trays' calibrations 1.08 (median), 1.2 at
    #: the 95th percentile, 1.37 at most (a low camera's side faces); renders' 1.0, and 1.5-2 where they
    #: took in shadows. Also the agreement of a die's size with its pips in the size search (a side where
    #: pips were read as dice agrees with none; at 1.4, render 458's did). Raising it trusts outlines
    #: further from their pips.
    outline_over_pips: float = 1.3
    #: In a calibrated read short of its count, a pip left over is looked at as a die of the felt's colour
    #: (:func:`vision.felt_dice.felt_dice`) only this many die sides or more from every die read (a near
    #: camera's side-face pips lie 0.5-0.75 side from their die's middle, a touching die's face pips 0.8
    #: or more); raising it misses dice of the felt's colour touching a die read, lowering it takes side
    #: faces' pips and glints for dice.
    felt_clear: float = 0.8
    #: ... pips left over nearer each other than this many die sides are one face (a two's lie 0.76 apart
    #: on its diagonal); raising it joins two dice's pips into one face (then tested and refused).
    felt_link: float = 0.8
    #: ... a face's middle lies this many die sides or more inside the tray's outline (a die against a wall:
    #: 0.5); raising it misses dice against the walls, lowering it takes marks on the rim for dice.
    felt_inset: float = 0.5
    #: ... a dark spot within this many die sides of a light one is the shade in a light pip's hollow, no
    #: pip (mock tray 195: 0.15); raising it refuses dark pips farther from light marks.
    felt_shade: float = 0.3
    #: ... the face round the pips is the felt's colour: ``felt_plain`` of it lies within this of the tray's
    #: colour (Lab, lightness counted half) in each channel (dice of the felt's colour, mock trays: their
    #: median up to 14 off; a hand's skin over a render's tray: 59-66); raising it takes faces of other
    #: colours (a hand, a card) for dice.
    felt_colour: float = 20.0
    #: ... the share of the face round the pips (a disc of radius 0.42 side, less the pips) that must be the
    #: felt's colour (mock trays: 0.996-1; renders' dice 0.87-0.92; a glossy die's lit side face under one
    #: pip of its dark top, render trays-00371: 0.56); raising it refuses dice whose edges catch the light.
    felt_plain: float = 0.75

    def __post_init__(self):
        _check(self, {"size_search": (0.0, 1.0), "size_step": (1.01, 2.0), "size_agree": (0.0, 1.0),
                      "size_dice": (1, 64), "outline_over_pips": (1.0, 10.0),
                      "work": (64, 2048), "step": (0.5, 50.0), "bound": (1.0, 255.0), "solid": (0.0, 1.0),
                      "grow": (0.0, 0.2), "edge": (0.5, 255.0), "least": (0.0, 1.0), "margin": (0, 64), "rim": (0.0, 2.0),
                      "wall_reach": (0.0, 3.0), "shade_reach": (0, 256), "shade_chroma": (0.0, 255.0),
                      "shade_fill": (0.0, 1.0), "widest": (1.0, 10.0), "on_wall": (0.0, 1.0), "wall_band": (0.0, 5.0),
                      "shade_walls": (0.0, 20.0), "felt_clear": (0.0, 3.0),
                      "felt_link": (0.0, 2.0), "felt_inset": (0.0, 3.0), "felt_shade": (0.0, 1.0), "felt_colour": (0.0, 255.0),
                      "felt_plain": (0.0, 1.0)})
