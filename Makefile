# Herald's front door. `make run` and `make test` each do their own set-up on a fresh clone.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: help venv run serve migrate demo test lint typecheck pytest worker beat sockets bench lock clean messages records

help:
	@echo "make run      set up, migrate, load demo data and serve on http://$(HOST):$(PORT)"
	@echo "make test     set up, then ruff, mypy and pytest"
	@echo "make worker   start a Celery worker (needs REDIS_URL); it runs the periodic sweeps too"
	@echo "make beat     start Celery beat: only with HERALD_WORKER_SWEEPS=false"
	@echo "make sockets  serve the game sockets (daphne, port 8001) beside gunicorn: needs REDIS_URL"
	@echo "make bench    run the benchmarks in bench/"
	@echo "make messages extract the strings to translate into locale/fr and compile the catalogue"
	@echo "make records  export every finished game's record into records/ and verify each offline"

venv: $(STAMP)

$(STAMP): pyproject.toml requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements.lock -e '.[dev]'
	@touch $(STAMP)

migrate: venv
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	@if $(BIN)/python manage.py help demo >/dev/null 2>&1; then \
		$(BIN)/python manage.py demo --if-empty; \
	else echo "no demo data yet"; fi

# daphne's runserver (daphne is first in INSTALLED_APPS): HTTP and the game sockets from one
# process, on the in-memory channel layer unless REDIS_URL is set.
run: demo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	PYTHONPATH=.:platform $(BIN)/lint-imports

typecheck: venv
	$(BIN)/mypy engine platform/herald events tournaments ratings play bench

# With DATABASE_URL on PostgreSQL (CI) and no PYTEST_ARGS, the store, API and admin tests that
# need no service run a second time on SQLite and eager Celery, the default `make run` serves.
SQLITE_TESTS ?= tests/events tests/ratings tests/tournaments tests/platform/test_auth.py \
	tests/platform/test_me.py tests/play/test_table_page.py tests/play/test_sept_blasons_table.py \
	tests/play/test_lobby.py tests/play/test_house_bot.py tests/play/test_treize_couronnes_table.py
SQLITE_SKIP := tests/tournaments/pairing tests/events/test_hashing.py \
	tests/events/test_concurrency_sqlite.py

# The slowest tests (10 s or more) are listed at the end of the run: CI must stay well under an
# hour, and this is where to look first when it grows.
pytest: venv
	CELERY_QUEUE=herald-test-$$$$ $(BIN)/pytest --durations=30 --durations-min=10 $(PYTEST_ARGS)
	@case "$${DATABASE_URL:-}" in postgres*) test -n "$(strip $(PYTEST_ARGS))" || { \
		echo "== the store, API and admin tests again on SQLite, as make run serves them"; \
		env -u DATABASE_URL -u REDIS_URL -u HERALD_REQUIRE_SERVICES $(BIN)/pytest -q \
			-p no:cacheprovider -m "not services" $(SQLITE_SKIP:%=--ignore=%) $(SQLITE_TESTS); };; \
	esac

test: lint typecheck pytest

worker: venv
	$(BIN)/celery -A herald worker --loglevel=INFO --concurrency=2

beat: venv
	$(BIN)/celery -A herald beat --loglevel=INFO

SOCKETS_PORT ?= 8001
sockets: venv
	$(BIN)/daphne -b $(HOST) -p $(SOCKETS_PORT) --websocket_connect_timeout 30 herald.asgi:application

# bench/engine.py measures OpenSpiel's pure-Python Liar's Poker in turn with each of its rows
# (issue #19): the machine's speed changes by half within minutes, and the reference moves with
# it. Not a dependency of Herald: installed once, for the benchmarks alone, in a folder of its
# own (so `make lock` never pins it, nor the numpy and scipy it brings), where a wheel exists
# (no compiler); skipped with a word where none does.
OPENSPIEL := open_spiel==2.0.2
BENCH_EXTRAS := $(VENV)/bench-extras

bench: venv
	@[ -d $(BENCH_EXTRAS)/open_spiel ] || $(BIN)/python -m pip install --quiet \
		--only-binary=:all: --target $(BENCH_EXTRAS) '$(OPENSPIEL)' \
		|| echo "no $(OPENSPIEL) wheel for this machine: bench/engine.py prints no OpenSpiel figure"
	@for script in bench/*.py; do \
		case $$script in */_*) continue;; esac; \
		echo "== $$script"; PYTHONPATH=$(BENCH_EXTRAS) $(BIN)/python $$script || exit 1; \
	done

lock: venv
	$(BIN)/python -m pip install --quiet --upgrade -e '.[dev]'
	( sed -n 1,2p requirements.lock; $(BIN)/python -m pip freeze --exclude-editable | grep -v '^herald' ) > requirements.lock.new
	mv requirements.lock.new requirements.lock

# Maintainers only (needs GNU gettext): refresh locale/*/django.po from the code and templates
# (engine/ included: its _() templates), then compile the .mo that is committed beside it.
MESSAGE_IGNORES := --ignore='.venv/*' --ignore='tests/*' --ignore='bench/*' --ignore='docker/*' \
	--ignore='herald.egg-info/*' --ignore='staticfiles/*'
# Every finished game's record (docs/records.md), checked by the offline verifier: on a fresh
# clone, the demo's games.
records: demo
	$(BIN)/python manage.py export_record --all-finished --out records
	@status=0; for f in records/*.json; do \
		out=$$($(BIN)/python -m engine.record verify "$$f") || status=1; \
		echo "$$f: $$(echo "$$out" | tail -n 1)"; \
	done; exit $$status

messages: venv
	$(BIN)/python manage.py makemessages -l fr --no-obsolete --extension html,txt,py,jinja $(MESSAGE_IGNORES)
	$(BIN)/python manage.py compilemessages -l fr --ignore='.venv/*'

clean:
	rm -rf $(VENV) herald.sqlite3 herald.sqlite3-wal herald.sqlite3-shm staticfiles .mypy_cache .pytest_cache .ruff_cache .hypothesis
