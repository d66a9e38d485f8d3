"""The table's page: the game live, each game's record, leaderboards and health,
served on the local network by its own process (``companion web``).

:mod:`.address` (the page's address for the QR codes, without a web
framework), :mod:`.data` (read-only access to the data dir), :mod:`.words`
(the page's texts in de/en/fr/it), :mod:`.server` (the Starlette app and
uvicorn). See ``docs/web.md``.
"""
