"""The app's screens and dialogs (Kivy): start, game, correction, end, Fenn's board and end, settings,
the undo question, the settings PIN pad and the game menu.

Each screen gets the app and reads the game through ``app.session``; every
word on it goes through :func:`companion.i18n._`, so rebuilding the screens
after a language change translates them. Touch targets are at least 48 px
high at 800×480 (the official 7" display); layouts stretch to 1024×600 and
1280×720.

One screen per module; :mod:`ui.screens.common` holds what they share.
"""

from .board import BoardScreen
from .calibration import CalibrationScreen
from .common import BG, TOUCH, drop_stray_touches
from .correction import CorrectionScreen
from .dialogs import HistoryDialog, MenuDialog, NoticeDialog, PinDialog, ResumeDialog, RulesDialog, UndoDialog
from .end import EndScreen
from .fenn import FennScreen
from .fenn_end import FennEndScreen
from .game import GameScreen
from .settings import SettingsScreen
from .start import StartScreen
from .table_check import TableCheckScreen

__all__ = ["StartScreen", "GameScreen", "FennScreen", "FennEndScreen",
           "CorrectionScreen", "EndScreen", "SettingsScreen", "CalibrationScreen", "BoardScreen", "TableCheckScreen",
           "UndoDialog", "PinDialog", "MenuDialog", "ResumeDialog", "NoticeDialog", "HistoryDialog", "RulesDialog",
           "TOUCH", "BG", "drop_stray_touches"]
