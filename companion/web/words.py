"""The page's words, through the project's gettext catalogs (:mod:`companion.i18n`).

:func:`words` gives every fixed text of the templates in the language in use,
by a short key (``w.games`` in a template); the games' own terms come from
the rulebooks as in the app (Wurf, Fehlwurf, Reihe, Würfler...). Texts with
values (a player's name, a count) are made in Python with ``.format`` before
they reach the template, which escapes them.
"""

from __future__ import annotations

from ..i18n import _

__all__ = ["words", "game_name", "result_words", "duration_words", "size_words"]


def words() -> dict[str, str]:
    """The templates' fixed texts in the language in use, by key."""
    return {
        "title": _("The table"),
        "live": _("Live"),
        "games": _("Games"),
        "leaderboard": _("Leaderboard"),
        "health": _("Health"),
        "language": _("Language"),
        "no_games": _("No games yet."),
        "no_game": _("No game is being played."),
        "game": _("Game"),
        "players": _("Players"),
        "date": _("Date"),
        "result": _("Result"),
        "player": _("Player"),
        "wins": _("Wins"),
        "turns": _("Turns"),
        "throws": _("Throws"),
        "dice": _("Dice"),
        "marks": _("Marks"),
        "misthrows": _("Misthrows"),
        "rows_struck": _("Rows struck"),
        "best_turn": _("Best turn"),
        "rows_completed": _("Rows completed"),
        "longest_march": _("Longest march"),
        "draws": _("Draws"),
        "losses": _("Losses"),
        "hints": _("Hints"),
        "roller": _("Roller"),
        "target": _("Target"),
        "last_throw": _("Last throw"),
        "the_throws": _("This game's throws"),
        "the_moves": _("This game's moves"),
        "figures": _("Figures"),
        "export": _("Replay script (JSON Lines)"),
        "black_die": _("Black die"),
        "blue": _("Blue"),
        "red": _("Red"),
        "week": _("This week"),
        "month": _("This month"),
        "all": _("All time"),
        "app": _("The app"),
        "running": _("running"),
        "stopped": _("not running"),
        "uptime": _("Running for"),
        "camera": _("Camera"),
        "reading": _("reading"),
        "not_reading": _("not reading"),
        "demo": _("demo (no camera)"),
        "asked_today": _("Throws asked about today"),
        "storage_used": _("Storage used"),
        "storage_left": _("Storage left"),
        "last_error": _("Last error"),
        "none": _("none"),
        "not_found": _("Not found"),
        "not_found_text": _("There is no such page or game."),
        "unavailable": _("The games cannot be read just now; the page tries again."),
        "newer": _("Newer"),
        "older": _("Older"),
        "picture": _("The last throw's picture"),
        "durchmarsch": "Durchmarsch",
        "fenn": "Fenn",
    }


def game_name(name: str) -> str:
    """A game's name as printed on its box (Durchmarsch, Fenn)."""
    return {"durchmarsch": "Durchmarsch", "fenn": "Fenn"}.get(name, name)


def result_words(g) -> str:
    """How a stored game (:class:`companion.storage.StoredGame`) stands: its winner, a draw, ended, being played."""
    if g.winner:
        return _("{name} wins!").format(name=g.winner)
    if g.finished is None:
        return _("being played")
    return _("Draw") if g.game == "fenn" else _("ended")


def duration_words(seconds: float) -> str:
    """"3 d 4 h", "2 h 5 min" or "7 min" for a span of ``seconds``."""
    m = int(seconds // 60)
    d, h, m = m // 1440, m // 60 % 24, m % 60
    if d:
        return _("{d} d {h} h").format(d=d, h=h)
    if h:
        return _("{h} h {m} min").format(h=h, m=m)
    return _("{m} min").format(m=m)


def size_words(n: int | None) -> str:
    """A byte count in MB or GB ("340 MB", "12.5 GB"); "?" for None."""
    if n is None:
        return "?"
    if n >= 10**9:
        return _("{n} GB").format(n=f"{n / 1e9:.1f}")
    return _("{n} MB").format(n=f"{n / 1e6:.0f}" if n >= 10**7 else f"{n / 1e6:.1f}")
