# Two entry points that work on a fresh machine with Python 3.11+: `make repro` and `make test`.
# Everything installs from requirements.lock (exact pins: scores depend on library versions).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export DVC_NO_ANALYTICS := 1
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: setup repro test test-slow test-browser screenshots lint format bench check-repro clean-venv

setup: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip==25.3
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	# An editable install compiles nothing (pip compiles a regular install's modules): compile src and
	# stages once here, or every test worker and every stage of a fresh clone compiles them again.
	$(BIN)/python -m compileall -q -j 0 src stages
	touch $(STAMP)

repro: $(STAMP)
	$(BIN)/dvc repro

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

# The browser tests alone, failing (not skipping) without headless Chromium. Debian/Ubuntu, as root:
# apt-get install chromium chromium-driver
test-browser: $(STAMP)
	ALIGNBENCH_REQUIRE_BROWSER=1 $(BIN)/python -m pytest -rs tests/test_html_browser.py tests/test_review_browser.py tests/test_plots_browser.py

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
