# refman — developer commands. Each target sets up (or refreshes) its own virtual
# environment in .venv, so a fresh machine needs only Python 3.11+, pip and make.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.stamp-install

.PHONY: run test lint bench package clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

## Open the app (the default library, or REFMAN_DB / DB=...).
run: $(STAMP)
	$(BIN)/refman $(if $(DB),--db "$(DB)")

## Run the whole test suite headless, plus ruff and mypy.
test: $(STAMP)
	$(BIN)/ruff check refman tests bench
	$(BIN)/mypy refman
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check refman tests bench
	$(BIN)/ruff format --check refman tests bench
	$(BIN)/mypy refman tests

bench: $(STAMP)
	$(BIN)/python bench/bench_import.py

clean:
	rm -rf $(VENV) build dist *.egg-info
