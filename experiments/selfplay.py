"""The self-play plumbing of ``experiments/ppo.py`` and ``experiments/dmc.py``: the opponent pool, the run, and
where the rollouts are played: in the learner's process, or by ``--actors`` experience actors
(``experiments.ray_actors``) on Ray workers or in this process, which all feed the one learner.

A script's rollout is a ``SelfPlayCollector`` (its ``act``): every step it encodes each row's observation,
picks the actions of the learner's rows and of the opponent rows, records them (``HandRecorder``) and steps
the batch env; the decisions of the hands that ended are what the learner trains on. The same collector
runs in both places:

- ``--actors 0`` (default): on the learner's env, network and random generator, in the learner's order of
  random draws, so the run is the one the script made before actors existed;
- ``--actors N``: each actor owns a collector with its own env (``--num-envs`` hands) and generators
  (``SeedSequence([seed, actor])``). Every iteration the learner broadcasts its weights, the opponent it drew
  from its pool and the algorithm's settings (e.g. DMC's epsilon); each actor plays ``--rollout-steps``
  steps and returns its finished hands' decisions; the learner concatenates them in actor order and makes
  its usual update. At every checkpoint the actors reseed their envs from the run's segment seed, so a
  resumed run continues as the uninterrupted one, and the Ray and local backends give the same run.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import time
from dataclasses import dataclass

import numpy as np
import torch

from agents.neural.rollout import Decisions, HandRecorder, SeatMixer, make_batch_env
from agents.neural.symmetry import TokenRelabelledEnv
from agents.neural.training import OpponentPool, Run
from trick_core.bits import derived_seed

from .common import SelfPlayArgs
from .ray_actors import ActorConfig, ActorPool


class SelfPlayCollector:
    """One actor's rollouts (see the module docstring). A subclass sets ``extras`` (recorded per decision)
    and ``record_masks``, and implements ``act``; ``receive`` takes what the learner sends."""

    extras: tuple[str, ...] = ()
    record_masks = False

    def __init__(self, env, args: SelfPlayArgs, rng: np.random.Generator, device, scale: float,
                 opponent=None, pool: OpponentPool | None = None) -> None:
        self.args, self.rng, self.device, self.scale = args, rng, device, scale
        self.opponent = opponent  # the frozen network of the opponent rows (built on first use on an actor)
        self.pool = pool  # in the learner's process: its pool, drawn from before each rollout
        self.settings: dict = {}
        self.incoming: dict = {}
        self.mixer = SeatMixer(args.game, env.num_envs, env.num_seats, args.opponent_fraction, rng)
        self.recorder = HandRecorder(env.num_envs, env.num_seats, record_masks=self.record_masks, extras=self.extras)
        self.fresh_hands = True  # every row holds a new hand: draw the seatings

    def act(self, worker, learner: np.ndarray, encoded: np.ndarray) -> tuple[np.ndarray, dict]:
        """The actions of every row (``learner``: the learner's rows) and the extras to record."""
        raise NotImplementedError

    def start_rollout(self, worker) -> None:
        """Hook before each rollout (PPO reseeds its sampling generator here)."""

    def receive(self, extra: dict) -> None:
        """What the learner sends with its weights: ``opponent`` weights, a new ``segment`` seed, settings."""
        self.incoming.update(extra)

    def new_segment(self, worker, seed: int) -> None:
        """Reseed the env (the hands in progress are abandoned) and redraw every seating."""
        worker.out = worker.env.reset(seed=seed)
        self.recorder.drop_unfinished()
        self.fresh_hands = True

    def rollout(self, worker, steps: int) -> Decisions:
        incoming, self.incoming = self.incoming, {}
        if "segment" in incoming:  # on an actor: its env and its generator restart from the segment's seed
            seed = derived_seed(incoming.pop("segment"), worker.actor)
            self.rng = self.mixer.rng = np.random.default_rng(seed)
            self.new_segment(worker, seed)
        if self.fresh_hands:
            self.mixer.redraw(np.ones(worker.env.num_envs, dtype=bool))
            self.fresh_hands = False
        self.load_opponent(worker, incoming.pop("opponent", None))
        self.settings.update(incoming)
        self.start_rollout(worker)
        for _ in range(steps):
            out = worker.out
            learner = self.mixer.learner_acts(out.current_player)
            encoded = worker.policy.encode(out.observation)
            actions, extras = self.act(worker, learner, encoded)
            self.recorder.record(encoded, actions, out.current_player, learner, out.action_mask, **extras)
            worker.out = worker.env.step(actions)
            self.outcome(worker.out)
            self.mixer.redraw(worker.out.terminated)
        return self.finished()

    def outcome(self, out) -> None:
        """Record what the step led to (PPO scales the rewards here)."""
        self.recorder.outcome(out.rewards, out.terminated)

    def finished(self) -> Decisions:
        """The decisions of the hands that ended (PPO adds its advantage estimates)."""
        return self.recorder.finished()

    def load_opponent(self, worker, weights: dict | None) -> None:
        if self.pool is not None and self.opponent is not None:
            self.pool.load_random(self.opponent, self.rng)
        elif weights is not None:
            if self.opponent is None:
                self.opponent = copy.deepcopy(worker.policy)
            self.opponent.load_state_dict(weights)

    def collect(self, worker, steps: int) -> dict:
        """``rollout`` as the experience batch of an actor (``experiments.ray_actors``)."""
        return to_batch(self.rollout(worker, steps))


def to_batch(decisions: Decisions) -> dict:
    batch = {"action": decisions.action, "observation": decisions.observation, "returns": decisions.returns,
             "hand_returns": decisions.hand_returns}
    if decisions.action_mask is not None:
        batch["action_mask"] = decisions.action_mask
    if decisions.advantages is not None:
        batch["advantages"] = decisions.advantages
    batch.update({f"extra_{name}": values for name, values in decisions.extras.items()})
    return batch


def from_batches(batches: list[dict]) -> Decisions:
    """The actors' decisions as one ``Decisions``, in actor order (actors without decisions left out)."""
    hand_returns = np.concatenate([batch["hand_returns"] for batch in batches])
    full = [batch for batch in batches if len(batch["action"])]
    if not full:
        return Decisions(observation=np.zeros((0, 0), np.float16), action=np.zeros(0, np.int64),
                         returns=np.zeros(0, np.float32), hands=len(hand_returns), hand_returns=hand_returns)

    def joined(key: str):
        return np.concatenate([batch[key] for batch in full]) if key in full[0] else None

    return Decisions(
        observation=joined("observation"), action=joined("action"), returns=joined("returns"),
        action_mask=joined("action_mask"), advantages=joined("advantages"),
        extras={key.removeprefix("extra_"): joined(key) for key in full[0] if key.startswith("extra_")},
        hands=len(hand_returns), hand_returns=hand_returns,
    )


@dataclass
class InProcessWorker:
    """What a collector steps in the learner's process (the fields of an ``ExperienceWorker`` it reads)."""

    env: object
    policy: torch.nn.Module
    generator: torch.Generator
    out: object
    actor: int = 0


class InProcess:
    """``--actors 0``: the collector plays on the learner's env and network, with the learner's generator."""

    def __init__(self, collector: SelfPlayCollector, env, network, device, env_seed: int) -> None:
        self.collector = collector
        self.worker = InProcessWorker(env, network, torch.Generator(device=device), env.reset(seed=env_seed))
        self.decisions_per_rollout = collector.args.rollout_steps * env.num_envs

    def collect(self, network, settings: dict) -> tuple[Decisions, list[int]]:
        self.collector.receive(settings)
        decisions = self.collector.rollout(self.worker, self.collector.args.rollout_steps)
        return decisions, [len(decisions)]

    def new_segment(self, seed: int) -> None:
        self.collector.new_segment(self.worker, seed)

    def close(self) -> None:
        pass


def network_copy(network, env):
    """``make_policy`` of the actors: a CPU copy of the learner's network (the weights follow by broadcast)."""
    return copy.deepcopy(network)


def actor_collector(collector_class, args: SelfPlayArgs, scale: float, env, actor: int, config) -> SelfPlayCollector:
    """``make_collector`` of the actors: a collector on the CPU (its generator is reseeded with its env at
    every segment, the first included)."""
    return collector_class(env, args, np.random.default_rng([args.seed, actor]), torch.device("cpu"), scale)


class Actors:
    """``--actors N``: the rollouts of N experience actors (``ActorPool``) feeding the learner."""

    def __init__(self, args: SelfPlayArgs, config: dict, collector_class, scale: float, network, pool: OpponentPool,
                 rng: np.random.Generator, env_seed: int) -> None:
        actor_config = ActorConfig(args.game, args.num_envs, args.rollout_steps, args.seed, env_config=config,
                                   env_threads=args.env_threads, torch_threads=args.torch_threads)
        self.actors = ActorPool(
            args.actors, actor_config, functools.partial(network_copy, copy.deepcopy(network).cpu()),
            functools.partial(actor_collector, collector_class, args, scale), backend=args.actor_backend,
            ray_address=args.ray_address,
        )
        self.pool, self.rng = pool, rng
        self.opponent = copy.deepcopy(network) if args.opponent_fraction > 0 else None
        self.pending = {"segment": env_seed}
        self.version = 0
        self.decisions_per_rollout = args.actors * args.num_envs * args.rollout_steps

    def collect(self, network, settings: dict) -> tuple[Decisions, list[int]]:
        extra = {**self.pending, **settings}
        self.pending = {}
        if self.opponent is not None:
            self.pool.load_random(self.opponent, self.rng)
            extra["opponent"] = {name: tensor.cpu() for name, tensor in self.opponent.state_dict().items()}
        self.actors.broadcast(network.state_dict(), self.version, extra)
        batches = self.actors.collect()
        if any(batch["version"] != self.version for batch in batches):
            raise RuntimeError("an actor acted with stale weights")
        self.version += 1
        return from_batches(batches), [int(batch["samples"]) for batch in batches]

    def new_segment(self, seed: int) -> None:
        self.pending = {"segment": seed}

    def close(self) -> None:
        self.actors.close()


class SelfPlay:
    """A self-play run's plumbing around the script's update: the opponent pool, the ``Run`` (folder, logs,
    budget, checkpoints, evaluations), the rollouts (``InProcess`` or ``Actors``) and the throughput."""

    def __init__(self, args: SelfPlayArgs, *, algo: str, head: str, config: dict, network, optimizer,
                 rng: np.random.Generator, device, scale: float, collector_class) -> None:
        if args.ray_address is not None and not args.actors:
            raise ValueError(f"--ray-address {args.ray_address!r} needs --actors N (with --actors 0 the learner's "
                             "process plays every rollout and would ignore it)")
        self.args, self.network = args, network
        pool = OpponentPool(args.pool_size if args.opponent_fraction > 0 else 0, args.anchor_share)
        if args.init_from and args.anchor_share > 0:
            pool.set_anchor(network)
        env = make_batch_env(args.game, 1 if args.actors else args.num_envs, num_threads=args.env_threads, **config)
        if getattr(args, "symmetry", "none") == "tokens":
            env = TokenRelabelledEnv(env, config)
        self.run = Run(args, algo=algo, head=head, config=config, network=network, optimizer=optimizer, pool=pool,
                       rng=rng, action_names=env.action_names)
        self.rng = self.run.rng  # restored on --resume
        if args.actors:
            self.rollouts = Actors(args, config, collector_class, scale, network, pool, self.rng, self.run.env_seed())
        else:
            opponent = copy.deepcopy(network) if args.opponent_fraction > 0 else None
            collector = collector_class(env, args, self.rng, device, scale, opponent=opponent, pool=pool)
            self.rollouts = InProcess(collector, env, network, device, self.run.env_seed())
        self.seconds = {"actor": 0.0, "learner": 0.0}
        self.counts = {"actor": 0, "learner": 0}
        self.from_actor = [0] * max(args.actors, 1)

    def rollout(self, **settings) -> Decisions:
        """The decisions of the hands that ended in this iteration's rollouts (``settings`` reach the collectors)."""
        start = time.perf_counter()
        decisions, per_actor = self.rollouts.collect(self.network, settings)
        self.seconds["actor"] += time.perf_counter() - start
        self.counts["actor"] += self.rollouts.decisions_per_rollout
        self.from_actor = [total + new for total, new in zip(self.from_actor, per_actor, strict=True)]
        return decisions

    @contextlib.contextmanager
    def learning(self, samples: int):
        """Times the update (of ``samples`` decision passes) for the learner's throughput."""
        start = time.perf_counter()
        yield
        self.seconds["learner"] += time.perf_counter() - start
        self.counts["learner"] += samples

    def throughput(self) -> dict:
        rates = {
            "charts/actor_decisions_per_second": self.counts["actor"] / max(self.seconds["actor"], 1e-9),
            "charts/learner_samples_per_second": self.counts["learner"] / max(self.seconds["learner"], 1e-9),
        }
        if self.args.actors:
            rates.update({f"actors/decisions_from_actor_{a}": n for a, n in enumerate(self.from_actor)})
        return rates

    def advance(self) -> None:
        """Count the iteration; at a checkpoint, reseed the envs and save."""
        new_segment, _ = self.run.advance(self.rollouts.decisions_per_rollout)
        if new_segment:
            self.rollouts.new_segment(self.run.env_seed())
            self.run.save()

    def __enter__(self) -> SelfPlay:
        self.run.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.run.__exit__(*exc)
        self.rollouts.close()
