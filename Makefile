# Herald's front door. `make run` and `make test` each do their own set-up on a fresh clone.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: help venv run serve migrate demo test lint typecheck pytest worker beat bench lock clean

help:
	@echo "make run      set up, migrate, load demo data and serve on http://$(HOST):$(PORT)"
	@echo "make test     set up, then ruff, mypy and pytest"
	@echo "make worker   start a Celery worker (needs REDIS_URL); it runs the periodic sweeps too"
	@echo "make beat     start Celery beat: only with HERALD_WORKER_SWEEPS=false"
	@echo "make bench    run the benchmarks in bench/"

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

run: demo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: venv
	$(BIN)/mypy engine platform/herald events tournaments ratings bench

pytest: venv
	CELERY_QUEUE=herald-test-$$$$ $(BIN)/pytest $(PYTEST_ARGS)

test: lint typecheck pytest

worker: venv
	$(BIN)/celery -A herald worker --loglevel=INFO --concurrency=2

beat: venv
	$(BIN)/celery -A herald beat --loglevel=INFO

bench: venv
	@for script in bench/*.py; do \
		case $$script in */_*) continue;; esac; \
		echo "== $$script"; $(BIN)/python $$script || exit 1; \
	done

lock: venv
	$(BIN)/python -m pip install --quiet --upgrade -e '.[dev]'
	( sed -n 1,2p requirements.lock; $(BIN)/python -m pip freeze --exclude-editable | grep -v '^herald' ) > requirements.lock.new
	mv requirements.lock.new requirements.lock

clean:
	rm -rf $(VENV) herald.sqlite3 herald.sqlite3-wal herald.sqlite3-shm staticfiles .mypy_cache .pytest_cache .ruff_cache .hypothesis
