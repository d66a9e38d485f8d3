"""The Fenn board calibration screen: a still of the board, found or touched at its two ends."""

from __future__ import annotations

from companion.i18n import _

from .calibration import StillScreen

__all__ = ["BoardScreen"]


class BoardScreen(StillScreen):
    """Fenn's board for the camera: a still picture, the dice set up for the
    start, on which the players touch the middles of fields 1 and 9 (or let the
    board be found: its outline is shown); Save stores it (``board.json``) with
    the table's tilt its still dice show (:func:`vision.fenn.measure_tilt`), and
    the camera reads fields from it."""

    def __init__(self, app, **kw):
        super().__init__(app, name="board", instruction=_(
            "With the dice set up for the start: touch the middle of field 1, then the middle of field 9, "
            "or let the board be found."),
            side=[(_("Find the board"), lambda: self.find()),
                  (_("Clear the points"), lambda: self.picker.set_corners(()))], **kw)

    def open(self, frame, corners=()):
        super().open(frame, corners)
        self._changed()

    def _changed(self):
        self.save_btn.disabled = len(self.picker.corners) not in (2, 4)

    def find(self):
        """Find the board in the picture and show its outline."""
        from vision.fenn import BoardError, find_board

        try:
            board = find_board(self.picker.frame)
        except BoardError:
            self.picker.set_corners(())
            self.status.text = _("No board found: touch the middles of fields 1 and 9.")
            return
        self.picker.set_corners(board.corners)

    def save(self):
        """Store the board (two points: the ends touched; four: the outline found)."""
        self.status.text = self.app.save_board(self.picker.frame, list(self.picker.corners))
