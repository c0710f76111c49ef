"""The PostgreSQL server the persistence tests use besides SQLite, named by one variable.

* ``TEST_DATABASE_URL`` — its URL (default ``postgresql://postgres@127.0.0.1:5432/test``; any
  form the store accepts: ``postgres://``, ``postgresql://``, ``postgresql+asyncpg://``).
* ``TEST_REQUIRE_POSTGRES=1`` — a server that does not answer is a failure (``.ci/run`` sets
  it); without it the tests marked ``postgres`` are left out of the run at collection
  (``tests/conftest.py``: counted as deselected, the reason said in the run's summary), so the
  README's test command passes on a machine without PostgreSQL.
"""

from __future__ import annotations

import os
import socket
from functools import lru_cache

import pytest
from sqlalchemy.engine import make_url

from store import normalize_url

URL_VAR = "TEST_DATABASE_URL"
REQUIRE_VAR = "TEST_REQUIRE_POSTGRES"
DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"


def pg_url() -> str:
    """The server's URL as the store takes it."""
    return os.environ.get(URL_VAR) or DEFAULT_URL


def pg_dsn() -> str:
    """The same URL for libpq clients (psycopg2, asyncpg.connect): ``postgresql://…``."""
    return normalize_url(pg_url()).replace("postgresql+asyncpg://", "postgresql://", 1)


@lru_cache(maxsize=None)
def _unreachable(url: str) -> str | None:
    """Why the server at ``url`` does not answer (``None`` when it accepts a connection)."""
    import psycopg2

    u = make_url(pg_dsn())
    try:
        socket.create_connection((u.host or "127.0.0.1", u.port or 5432), timeout=3).close()
        psycopg2.connect(pg_dsn(), connect_timeout=5).close()
    except (OSError, psycopg2.Error) as exc:
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
    return None


def unreachable_reason() -> str | None:
    """Why the tests marked ``postgres`` cannot run here (``None``: the server answers):
    the URL, what the connection said, and how to change it."""
    url = pg_url()
    why = _unreachable(url)
    if why is None:
        return None
    shown = make_url(normalize_url(url)).render_as_string(hide_password=True)
    return f"PostgreSQL not reachable at {shown} ({why}); set {URL_VAR} to a server"


def required() -> bool:
    """``TEST_REQUIRE_POSTGRES`` is set: a server that does not answer fails the tests."""
    return bool(os.environ.get(REQUIRE_VAR))


def require_postgres() -> str:
    """The server's URL for a test marked ``postgres`` (such a test runs only when the server
    answers or it is required); a failure naming the reason when it does not answer."""
    why = unreachable_reason()
    if why is not None:
        pytest.fail(f"{why} ({REQUIRE_VAR} is set)" if required() else why, pytrace=False)
    return pg_url()
