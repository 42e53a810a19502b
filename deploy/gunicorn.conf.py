"""gunicorn's settings for the image (its CMD) and CI: ``gunicorn -c deploy/gunicorn.conf.py
bbweb.wsgi:application``; options on the command line win (CI binds loopback)."""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
accesslog = "-"
# The scheme and the client's address are Django's to decide, from BBWEB_TRUSTED_PROXIES
# (bbweb/clientip.py): gunicorn believes no peer's X-Forwarded-Proto of its own.
forwarded_allow_ips = ""
# No control socket (~/.gunicorn/gunicorn.ctl, one path for every gunicorn of a user).
control_socket_disable = True
