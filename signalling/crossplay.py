"""Self-play against cross-play: are the partners' conventions arbitrary? (Hanabi-style test.)

Given any list of talking agents (arena specs: built-in names, ``"package.module:attr[...]"`` plug-ins such
as future trained checkpoints), ``crossplay_matrix`` lets every ordered pair (i, j) form a Knüffeln
partnership, agent i in the team's first seat and agent j in its second, and plays it in duplicate against
one fixed opponent team (by default the rule agent made silent and deaf, so the opponents neither help nor
exploit the talk). Cell (i, j) is the pair's units per hand with its 95% interval over deals. Every cell is
played on the same deals, so the diagonal (self-play) and the off-diagonal (cross-play) are compared deal
by deal: ``gap`` is mean self-play minus mean cross-play, with its interval. A convention that only its own
partner understands shows a positive gap.

Plug-ins defined here:

- ``pair`` (``pair_spec(first, second)``): one arena "agent" that is a partnership of two agents, ``first``
  at the team's lower seat (0 or 1) and ``second`` at its upper seat (2 or 3). The two specs travel
  base64-encoded inside the spec, so that specs with brackets and commas fit in the arena's syntax.
- ``permuted_tokens`` (the Other-Play-style control): an agent of ``talk="tokens:N"`` whose token vocabulary
  is relabelled by a permutation fixed by ``permutation`` (0: the identity). It says token ``pi(k)`` where
  its inner agent says ``k``, and hears every token ``t`` as ``pi^-1(t)``. Two copies with the same
  permutation understand each other exactly as the inner agent understands itself; with different
  permutations each misreads the other. A population of rule talkers with permutations 0..4 is a stand-in
  for five independently trained seeds whose codes happen to differ only by a relabelling.
"""

from __future__ import annotations

import base64
import json
import os
import tempfile
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from agents import make
from agents.stats import mean_interval

from .views import TalkSlot, TalkView

DEFAULT_OPPONENT = "rules[speak=false,listen=false]"
TOKEN_PREFIX = "token:"


# --------------------------------------------------------------------------------------- pairs


def encode_spec(spec: str) -> str:
    return "b64:" + base64.urlsafe_b64encode(spec.encode()).decode().rstrip("=")


def decode_spec(value: str) -> str:
    if not isinstance(value, str) or not value.startswith("b64:"):
        return str(value)
    text = value[4:]
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()


def pair_spec(first: str, second: str) -> str:
    """Arena spec of the partnership ``first`` (lower seat) + ``second`` (upper seat)."""
    return f"signalling.crossplay:pair[first={encode_spec(first)},second={encode_spec(second)}]"


class PairAgent:
    """Two agents as one arena entrant: the lower seat of its team plays ``first``, the upper ``second``."""

    def __init__(self, game: str, first: str, second: str) -> None:
        if game != "knuffeln":
            raise ValueError(f"partner pairs are built for four-player Knüffeln, not {game!r}")
        self.first_spec, self.second_spec = decode_spec(first), decode_spec(second)
        self.members = (make(self.first_spec, game), make(self.second_spec, game))
        self.name = f"pair({self.members[0].name}+{self.members[1].name})"

    def reset(self, seed: int | None = None) -> None:
        seeds = np.random.SeedSequence(seed).spawn(2) if seed is not None else (None, None)
        for member, member_seed in zip(self.members, seeds, strict=True):
            if callable(getattr(member, "reset", None)):
                member.reset(None if member_seed is None else int(member_seed.generate_state(1)[0]))

    def act(self, env, agent: str) -> int:
        seats = env.unwrapped.possible_agents
        if len(seats) != 4:
            raise ValueError("partner pairs play four-player Knüffeln (partners opposite)")
        return int(self.members[0 if seats.index(agent) < 2 else 1].act(env, agent))


def pair(game: str, first: str, second: str, **unknown) -> PairAgent:
    """Plug-in entry point (see ``pair_spec``)."""
    if unknown:
        raise ValueError(f"pair takes first= and second= only, got {sorted(unknown)}")
    return PairAgent(game, first, second)


# --------------------------------------------------------------------------------------- token permutations


class TokenPermutedAgent:
    """An agent whose token vocabulary is relabelled by a fixed permutation (module docstring)."""

    def __init__(self, game: str, agent: str = "rules", permutation: int = 0, **agent_kwargs) -> None:
        if game != "knuffeln":
            raise ValueError(f"token permutations need Knüffeln with talk='tokens:N', not {game!r}")
        if isinstance(permutation, bool) or not isinstance(permutation, int) or permutation < 0:
            raise ValueError(f"permutation must be a non-negative int, got {permutation!r}")
        self.inner = make(agent, game, **agent_kwargs)
        self.permutation = permutation
        self.name = f"{self.inner.name}~tokens{permutation}"
        self._tables: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def reset(self, seed: int | None = None) -> None:
        if callable(getattr(self.inner, "reset", None)):
            self.inner.reset(seed)

    def tables(self, tokens: int) -> tuple[np.ndarray, np.ndarray]:
        """(pi, pi^-1) over token numbers 1..N (index 0, silence, stays fixed)."""
        if tokens not in self._tables:
            order = np.arange(1, tokens + 1)
            if self.permutation:
                order = np.random.default_rng([self.permutation, tokens]).permutation(order)
            forward = np.concatenate([[0], order])
            inverse = np.empty_like(forward)
            inverse[forward] = np.arange(tokens + 1)
            self._tables[tokens] = (forward, inverse)
        return self._tables[tokens]

    def act(self, env, agent: str) -> int:
        talk = env.unwrapped.config.get("talk", "off")
        if not talk.startswith("tokens:"):
            raise ValueError(f"a token-permuted agent plays talk='tokens:N', not talk={talk!r}")
        forward, inverse = self.tables(int(talk.split(":")[1]))
        view = TalkView(env, lambda index, slot, observation: TalkSlot(slot.speaker, int(inverse[slot.utterance]),
                                                                        slot.card))
        action = int(self.inner.act(view, agent))
        name = env.unwrapped.action_to_string(action)
        if name.startswith(TOKEN_PREFIX):
            return env.unwrapped.string_to_action(f"{TOKEN_PREFIX}{int(forward[int(name[len(TOKEN_PREFIX):])])}")
        return action


def permuted_tokens(game: str, **kwargs) -> TokenPermutedAgent:
    """Plug-in entry point: ``"signalling.crossplay:permuted_tokens[permutation=3]"``."""
    return TokenPermutedAgent(game, **kwargs)


def permuted_population(size: int, agent: str = "rules") -> list[str]:
    """Specs of ``size`` token-permuted copies of ``agent`` (permutations 0..size-1)."""
    return [f"signalling.crossplay:permuted_tokens[agent={agent},permutation={k}]" for k in range(size)]


# --------------------------------------------------------------------------------------- the matrix


def crossplay_matrix(specs: Sequence[str], hands: int, seed: int = 0, config: dict | None = None,
                     opponent: str = DEFAULT_OPPONENT, workers: int = 1, labels: Sequence[str] | None = None) -> dict:
    """Every ordered partnership of ``specs`` against ``opponent`` on the same ``hands`` deals (module
    docstring). Returns ``{"labels", "mean": [[...]], "ci95": [[[lo, hi]]], "self_play", "cross_play",
    "gap", "per_agent": [{"self_play", "cross_play"}], "hands", "config", "opponent"}``."""
    from agents.arena import run_arena

    config = dict(config or {})
    if int(config.get("players", 4)) != 4:
        raise ValueError("the cross-play matrix is built for four-player Knüffeln")
    specs = list(specs)
    if len(specs) < 2:
        raise ValueError("cross-play needs at least two agents")
    labels = list(labels) if labels is not None else specs
    if len(labels) != len(specs):
        raise ValueError("labels must name every spec")
    k = len(specs)
    per_deal = np.zeros((k, k, hands))
    means = [[0.0] * k for _ in range(k)]
    intervals = [[None] * k for _ in range(k)]
    with tempfile.TemporaryDirectory() as folder:
        for i in range(k):
            for j in range(k):
                path = os.path.join(folder, f"cell_{i}_{j}.jsonl")
                summary = run_arena("knuffeln", [pair_spec(specs[i], specs[j]), opponent], hands, seed, config,
                                    workers, records_path=path)
                per_deal[i, j] = pair_units_per_deal(path, opponent, hands)
                row = next(iter(summary["agents"].values()))
                means[i][j] = row["mean_units_per_hand"]
                intervals[i][j] = row["ci95"]
    diagonal = np.array([per_deal[i, i] for i in range(k)])
    off = np.array([per_deal[i, j] for i in range(k) for j in range(k) if i != j])
    self_play, cross_play = diagonal.mean(axis=0), off.mean(axis=0)
    return {
        "labels": labels, "specs": specs, "opponent": opponent, "config": config, "hands": hands, "seed": seed,
        "mean": means, "ci95": intervals,
        "self_play": _interval(self_play), "cross_play": _interval(cross_play),
        "gap": _interval(self_play - cross_play),
        "per_agent": [
            {"self_play": _interval(per_deal[i, i]),
             "cross_play": _interval(np.mean([per_deal[i, j] for j in range(k) if j != i]
                                             + [per_deal[j, i] for j in range(k) if j != i], axis=0))}
            for i in range(k)
        ],
    }


def paired_against(first: str, second: str, hands: int, seed: int = 0, config: dict | None = None,
                   opponent: str = DEFAULT_OPPONENT, workers: int = 1, per_deal: bool = False) -> dict:
    """``first`` and ``second`` each in a duplicate match against ``opponent`` on the same ``hands`` deals:
    each one's units per hand (its own mean per hand and seat, as the arena's agent row) and the paired
    difference first - second over the deals, with its interval. With ``second`` the muted ``first``, that
    difference is what the talk is worth against opponents that do not listen. ``per_deal`` adds the
    differences deal by deal (``difference_per_deal``), for pooling matches played on the same deals."""
    from agents.arena import run_arena

    units = []
    with tempfile.TemporaryDirectory() as folder:
        for index, spec in enumerate((first, second)):
            path = os.path.join(folder, f"match_{index}.jsonl")
            run_arena("knuffeln", [spec, opponent], hands, seed, dict(config or {}), workers, records_path=path)
            units.append(pair_units_per_deal(path, opponent, hands))
    result = {"first": first, "second": second, "opponent": opponent, "hands": hands, "seed": seed,
              "first_units": _interval(units[0]), "second_units": _interval(units[1]),
              "difference": _interval(units[0] - units[1])}
    if per_deal:
        result["difference_per_deal"] = units[0] - units[1]
    return result


def pooled_difference(per_deal: Sequence[np.ndarray]) -> dict:
    """The mean of several paired differences played on the same deals (``paired_against(...,
    per_deal=True)``), deal by deal, with its interval over the deals: what the matches' agents are worth
    on average, the agents held fixed (the interval counts the deals' luck, not how other agents trained
    the same way would differ)."""
    if len({np.shape(row) for row in per_deal}) != 1 or np.ndim(per_deal[0]) != 1:
        raise ValueError("pooled_difference needs one or more matches' differences per deal, on the same deals")
    rows = np.asarray(per_deal, dtype=float)
    return {"matches": int(rows.shape[0]), "deals": int(rows.shape[1]), **_interval(rows.mean(axis=0))}


def _interval(values) -> dict:
    interval = mean_interval(values)
    return {"mean": interval.mean, "ci95": interval.as_list(), "significant": interval.excludes_zero()}


def pair_units_per_deal(records_path: str, opponent_label: str, hands: int) -> np.ndarray:
    """Units per seat-hand of the non-opponent seats on each deal, from an arena records file."""
    units = defaultdict(float)
    counts = defaultdict(int)
    with open(records_path, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            deal = record["arena"]["deal_index"]
            for seat, label in enumerate(record["arena"]["seating"].values()):
                if label is not None and label != opponent_label:
                    units[deal] += record["result"][seat]
                    counts[deal] += 1
    if sorted(counts) != list(range(hands)):
        raise RuntimeError(f"{records_path}: expected deals 0..{hands - 1}, found {len(counts)}")
    return np.array([units[d] / counts[d] for d in range(hands)])
