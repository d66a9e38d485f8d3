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
    debounce = 0.05      # seconds
    hold_undo = 3.0      # seconds STOP is held to ask for undo
    enabled = true

    [app]
    data_dir = "~/.local/share/dice-companion"
    language = "en"

A file that is not valid TOML, or a value of the wrong type, raises
:class:`ConfigError` naming the file and the key.
"""

from __future__ import annotations

import copy
import os
import tomllib

__all__ = ["ConfigError", "DEFAULTS", "load_config", "default_path"]

DEFAULTS: dict = {
    "camera": {"source": "auto", "width": 1640, "height": 1232, "index": 0, "path": "", "loop": True},
    "gpio": {"enabled": True, "stop_pin": 5, "continue_pin": 6, "debounce": 0.05, "hold_undo": 3.0},
    "app": {"data_dir": "~/.local/share/dice-companion", "language": "en", "fullscreen": False},
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
    if not os.path.exists(path):
        if explicit:
            raise ConfigError(f"{path}: no such config file")
        return cfg
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e}") from None
    for section, values in data.items():
        if section not in cfg:
            raise ConfigError(f"{path}: unknown section [{section}] (known: {', '.join(cfg)})")
        if not isinstance(values, dict):
            raise ConfigError(f"{path}: [{section}] must be a table")
        for key, value in values.items():
            if key not in cfg[section]:
                raise ConfigError(f"{path}: unknown key {section}.{key}")
            want = type(DEFAULTS[section][key])
            ok = isinstance(value, want) and not (want is int and isinstance(value, bool))
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                value, ok = float(value), True
            if not ok:
                raise ConfigError(
                    f"{path}: {section}.{key} must be {want.__name__}, got {type(value).__name__} {value!r}"
                )
            cfg[section][key] = value
    cfg["app"]["data_dir"] = os.path.expanduser(cfg["app"]["data_dir"])
    return cfg
