# Two commands for a fresh machine: `make serve` and `make test`. Each installs what it needs.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV   := .venv
PY     := $(VENV)/bin/python
# This repository's books: distributions of their own (llm-inference-chapter: llm_inference;
# everyday-physics-course: everyday_physics), installed editable here.
BOOK   := calculators
PHYSICS := examples/everyday-physics
HOST   ?= 127.0.0.1
PORT   ?= 8000
# The origin the built site expects (mkdocs-material matches instant-navigation links against it):
# `make serve`'s own address by default, as in mkdocs.yml. The tests build their sites themselves,
# each for the free port its server got.
SITE_URL ?= http://$(HOST):$(PORT)/
export NO_MKDOCS_2_WARNING := 1

# The first Python >= 3.12 on PATH: this repository's environment (constraints.txt, its lock) is made
# for 3.12 (.python-version asks pyenv for it). The framework itself installs on Python >= 3.11.
PYTHON_BOOT := $(shell for c in python3 python3.13 python3.12; do \
	if command -v $$c >/dev/null 2>&1 && $$c -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then echo $$c; break; fi; done)

.PHONY: help setup serve site check test test-unit test-integration bench deploy deploy-url calculator reference clean

help:
	@echo "make serve   build the site and serve it at http://$(HOST):$(PORT) (rebuilds on change)"
	@echo "make check   the fast layers, for the inner loop: unit (Python alone) and the browser modules under Node"
	@echo "make test    run every test: unit, js, integration (real builds), Pyodide (Node), end to end (Chromium; Firefox and WebKit smoke)"
	@echo "make site    build the site into site/ with mkdocs build --strict"
	@echo "make bench   measure the site against plain Pyodide and PyScript; writes docs/performance.md"
	@echo "make deploy  publish to GitHub Pages with mkdocs gh-deploy (SITE_URL=https://<user>.github.io/<repo>/)"
	@echo "make calculator NAME=<id>  a new calculator of the chapter: module, test, page, nav entry"
	@echo "make reference  regenerate the reference tables of docs/authors.md from the code"

$(VENV)/.installed: pyproject.toml $(BOOK)/pyproject.toml $(PHYSICS)/pyproject.toml constraints.txt
	@test -n "$(PYTHON_BOOT)" || { echo "Python >= 3.12 is needed for this repository's environment (pyenv install 3.12, or install python3.12)"; exit 1; }
	$(PYTHON_BOOT) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test]' -e $(BOOK) -e $(PHYSICS)
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

setup: $(VENV)/.installed node_modules/.installed

serve: setup
	$(VENV)/bin/mkdocs serve --strict -a $(HOST):$(PORT)

site: setup
	SITE_URL=$(SITE_URL) $(VENV)/bin/mkdocs build --strict -d site

# The test layers (README, "Tests"): tests/unit needs Python alone; tests/js Node; tests/integration
# real builds (Node, node_modules); tests/pyodide, tests/e2e and tests/cross a built site and browsers.
# `make check` is the inner loop: the fast layers, no site built.
check: setup
	$(PY) -m pytest -q tests/unit tests/js

# ENGINES="chromium firefox webkit" by default; find_browsers.py says where each is looked for.
# Two workers (pytest-xdist), each test file whole on one of them (its module fixtures built once);
# each worker builds its own copy of the site. TEST_WORKERS=0 runs in this process alone.
TEST_WORKERS ?= 2
test: setup
	$(PY) scripts/find_browsers.py --install
	$(PY) -m pytest -q $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile)

test-unit: setup
	$(PY) -m pytest -q tests/unit

test-integration: setup
	$(PY) -m pytest -q tests/integration

# Builds its own site and baselines in a temporary folder; BENCH_ARGS="--runs 3 --no-write" for a quick look.
bench: setup
	$(PY) scripts/find_browsers.py --check chromium
	$(PY) scripts/bench.py $(BENCH_ARGS)

# The site must be built for the address it is published at (instant navigation and the sitemap
# use it): SITE_URL has to be given, never the local default. CI uses .github/workflows/pages.yml.
deploy: deploy-url setup
	SITE_URL=$(SITE_URL) $(VENV)/bin/mkdocs gh-deploy --strict --force

deploy-url:
	@if [ "$(origin SITE_URL)" = "file" ]; then \
		echo "make deploy needs the published address: make deploy SITE_URL=https://<user>.github.io/<repo>/"; exit 1; fi
	@case "$(SITE_URL)" in */) ;; *) echo "SITE_URL must end with /: $(SITE_URL)"; exit 1;; esac

# A new calculator of this chapter: $(BOOK)/llm_inference/<name>.py, its test and a page, registered in MODULES and nav.
calculator: setup
	@test -n "$(NAME)" || { echo "make calculator NAME=<kebab-case-id> [TITLE=\"...\"]"; exit 2; }
	$(PY) -m course_calculators new $(NAME) --package llm_inference --package-dir $(BOOK)/llm_inference --tests tests/unit/llm_inference $(if $(TITLE),--title "$(TITLE)")

# The spec-types, units and options tables of docs/authors.md, from the code (a test checks they are current).
reference: setup
	$(PY) scripts/reference.py

clean:
	rm -rf site .pytest_cache
