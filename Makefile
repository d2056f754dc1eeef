# Two commands on a fresh machine:  `make run` (the bots' tournament)  and  `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench bench-quick clean play signalling

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch is pinned: an unpinned install may pull a multi-GB CUDA build where a CPU build is wanted.
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[dev,torch,play,sb3,torchrl,tianshou]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m agents.tournament

test: $(STAMP)
	$(PY) -m ruff check .
	@[ -x "$${PLAY_CHROMIUM:-$$(command -v chromium || echo /usr/bin/chromium)}" ] || \
		echo "NOTE: no chromium found: the browser tests of the table (tests/play/test_browser.py) will be SKIPPED"
	$(PY) -m pytest -n 2 tests

# The table in a browser: play against the bots, or watch game records (python -m play --help).
play: $(STAMP)
	$(PY) -m play

lint: $(STAMP)
	$(PY) -m ruff check .

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]' || echo "optional benchmark dependencies unavailable; their rows are skipped"
	$(PY) -m benchmarks.compare --json benchmarks/results.json

bench-quick: $(STAMP)
	$(PY) -m benchmarks.compare --quick

signalling: $(STAMP)
	$(PY) -m experiments.signalling_study

clean:
	rm -rf $(VENV) .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
