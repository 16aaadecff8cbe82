# Podium developer entry points. Everything installs into .venv; nothing is needed by hand.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is required ($(PYTHON) not found)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

# Until the web application exists, `make run` shows the standings of every bundled example:
# examples/<preset>/<stage>.csv is one stage of the preset rulebook of that name.
run: $(STAMP)
	@for csv in examples/*/*.csv; do \
		preset=$$(basename $$(dirname $$csv)); stage=$$(basename $$csv .csv); \
		echo; echo "== podium standings $$preset $$csv --stage $$stage"; \
		$(BIN)/podium standings $$preset $$csv --stage $$stage || exit 1; \
	done

test: $(STAMP)
	$(BIN)/pytest -q

check: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .import_linter_cache
