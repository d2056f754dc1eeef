"""The perfect-information critic (``agents.neural.critic``) and PPO's ``--critic perfect``: the held cards
it reads are the env's, rolled to the seat to act; its weights travel with the training checkpoint (a
resumed run ends as the uninterrupted one) but never with the network; its conditions are named."""

import dataclasses
import math

import numpy as np
import pytest
import torch

from agents.neural.checkpoint import load_checkpoint
from agents.neural.critic import CriticOptimizer, make_critic, seat_hands
from agents.neural.rollout import make_batch_env
from experiments import ppo
from experiments.common import check_args
from trick_core.registry import make_env

from .test_training import ITERATION, assert_same_weights, network_state, tiny_args

GAMES = ["bavarian", "palatinate", "asserufen", "knuffeln"]


@pytest.mark.parametrize("game", GAMES)
def test_held_cards_are_the_hands_of_the_aec_envs_state(game):
    """A hand played some steps in the AEC env and loaded into a batch row: ``held_cards`` names, per seat,
    the cards that the AEC env's ``state()`` lists."""
    table = make_env(game)
    rng = np.random.default_rng(21)
    for seed in range(21, 41):  # the first deal whose hand is still being played after nine random steps
        table.reset(seed=seed)
        for _ in range(9):
            if table.terminations[table.agent_selection]:
                break
            table.step(int(rng.choice(np.flatnonzero(table.observe(table.agent_selection)["action_mask"]))))
        if not table.terminations[table.agent_selection]:
            break
    env = make_batch_env(game, 1, seed=0)
    env.reset(seed=0)
    env.load_states(table.unwrapped.kernel_state()[None])
    held = env.held_cards()
    assert held.shape == (1, env.num_seats) and env.num_cards == table.unwrapped.deck.num_cards
    shown = table.unwrapped.state()["hands"]
    names = [table.unwrapped.deck.names_of(int(mask)) for mask in held[0]]
    assert names == [shown[agent] for agent in table.possible_agents]
    assert sum(len(hand) for hand in names) < sum(len(hand) for hand in table.unwrapped.state()["dealt_hands"].values())


def test_seat_hands_puts_the_seat_to_act_first():
    held = np.array([[0b0001, 0b0010, 0b0100, 0b1000], [0b0011, 0b0100, 0b1000, 0b0000]], dtype=np.int64)
    bits = seat_hands(held, np.array([2, 0]), num_cards=4)
    assert bits.shape == (2, 4, 4) and bits.dtype == bool
    assert bits[0].tolist() == [[False, False, True, False], [False, False, False, True],
                                [True, False, False, False], [False, True, False, False]]
    assert bits[1, 0].tolist() == [True, True, False, False] and not bits[1, 3].any()


def test_the_critic_optimizer_round_trips_the_critic_and_refuses_a_plain_optimizer_state():
    network = torch.nn.Linear(3, 2)
    network.input_size = 3
    critic = make_critic(network, num_seats=2, num_cards=4, hidden=(8, 8, 8))
    optimizer = CriticOptimizer(network, critic, lr=1e-3)
    loss = critic(torch.ones(1, 3), torch.ones(1, 2, 4)).sum()
    loss.backward()
    optimizer.step()
    state = optimizer.state_dict()
    other_critic = make_critic(network, num_seats=2, num_cards=4, hidden=(8, 8))
    CriticOptimizer(network, other_critic, lr=1e-3).load_state_dict(state)
    assert_same_weights(critic.state_dict(), other_critic.state_dict())
    with pytest.raises(ValueError, match="trained without --critic perfect"):
        optimizer.load_state_dict(torch.optim.Adam(network.parameters()).state_dict())


@pytest.mark.parametrize("game", GAMES)
def test_a_run_with_the_perfect_critic_learns_its_critic_and_ships_the_network_alone(game, tmp_path):
    args = tiny_args(ppo, tmp_path, "run", game=game, seed=5, critic="perfect", opponent_fraction=0.5)
    summary = ppo.main(args)
    losses = summary["metrics"]
    assert math.isfinite(losses["losses/critic_loss"]) and math.isfinite(losses["losses/value_loss"])
    final = load_checkpoint(summary["final"])
    assert final.get("resume") is None and not any("critic" in key for key in final["network"])
    resumable = load_checkpoint(args.run_dir + "/checkpoint.pt")
    assert set(resumable["resume"]["optimizer"]) == {"adam", "critic"}
    assert final["training"]["args"]["critic"] == "perfect"


def test_the_critic_changes_the_updates(tmp_path):
    """Not a no-op: from the same seed, the critic's values give other advantages, so other weights."""
    plain = ppo.main(tiny_args(ppo, tmp_path, "plain", seed=4))
    with_critic = ppo.main(tiny_args(ppo, tmp_path, "critic", seed=4, critic="perfect"))
    first, second = network_state(plain["final"]), network_state(with_critic["final"])
    assert any(not torch.equal(first[key], second[key]) for key in first)


def test_a_resumed_run_with_the_critic_continues_where_it_stopped(tmp_path):
    interrupted = tiny_args(ppo, tmp_path, "parts", seed=9, opponent_fraction=0.5, critic="perfect")
    interrupted = dataclasses.replace(interrupted, total_decisions=interrupted.save_every)
    whole = ppo.main(tiny_args(ppo, tmp_path, "whole", seed=9, opponent_fraction=0.5, critic="perfect",
                               total_decisions=5 * interrupted.save_every // 2))
    ppo.main(interrupted)
    resumed = ppo.main(dataclasses.replace(interrupted, total_decisions=whole["decisions"],
                                           resume=interrupted.run_dir + "/checkpoint.pt"))
    assert resumed["decisions"] == whole["decisions"]
    assert_same_weights(network_state(whole["final"]), network_state(resumed["final"]))
    whole_critic = load_checkpoint(tmp_path / "whole" / "checkpoint.pt")["resume"]["optimizer"]["critic"]
    resumed_critic = load_checkpoint(tmp_path / "parts" / "checkpoint.pt")["resume"]["optimizer"]["critic"]
    assert_same_weights(whole_critic, resumed_critic)


def test_the_critics_conditions_are_named_before_the_run(tmp_path):
    with pytest.raises(ValueError, match="--critic perfect needs --actors 0"):
        check_args(tiny_args(ppo, tmp_path, "actors", critic="perfect", actors=1), "ppo")
    plain = tiny_args(ppo, tmp_path, "plain", seed=3, total_decisions=ITERATION)
    ppo.main(plain)
    with pytest.raises(ValueError, match="was trained with --critic none, not perfect"):
        check_args(dataclasses.replace(plain, critic="perfect", total_decisions=2 * ITERATION,
                                       resume=plain.run_dir + "/checkpoint.pt"), "ppo")
