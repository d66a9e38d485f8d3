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

    [web]                # the table's page (companion web; docs/web.md)
    enabled = false      # the kiosk: true (its page served, QR codes on the end screen and in the history)
    listen = "127.0.0.1:8080"  # address:port served ("0.0.0.0:8080": the whole local network)
    pictures = false     # the throws' pictures shown on the page
    url = ""             # the address the QR codes give ("": http://<this machine's address>:<port>)

The settings screen stores its changes in ``<data_dir>/settings.json``
(:mod:`companion.settings`), laid over this file when the app starts.

A file that is not valid TOML, or a value of the wrong type, raises
:class:`ConfigError` naming the file and the key.
"""

from __future__ import annotations

import copy
import math
import os
import tomllib

from .files import InputError, read_input, short_path

__all__ = ["ConfigError", "DEFAULTS", "CHOICES", "RANGES", "load_config", "merge", "validate", "default_path"]

#: The largest config file read, bytes.
MOST_BYTES = 64 * 1024

DEFAULTS: dict = {
    "camera": {"source": "auto", "width": 1640, "height": 1232, "index": 0, "path": "", "loop": True},
    "gpio": {"enabled": True, "stop_pin": 5, "continue_pin": 6, "stop_led": 17, "continue_led": 27,
             "buzzer": 22, "debounce": 0.05, "hold_undo": 3.0},
    "app": {"data_dir": "~/.local/share/dice-companion", "language": "en", "fullscreen": False,
            "sound": True, "odds": True, "pin": "1234", "keyboard": "auto",
            "keep_frame_games": 20, "keep_recorded": 2000, "guard": 0.6, "name_length": 20,
            "stale_days": 1.0},
    "fenn": {"faces": "any", "stuck": "pass", "dice": "miwin"},
    "web": {"enabled": False, "listen": "127.0.0.1:8080", "pictures": False, "url": ""},
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

#: Allowed ranges of numeric keys, ``(lowest, highest)`` inclusive; floats must also be finite.
#: GPIO: BCM 1–27 for the buttons; 0 means "none fitted" for an LED or the buzzer.
RANGES = {
    ("camera", "width"): (16, 8192), ("camera", "height"): (16, 8192), ("camera", "index"): (0, 63),
    ("gpio", "stop_pin"): (1, 27), ("gpio", "continue_pin"): (1, 27),
    ("gpio", "stop_led"): (0, 27), ("gpio", "continue_led"): (0, 27), ("gpio", "buzzer"): (0, 27),
    ("gpio", "debounce"): (0.001, 1.0), ("gpio", "hold_undo"): (0.2, 30.0),
    ("app", "keep_frame_games"): (0, 1_000_000), ("app", "keep_recorded"): (0, 10_000_000),
    ("app", "guard"): (0.0, 3.0), ("app", "name_length"): (1, 24), ("app", "stale_days"): (0.01, 365.0),
}
_PINS = ("stop_pin", "continue_pin", "stop_led", "continue_led", "buzzer")


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and key."""


def default_path() -> str:
    """The config file used when none is given."""
    return os.environ.get("DICE_COMPANION_CONFIG") or os.path.expanduser("~/.config/dice-companion/config.toml")


def load_config(path: str | None = None) -> dict:
    """The configuration: defaults overlaid with the file at ``path`` (see module doc).

    A missing default file gives the defaults; a missing file named explicitly,
    a file that is not regular (a FIFO, a device), over 64 KiB, not UTF-8,
    broken or too deeply nested TOML, an unknown section or key, a value of
    the wrong type or outside its range (:func:`validate`) raises
    :class:`ConfigError`.
    """
    explicit = path is not None
    path = path or default_path()
    cfg = copy.deepcopy(DEFAULTS)
    name = short_path(path)
    try:
        raw = read_input(path, most=MOST_BYTES)
    except FileNotFoundError:
        if explicit:
            raise ConfigError(f"{name}: no such config file") from None
        raw = None
    except (InputError, OSError, ValueError) as e:
        raise ConfigError(str(e) if isinstance(e, InputError) else f"{name}: cannot read: {e}") from None
    if raw is not None:
        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as e:
            raise ConfigError(f"{name}: not UTF-8 text (byte {e.start})") from None
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{name}: not valid TOML: {e}") from None
        except RecursionError:
            raise ConfigError(f"{name}: not valid TOML: nested too deep") from None
        merge(cfg, data, name)
    validate(cfg, name)
    cfg["app"]["data_dir"] = os.path.expanduser(cfg["app"]["data_dir"])
    return cfg


def validate(cfg: dict, source: str) -> dict:
    """Check every value's range in one place (:data:`RANGES`; GPIO pins in use
    distinct; the PIN 4–8 digits; ``data_dir`` a non-empty path without
    control characters; text settings without NUL). Raises
    :class:`ConfigError` naming ``source``, the key and the allowed range.
    Returns ``cfg``."""
    for (section, key), (low, high) in RANGES.items():
        v = cfg.get(section, {}).get(key, low)
        if isinstance(v, float) and not math.isfinite(v) or not low <= v <= high:
            raise ConfigError(f"{source}: {section}.{key} must be from {low} to {high}, got {v!r}")
    used: dict[int, str] = {}
    for key in _PINS:
        pin = cfg.get("gpio", {}).get(key, 0)
        if pin and pin in used:
            raise ConfigError(f"{source}: gpio.{key} must differ from gpio.{used[pin]} (both are pin {pin})")
        used[pin] = key
    app = cfg.get("app", {})
    pin = app.get("pin", "1234")
    if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8):
        raise ConfigError(f"{source}: app.pin must be 4 to 8 digits, got {short_path(pin, 30)!r}")
    d = app.get("data_dir", "~")
    if not d.strip() or len(d) > 1024 or not d.isprintable():
        raise ConfigError(f"{source}: app.data_dir must be a folder's path (1 to 1024 printable characters), "
                          f"got {short_path(d, 60)!r}")
    path = cfg.get("camera", {}).get("path", "")
    if not isinstance(path, str) or not path.isprintable() or len(path) > 4096:
        raise ConfigError(f"{source}: camera.path must be a path of printable characters")
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
            raise ConfigError(f"{source}: unknown section [{short_path(section, 40)}] (known: {', '.join(cfg)})")
        if not isinstance(values, dict):
            raise ConfigError(f"{source}: [{section}] must be a table")
        for key, value in values.items():
            if key not in cfg[section]:
                raise ConfigError(f"{source}: unknown key {section}.{short_path(key, 40)}")
            want = type(DEFAULTS[section][key])
            ok = isinstance(value, want) and not (want is int and isinstance(value, bool))
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                value, ok = float(value), True
            if not ok:
                raise ConfigError(f"{source}: {section}.{key} must be {want.__name__}, "
                                  f"got {type(value).__name__} {short_path(repr(value), 40)}")
            allowed = CHOICES.get((section, key))
            if allowed and value not in allowed:
                raise ConfigError(f"{source}: {section}.{key} must be one of {', '.join(allowed)}, "
                                  f"got {short_path(repr(value), 40)}")
            cfg[section][key] = value
    return cfg
