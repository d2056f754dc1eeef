# Two commands on a fresh machine:  `make run` (the bots' tournament)  and  `make test`.
PYTHON ?= python3
# The index torch comes from: empty for PyPI (the CUDA build on Linux); https://download.pytorch.org/whl/cpu for
# the CPU build.
TORCH_INDEX ?=
TORCH_FROM := $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-rllib rllib-env lint bench bench-quick clean play signalling

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch is pinned so that every install tests the same version; TORCH_INDEX picks the build (see above).
	$(PY) -m pip install --quiet torch==2.13.0 $(TORCH_FROM)
	$(PY) -m pip install --quiet -e '.[dev,torch,play,plot,sb3,torchrl,tianshou,ray]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m agents.tournament

test: $(STAMP)
	$(PY) -m ruff check .
	@[ -x "$${PLAY_CHROMIUM:-$$(command -v chromium || echo /usr/bin/chromium)}" ] || \
		echo "NOTE: no chromium found: the browser tests of the table (tests/play/test_browser.py) will be SKIPPED"
	$(PY) -m pytest -n 2 --dist loadgroup tests

# RLlib pins gymnasium exactly, so its recipe is tested in a virtual environment of its own.
RLLIB_VENV := .venv-rllib
RLLIB_STAMP := $(RLLIB_VENV)/.installed

$(RLLIB_STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(RLLIB_VENV)
	$(RLLIB_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(RLLIB_VENV)/bin/python -m pip install --quiet torch==2.13.0 $(TORCH_FROM)
	$(RLLIB_VENV)/bin/python -m pip install --quiet -e '.[dev,rllib]'
	touch $(RLLIB_STAMP)

rllib-env: $(RLLIB_STAMP)

test-rllib: $(RLLIB_STAMP)
	$(RLLIB_VENV)/bin/python -c "import ray.rllib"  # fail, not skip, when the recipe's library is missing
	$(RLLIB_VENV)/bin/python -m pytest -p no:xdist -q -p no:cacheprovider tests/trick_gym/test_rl_recipes.py tests/trick_gym/test_recipe_options.py -k rllib

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
	rm -rf $(VENV) $(RLLIB_VENV) .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
