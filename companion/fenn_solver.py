"""Fenn solved: the value of every position for the player to move, by retrograde analysis.

A position is both dice's fields and top faces, the black die's top and the
player to move, with neither die on its goal field: 57 pairs of fields × 6 × 6
× 6 faces × 2 players = 24,624 under the default settings (``fenn.md``). Its
value for the player to move is a win, a loss or a draw, and for a win or a
loss the number of plies (turns of either player, the winning turn counting 1;
the winner plays fastest, the loser slowest). A draw is a position from which
neither player can force a win (F13's repetition is the only way out).

    >>> table = solve()
    >>> counts(table)
    {'win': 10598, 'loss': 218, 'draw': 13808}

Status: the solver of issue 31 (its CLI, its cache and the on-screen hints are
not built yet).
"""

from __future__ import annotations

from collections import deque

from .fenn import _OPPOSITE_BY_FACES, BLACK_FACES, BLUE, COLOURS, DICE, GOAL, RED

__all__ = ["solve", "counts", "turn_ends", "positions"]



def turn_ends(dice, black: int, mover: int, *, faces=None, tip: bool = False):
    """The ends of a turn from ``dice`` (``((blue field, top), (red field, top))``)
    with the black die on ``black``: a set of ``(field, top, black)`` of the
    mover, and ``"win"`` when the mover can reach its goal (F4-F10, F15)."""
    faces = faces or DICE["miwin"][COLOURS[mover]]
    opp = _OPPOSITE_BY_FACES[tuple(faces)]
    of, ot = dice[1 - mover]
    start = dice[mover][0]
    goal = GOAL[mover]
    out: set = set()
    seen: set = set()

    def walk(f: int, t: int) -> None:
        for nf in (f - 2, f - 1, f + 1, f + 2):
            if not 1 <= nf <= 9 or nf == start or nf == of or nf == black or nf == ot:
                continue
            for nt in faces:
                if nt == t or (tip and opp[t] == nt):
                    continue
                if nf == goal:
                    out.add("win")
                    continue
                out.add((nf, nt, black))  # the turn may end here
                if nt == black:  # Pasch: the black die to any other face, and the turn ends (F9)
                    out.update((nf, nt, b) for b in BLACK_FACES if b != black)
                if nt == nf and (nf, nt) not in seen:  # an extra step (F8)
                    seen.add((nf, nt))
                    walk(nf, nt)

    walk(*dice[mover])
    return out


def positions(dice_set: str = "miwin"):
    """Every position with neither die on its goal: ``(dice, black, to_move)``."""
    blue_faces, red_faces = DICE[dice_set]["blue"], DICE[dice_set]["red"]
    for bf in range(1, 9):
        for rf in range(2, 10):
            if bf == rf:
                continue
            for bt in blue_faces:
                for rt in red_faces:
                    for black in BLACK_FACES:
                        for mover in (BLUE, RED):
                            yield ((bf, bt), (rf, rt)), black, mover


def solve(*, faces: str = "any", stuck: str = "pass", dice: str = "miwin") -> dict:
    """``{position: (value, plies)}`` for every position (see the module text);
    value ``"win"``, ``"loss"`` or ``"draw"`` for the player to move, plies None for a draw."""
    tip = faces == "tip"
    succ: dict = {}
    preds: dict = {}
    result: dict = {}
    queue: deque = deque()
    for pos in positions(dice):
        d, black, mover = pos
        ends = turn_ends(d, black, mover, faces=DICE[dice][COLOURS[mover]], tip=tip)
        if "win" in ends:
            result[pos] = ("win", 1)
            queue.append(pos)
            continue
        nexts = set()
        for f, t, b in ends:
            nd = ((f, t), d[1]) if mover == BLUE else (d[0], (f, t))
            nexts.add((nd, b, 1 - mover))
        if not nexts:  # no step possible (F12)
            if stuck == "lose":  # lost at once: the opponent's last turn won it (0 plies left)
                result[pos] = ("loss", 0)
                queue.append(pos)
                continue
            nexts.add((d, black, 1 - mover))  # a pass
        succ[pos] = len(nexts)
        for q in nexts:
            preds.setdefault(q, []).append(pos)
    while queue:
        q = queue.popleft()
        value, plies = result[q]
        for p in preds.get(q, ()):
            if p in result:
                continue
            if value == "loss":  # p can move into a lost position: p wins, fastest first
                result[p] = ("win", plies + 1)
                queue.append(p)
            else:
                succ[p] -= 1
                if succ[p] == 0:  # every move of p leads to a won position: p loses, slowest last
                    result[p] = ("loss", plies + 1)
                    queue.append(p)
    for pos in succ:
        result.setdefault(pos, ("draw", None))
    return result


def counts(table: dict) -> dict:
    """How many positions are won, lost and drawn for the player to move."""
    out = {"win": 0, "loss": 0, "draw": 0}
    for value, _ in table.values():
        out[value] += 1
    return out
