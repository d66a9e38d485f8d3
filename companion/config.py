"""The companion's configuration: a TOML file over built-in defaults.

Looked up in this order: the ``--config`` path, ``$DICE_COMPANION_CONFIG``,
``~/.config/dice-companion/config.toml``; a missing file means the defaults.
Example file::

    [camera]
    source = "pi"        # pi | usb | replay | mock | auto
    width = 1640
    height = 1232

    [gpio]
    stop_pin = 5         # BCM numbers
    continue_pin = 6
    stop_led = 17        # LED lit while STOP is possible (0: none fitted)
    continue_led = 27    # LED lit while CONTINUE is possible (0: none fitted)
    buzzer = 22          # piezo buzzer for success / misthrow / win (0: none)
    debounce = 0.05      # seconds
    hold_undo = 3.0      # seconds STOP is held to ask for undo
    enabled = true

    [app]
    data_dir = "~/.local/share/dice-companion"
    language = "en"      # de | en | fr | it
    sound = true         # sounds (speaker and buzzer) on a mark, a misthrow, a win and a question
    odds = true          # the risk meter before each throw
    pin = "1234"         # settings PIN until it is changed on the screen
    keyboard = "auto"    # auto (on-screen when fullscreen) | onscreen | system
    keep_frame_games = 20  # the pictures of the last 20 games are kept (never an unfinished game's)
    keep_recorded = 2000   # the last 2000 recorded throws (frames with their values) are kept
    guard = 0.6          # seconds a new screen is shown before a press acts (stray double taps); 0: none
    name_length = 20     # the longest player name, 1-24 characters (cut while typing)
    stale_days = 1.0     # unfinished games older than this are offered for ending on the settings screen

The settings screen stores its changes in ``<data_dir>/settings.json``
(:mod:`companion.settings`), laid over this file when the app starts.

A file that is not valid TOML, or a value of the wrong type, raises
:class:`ConfigError` naming the file and the key.
"""

from __future__ import annotations

import copy
import os
import tomllib

__all__ = ["ConfigError", "DEFAULTS", "CHOICES", "RANGES", "load_config", "merge", "default_path"]

DEFAULTS: dict = {
    "camera": {"source": "auto", "width": 1640, "height": 1232, "index": 0, "path": "", "loop": True},
    "gpio": {"enabled": True, "stop_pin": 5, "continue_pin": 6, "stop_led": 17, "continue_led": 27,
             "buzzer": 22, "debounce": 0.05, "hold_undo": 3.0},
    "app": {"data_dir": "~/.local/share/dice-companion", "language": "en", "fullscreen": False,
            "sound": True, "odds": True, "pin": "1234", "keyboard": "auto",
            "keep_frame_games": 20, "keep_recorded": 2000, "guard": 0.6, "name_length": 20,
            "stale_days": 1.0},
    "fenn": {"faces": "any", "stuck": "pass", "dice": "miwin"},
}

#: Allowed values of string keys whose values form a closed set.
CHOICES = {
    ("camera", "source"): ("auto", "pi", "usb", "replay", "mock"),
    ("app", "language"): ("de", "en", "fr", "it"),
    ("app", "keyboard"): ("auto", "onscreen", "system"),
    ("fenn", "faces"): ("any", "tip"),
    ("fenn", "stuck"): ("pass", "lose"),
    ("fenn", "dice"): ("miwin", "wikipedia"),
}

#: Allowed ranges ``(least, most)`` of numeric keys.
RANGES = {
    ("app", "guard"): (0.0, 3.0),
    ("app", "name_length"): (1, 24),
    ("app", "stale_days"): (0.01, 365.0),
}


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and key."""


def default_path() -> str:
    """The config file used when none is given."""
    return os.environ.get("DICE_COMPANION_CONFIG") or os.path.expanduser("~/.config/dice-companion/config.toml")


def load_config(path: str | None = None) -> dict:
    """The configuration: defaults overlaid with the file at ``path`` (see module doc).

    A missing default file gives the defaults; a missing file named explicitly,
    broken TOML, an unknown section or key, or a value of the wrong type raises
    :class:`ConfigError`.
    """
    explicit = path is not None
    path = path or default_path()
    cfg = copy.deepcopy(DEFAULTS)
    if os.path.exists(path):
        try:
            with open(path, "rb") as f:
                data = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path}: not valid TOML: {e}") from None
        except OSError as e:
            raise ConfigError(f"{path}: cannot read: {e}") from None
        merge(cfg, data, path)
    elif explicit:
        raise ConfigError(f"{path}: no such config file")
    cfg["app"]["data_dir"] = os.path.expanduser(cfg["app"]["data_dir"])
    return cfg


def merge(cfg: dict, data: dict, source: str) -> dict:
    """Lay ``data`` (sections of keys, as in the TOML file) over ``cfg`` in place.

    Every key must exist in :data:`DEFAULTS` with a value of the same type
    (an int is taken for a float); keys in :data:`CHOICES` must be one of
    their choices. Raises :class:`ConfigError` naming ``source`` and the key.
    Returns ``cfg``.
    """
    for section, values in data.items():
        if section not in cfg:
            raise ConfigError(f"{source}: unknown section [{section}] (known: {', '.join(cfg)})")
        if not isinstance(values, dict):
            raise ConfigError(f"{source}: [{section}] must be a table")
        for key, value in values.items():
            if key not in cfg[section]:
                raise ConfigError(f"{source}: unknown key {section}.{key}")
            want = type(DEFAULTS[section][key])
            ok = isinstance(value, want) and not (want is int and isinstance(value, bool))
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                value, ok = float(value), True
            if not ok:
                raise ConfigError(
                    f"{source}: {section}.{key} must be {want.__name__}, got {type(value).__name__} {value!r}"
                )
            allowed = CHOICES.get((section, key))
            if allowed and value not in allowed:
                raise ConfigError(f"{source}: {section}.{key} must be one of {', '.join(allowed)}, got {value!r}")
            bounds = RANGES.get((section, key))
            if bounds and not bounds[0] <= value <= bounds[1]:
                raise ConfigError(f"{source}: {section}.{key} must be from {bounds[0]} to {bounds[1]}, got {value!r}")
            cfg[section][key] = value
    return cfg
