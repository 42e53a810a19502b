#!/bin/sh
# The image's build, the one recipe: the Dockerfile runs it, and CI runs it in a clean
# virtualenv (.ci/prod_smoke) before serving what it built. Run from anywhere; it builds the
# tree it sits in, with the `python` on PATH. Production settings at every step
# (DJANGO_DEBUG=0): the static files are collected under their hashed names with the manifest
# that {% static %} reads in production. No secret is needed, nor any service: these commands
# run no system checks of production (bbweb/checks.py) and touch no database.
set -eu
cd "$(dirname "$0")/.."
export DJANGO_DEBUG=0
unset DJANGO_SETTINGS_MODULE

python -m pip install .  # the dependencies alone: no development extras
python manage.py compilemessages --ignore=.venv -v 0
python manage.py collectstatic --no-input --clear -v 0
test -s staticfiles/staticfiles.json || { echo "build: no static manifest was written" >&2; exit 1; }
echo "build: installed, messages compiled, $(find staticfiles -type f | wc -l) static files collected"
