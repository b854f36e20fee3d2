# refman — developer commands. Each target sets up (or refreshes) its own virtual
# environment in .venv, so a fresh machine needs only Python 3.11+, pip and make.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.stamp-install

.PHONY: run test lint bench package package-check clean

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

## Build the one-folder bundle in dist/refman (its own venv: .venv-package).
package:
	bash packaging/build.sh

## Build the bundle and the wheel and check that both start and work.
package-check: package
	bash packaging/check_bundle.sh
	bash packaging/check_wheel.sh

clean:
	rm -rf $(VENV) .venv-package build dist *.egg-info
