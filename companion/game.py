"""The one interface every game of the companion implements, in the style of python-chess's ``Board``.

A game is a pure rules engine driven by events. The session, the store,
replay, statistics and the screens reach a game only through this interface,
so a second game is a new module (and its screens), nothing else.

- :meth:`Game.apply` checks an event and applies it; an illegal event raises
  the game's :class:`IllegalEvent` subclass naming the rule it breaks, and the
  state is unchanged.
- :meth:`Game.legal_events` lists the events legal now (where they can be
  listed: a throw of dice is legal with any values, so a game may describe it
  by its kind).
- :meth:`Game.undo` takes back the last event (the event stack is
  :attr:`Game.events`); :class:`NothingToUndo` when there is none.
- :meth:`Game.outcome` is None while the game runs, else an :class:`Outcome`
  with a :class:`Termination` and the winner (None for a draw).
- :meth:`Game.to_dict` is the state as JSON-ready data (``companion replay
  --json``); :meth:`Game.event_to_json` / :meth:`Game.event_from_json` turn
  events into the plain data the store and scripts keep.
- :attr:`Game.to_act` is the seat of the player to act (None once over),
  :meth:`Game.prompt_state` a short state for the screen.

Example::

    >>> from companion.durchmarsch import Durchmarsch
    >>> g: Game = Durchmarsch(["Sarah", "Tim"])
    >>> g.name, g.to_act, g.outcome() is None
    ('durchmarsch', 0, True)
"""

from __future__ import annotations

import enum
import importlib
import unicodedata
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Sequence, runtime_checkable

__all__ = ["Game", "Outcome", "Termination", "IllegalEvent", "NothingToUndo", "GAMES", "game_class"]


class Termination(enum.Enum):
    """Why a game ended (python-chess's ``Termination``)."""

    #: Durchmarsch: a player completed a row and wins at once (rulebook, "End of the game").
    ROW_COMPLETED = "row"
    #: Durchmarsch: every other player was eliminated (ruling R7).
    LAST_PLAYER = "last"
    #: Fenn: a die reached its goal field.
    GOAL = "goal"
    #: Fenn: the player to move could not step and the settings say a stuck player loses.
    STUCK = "stuck"
    #: Fenn: a position stood for the third time (ruling F13): a draw.
    REPETITION = "repetition"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``termination`` and ``winner`` (a seat index, None for a draw)."""

    termination: Termination
    winner: int | None

    @property
    def reason(self) -> str:
        """The termination's code (``"row"``, ``"last"``, ...)."""
        return self.termination.value


class IllegalEvent(Exception):
    """Base class of every illegal event of every game. The state is left unchanged."""


class NothingToUndo(IllegalEvent):
    """Undo with no event played."""


@runtime_checkable
class Game(Protocol):
    """What the session, the store, replay, statistics and the screens use of a game."""

    #: The game's name as stored (the ``game`` column) and named in scripts.
    name: ClassVar[str]

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def options(self) -> dict: ...  # the keyword settings it was made with, stored with the game

    @property
    def events(self) -> tuple[Any, ...]: ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def winner(self) -> str | None: ...

    def apply(self, event: Any) -> Any: ...

    def legal_events(self) -> list: ...

    def undo(self) -> Any: ...

    def outcome(self) -> Outcome | None: ...

    def copy(self) -> "Game": ...

    def to_dict(self) -> dict: ...

    def prompt_state(self) -> dict: ...

    @staticmethod
    def event_to_json(event: Any) -> dict: ...

    @staticmethod
    def event_from_json(data: dict) -> Any: ...


#: The games by stored name; a game module registers itself on import (see :func:`game_class`).
GAMES: dict[str, type] = {}

#: Where each game lives, imported on first use by :func:`game_class` (a new
#: game is a new module named here, plus its screens).
GAME_MODULES: dict[str, str] = {"durchmarsch": "companion.durchmarsch", "fenn": "companion.fenn"}


def game_class(name: str) -> type:
    """The game class stored as ``name`` (``"durchmarsch"``, ``"fenn"``).

    Raises ``KeyError`` naming the known games for an unknown name.
    """
    if name not in GAMES and name in GAME_MODULES:
        importlib.import_module(GAME_MODULES[name])  # the module registers its class
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(set(GAMES) | set(GAME_MODULES)))}") from None


def register(cls: type) -> type:
    """Class decorator: make ``cls`` known by its ``name`` (see :data:`GAMES`)."""
    GAMES[cls.name] = cls
    return cls


def seats(players: Sequence[str]) -> tuple[str, ...]:
    """Player names stripped, for a game's constructor to check."""
    return tuple(str(p).strip() for p in players)


def name_key(name: str) -> str:
    """A name as a person reads it: case, accents' Unicode forms and inner
    spaces do not make two players (``"Anna"``, ``"anna"``, ``"ANNA "``).

    >>> name_key(" Zoë  Müller") == name_key("zoë müller")
    True
    """
    return " ".join(unicodedata.normalize("NFC", str(name)).casefold().split())


def check_new_names(players: Sequence[str]) -> list[str]:
    """The names of a new game, each checked by :func:`companion.names.clean_name`
    (1–24 printable characters after NFC and trimming); raise ``ValueError``
    for a bad name or a list that is not one, and when two are one player's
    (:func:`name_key`), naming them."""
    from .names import clean_name

    if not isinstance(players, (list, tuple)):
        raise ValueError(f"players are a list of names, not {type(players).__name__}")
    if len(players) > 16:
        raise ValueError(f"at most 16 players, not {len(players)}")
    players = [clean_name(p) for p in players]
    seen: dict[str, str] = {}
    for p in seats(players):
        k = name_key(p)
        if k and k in seen:
            raise ValueError(f"player names must differ: {seen[k]!r} and {p!r} are one name")
        seen[k] = p
    return players
