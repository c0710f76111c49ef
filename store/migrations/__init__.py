"""Alembic migrations of the bot's database (``env.py``, ``versions/``).

:meth:`store.Store.init` runs them to head; ``alembic.ini`` here serves the
``alembic`` command line.
"""
