"""gunicorn's settings for the image (its CMD) and CI: ``gunicorn -c deploy/gunicorn.conf.py
bbweb.asgi:application``; options on the command line win (CI binds loopback).

gunicorn keeps the processes (a worker that dies is replaced, a restart is graceful); each runs
uvicorn's event loop (``uvicorn-worker``), where an idle stream of live push costs a few
kilobytes and no thread, while the sync views run in its thread pool as they did under WSGI."""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
worker_class = "uvicorn_worker.UvicornWorker"
# A stream outlives any request: a restart gives them this long, then closes them (the
# browsers reconnect to the new workers and hear what they missed).
graceful_timeout = 10
accesslog = "-"
# The scheme and the client's address are Django's to decide, from BBWEB_TRUSTED_PROXIES
# (bbweb/clientip.py): gunicorn believes no peer's X-Forwarded-Proto of its own.
forwarded_allow_ips = ""
# No control socket (~/.gunicorn/gunicorn.ctl, one path for every gunicorn of a user).
control_socket_disable = True
