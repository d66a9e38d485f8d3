"""Dice companion: rules engines, game session, storage and command line.

The rules engines (:mod:`companion.durchmarsch`, :mod:`companion.odds`) are pure
logic: they import nothing from the camera, GPIO or Kivy.
"""

__version__ = "0.1.0"
