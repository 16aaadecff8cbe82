# Podium developer entry points. Everything installs into .venv; nothing is needed by hand.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PODIUM := $(BIN)/podium
LOCALES := $(wildcard src/podium/web/locale/*/LC_MESSAGES/django.po)

.PHONY: run demo test quick check bench messages catalogues browser proxy clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is required ($(PYTHON) not found)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

# Compiled translations (.mo) are built from the .po files, never committed.
messages: $(STAMP)
ifneq ($(LOCALES),)
	cd src/podium/web && ../../../$(PODIUM) manage compilemessages --verbosity 0
endif

# Collects the messages of the web application, of the engine and the presets' phrases
# into the .po files (run from src/podium so that the engine's explanations are found too).
catalogues: $(STAMP)
	$(PODIUM) manage preset_texts
	cd src/podium && ../../$(PODIUM) manage makemessages -l cs -l it -l ru

# `make run`: install, migrate, load the demo events and serve them on http://127.0.0.1:8000.
# `make run PORT=8123` serves on another port; `make run RESET=1` wipes the demo events and
# loads them afresh first (their round clocks start again).
PORT ?= 8000
run: $(STAMP) messages
	$(PODIUM) serve --demo $(if $(RESET),--reset) --address 127.0.0.1:$(PORT)

# The command line on the bundled examples: examples/<preset>/<stage>.csv is one stage.
demo: $(STAMP)
	@for csv in examples/*/*.csv; do \
		preset=$$(basename $$(dirname $$csv)); stage=$$(basename $$csv .csv); \
		echo; echo "== podium standings $$preset $$csv --stage $$stage"; \
		$(PODIUM) standings $$preset $$csv --stage $$stage || exit 1; \
	done

# Browser tests drive Debian's Chromium; install it when it is missing (never a downloaded one).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "Installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# The reverse-proxy test (tests/cli/test_server_proxy.py) and bench/proxy.py run Debian's
# nginx in front of Podium; install it when it is missing.
proxy:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { \
		echo "Installing Debian's nginx for the reverse-proxy test"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; }

# `make test`: every test a user needs to trust a change — engine, rules, command line, web,
# the servers in processes of their own and the browser walks — on SQLite, or on the database
# DATABASE_URL names. `make test MARKS='not browser'` leaves out the browser walks (CI runs
# them once, on PostgreSQL); `ONLY_WEB=1` leaves out the engine and rules tests, which touch
# no database (CI runs them once, on SQLite). Markers: `browser` (set on every test that
# drives Chromium) and `slow` (several seconds each, measured); see [tool.pytest.ini_options]
# in pyproject.toml.
MARKS ?=
ONLY_WEB ?=
test: $(STAMP) messages browser proxy
	$(BIN)/pytest -q $(if $(MARKS),-m "$(MARKS)") $(if $(ONLY_WEB),--ignore=tests/engine --ignore=tests/rules)

# `make quick`: the inner loop, in a couple of minutes — engine, rules, command line and web
# without the browser walks and the slow tests. `make test` before a commit.
quick: $(STAMP) messages
	$(BIN)/pytest -q -m "not browser and not slow"

check: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(STAMP) proxy
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/cli.py
	$(BIN)/python bench/live.py
	$(BIN)/python bench/questions.py
	$(BIN)/python bench/load.py
	$(BIN)/python bench/pdf.py
	$(BIN)/python bench/mail.py
	$(BIN)/python bench/proxy.py

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache .import_linter_cache
