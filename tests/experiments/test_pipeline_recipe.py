"""``python -m experiments.pipeline --game G`` is the recipe of the network shipped for G: its defaults are
the options of the command in ``agents/neural/checkpoints/G.json`` (both stages), and the commands of
``docs/training.md`` name nothing the defaults do not already set."""

import dataclasses
import json
import re
import shlex
from pathlib import Path

import pytest
import tyro

from agents.neural.checkpoint import SHIPPED_DIR
from experiments import pipeline, ppo

ROOT = Path(__file__).resolve().parents[2]
RECORDS = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(SHIPPED_DIR.glob("*.json"))}
NOT_THE_RECIPE = {"runs_dir", "progress"}
"""Options of a recorded command that say where the run writes and what it shows, not what it learns."""


def pipeline_options(command: str) -> list[str]:
    """The arguments of a ``python -m experiments.pipeline ...`` command."""
    words = shlex.split(command)
    assert words[:3] == ["python", "-m", "experiments.pipeline"], command
    return words[3:]


def resolved(arguments: list[str]) -> dict:
    """Every setting of the pipeline and of its RL stage, from its command-line arguments."""
    args = pipeline.with_recipe(tyro.cli(pipeline.Args, args=arguments))
    stage = pipeline.rl_args(args, Path("runs/rl"), "warm/final.pt", args.budget_cpu_minutes, args.budget_wall_minutes)
    settings = {name: value for name, value in dataclasses.asdict(args).items()
                if name not in NOT_THE_RECIPE | {"rl"}}
    settings.update({f"rl.{name}": value for name, value in dataclasses.asdict(stage).items()
                     if name not in {"run_dir", "progress"}})
    if args.average_decisions:
        stage = pipeline.average_args(args, Path("runs/average"), "rl/final.pt", args.average_cpu_minutes, None)
        settings.update({f"average.{name}": value for name, value in dataclasses.asdict(stage).items()
                         if name not in {"run_dir", "progress"}})
    return settings


WARM_START = ("game", "seed", "config", "teacher_decisions", "warm_epochs", "workers", "hidden", "eval_hands")
"""The pipeline settings its warm start reads."""
SET_BY_A_RESUME = {"run_dir", "progress", "resume", "init_from", "cpu_limit_minutes", "time_limit_minutes"}
"""The RL stage's options a resumed run gives anew (where it writes, what it resumes, its budget)."""


def recipe_command(record: dict) -> str:
    """The one command of a shipped record: its stages' shared command, or its ``recipe`` where the stages ran
    other commands, checked to be that recipe: the warm start ran the recipe's warm start; the RL stage ran
    the recipe's RL settings, as a stage of a pipeline or as a run resumed to more decisions; a weight
    average's two stages ran the recipe's third stage (``check_averaging``)."""
    commands = {stage["command"] for stage in record["stages"]} | set(record["command"])
    if "recipe" not in record:
        assert len(commands) == 1, "the stages of one pipeline run share its command"
        return commands.pop()
    warm, rl, *averaging = record["stages"]
    recipe = resolved(pipeline_options(record["recipe"]))
    assert len(averaging) == 2 * (recipe["average_rounds"] if recipe["average_decisions"] else 0)
    for round_number in range(1, len(averaging) // 2 + 1):
        check_averaging(recipe, round_number, *averaging[2 * round_number - 2:2 * round_number])
    warm_settings = resolved(pipeline_options(warm["command"]))
    assert {key: warm_settings[key] for key in WARM_START} == {key: recipe[key] for key in WARM_START}
    words = shlex.split(rl["command"])
    if words[:3] == ["python", "-m", "experiments.pipeline"]:
        stage = {key[3:]: value for key, value in resolved(words[3:]).items() if key.startswith("rl.")}
    else:
        assert words[:3] == ["python", "-m", "experiments.ppo"] and any(w.startswith("--resume") for w in words)
        stage = dataclasses.asdict(tyro.cli(ppo.Args, args=words[3:]))
    assert {key: value for key, value in stage.items() if key not in SET_BY_A_RESUME} == \
        {key[3:]: value for key, value in recipe.items()
         if key.startswith("rl.") and key[3:] not in SET_BY_A_RESUME}
    return record["recipe"]


NOT_WHAT_IT_LEARNS = {"eval_also", "total_decisions", "save_every"}
"""Options of a weight-averaging stage's continuation that the recipe may differ in: a further opponent of
its evaluations (they play their own deals), a decision cap it was stopped before (its decisions are
checked against the recipe's instead), and how often it saved its resume checkpoint, where its env is
reseeded (which hands it is dealt, not how many or how it learns from them: the Asserufen continuation ran
with the scripts' default of 2 M, the recipe's stage inherits the RL stage's 3 M)."""


def check_averaging(recipe: dict, round_number: int, continuation: dict, soup: dict) -> None:
    """Two stages of the record after its RL stage are a round of the recipe's weight averaging: a
    continuation with its settings (resumed or not; round r's seed is the first round's + 10 (r - 1)) that
    ran the recipe's decisions (``average_later_decisions`` after the first round, where set), and the mean
    of the network it started from and one continuation checkpoint every ``average_every`` decisions."""
    words = shlex.split(continuation["command"])
    assert words[:3] == ["python", "-m", "experiments.ppo"]
    stage = dataclasses.asdict(tyro.cli(ppo.Args, args=words[3:]))
    ignored = SET_BY_A_RESUME | NOT_WHAT_IT_LEARNS
    expected = {key[8:]: value for key, value in recipe.items()
                if key.startswith("average.") and key[8:] not in ignored}
    expected["seed"] += pipeline.AVERAGE_SEED_OFFSET * (round_number - 1)
    assert {key: value for key, value in stage.items() if key not in ignored} == expected
    every = recipe["average_every"]
    later = round_number > 1 and recipe["average_later_decisions"]
    decisions, asked = continuation["decisions"], recipe["average_later_decisions" if later else "average_decisions"]
    assert asked - every // 10 < decisions < asked + every // 100, \
        "the continuation ran the recipe's decisions (or stopped by its CPU limit within a tenth of a checkpoint)"
    words = shlex.split(soup["command"])
    assert words[:3] == ["python", "-m", "experiments.average"] and soup["algo"] == "average"
    ingredients = words[words.index("--checkpoints") + 1:words.index("--out")]
    steps = [int(re.fullmatch(r".*/eval/decisions_(\d+)\.pt", path).group(1)) for path in ingredients[1:]]
    assert [round(step / every) for step in steps] == list(range(1, asked // every + 1))


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_the_defaults_are_the_shipped_command(game):
    command = recipe_command(RECORDS[game])
    assert resolved(pipeline_options(command)) == resolved(["--game", game])


def test_the_recipe_differs_from_the_scripts_own_defaults():
    """Were the RL recipe dropped, PPO would fine-tune at its from-scratch settings: the comparison above
    would then fail on the records (which give the recipe by hand), so it can."""
    stage = resolved(["--game", "bavarian"])
    assert stage["rl.learning_rate"] == 1e-4 != ppo.Args.learning_rate
    assert (stage["rl.anchor_share"], stage["rl.opponent_fraction"]) == (0.5, 0.3)
    assert resolved(["--game", "bavarian"]) != resolved(["--game", "bavarian", "--rl", "learning_rate=2.5e-4"])


def test_an_rl_option_overrides_its_key_only():
    settings = resolved(["--game", "knuffeln", "--rl", "learning_rate=3e-4"])
    assert (settings["rl.learning_rate"], settings["rl.anchor_share"], settings["rl.opponent_fraction"]) == \
        (3e-4, 0.5, 0.3)
    assert (settings["teacher_decisions"], settings["warm_epochs"]) == (500_000, 3)


def test_wall_limit_can_be_lifted():
    args = pipeline.with_recipe(tyro.cli(pipeline.Args, args=["--game", "palatinate", "--budget-wall-minutes", "inf"]))
    assert args.budget_wall_minutes == float("inf") and args.budget_cpu_minutes == 45.0
    assert pipeline.with_recipe(tyro.cli(pipeline.Args, args=["--game", "palatinate"])).budget_wall_minutes == 100.0


def test_the_documented_commands_are_the_defaults():
    """The page's "How to train each game" gives each shipped game's recipe as the bare command."""
    page = (ROOT / "docs" / "training.md").read_text(encoding="utf-8")
    section = page.split("## How to train each game", 1)[1].split("\n## ", 1)[0]
    commands = {" ".join(re.sub(r"#.*", "", line).split())
                for line in re.findall(r"^python -m experiments\.pipeline .*$", section, flags=re.MULTILINE)}
    assert commands >= {f"python -m experiments.pipeline --game {game}" for game in RECORDS}
