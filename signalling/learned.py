"""Learned signalling: Knüffeln ``talk="tokens:8"`` teams whose talk is learned from scratch.

The trained population of ``signalling.population`` is warm-started from the rule talker, so its token
code is the rules' fixed code, not one it invented. Here no convention is given: the card play starts
from the shipped Knüffeln network (``agents/neural/checkpoints/knuffeln.pt``, trained without talk), carried
over to the talk table by ``agents.neural.widen``, which leaves the network **deaf** to the talk block (zero
weights) and its **message policy uniform** over ``silent`` and the eight tokens. PPO self-play
(``experiments.ppo``, the shipped recipe's step size, opponent share and anchor) then trains speaking and
listening together with the card play; a token means something only if the partners come to use it so.
Plain PPO left the talk worth nothing within its budget (``docs/signalling.md``), so the recipe adds
*positive signalling* (Eccles et al. 2019, "Biases for emergent communication in multi-agent reinforcement
learning"; ``--signal-coef``): on the talk turns the objective also rewards the batch's estimate of the
information between message and state, so what a seat says comes to depend on its cards before anyone
listens; listening then pays, and PPO learns it.

**Plug-ins** (arena specs that name no path):

- ``"signalling.learned:learned[seed=k]"``: the ``neural`` agent (greedy) of training seed ``k``;
- ``"signalling.learned:learned[seed=k,muted=true]"``: the same agent, silent at every talk turn; it still
  hears (reads) its partner's talk, so muted against talking is the value of what it says;
- ``population=otherplay`` (default ``plain``): the seed of the population trained with Other-Play;
- ``"signalling.learned:talker[path=...,muted=true]"``: any talking network (a run's checkpoint), muted or not.

**Recipe** (one command per seed; ``--budget-cpu-minutes`` covers the carry-over and the RL stage):

    python -m signalling.learned --seed k --budget-cpu-minutes 25 [--population otherplay]

It writes ``runs/learned/<population>/knuffeln__learned__{k}__{time}/`` (``widened.pt``, then ``rl/final.pt`` and the
evaluations against the silent, deaf rule team ``rules[speak=false,listen=false]``); ``python -m
signalling.population --checkpoint .../rl/final.pt --out-dir signalling/learned/<population>`` ships it with its record
(every stage's command, seed, commit and CPU seconds). Results: ``docs/signalling.md``, "Learned talk".
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from agents.base import legal_actions, talk_actions

LEARNED_DIR = Path(__file__).resolve().parent / "learned"
"""Where the learned teams' checkpoints and records lie: ``<population>/tokens8_seed{k}.pt`` and ``.json``."""
POPULATIONS = ("plain", "otherplay")
"""``plain``: self-play as it is; ``otherplay``: every seat reads and says the tokens under its own random
relabelling per hand (``agents.neural.symmetry``, ``experiments.ppo --symmetry tokens``)."""
TALK = "tokens:8"
SEEDS = (1, 2, 3, 4, 5)
SILENT_OPPONENT = "rules[speak=false,listen=false]"
"""The team the learned talkers must beat: the rule agent, silent and deaf to the talk."""
RL_RECIPE = ("--learning-rate=1e-4", "--anchor-share=0.5", "--opponent-fraction=0.3")
"""The shipped networks' RL settings (``experiments.pipeline.RL_RECIPE``), for the talk table."""


def file_path(seed: int, population: str) -> Path:
    return LEARNED_DIR / population / f"tokens{TALK.split(':')[1]}_seed{seed}.pt"


def checkpoint_path(seed: int, population: str = "plain") -> Path:
    """``signalling/learned/<population>/tokens8_seed{seed}.pt`` (``ValueError`` if it is not shipped)."""
    check_population(population)
    if isinstance(seed, bool) or not isinstance(seed, int) or not file_path(seed, population).is_file():
        raise ValueError(f"no learned talker of the {population} population for seed {seed!r} (shipped seeds: "
                         f"{shipped_seeds(population)})")
    return file_path(seed, population)


def check_population(population: str) -> None:
    if population not in POPULATIONS:
        raise ValueError(f"unknown population {population!r}; choose from {POPULATIONS}")


def shipped_seeds(population: str = "plain") -> list[int]:
    return [seed for seed in SEEDS if file_path(seed, population).is_file()]


class MutedAgent:
    """An agent that says nothing: at a talk turn it plays ``silent``; every other decision, and what it
    hears, are its inner agent's."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name = f"{inner.name}~muted"

    def reset(self, seed: int | None = None) -> None:
        if callable(getattr(self.inner, "reset", None)):
            self.inner.reset(seed)

    def act(self, env, agent: str) -> int:
        legal = legal_actions(env, agent)
        if talk_actions(env)[legal].all():
            return env.unwrapped.string_to_action("silent")
        return int(self.inner.act(env, agent))


def learned(game: str, seed: int, muted: bool = False, population: str = "plain", **kwargs):
    """Plug-in entry point: the learned talker of training ``seed`` in ``population``, ``muted`` or talking."""
    if game != "knuffeln":
        raise ValueError(f"the learned talkers play knuffeln with talk={TALK}, not {game!r}")
    check_muted(muted)
    return talker(game, str(checkpoint_path(seed, population)), muted, **kwargs)


def talker(game: str, path: str, muted: bool = False, **kwargs):
    """Plug-in entry point for any talking network: ``"signalling.learned:talker[path=run/final.pt,muted=true]"``
    (a run's checkpoint, muted or talking)."""
    from agents.neural.agent import NeuralAgent

    check_muted(muted)
    agent = NeuralAgent(game, path=path, **kwargs)
    return MutedAgent(agent) if muted else agent


def check_muted(muted) -> None:
    if not isinstance(muted, bool):
        raise ValueError(f"muted must be true or false, got {muted!r}")


def learned_spec(seed: int, population: str = "plain", muted: bool = False) -> str:
    """The arena spec of a learned talker."""
    return f"signalling.learned:learned[seed={seed},population={population}{',muted=true' if muted else ''}]"


# --------------------------------------------------------------------------------------- training


@dataclass
class Args:
    """Train one learned talker: the shipped card play carried over to token talk, then PPO self-play."""

    seed: int
    """the training seed (the RL stage's deals, sampling and exploration)"""
    population: str = "plain"
    """plain, or otherplay (the tokens relabelled per seat and hand during training)"""
    budget_cpu_minutes: float = 20.0
    """CPU minutes for the carry-over and the RL stage together"""
    runs_dir: str = "runs/learned"
    """the run is written to runs_dir/<population>/knuffeln__learned__{seed}__{time}"""
    source: str = ""
    """the talk-free network to start from (default: the shipped Knüffeln network)"""
    signal_coef: float = 0.05
    """positive signalling on the talk turns (experiments.ppo --signal-coef; 0: plain PPO)"""
    eval_every: int = 2_000_000
    """decisions between evaluations against the silent rule team (and between checkpoints)"""
    eval_hands: int = 400
    """deals of each evaluation (the same deals every time)"""
    progress: bool = True
    """show a progress bar"""


def check(args: Args) -> Args:
    if isinstance(args.seed, bool) or args.seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {args.seed!r}")
    check_population(args.population)
    if not args.budget_cpu_minutes > 0:
        raise ValueError(f"--budget-cpu-minutes must be positive, got {args.budget_cpu_minutes}")
    if args.eval_every < 1 or args.eval_hands < 1:
        raise ValueError("--eval-every and --eval-hands must be positive")
    return args


def rl_command(args: Args, run_dir: Path, widened: Path, cpu_minutes: float) -> list[str]:
    """The RL stage's ``experiments.ppo`` arguments."""
    command = [
        "--game=knuffeln", "--config", f"talk={TALK}", f"--seed={args.seed}", f"--run-dir={run_dir / 'rl'}",
        f"--init-from={widened}", f"--eval-every={args.eval_every}", f"--save-every={args.eval_every}",
        f"--eval-hands={args.eval_hands}", f"--eval-opponent={SILENT_OPPONENT}",
        f"--cpu-limit-minutes={max(cpu_minutes, 0.0)}", *RL_RECIPE,
    ]
    if args.population == "otherplay":
        command.append("--symmetry=tokens")
    if args.signal_coef:
        command.append(f"--signal-coef={args.signal_coef}")
    return command + ([] if args.progress else ["--no-progress"])


def main(args: Args) -> dict:
    import tyro

    from agents.neural.checkpoint import shipped_checkpoint_path
    from agents.neural.training import cpu_seconds, run_name
    from agents.neural.widen import Args as WidenArgs
    from agents.neural.widen import main as widen
    from experiments import ppo

    check(args)
    start_cpu, start_wall = cpu_seconds(), time.perf_counter()
    run_dir = Path(args.runs_dir) / args.population / run_name("knuffeln", "learned", args.seed)
    widened = run_dir / "widened.pt"
    widen(WidenArgs(checkpoint=args.source or str(shipped_checkpoint_path("knuffeln")), out=str(widened),
                    config=[f"talk={TALK}"]))
    spent = (cpu_seconds() - start_cpu) / 60
    result = ppo.main(tyro.cli(ppo.Args, args=rl_command(args, run_dir, widened, args.budget_cpu_minutes - spent)))
    summary = {"seed": args.seed, "final": result["final"], "last_evaluation": result["last_evaluation"],
               "cpu_minutes": (cpu_seconds() - start_cpu) / 60, "wall_minutes": (time.perf_counter() - start_wall) / 60}
    print(json.dumps(summary, default=float))
    return summary


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check))
