# Two commands on a fresh machine:  `make run` (the bots' tournament)  and  `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench bench-quick signalling clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch is pinned so that pip takes the CPU build that lies on this machine's disk.
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[dev,torch]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m agents.tournament

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest -n 2 tests

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
