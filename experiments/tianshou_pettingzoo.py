"""Tianshou: its PettingZoo multi-agent setup (``PettingZooEnv``, ``MultiAgentOffPolicyAlgorithm``) with a
masked DQN on the learner's seat.

    python -m experiments.tianshou_pettingzoo --game bavarian --epochs 10 --opponents rules

Tianshou stores transitions in the env's turn order and gives each transition the rewards of its own
step (``rew[:, agent]``); an n-step target bootstraps from the env's next observation. On the full
four-seat table both go wrong for these games: the hand's result arrives on the last mover's step (the
other seats never see theirs), and the next observation is another seat's. So the recipe hands Tianshou
``trick_gym.pettingzoo.LearnerSeatTable``: the learner's seat is the table's only agent and the other seats
(``--opponents``, any ``agents.make`` name) play inside the env. Tianshou's DQN reads the legal actions
from the ``"mask"`` that ``PettingZooEnv`` builds from ``"action_mask"``. Needs the ``tianshou`` extra.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

import numpy as np
import torch
import tyro
from tianshou.algorithm import DQN, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

from agents.neural.training import set_threads
from experiments.common import OneSeatArgs, check_args, checked
from trick_gym.pettingzoo import LearnerSeatTable


@dataclass
class Args(OneSeatArgs):
    """Tianshou's PettingZoo multi-agent setup with a masked DQN on the learner's seat."""

    epochs: int = 2
    """training epochs"""
    epoch_num_steps: int = 200
    """env steps per epoch"""
    num_train_envs: int = 4
    """training envs"""
    num_test_envs: int = 2
    """evaluation envs"""
    test_episodes: int = 20
    """hands played per evaluation"""
    buffer_size: int = 20_000
    """replay buffer size"""
    batch_size: int = 64
    """minibatch size"""
    learning_rate: float = 1e-4
    target_update_freq: int = 200
    """target network update period"""
    eps_train: float = 0.1
    """exploration rate while collecting"""
    hidden: int = 256
    progress: bool = True
    """show Tianshou's progress bars and epoch lines"""


def make_env(args: Args) -> PettingZooEnv:
    return PettingZooEnv(LearnerSeatTable(args.game, opponents=args.opponents, seat=args.learner_seat))


def make_algorithm(args: Args, env: PettingZooEnv) -> MultiAgentOffPolicyAlgorithm:
    observation_space = env.observation_space["observation"]
    net = Net(state_shape=observation_space.shape, action_shape=env.action_space.n, hidden_sizes=[args.hidden] * 2)
    policy = DiscreteQLearningPolicy(
        model=net, action_space=env.action_space, eps_training=args.eps_train, eps_inference=0.0
    )
    dqn = DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=args.learning_rate),
        gamma=args.gamma,
        target_update_freq=args.target_update_freq,
    )
    return MultiAgentOffPolicyAlgorithm(algorithms=[dqn], env=env)


def train(args: Args) -> dict:
    check_args(args)  # every option before an env is built (0 epochs would only evaluate the untrained network)
    set_threads(args.torch_threads, 1)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    train_envs = DummyVectorEnv([lambda: make_env(args) for _ in range(args.num_train_envs)])
    test_envs = DummyVectorEnv([lambda: make_env(args) for _ in range(args.num_test_envs)])
    train_envs.seed(args.seed)
    test_envs.seed(args.seed + 1)
    algorithm = make_algorithm(args, make_env(args))
    train_collector = Collector[CollectStats](
        algorithm, train_envs, VectorReplayBuffer(args.buffer_size, len(train_envs)), exploration_noise=True
    )
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=False)
    train_collector.reset()
    started, cpu_started = time.perf_counter(), time.process_time()
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train_collector,
            test_collector=test_collector,
            max_epochs=args.epochs,
            epoch_num_steps=args.epoch_num_steps,
            collection_step_num_env_steps=10 * args.num_train_envs,
            test_step_num_episodes=args.test_episodes,
            batch_size=args.batch_size,
            update_step_num_gradient_steps_per_sample=0.1,
            test_in_training=False,
            multi_agent_return_reduction=lambda returns: returns[:, 0],
            show_progress=args.progress,
            verbose=args.progress,
        )
    )
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return {
        "game": args.game,
        "opponents": args.opponents,
        "env_steps": int(result.train_step),
        "steps_per_second": round(result.train_step / wall, 1),
        "steps_per_cpu_second": round(result.train_step / cpu, 1),
        "test_mean_units_per_hand": float(result.best_reward),
    }


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    print(json.dumps(train(checked(tyro.cli(Args, prog=command_prog())))))
