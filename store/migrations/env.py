"""Alembic environment of the bot's database.

Two ways in:

* programmatic (:meth:`store.Store.init`, :meth:`~store.Store.upgrade`,
  :meth:`~store.Store.downgrade`): the caller opens a connection on its async engine
  and passes it, through ``connection.run_sync``, as ``config.attributes["connection"]``, with
  the PostgreSQL schema (or ``None``) as ``config.attributes["schema"]``.  The migrations then
  run inside the caller's transaction, which commits or rolls back the whole upgrade;
* command line (``alembic -c store/migrations/alembic.ini …``): the URL is ``DATABASE_URL``
  or ``sqlalchemy.url``, normalized to the async drivers, and ``-x schema=NAME`` selects a
  PostgreSQL schema.

The version table ``alembic_version`` lives in the same schema as the tables.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any, Optional

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

config = context.config


def _target_metadata() -> Any:
    # Only used by `alembic revision --autogenerate` to compare the models with the database.
    from sqlmodel import SQLModel

    import store.models  # noqa: F401  (registers the tables on SQLModel.metadata)

    return SQLModel.metadata


def _not_version_table(name: Optional[str], kind: str, _parent: Any) -> bool:
    # The version table sits in the tables' schema, so autogenerate must not offer to drop it.
    return not (kind == "table" and name == "alembic_version")


def _configure(connection: Connection, schema: Optional[str]) -> None:
    context.configure(
        connection=connection,
        target_metadata=_target_metadata() if config.cmd_opts is not None else None,
        version_table_schema=schema,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        include_name=_not_version_table,
    )
    with context.begin_transaction():
        context.run_migrations()


def _cli_schema() -> Optional[str]:
    return context.get_x_argument(as_dictionary=True).get("schema") or None


def _cli_url() -> str:
    from store import normalize_url

    url = os.environ.get("DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("set DATABASE_URL or sqlalchemy.url in alembic.ini")
    return normalize_url(url)


async def _run_cli_online() -> None:
    schema = _cli_schema()
    kwargs: dict[str, Any] = {}
    if schema is not None:
        kwargs["connect_args"] = {"server_settings": {"search_path": f'"{schema}"'}}
    engine = create_async_engine(_cli_url(), **kwargs)
    try:
        async with engine.begin() as conn:
            if schema is not None:
                await conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
            await conn.run_sync(_configure, schema)
    finally:
        await engine.dispose()


given = config.attributes.get("connection")
if given is not None:
    _configure(given, config.attributes.get("schema"))
elif context.is_offline_mode():
    context.configure(
        url=_cli_url(),
        literal_binds=True,
        version_table_schema=_cli_schema(),
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_run_cli_online())
