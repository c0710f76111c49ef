# The bot in a container: slim Python, the shipped fonts (data/fonts), a non-root user, the
# database in the /data volume, the scheduled backups in the /backups volume. Build: docker build -t mahjong-bot .  Run: see compose.yaml.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_URL=sqlite:////data/mahjong.db

WORKDIR /app
COPY requirements.txt constraints.txt ./
RUN pip install -c constraints.txt -r requirements.txt

COPY bot.py pyproject.toml LICENSE ./
COPY cogs ./cogs
COPY engine ./engine
COPY local ./local
COPY render ./render
COPY service ./service
COPY store ./store
COPY data ./data

RUN useradd --system --uid 10001 --home-dir /app mahjong \
    && mkdir /data /backups && chown mahjong /data /backups
USER mahjong
VOLUME ["/data"]
VOLUME ["/backups"]

# /healthz and /metrics (cogs/web.py) on the container's own loopback: the health check asks
# it, nothing outside the container reaches it unless WEB_HOST=0.0.0.0 and a port is
# published. With WEB_PORT set empty the web server is off and the check passes (nothing to ask).
ENV WEB_PORT=8080 \
    WEB_HOST=127.0.0.1
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "cogs.web", "--check"]

# docker stop sends SIGTERM, then SIGKILL 10 s later: bot.py, PID 1 here, handles SIGTERM itself
# (from its first line on) and stops cleanly within STOP_TIMEOUT (8 s) — no init (tini/--init) is
# needed, as the bot starts no child processes to reap or pass the signal to.
STOPSIGNAL SIGTERM
CMD ["python", "bot.py"]
