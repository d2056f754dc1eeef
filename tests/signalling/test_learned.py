"""``signalling.learned``: the muted wrapper says nothing and otherwise plays its inner agent, the plug-in
refuses what it cannot play, and the recipe's RL stage starts from the carried-over network and is
evaluated against the silent, deaf rule team."""

from pathlib import Path

import pytest

from agents import make
from knuffeln_env import knuffeln_v0
from signalling import learned


def play_hand(agents, seed: int):
    env = knuffeln_v0.env(talk=learned.TALK)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(agents[agent].act(env, agent))
    return env.unwrapped.game_record()


def test_a_muted_agent_is_silent_at_every_talk_turn_and_plays_its_cards():
    seats = [f"player_{i}" for i in range(4)]
    muted = {seat: learned.MutedAgent(make("rules", "knuffeln")) for seat in seats[0::2]}  # a team
    talking = {seat: make("rules", "knuffeln") for seat in seats[1::2]}
    said = {"muted": [], "talking": []}
    for seed in range(6):
        record = play_hand({**muted, **talking}, seed)
        for speaker, action in record["actions"]:
            if action == "silent" or action.startswith("token:"):
                said["muted" if speaker in muted else "talking"].append(action)
        assert record["result"] is not None
    assert said["muted"] and set(said["muted"]) == {"silent"}
    assert set(said["talking"]) - {"silent"}  # the rule talker speaks: the check can fail


def muted_along_a_hand(talking, muted, seed: int) -> tuple[set, int]:
    """Play a hand with ``talking`` at every seat, asking ``muted`` at each decision: it must say ``silent`` at
    every talk turn and play ``talking``'s action at every other. Returns (what was said, decisions compared)."""
    env = knuffeln_v0.env(talk=learned.TALK)
    env.reset(seed=seed)
    said, compared = set(), 0
    for agent in env.agent_iter():
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        action = talking.act(env, agent)
        name = env.unwrapped.action_to_string(action)
        if name == "silent" or name.startswith("token:"):
            said.add(name)
            assert env.unwrapped.action_to_string(muted.act(env, agent)) == "silent"
        else:
            assert muted.act(env, agent) == action
            compared += 1
        env.step(action)
    return said, compared


def test_a_muted_agent_plays_its_inner_agents_card_outside_talk_turns():
    said, compared = muted_along_a_hand(make("rules", "knuffeln"), learned.MutedAgent(make("rules", "knuffeln")), 4)
    assert compared >= 9 and said


def test_the_plug_in_refuses_another_game_an_unknown_seed_and_a_bad_muted():
    with pytest.raises(ValueError, match="knuffeln"):
        learned.learned("bavarian", seed=1)
    with pytest.raises(ValueError, match="no learned talker of the plain population for seed 99"):
        learned.learned("knuffeln", seed=99)
    with pytest.raises(ValueError, match="unknown population 'mixed'"):
        learned.learned("knuffeln", seed=1, population="mixed")
    with pytest.raises(ValueError, match="muted"):
        learned.learned("knuffeln", seed=1, muted="yes")


def test_the_recipe_starts_from_the_widened_network_and_evaluates_against_the_silent_rules():
    args = learned.check(learned.Args(seed=3, progress=False))
    command = learned.rl_command(args, Path("runs/x"), Path("runs/x/widened.pt"), 19.5)
    assert "--init-from=runs/x/widened.pt" in command
    assert f"--eval-opponent={learned.SILENT_OPPONENT}" in command
    assert command[command.index("--config") + 1] == "talk=tokens:8"
    assert "--cpu-limit-minutes=19.5" in command and "--seed=3" in command and "--no-progress" in command
    assert "--symmetry=tokens" not in command and "--signal-coef=0.05" in command
    assert "--signal-coef" not in " ".join(learned.rl_command(learned.Args(seed=3, signal_coef=0.0), Path("r"),
                                                              Path("r/w.pt"), 5.0))
    other_play = learned.rl_command(learned.Args(seed=3, population="otherplay"), Path("r"), Path("r/w.pt"), 5.0)
    assert "--symmetry=tokens" in other_play
    with pytest.raises(ValueError, match="budget"):
        learned.check(learned.Args(seed=1, budget_cpu_minutes=0))


def test_the_talker_plug_in_plays_any_talking_checkpoint_muted_or_not(tmp_path):
    from agents.neural.widen import Args as WidenArgs
    from agents.neural.widen import main as widen

    path = str(tmp_path / "widened.pt")
    widen(WidenArgs(checkpoint="agents/neural/checkpoints/knuffeln.pt", out=path, config=["talk=tokens:8"]))
    said, _ = muted_along_a_hand(learned.talker("knuffeln", path), learned.talker("knuffeln", path, muted=True), 2)
    assert said  # the widened network's talk turns were reached
    with pytest.raises(ValueError, match="muted"):
        learned.talker("knuffeln", path, muted=1)


@pytest.mark.parametrize("population", learned.POPULATIONS)
def test_a_shipped_learned_talker_has_its_record_and_talks(population):
    import hashlib
    import json

    from agents.neural.agent import NeuralAgent

    seeds = learned.shipped_seeds(population)
    assert seeds, f"no learned talker of the {population} population is shipped"
    for seed in seeds:  # every shipped seed: its file is the one its record names, trained by the recipe
        path = learned.checkpoint_path(seed, population)
        record = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        assert record["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest(), seed
        assert record["config"] == {"talk": learned.TALK} and record["seed"] == seed
        assert [stage["algo"] for stage in record["stages"]][-2:] == ["widen", "ppo"]
        last = record["command"][-1]
        assert last.startswith("python -m signalling.learned") and f"--seed {seed} " in last
        assert ("--population otherplay" in last) == (population == "otherplay")
        assert "--budget-cpu-minutes 25" in last  # one budget for the whole population
    agent = make(learned.learned_spec(seeds[0], population), "knuffeln")
    assert isinstance(agent, NeuralAgent)
    said = [action for _, action in play_hand({f"player_{i}": agent for i in range(4)}, 1)["actions"]
            if action == "silent" or action.startswith("token:")]
    assert any(action.startswith("token:") for action in said)
