# The bot in a container: slim Python, the shipped fonts (data/fonts), a non-root user, the
# database in the /data volume. Build: docker build -t mahjong-bot .  Run: see compose.yaml.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_URL=sqlite:////data/mahjong.db

WORKDIR /app
COPY requirements.txt constraints.txt ./
RUN pip install -c constraints.txt -r requirements.txt

COPY bot.py ./
COPY cogs ./cogs
COPY engine ./engine
COPY local ./local
COPY render ./render
COPY service ./service
COPY store ./store
COPY data ./data

RUN useradd --system --uid 10001 --home-dir /app mahjong \
    && mkdir /data && chown mahjong /data
USER mahjong
VOLUME ["/data"]

# docker stop sends SIGTERM, then SIGKILL 10 s later: bot.py, PID 1 here, handles SIGTERM itself
# (from its first line on) and stops cleanly within STOP_TIMEOUT (8 s) — no init (tini/--init) is
# needed, as the bot starts no child processes to reap or pass the signal to.
STOPSIGNAL SIGTERM
CMD ["python", "bot.py"]
