# Two entry points that work on a fresh machine with Python 3.11+: `make repro` and `make test`.
# Everything installs from requirements.lock (exact pins: scores depend on library versions).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export DVC_NO_ANALYTICS := 1
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: setup repro check-lock test test-slow test-browser browser screenshots lint format bench check-repro clean-venv wild

setup: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip==25.3
	# The long install shows its progress (about 50 s from the registry); the two short ones stay quiet.
	$(BIN)/python -m pip install -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	# An editable install compiles nothing (pip compiles a regular install's modules): compile src and
	# stages once here, or every test worker and every stage of a fresh clone compiles them again.
	$(BIN)/python -m compileall -q -j 0 src stages
	touch $(STAMP)

# dvc repro behind a guard (alignbench.dvclock): a valid dvc.lock is kept before the run and put back
# if the run dies, so a killed run never leaves the project wedged on a torn lock. `make check-lock`
# says in one line whether dvc.lock is whole and how to recover if not.
repro: $(STAMP)
	$(BIN)/python -m alignbench.dvclock repro

check-lock: $(STAMP)
	$(BIN)/python -m alignbench.dvclock check

# The tests cover the optional peer engines too, so `make test` also installs their pins. The
# Docxodus wheel exists for x86_64 Linux only; elsewhere the peer-engine tests skip with a reason.
$(VENV)/.peers: $(STAMP) requirements-peers.lock
	$(BIN)/python -m pip install --quiet -r requirements-peers.lock || echo "peers extra not installable here: its tests will be skipped"
	touch $(VENV)/.peers

# The Word and PDF readers' extras (python-docx, pypdfium2): their tests skip without them.
$(VENV)/.formats: $(STAMP) requirements-formats.lock
	$(BIN)/python -m pip install --quiet -r requirements-formats.lock
	touch $(VENV)/.formats

# -rs prints each skip's one-line reason (a machine without Chromium skips the browser tests).
# -n auto: pytest-xdist runs the tests on every core (two here), each test still in one process.
test: $(VENV)/.peers $(VENV)/.formats
	$(BIN)/python -m pytest -rs -n auto; status=$$?; if [ $$status -eq 5 ]; then echo "no tests collected"; status=0; fi; exit $$status

# Headless Chromium and its driver, for the browser tests and `make screenshots`: installed with
# apt-get on Debian/Ubuntu when run as root; otherwise the command to run is printed.
browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then \
	  echo "chromium and chromedriver are installed"; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium chromium-driver; \
	else \
	  echo "install headless Chromium and chromedriver, e.g. as root on Debian/Ubuntu:"; \
	  echo "  apt-get install chromium chromium-driver"; \
	  echo "or set ALIGNBENCH_CHROMIUM and ALIGNBENCH_CHROMEDRIVER to their paths"; exit 1; \
	fi

# The browser tests alone, failing (not skipping) without headless Chromium (`make browser`).
test-browser: $(STAMP)
	ALIGNBENCH_REQUIRE_BROWSER=1 $(BIN)/python -m pytest -rs tests/*_browser.py

# The README's pictures, made by the project's own command in the same headless Chromium.
screenshots: $(STAMP)
	$(BIN)/python -m alignbench.html.screenshot csa-terms-v1 docs/img/redline.png --at move
	$(BIN)/python -m alignbench.review.screenshot csa-1.1-to-2.0 docs/img/review.png --width 1280 --height 760

# What CI runs after `make test`: the `slow` tests (a real Dask cluster, full regeneration), then
# every property test again at its full example count (`make test` draws half: tests/property_budget.py).
test-slow: $(VENV)/.peers $(VENV)/.formats
	$(BIN)/python -m pytest -m slow
	ALIGNBENCH_PROPERTY_EXAMPLES=full $(BIN)/python -m pytest -n auto -m "hypothesis and not slow"

lint: $(STAMP)
	$(BIN)/ruff check src tests stages
	$(BIN)/ruff format --check src tests stages

format: $(STAMP)
	$(BIN)/ruff format src tests stages
	$(BIN)/ruff check --fix src tests stages

bench: $(STAMP) $(VENV)/.formats
	$(BIN)/python -m alignbench.bench

clean-venv:
	rm -rf $(VENV)

# The wild run (issue 28, docs/WILD.md): every consecutive revision pair of a real policy history, read
# and aligned. Development only: never part of `make test`, CI or the pipeline. PGA names a clone of
# OpenTermsArchive/pga-versions (imported into the git-ignored external/, reserved folders left out);
# LIMIT=N runs N pairs spread over the history instead of all of them.
wild: $(STAMP)
	@test -n "$(PGA)" || { echo "make wild PGA=<clone of OpenTermsArchive/pga-versions> [LIMIT=N]"; exit 2; }
	$(BIN)/python -m alignbench.wild import "$(PGA)"
	$(BIN)/python -m alignbench.wild run --workers 2 $(if $(LIMIT),--limit $(LIMIT))
