"""How a game went, for the end screen: turns, throws, marks and misthrows per player;
and across the stored games, each player's totals and a group's rematch tally.

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

from dataclasses import asdict, dataclass

from .durchmarsch import Durchmarsch, Throw

__all__ = ["turn_reached", "stale_games",
           "PlayerStats", "game_stats", "PlayerTotals", "totals", "game_totals", "FennTotals", "fenn_totals",
           "fenn_game_totals", "rematch_tally", "throw_history"]


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


@dataclass(frozen=True)
class PlayerTotals:
    """One player's games across the store (names told apart as people read
    them: :func:`companion.game.name_key`).

    ``games``: Durchmarsch games played to the end; ``wins``; ``rows_completed``:
    rows with every number crossed off; ``misthrows``; ``longest_march``: most
    numbers crossed off in one turn, in any game.
    """

    name: str
    games: int
    wins: int
    rows_completed: int
    misthrows: int
    longest_march: int

    def to_dict(self) -> dict:
        """JSON-ready form (``companion stats --json``)."""
        return asdict(self)


def _parts(store, kind: str, part, *, won: bool = False, cache: dict | None = None):
    """``part(summary, game)`` for each finished game of ``kind`` in ``store``
    (with ``won``, only those with a winner: the others are not loaded); a
    game that cannot be read is left out and logged. ``cache`` (a dict kept by
    the caller for one database): each game's part is kept under its stored
    line (id, events, end, winner), and a game found there is not loaded again."""
    import logging

    from .storage import StorageError

    for g in store.games():
        if g.game != kind or g.finished is None or (won and g.winner is None):
            continue
        key = (kind, g.id, g.events, g.finished, g.winner)
        if cache is not None and key in cache:
            yield cache[key]
            continue
        try:
            p = part(g, store.load(g.id).game)
        except StorageError as e:
            logging.getLogger(__name__).warning("stats: %s", e)
            continue
        if cache is not None:
            cache[key] = p
        yield p


def _sum(parts, cls, most=()):
    """Each player's figures summed over the games' ``parts`` (tuples of ``cls``),
    names told apart as people read them; the fields in ``most`` take the
    largest instead. Most wins first."""
    from .game import name_key

    acc: dict[str, dict] = {}
    for part in parts:
        for t in part:
            a = acc.get(name_key(t.name))
            if a is None:
                acc[name_key(t.name)] = asdict(t)
                continue
            for k, v in asdict(t).items():
                if k != "name":
                    a[k] = max(a[k], v) if k in most else a[k] + v
    out = [cls(**a) for a in acc.values()]
    return sorted(out, key=lambda t: (-t.wins, -t.games, t.name.casefold()))


def game_totals(game: Durchmarsch) -> tuple[PlayerTotals, ...]:
    """One finished Durchmarsch game as each player's :class:`PlayerTotals` (``games`` 1)."""
    return tuple(PlayerTotals(name=s.name, games=1, wins=int(s.name == game.winner),
                              rows_completed=sum(r.complete for r in sheet.rows), misthrows=s.misthrows,
                              longest_march=s.best_turn)
                 for s, sheet in zip(game_stats(game), game.sheets))


def totals(store, *, cache: dict | None = None) -> list[PlayerTotals]:
    """Every player's totals over the finished Durchmarsch games of ``store``
    (a :class:`companion.storage.Store`), most wins first. A game that cannot
    be read is left out (the log says which). ``cache``: see :func:`_parts`
    (the table's page keeps one, so a leaderboard costs one replay per new game)."""
    parts = _parts(store, "durchmarsch", lambda _g, game: game_totals(game), won=True, cache=cache)
    return _sum(parts, PlayerTotals, most=("longest_march",))


@dataclass(frozen=True)
class FennTotals:
    """One player's Fenn games across the store: ``games`` played to their end
    (a win, a loss or a draw: ruling F13; not those the players ended),
    ``wins``, ``draws``, ``losses``, ``hints`` asked for (Fenn's hints)."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int
    hints: int

    def to_dict(self) -> dict:
        """JSON-ready form (``companion stats --game fenn --json``)."""
        return asdict(self)


def fenn_game_totals(store, summary, game) -> tuple[FennTotals, ...]:
    """One stored Fenn game (``summary`` its :class:`companion.storage.StoredGame`)
    as each player's :class:`FennTotals`; empty for a game the players ended
    before its end."""
    from .fenn_hints import hints_used

    if game.outcome() is None:
        return ()
    used = hints_used(store, summary.id, game.players)
    return tuple(FennTotals(name=name, games=1, wins=int(name == game.winner), draws=int(game.winner is None),
                            losses=int(game.winner is not None and name != game.winner), hints=used[name])
                 for name in game.players)


def fenn_totals(store, *, cache: dict | None = None) -> list[FennTotals]:
    """Every player's totals over the Fenn games of ``store`` played to their
    end, most wins first. A game that cannot be read is left out (logged);
    ``cache`` as for :func:`totals`."""
    return _sum(_parts(store, "fenn", lambda g, game: fenn_game_totals(store, g, game), cache=cache), FennTotals)


def rematch_tally(store, players, *, game: str | None = None) -> dict[str, int]:
    """Wins per player over the finished games of this group (the same
    players, in any seats): the tally a rematch plays on. ``players``: names;
    ``game``: only games of this game's name (``"durchmarsch"``, ``"fenn"``;
    None: any)."""
    from .game import name_key

    group = sorted(name_key(p) for p in players)
    tally = {p: 0 for p in players}
    by_key = {name_key(p): p for p in players}
    for g in store.games():
        if g.finished is None or g.winner is None or sorted(name_key(p) for p in g.players) != group:
            continue
        if game is not None and g.game != game:
            continue
        tally[by_key[name_key(g.winner)]] += 1
    return tally


def throw_history(game: Durchmarsch) -> list:
    """The throws of ``game`` in order, each a :class:`companion.durchmarsch.ThrowResult`
    (who, values, target, the dice that formed it or a misthrow), for the history panel.

    >>> g = Durchmarsch(["Sarah", "Tim"])
    >>> _ = g.throw([6, 4, 1, 1, 1, 1, 1, 1]); g.decide("stop"); _ = g.throw([1] * 8)
    >>> [(g.players[r.player], r.target, r.success) for r in throw_history(g)]
    [('Sarah', 10, True), ('Tim', 10, False)]
    """
    board = Durchmarsch(game.players, first=game.first)
    out = []
    for ev in game.events:
        if isinstance(ev, Throw):
            out.append(board.throw(ev.values))
        else:
            board.decide(ev.decision)
    return out


def turn_reached(game) -> int:
    """The turn a game (Durchmarsch or Fenn, finished or not) has reached,
    counting every player's turns from 1: the turn being played, or the
    last one of a finished game. A game not begun is at turn 1."""
    if game.name == "fenn":
        from .fenn import Fenn

        g = Fenn(game.players, first=game.first, **game.settings)
        n = 0
        for e in game.events:
            n += g.prompt_state()["phase"] == "turn"
            g.apply(e)
        return max(1, n + (g.prompt_state()["phase"] == "turn" and not g.is_over))
    return max(1, sum(s.turns for s in game_stats(game)))


def stale_games(store, days: float, now: float | None = None) -> list:
    """The unfinished games of ``store`` (:class:`companion.storage.StoredGame`,
    newest first) started more than ``days`` days before ``now`` (seconds
    since the epoch; now by default): the settings screen offers to end them."""
    import time

    now = time.time() if now is None else now
    return [g for g in store.unfinished_games() if now - g.started > days * 86400]
