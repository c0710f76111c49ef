"""Where the bot's database lives when ``DATABASE_URL`` does not say.

The default is the SQLite file ``mahjong.db`` in the user's data directory (on Linux
``~/.local/share/mahjong-bot/``, as ``platformdirs.user_data_path`` gives it), so starting the
bot from another working directory finds the same database.  Earlier versions used
``sqlite:///mahjong.db``, relative to the working directory: such a file found there is moved
into the data directory once (with its ``-wal``/``-shm`` companions), with a log line.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Mapping, Optional

import platformdirs

log = logging.getLogger("store.location")

APP_NAME = "mahjong-bot"
DB_FILE = "mahjong.db"
#: the SQLite companions that belong to a database file (write-ahead log, shared memory)
COMPANIONS = ("-wal", "-shm")


#: the project's folder (where bot.py is)
PROJECT_DIR = Path(__file__).resolve().parents[1]


def load_env_files(cwd: Optional[Path] = None) -> list[Path]:
    """Read the settings of ``.env`` files into the environment: the working directory's,
    then the project's (beside ``bot.py``); a variable already set is never overridden, so
    the environment wins, then the working directory's file.  Returns the files read."""
    try:
        from dotenv import load_dotenv
    except ImportError:  # python-dotenv is a requirement; without it, the environment only
        return []
    read: list[Path] = []
    for folder in ((cwd if cwd is not None else Path.cwd()), PROJECT_DIR):
        path = folder / ".env"
        if path.is_file() and path.resolve() not in [p.resolve() for p in read]:
            load_dotenv(path, override=False)
            read.append(path)
    return read


def data_dir() -> Path:
    """The user's data directory of the bot (created when missing)."""
    return platformdirs.user_data_path(APP_NAME, appauthor=False, ensure_exists=True)


def sqlite_url(path: Path) -> str:
    """``sqlite:///<absolute path>``."""
    return f"sqlite:///{path.resolve()}"


def database_url(env: Mapping[str, str], cwd: Optional[Path] = None, home: Optional[Path] = None) -> str:
    """The database URL the bot opens.

    :param env: the environment (``DATABASE_URL`` wins when set and not empty).
    :param cwd: the working directory to look for an old ``mahjong.db`` in (default: the
        process's).
    :param home: the data directory (default: :func:`data_dir`).
    :returns: ``DATABASE_URL``, or ``sqlite:///<data dir>/mahjong.db`` — after moving an old
        ``mahjong.db`` of the working directory there when the data directory has none yet.
        When both exist, the data directory's is used and the old one is left where it is
        (a warning says so).
    :raises OSError: the old file could not be moved (nothing is lost: it stays where it was).
    """
    url = (env.get("DATABASE_URL") or "").strip()
    if url:
        return url
    home = home if home is not None else data_dir()
    home.mkdir(parents=True, exist_ok=True)
    target = home / DB_FILE
    old = (cwd if cwd is not None else Path.cwd()) / DB_FILE
    if old.exists() and old.resolve() != target.resolve():
        if target.exists():
            log.warning("%s exists but the database in use is %s; set DATABASE_URL=%s to use the old one",
                        old.resolve(), target, sqlite_url(old))
        else:
            for suffix in ("", *COMPANIONS):
                src = old.with_name(old.name + suffix)
                if src.exists():
                    shutil.move(str(src), str(target.with_name(target.name + suffix)))
            log.warning("moved the database %s to %s (the default location since this version)",
                        old.resolve(), target)
    return sqlite_url(target)


__all__ = ["APP_NAME", "DB_FILE", "PROJECT_DIR", "load_env_files", "data_dir", "database_url", "sqlite_url"]
