"""Self-play actors on Ray: batch-env workers feeding one learner (weights broadcast, experience collected).

    from experiments.ray_actors import ActorConfig, ActorPool

    pool = ActorPool(2, ActorConfig("bavarian", num_envs=64, steps=32), make_policy, backend="ray")
    for iteration in range(iterations):
        pool.broadcast(learner.state_dict(), version=iteration)   # one ray.put, every actor loads it
        batches = pool.collect()                                  # one batch per actor, in actor order
        update(learner, batches)
    pool.close()

**The pieces.** An ``ExperienceWorker`` owns one compiled batch env (``agents.neural.rollout.make_batch_env``,
``num_envs`` rows, its own seed ``SeedSequence([seed, actor])``), a torch policy built by ``make_policy(env)``
(a ``torch.nn.Module`` whose weights the learner broadcasts) and a *collector* (below); ``collect()`` steps
the env ``steps`` times and returns the collector's experience batch, a dict of numpy arrays, plus the
bookkeeping keys ``actor``, ``version`` (the weights it acted with), ``env_steps``, ``samples``,
``seconds``. ``ActorPool`` is the learner's handle on ``num_actors`` of them: ``backend="ray"`` places
each in a Ray actor process (``num_cpus=1`` each, ``ray.init()`` here or ``ray_address="auto"`` for a
cluster), ``backend="local"`` keeps them in this process and steps them one after the other. Collection
is synchronous: every ``collect()`` returns every actor's batch, ordered by actor, so a run's updates, and
the logs that follow from them, are the same on both backends and on any cluster for the same seed (the
tests compare the learner's weights bit for bit). An actor whose process dies is restarted by Ray
(``max_restarts``), given the last broadcast weights, and asked for its batch again; it starts a fresh env,
so a run with a restart is no longer bit-identical to the local one (``ActorPool.restarts`` counts them).

**The hook for training scripts.** A script plugs its own rollout in as ``make_collector(env, actor,
config) -> collector``, where ``collector.collect(worker, steps) -> dict[str, np.ndarray]`` steps
``worker.env`` from ``worker.out`` with ``worker.policy`` (sampling with ``worker.generator``), leaves the
env's last ``BatchStep`` in ``worker.out``, and returns what the learner needs (e.g. PPO: observations,
masks, actions, log-probabilities, values and GAE targets; DMC: observations, actions and Monte-Carlo
returns). The local loop of such a script — ``for _ in range(rollout_steps): ... env.step(...)`` — moves
into that method unchanged, and its ``main`` replaces the loop by ``pool.broadcast`` + ``pool.collect``
and concatenates the batches; the update step stays as it is. Opponent pools and seat mixers live in the
collector (they are per-actor state); anything they need from the learner (an opponent snapshot) goes
through ``broadcast(..., extra=...)``, which reaches the collector's optional ``receive(extra)``.
``experiments.selfplay`` plugs ``experiments/ppo.py`` and ``experiments/dmc.py`` in this way (their
``--actors``). ``HandReturns`` below is the collector of the demo learner (``experiments.ray_selfplay``):
one policy plays every seat and each decision is labelled with its seat's settlement of the hand.

Ray is imported only when ``backend="ray"`` is used (``pip install -e '.[ray]'``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from agents.ray_arena import require_ray
from trick_core.checks import positive_int
from trick_core.registry import game_spec

BACKENDS = ("local", "ray")


@dataclass(frozen=True)
class ActorConfig:
    """What every actor runs."""

    game: str
    num_envs: int = 64
    """rows of each actor's batch env"""
    steps: int = 32
    """batch env steps per ``collect()`` (so ``num_envs * steps`` decisions per actor and call)"""
    seed: int = 0
    """actor ``a`` seeds its env and its sampling from ``SeedSequence([seed, a])``"""
    env_config: dict = field(default_factory=dict)
    """the game's rule options (``make_batch_env(game, num_envs, **env_config)``)"""
    env_threads: int = 1
    """numba threads of each actor's env"""
    torch_threads: int = 1
    """torch threads of each actor (more than one beside numba on a small machine is much slower)"""


class MaskedPolicy(torch.nn.Module):
    """A small actor-critic MLP: masked action logits and a value, for the demo and the tests."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int = 64, seed: int = 0) -> None:
        super().__init__()
        torch.manual_seed(seed)
        self.trunk = torch.nn.Sequential(
            torch.nn.Linear(obs_size, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, hidden), torch.nn.ReLU()
        )
        self.logits = torch.nn.Linear(hidden, num_actions)
        self.value = torch.nn.Linear(hidden, 1)

    def forward(self, observation: torch.Tensor, action_mask: torch.Tensor):
        features = self.trunk(observation)
        logits = self.logits(features).masked_fill(action_mask == 0, -1e9)
        return logits, self.value(features).squeeze(-1)

    @torch.no_grad()
    def sample(self, observation: np.ndarray, action_mask: np.ndarray, generator: torch.Generator):
        """Actions drawn from the masked policy, and their log-probabilities (numpy)."""
        logits, _ = self(torch.from_numpy(observation), torch.from_numpy(action_mask))
        log_probs = torch.log_softmax(logits, dim=-1)
        actions = torch.multinomial(log_probs.exp(), 1, generator=generator).squeeze(-1)
        return actions.numpy(), log_probs.gather(-1, actions[:, None]).squeeze(-1).numpy()


def make_masked_policy(env, hidden: int = 64, seed: int = 0) -> MaskedPolicy:
    """``make_policy`` for ``MaskedPolicy`` (the same initial weights in every process for one seed)."""
    return MaskedPolicy(env.obs_size, env.num_actions, hidden, seed)


class HandReturns:
    """The demo collector: the policy plays every seat; a decision's return is its seat's settlement of
    the hand (undiscounted, ``* reward_scale``). Only decisions of hands that ended are returned; those of
    hands still running wait in the collector for a later ``collect`` (so no hand is cut in two)."""

    def __init__(self, env, actor: int, config: ActorConfig, reward_scale: float = 0.01) -> None:
        self.reward_scale = reward_scale
        self.hand = np.zeros(env.num_envs, dtype=np.int64)  # hands finished per row so far
        self.pending: list[dict] = []  # per step: decisions of hands not yet ended
        self.finished: dict[int, np.ndarray] = {}  # hand key -> settlement per seat

    def _key(self, rows: np.ndarray, hands: np.ndarray) -> np.ndarray:
        return hands * (1 << 32) + rows

    def collect(self, worker: ExperienceWorker, steps: int) -> dict:
        env, out = worker.env, worker.out
        rows = np.arange(env.num_envs)
        for _ in range(steps):
            actions, log_probs = worker.policy.sample(out.observation, out.action_mask, worker.generator)
            self.pending.append({
                "observation": out.observation, "action_mask": out.action_mask, "action": actions,
                "logprob": log_probs, "seat": out.current_player.copy(), "key": self._key(rows, self.hand.copy()),
            })
            out = env.step(actions)
            for row in np.flatnonzero(out.terminated):
                self.finished[int(self._key(row, self.hand[row]))] = out.rewards[row].copy()
            self.hand += out.terminated
        worker.out = out
        step_arrays = {name: np.concatenate([step[name] for step in self.pending]) for name in self.pending[0]}
        done = np.isin(step_arrays["key"], np.fromiter(self.finished, dtype=np.int64, count=len(self.finished)))
        keys = step_arrays.pop("key")
        settlements = np.array([self.finished[int(k)][s] for k, s in zip(keys[done], step_arrays["seat"][done],
                                                                            strict=True)], dtype=np.float32)
        batch = {name: values[done] for name, values in step_arrays.items()}
        batch["return"] = settlements.reshape(-1) * np.float32(self.reward_scale)
        # keep the decisions of running hands (as one block) and forget the hands handed out
        waiting = {name: values[~done] for name, values in step_arrays.items()}
        waiting["key"] = keys[~done]
        self.pending = [waiting] if len(waiting["key"]) else []
        self.finished = {}  # every decision of an ended hand was handed out
        batch["hands"] = np.int64(len(np.unique(keys[done])))
        return batch


class ExperienceWorker:
    """One actor: a batch env, a policy copy and a collector (plain Python; a Ray actor on ``"ray"``)."""

    def __init__(
        self,
        actor: int,
        config: ActorConfig,
        make_policy: Callable,
        make_collector: Callable = HandReturns,
    ) -> None:
        torch.set_num_threads(config.torch_threads)
        self.actor, self.config = actor, config
        env_seed, torch_seed = np.random.SeedSequence([config.seed, actor]).generate_state(2, dtype=np.uint64)
        self.env = game_spec(config.game).make_batch_env(
            config.num_envs, seed=int(env_seed >> np.uint64(1)), num_threads=config.env_threads, **config.env_config
        )
        self.policy = make_policy(self.env)
        self.policy.eval()
        self.collector = make_collector(self.env, actor, config)
        self.generator = torch.Generator().manual_seed(int(torch_seed >> np.uint64(1)))
        self.out = self.env.reset()
        self.version = -1

    def set_weights(self, state_dict: dict, version: int, extra=None) -> int:
        self.policy.load_state_dict(state_dict)
        self.version = version
        if extra is not None and callable(getattr(self.collector, "receive", None)):
            self.collector.receive(extra)
        return version

    def collect(self) -> dict:
        start = time.perf_counter()
        batch = self.collector.collect(self, self.config.steps)
        batch.update(
            actor=self.actor,
            version=self.version,
            env_steps=self.config.steps * self.env.num_envs,
            samples=len(next(iter(v for v in batch.values() if isinstance(v, np.ndarray) and v.ndim))),
            seconds=time.perf_counter() - start,
        )
        return batch

    def ping(self) -> int:
        return self.actor


class ActorPool:
    """The learner's handle on ``num_actors`` experience workers (module docstring)."""

    def __init__(
        self,
        num_actors: int,
        config: ActorConfig,
        make_policy: Callable,
        make_collector: Callable = HandReturns,
        backend: str = "local",
        ray_address: str | None = None,
        max_restarts: int = 2,
    ) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}; choose from {list(BACKENDS)}")
        if backend != "ray" and ray_address is not None:
            raise ValueError(f"ray_address {ray_address!r} needs the ray backend (the {backend!r} backend would "
                             "ignore it)")
        positive_int(num_actors, "num_actors")
        game_spec(config.game)
        self.backend, self.num_actors = backend, num_actors
        self._started_ray = False
        if backend == "local":
            self.workers = [ExperienceWorker(a, config, make_policy, make_collector) for a in range(num_actors)]
            return
        from agents.ray_arena import connect

        ray = require_ray()
        self._started_ray = connect(ray_address, num_actors if ray_address is None else None,
                                    log_to_driver=ray_address is not None)
        self._last_weights = None
        self.restarts = 0
        self.workers = []
        remote = ray.remote(num_cpus=1, max_restarts=max_restarts, max_task_retries=0)(ExperienceWorker)
        try:
            self.workers = [remote.remote(a, config, make_policy, make_collector) for a in range(num_actors)]
            ray.get([worker.ping.remote() for worker in self.workers])  # surface construction errors here
        except BaseException:  # a policy or collector that fails to build, or Ctrl+C: no actor or Ray left over
            self.close()
            raise

    def broadcast(self, state_dict: dict, version: int, extra=None) -> None:
        """Send the learner's weights (and ``extra``, for the collectors) to every actor."""
        state = {name: tensor.detach().cpu().clone() for name, tensor in state_dict.items()}
        if self.backend == "local":
            for worker in self.workers:
                worker.set_weights(state, version, extra)
            return
        ray = require_ray()
        state_ref = ray.put(state)  # stored once, fetched by each actor
        self._last_weights = (state_ref, version, extra)
        ray.get([worker.set_weights.remote(state_ref, version, extra) for worker in self.workers])

    def collect(self) -> list[dict]:
        """One experience batch from every actor, in actor order (they run in parallel on Ray). An actor
        whose process died is restarted by Ray; it gets the last broadcast weights and collects again
        (``restarts`` counts these; its env starts afresh, so the run leaves the local run's path)."""
        if self.backend == "local":
            return [worker.collect() for worker in self.workers]
        ray = require_ray()
        refs = [worker.collect.remote() for worker in self.workers]
        batches = []
        for worker, ref in zip(self.workers, refs, strict=True):
            try:
                batches.append(ray.get(ref))
            except (ray.exceptions.RayActorError, ray.exceptions.ActorUnavailableError):
                if self._last_weights is None:
                    raise
                self.restarts += 1
                self._reload(worker, ray)
                batches.append(ray.get(worker.collect.remote()))
        return batches

    def _reload(self, worker, ray, timeout: float = 120.0) -> None:
        """Give a restarting actor the last weights, waiting (up to ``timeout`` s) until it is back."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                ray.get(worker.set_weights.remote(*self._last_weights))
                return
            except ray.exceptions.ActorUnavailableError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def close(self) -> None:
        if self.backend == "ray":
            ray = require_ray()
            for worker in self.workers:
                ray.kill(worker)
            if self._started_ray:
                ray.shutdown()
        self.workers = []

    def __enter__(self) -> ActorPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def concatenate(batches: list[dict]) -> dict:
    """The actors' batches as one (array keys concatenated in actor order; bookkeeping keys dropped)."""
    keys = [k for k, v in batches[0].items() if isinstance(v, np.ndarray) and v.ndim]
    return {k: np.concatenate([b[k] for b in batches]) for k in keys}
