"""Bad options of the third-party library recipes (``experiments/ray_selfplay.py``, ``sb3_maskable_ppo.py``,
``*_pettingzoo.py``) are refused by ``experiments.common.check_args`` with a ``ValueError`` naming the option,
before the recipe builds an env, starts Ray or saves a model (on the command line: one line, exit status 1),
rather than a traceback from inside the library or a run that trains nothing and exits 0.

A recipe whose library is absent skips, saying which extra to install (``ray_selfplay`` and
``sb3_maskable_ppo`` import without theirs)."""

from __future__ import annotations

import dataclasses
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.common import check_args

ROOT = Path(__file__).resolve().parents[2]

EXTRAS = {"tianshou_pettingzoo": ("tianshou", "tianshou"), "torchrl_pettingzoo": ("torchrl", "torchrl"),
          "rllib_pettingzoo": ("ray.rllib", "rllib")}
"""recipe -> (the module it needs, its extra)."""

STARTS = {
    "ray_selfplay": ["experiments.ray_selfplay.ActorPool"],
    "sb3_maskable_ppo": ["experiments.sb3_maskable_ppo.make_training_env"],
    "tianshou_pettingzoo": ["experiments.tianshou_pettingzoo.make_env"],
    "torchrl_pettingzoo": ["experiments.torchrl_pettingzoo.make_env"],
    "rllib_pettingzoo": ["ray.init", "experiments.rllib_pettingzoo.make_config"],
}
"""What each recipe calls first to build its env or start Ray: none of it may run for a bad option."""

SEAT_RANGE = r"seat must be 0\.\.3 or 'random', got 7"

CASES = [
    # ray_selfplay: ran nothing and exited 0, an IndexError, a zero-width layer, numpy's and torch's tracebacks
    ("ray_selfplay", {"iterations": 0}, "iterations must be a positive integer, got 0"),
    ("ray_selfplay", {"steps": 0}, "steps must be a positive integer, got 0"),
    ("ray_selfplay", {"hidden": 0}, "hidden must be a positive integer, got 0"),
    ("ray_selfplay", {"seed": -3}, "seed must be a non-negative integer"),
    ("ray_selfplay", {"learning_rate": -1.0}, "learning_rate must be positive, got -1.0"),
    ("ray_selfplay", {"game": "chess"}, "unknown game 'chess'"),
    ("ray_selfplay", {"num_actors": 0}, "num_actors must be a positive integer, got 0"),
    ("ray_selfplay", {"num_envs": 0}, "num_envs must be a positive integer, got 0"),
    ("ray_selfplay", {"torch_threads": 0}, "torch_threads must be a positive integer, got 0"),
    ("ray_selfplay", {"ent_coef": -0.1}, "ent_coef must be >= 0, got -0.1"),
    ("ray_selfplay", {"vf_coef": -0.5}, "vf_coef must be >= 0, got -0.5"),
    # sb3_maskable_ppo (its save_path is set in the test)
    ("sb3_maskable_ppo", {"seat": "7"}, SEAT_RANGE),
    ("sb3_maskable_ppo", {"seat": "north"}, "seat must be 'random' or a seat number, got 'north'"),
    ("sb3_maskable_ppo", {"env": "single", "opponents": "nobody"}, "unknown agent 'nobody'"),
    ("sb3_maskable_ppo", {"opponents": "rules"}, "opponents 'rules' need --env single"),
    ("sb3_maskable_ppo", {"env": "vectorised"}, "env must be 'vector' or 'single', got 'vectorised'"),
    ("sb3_maskable_ppo", {"batch_size": 1}, "batch_size must be at least 2"),
    ("sb3_maskable_ppo", {"n_steps": 0}, "n_steps must be a positive integer, got 0"),
    ("sb3_maskable_ppo", {"n_epochs": 0}, "n_epochs must be a positive integer, got 0"),
    ("sb3_maskable_ppo", {"num_envs": 0}, "num_envs must be a positive integer, got 0"),
    ("sb3_maskable_ppo", {"numba_threads": 0}, "numba_threads must be a positive integer, got 0"),
    ("sb3_maskable_ppo", {"gamma": 1.5}, r"gamma must lie in \[0, 1\], got 1.5"),
    ("sb3_maskable_ppo", {"ent_coef": -0.01}, "ent_coef must be >= 0, got -0.01"),
    ("sb3_maskable_ppo", {"max_minutes": -1.0}, "max_minutes must be >= 0, got -1.0"),
    ("sb3_maskable_ppo", {"hidden": 0}, "hidden must be a positive integer, got 0"),
    ("sb3_maskable_ppo", {"game": "chess"}, "unknown game 'chess'"),
    # tianshou_pettingzoo
    ("tianshou_pettingzoo", {"eps_train": 2.0}, r"eps_train must lie in \[0, 1\], got 2.0"),
    ("tianshou_pettingzoo", {"buffer_size": 0}, "buffer_size must be a positive integer, got 0"),
    ("tianshou_pettingzoo", {"batch_size": 0}, "batch_size must be a positive integer, got 0"),
    ("tianshou_pettingzoo", {"num_train_envs": 0}, "num_train_envs must be a positive integer, got 0"),
    ("tianshou_pettingzoo", {"num_test_envs": 0}, "num_test_envs must be a positive integer, got 0"),
    ("tianshou_pettingzoo", {"test_episodes": 0}, "test_episodes must be a positive integer, got 0"),
    ("tianshou_pettingzoo", {"target_update_freq": -1}, "target_update_freq must be a non-negative integer"),
    ("tianshou_pettingzoo", {"opponents": "nobody"}, "unknown agent 'nobody'"),
    ("tianshou_pettingzoo", {"seat": "7"}, SEAT_RANGE),
    ("tianshou_pettingzoo", {"gamma": -0.1}, r"gamma must lie in \[0, 1\], got -0.1"),
    # torchrl_pettingzoo
    ("torchrl_pettingzoo", {"hidden": 0}, "hidden must be a positive integer, got 0"),
    ("torchrl_pettingzoo", {"seed": -1}, "seed must be a non-negative integer"),
    ("torchrl_pettingzoo", {"learning_rate": 0.0}, "learning_rate must be positive, got 0.0"),
    ("torchrl_pettingzoo", {"game": "chess"}, "unknown game 'chess'"),
    # rllib_pettingzoo
    ("rllib_pettingzoo", {"iterations": 0}, "iterations must be a positive integer, got 0"),
    ("rllib_pettingzoo", {"train_batch_size": 0}, "train_batch_size must be a positive integer, got 0"),
    ("rllib_pettingzoo", {"minibatch_size": 1500}, r"minibatch_size \(1500\) must be at most train_batch_size"),
    ("rllib_pettingzoo", {"hidden": 0}, "hidden must be a positive integer, got 0"),
]


def recipe_module(name: str):
    if name in EXTRAS:
        module, extra = EXTRAS[name]
        pytest.importorskip(module, reason=f"{module} is not installed: pip install -e '.[{extra}]'")
    return importlib.import_module(f"experiments.{name}")


@pytest.mark.parametrize(("name", "options", "complaint"), CASES)
def test_a_bad_recipe_option_is_named_before_an_env_or_ray_starts(name, options, complaint, tmp_path, monkeypatch):
    recipe = recipe_module(name)
    if name == "sb3_maskable_ppo":
        options = {"save_path": str(tmp_path / "model.zip"), **options}
    args = recipe.Args(**options)

    def started(*_args, **_kwargs):
        raise AssertionError(f"{name} started (an env, Ray or a model) before refusing {options}")

    for target in STARTS[name]:
        monkeypatch.setattr(target, started)
    with pytest.raises(ValueError, match=complaint):
        check_args(args)
    with pytest.raises(ValueError, match=complaint):
        recipe.train(args)
    assert list(tmp_path.iterdir()) == [], "the recipe wrote a file before refusing the option"


@pytest.mark.parametrize("name", ["ray_selfplay", "sb3_maskable_ppo", "tianshou_pettingzoo", "torchrl_pettingzoo",
                                  "rllib_pettingzoo"])
def test_the_recipes_defaults_pass_the_checks(name):
    check_args(recipe_module(name).Args())


def test_ray_selfplay_names_and_documents_its_coefficients_as_ppo_does():
    from experiments import ppo, ray_selfplay

    names = {field.name for field in dataclasses.fields(ray_selfplay.Args)}
    assert {"ent_coef", "vf_coef"} <= names and not {"entropy_coef", "value_coef"} & names
    done = subprocess.run([sys.executable, "-m", "experiments.ray_selfplay", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0
    help_text = " ".join(done.stdout.split())
    for option, text in (("ent_coef", "entropy bonus"), ("vf_coef", "weight of the value loss")):
        assert f"--{option.replace('_', '-')} FLOAT {text} (default:" in help_text
        assert ppo.Args.__dataclass_fields__[option].default == getattr(ray_selfplay.Args(), option)


@pytest.mark.parametrize(("arguments", "message"), [
    (["experiments.ray_selfplay", "--backend", "local", "--num-actors", "1", "--steps", "0"],
     "experiments.ray_selfplay: steps must be a positive integer, got 0"),
    (["experiments.sb3_maskable_ppo", "--seat", "7", "--save-path", "{tmp}/model.zip"],
     "experiments.sb3_maskable_ppo: seat must be 0..3 or 'random', got 7"),
])
def test_a_recipe_names_a_bad_option_in_one_line(arguments, message, tmp_path):
    arguments = [argument.replace("{tmp}", str(tmp_path)) for argument in arguments]
    done = subprocess.run([sys.executable, "-m", *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert done.stderr == message + "\n", done.stderr
    assert list(tmp_path.iterdir()) == []
