# bbweb: `make demo` runs the product, `make test` runs the whole suite.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
DEV_STAMP := $(VENV)/.installed-dev-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
# The demo's port: `make demo PORT=8001`, or BBWEB_DEMO_PORT in the environment.
PORT ?= $(or $(BBWEB_DEMO_PORT),8000)

# The first Python >= 3.12: on PATH first, then among pyenv's versions.
define FIND_PYTHON
for c in python3.13 python3.12 python3 python; do \
  p=$$(command -v $$c 2>/dev/null) || continue; \
  $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo $$p; exit 0; }; \
done; \
root=$$(pyenv root 2>/dev/null || echo $$HOME/.pyenv); \
for p in $$(ls -d $$root/versions/3.*/bin/python3 2>/dev/null | sort -rV); do \
  $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo $$p; exit 0; }; \
done; exit 1
endef

.PHONY: demo test lint bench messages venv clean

$(PY):
	@base=$$($(FIND_PYTHON)) || { echo "bbweb needs Python 3.12 or newer: none found on PATH nor among pyenv's versions. Install one (e.g. 'pyenv install 3.12') and run make again." >&2; exit 1; }; \
	echo "Creating $(VENV) with $$base"; $$base -m venv $(VENV) && $(PY) -m pip install -q --upgrade pip

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install -q -e .
	@touch $@

$(DEV_STAMP): $(PY) pyproject.toml
	$(PY) -m pip install -q -e '.[dev]'
	@touch $(STAMP) $@

venv: $(STAMP)

messages: $(STAMP)
	$(PY) manage.py compilemessages --ignore=.venv -v 0

demo: export BBWEB_SITE_URL ?= http://127.0.0.1:$(PORT)
demo: $(STAMP) messages
	$(PY) manage.py migrate --no-input -v 0
	$(PY) manage.py collectstatic --no-input -v 0
	$(PY) manage.py load_demo
	$(PY) manage.py demo_deadline
	@echo "bbweb is running at http://127.0.0.1:$(PORT)/ (Ctrl-C stops the web server and the worker)"
	@trap 'kill 0' INT TERM EXIT; \
	$(VENV)/bin/celery -A bbweb worker --beat -Q deadlines,celery --loglevel=INFO --concurrency=2 & \
	$(VENV)/bin/uvicorn bbweb.asgi:application --host 127.0.0.1 --port $(PORT) --no-access-log; wait

test: $(DEV_STAMP) messages
	$(PY) manage.py makemigrations --check --dry-run -v 0
	$(PY) -m pytest -n 2 --dist loadgroup -q

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy rules/engine
	$(VENV)/bin/mypy bbweb teams matches rules tools
	$(VENV)/bin/lint-imports

bench: $(STAMP)
	$(PY) manage.py bench
	$(PY) manage.py bench_matches
	$(PY) manage.py bench_sweep
	$(PY) manage.py bench_sweep --banks

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .celery
