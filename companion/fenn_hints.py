"""Perfect-play hints for Fenn: every turn the player can make, with its value.

The values come from :func:`companion.fenn_solver.solve` (a retrograde analysis
of every position, about 0.6 s on the development machine). A
:class:`HintBook` solves once per settings in a background thread, or loads
the table cached on disk, so the screen never waits; :meth:`HintBook.hints`
is empty until the table is ready.

Example::

    >>> from companion.fenn import BlackThrow, Fenn
    >>> g = Fenn(["Anna", "Ben"]); g.apply(BlackThrow(6))
    >>> g.set_position(blue=(7, 2), red=(8, 1), black=3)
    >>> book = HintBook(g.settings); book.wait(30)
    True
    >>> best = book.hints(g)[0]
    >>> best.field, best.value, best.plies
    (9, 'win', 1)
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
import time
from dataclasses import dataclass

from .fenn import BLACK_FACES, GOAL, Fenn

__all__ = ["Hint", "HintBook", "hints", "ranked", "hints_used"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Hint:
    """One end of the current turn and its value for the player to move.

    ``field``, ``top``: where the mover's die ends and its top face; ``black``:
    the black die's top then. ``value``: ``"win"``, ``"loss"`` or ``"draw"``
    with perfect play from there; ``plies``: turns of either player until the
    end, this one counted (None for a draw). ``path``: one sequence of the
    engine's events that plays it (F15).
    """

    field: int
    top: int
    black: int
    value: str
    plies: int | None
    path: tuple = ()

    @property
    def rank(self) -> tuple:
        """Sorts best first: the fastest win, then the draw, then the slowest loss."""
        order = {"win": 0, "draw": 1, "loss": 2}[self.value]
        return (order, self.plies if self.value == "win" else -(self.plies or 0), self.field, self.top, self.black)


def hints(game: Fenn, table: dict) -> list[Hint]:
    """Every end of the current turn of ``game`` with its value under ``table``
    (:func:`companion.fenn_solver.solve` under the game's settings), best first.
    Empty when no turn is due (the start throws, the game over, a pass)."""
    pos = game.position()
    mover = pos.to_move
    out = []
    for (field, top, black), path in game.turn_ends().items():
        if field == GOAL[mover]:
            out.append(Hint(field, top, black, "win", 1, tuple(path)))
            continue
        dice = list(pos.dice)
        dice[mover] = (field, top)
        value, plies = table.get((tuple(dice), black, 1 - mover), ("draw", None))
        if value == "draw":
            out.append(Hint(field, top, black, "draw", None, tuple(path)))
        else:  # the opponent's value, seen from the mover, one ply later
            out.append(Hint(field, top, black, "win" if value == "loss" else "loss", plies + 1, tuple(path)))
    return ranked(out)


def hints_used(store, game_id: int, players) -> dict[str, int]:
    """How many hints each of ``players`` asked for in game ``game_id``, from the
    store's ``"hint"`` notes (:meth:`companion.storage.Store.notes`)."""
    counts = {n: 0 for n in players}
    for _seq, _kind, data in store.notes(game_id, "hint"):
        if data.get("player") in counts:
            counts[data["player"]] += 1
    return counts


def ranked(items: list[Hint]) -> list[Hint]:
    """``items`` best first (:attr:`Hint.rank`)."""
    return sorted(items, key=lambda h: h.rank)


class HintBook:
    """The solved table for one set of Fenn settings, made in the background.

    ``settings``: ``{"faces", "stuck", "dice"}`` (a game's ``settings``).
    ``cache_dir``: where the table is kept between runs (``fenn-solved-*.json``),
    or None. The table is loaded or solved on a daemon thread started at once;
    :attr:`ready` says when it is there, :attr:`seconds` how long it took.
    """

    def __init__(self, settings: dict, *, cache_dir: str | None = None):
        self.settings = {"faces": "any", "stuck": "pass", "dice": "miwin", **settings}
        self.cache_dir = cache_dir
        self.table: dict | None = None
        self.seconds: float | None = None
        self.source = ""
        self._done = threading.Event()
        threading.Thread(target=self._make, name="fenn-solver", daemon=True).start()

    @property
    def ready(self) -> bool:
        """True once the table is loaded or solved."""
        return self._done.is_set() and self.table is not None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds for the table; True when it is ready."""
        self._done.wait(timeout)
        return self.ready

    def hints(self, game: Fenn) -> list[Hint]:
        """The hints for ``game`` now (:func:`hints`); empty until :attr:`ready`
        or when the game's settings are not the book's."""
        if not self.ready or {**self.settings, **game.settings} != self.settings:
            return []
        return hints(game, self.table)

    def _path(self) -> str | None:
        if self.cache_dir is None:
            return None
        s = self.settings
        return os.path.join(self.cache_dir, f"fenn-solved-{s['faces']}-{s['stuck']}-{s['dice']}.json")

    def _make(self) -> None:
        t0 = time.perf_counter()
        try:
            self.table = self._load()
            self.source = "cache" if self.table is not None else "solved"
            if self.table is None:
                from .fenn_solver import solve

                self.table = solve(**self.settings)
                self._save()
        except Exception:  # hints are a help: the game goes on without them
            log.exception("the Fenn solver failed; no hints")
        finally:
            self.seconds = time.perf_counter() - t0
            self._done.set()

    def _load(self) -> dict | None:
        path = self._path()
        if path is None or not os.path.exists(path):
            return None
        try:
            with open(path) as f:
                rows = json.load(f)["positions"]
            table = {(((r[0], r[1]), (r[2], r[3])), r[4], r[5]): (r[6], r[7]) for r in rows}
            if not all(b in BLACK_FACES for (_, b, _) in table) or not table:
                raise ValueError("not a solved table")
            return table
        except (OSError, ValueError, KeyError, TypeError, IndexError) as e:  # a broken cache is solved again
            log.warning("Fenn table %s unreadable (%s); solving again", path, e)
            return None

    def _save(self) -> None:
        path = self._path()
        if path is None:
            return
        rows = [[d[0][0], d[0][1], d[1][0], d[1][1], b, m, v, p] for (d, b, m), (v, p) in self.table.items()]
        try:
            os.makedirs(self.cache_dir, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.cache_dir, suffix=".tmp")
            with os.fdopen(fd, "w") as f:
                json.dump({"settings": self.settings, "positions": rows}, f, separators=(",", ":"))
            os.replace(tmp, path)
        except OSError as e:  # a full card: solved again next time
            log.warning("Fenn table not cached: %s", e)
