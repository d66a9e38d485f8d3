"""How a game went, for the end screen: turns, throws, marks and misthrows per player.

Worked out by replaying the game's events on a fresh board, so it needs
nothing but the event stack (python-chess style: the moves are the record).

Example::

    >>> from companion.durchmarsch import Durchmarsch
    >>> g = Durchmarsch(["Sarah", "Tim"])
    >>> _ = g.throw([6, 4, 1, 1, 1, 1, 1, 1]); g.decide("continue")
    >>> _ = g.throw([5, 4, 1, 1, 1, 1, 1]); g.decide("stop")
    >>> _ = g.throw([1, 1, 1, 1, 1, 1, 1, 1])          # Tim: no 10, misthrow
    >>> [(s.name, s.turns, s.marks, s.misthrows, s.best_turn) for s in game_stats(g)]
    [('Sarah', 1, 2, 0, 2), ('Tim', 1, 0, 1, 0)]
"""

from __future__ import annotations

from dataclasses import dataclass

from .durchmarsch import Durchmarsch, Throw

__all__ = ["PlayerStats", "game_stats"]


@dataclass(frozen=True)
class PlayerStats:
    """One player's game.

    ``turns``: turns begun; ``throws``: throws made; ``marks``: numbers crossed
    off in rows not struck out (ruling R7: a struck row's marks no longer
    count); ``misthrows``: misthrow boxes ticked; ``rows_struck``: rows struck
    out (0-4); ``best_turn``: most numbers crossed off in one turn;
    ``eliminated``: all four rows struck.
    """

    name: str
    turns: int
    throws: int
    marks: int
    misthrows: int
    rows_struck: int
    best_turn: int
    eliminated: bool


def game_stats(game: Durchmarsch) -> tuple[PlayerStats, ...]:
    """Per-player statistics of ``game`` (finished or not), in seating order."""
    board = Durchmarsch(game.players, first=game.first)
    n = len(game.players)
    turns, throws, best = [0] * n, [0] * n, [0] * n
    run_player, run = None, 0
    for ev in game.events:
        p = board.current_player
        if isinstance(ev, Throw):
            if run_player != p:
                turns[p] += 1
                run_player, run = p, 0
            throws[p] += 1
            if board.throw(ev.values).success:
                run += 1
                best[p] = max(best[p], run)
        else:
            board.decide(ev.decision)
        if board.is_over or board.current_player != p:
            run_player = None  # the turn passed on
    out = []
    for i, sheet in enumerate(board.sheets):
        out.append(PlayerStats(
            name=sheet.name, turns=turns[i], throws=throws[i],
            marks=sum(r.marked for r in sheet.rows if not r.struck),
            misthrows=sum(r.misthrows for r in sheet.rows),
            rows_struck=sum(r.struck for r in sheet.rows),
            best_turn=best[i], eliminated=sheet.eliminated))
    return tuple(out)
