"""The message-scramble test and the value of talk, as duplicate matches of ``agents.arena``.

**Scramble test.** A plug-in agent (``"signalling.scramble:make_agent"``) plays like its inner agent, but
every utterance of its partner reaches it scrambled (``signalling.views.TalkView``); the words it says
itself are untouched, and the opponents hear the true talk. Two modes:

- ``marginal`` (default): each partner utterance is replaced by one drawn independently from a message
  distribution, ``marginal`` (a JSON file ``{"silent": p, "say:6": p, "show": p, ...}``, e.g. the
  partner's own empirical distribution from a message log, ``message_marginal``) or uniform over the
  vocabulary. The messages keep their frequencies but carry no information about the hand.
- ``permute``: a random one-to-one relabelling of the vocabulary, drawn afresh for every hand. The
  messages keep their structure but the listener's reading of them is wrong.

A replaced ``show`` shows a random card the listener neither holds nor has seen played. A replacement
stays fixed for the rest of the hand (the listener re-reads the whole talk history at every turn).

The loss of scrambling is the duplicate difference ``rules - scrambled rules`` (``scramble_test``): units
per hand, with its 95% interval over deals. If listening to the partner helps, it is above zero.

**Value of talk.** ``value_of_talk`` plays the talker against the same agent made silent and deaf
(``rules`` against ``rules[speak=false,listen=false]``) in one talk configuration: the duplicate difference
is what talking and listening are worth, per hand, against a team that plays the same cards without talk.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

from agents import make

from .views import TalkSlot, TalkView, talk_layout

MODES = ("marginal", "permute")


def message_marginal(rows: Sequence[dict], agent: str | None = None) -> dict[str, float]:
    """The empirical distribution of messages in message-log rows (``show:C`` folded into ``show``),
    optionally of one agent label only."""
    kept = [r for r in rows if agent is None or r.get("agent") == agent]
    if not kept:
        raise ValueError(f"no message of agent {agent!r} in the log")
    counts = Counter("show" if r["message"].startswith("show:") else r["message"] for r in kept)
    total = sum(counts.values())
    return {message: count / total for message, count in sorted(counts.items())}


def write_marginal(marginal: dict[str, float], path: str) -> None:
    with open(path, "w", encoding="utf-8") as out:
        json.dump(marginal, out, indent=1, sort_keys=True)


class ScrambledListener:
    """An agent whose partner's talk reaches it scrambled (module docstring)."""

    def __init__(self, game: str, agent: str = "rules", mode: str = "marginal", marginal: str | None = None,
                 seed: int | None = None, **agent_kwargs) -> None:
        if game != "knuffeln":
            raise ValueError(f"the scramble test needs Knüffeln with talk on, not {game!r}")
        if mode not in MODES:
            raise ValueError(f"scramble mode must be one of {MODES}, got {mode!r}")
        self.game = game
        self.inner = make(agent, game, **agent_kwargs)
        self.name = f"scrambled_{self.inner.name}"
        self.mode = mode
        self.marginal = _load_marginal(marginal) if marginal is not None else None
        self._cache: dict = {}
        self._permutation: np.ndarray | None = None
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self._new_hand()
        if callable(getattr(self.inner, "reset", None)):
            self.inner.reset(seed)

    def _new_hand(self) -> None:
        self._cache.clear()
        self._permutation = None

    def act(self, env, agent: str) -> int:
        view = TalkView(env, lambda index, slot, observation: self._rewrite(agent, index, slot, observation, view))
        return int(self.inner.act(view, agent))

    def _rewrite(self, agent: str, index: int, slot: TalkSlot, observation, view: TalkView) -> TalkSlot:
        layout = view.layout
        if slot.speaker not in layout.teammates(observation):
            return slot
        key = (agent, index)
        cached = self._cache.get(key)
        if cached is not None:
            if cached[0] == slot:
                return cached[1]
            self._new_hand()  # the slot holds another utterance: a new hand began without reset()
        replacement = self._draw(slot, layout, observation)
        self._cache[key] = (slot, replacement)
        return replacement

    def _draw(self, slot: TalkSlot, layout, observation) -> TalkSlot:
        if self.mode == "permute":
            if self._permutation is None:
                self._permutation = self.rng.permutation(layout.vocabulary)
            utterance = int(self._permutation[slot.utterance])
        else:
            utterance = self._draw_from_marginal(layout)
        card = None
        if utterance == layout.show_utterance:
            hidden = [c for c in range(48) if not layout.visible_cards(observation) >> c & 1]
            card = int(self.rng.choice(hidden))
        return TalkSlot(slot.speaker, utterance, card)

    def _draw_from_marginal(self, layout) -> int:
        if self.marginal is None:
            return int(self.rng.integers(layout.vocabulary))
        messages = list(self.marginal)
        index = self.rng.choice(len(messages), p=np.array([self.marginal[m] for m in messages]))
        return utterance_index(messages[index], layout)


def utterance_index(message: str, layout) -> int:
    """The utterance one-hot index of a message class (``silent``, ``say:k``, ``show``, ``token:k``)."""
    if message == "silent":
        return 0
    if message == "show" and layout.lexicon:
        return layout.show_utterance
    prefix = "say:" if layout.lexicon else "token:"
    if message.startswith(prefix):
        number = int(message[len(prefix):])
        if 1 <= number < layout.vocabulary - (1 if layout.lexicon else 0):
            return number
    raise ValueError(f"message {message!r} is not in this talk vocabulary")


def _load_marginal(path: str) -> dict[str, float]:
    with open(path, encoding="utf-8") as source:
        marginal = json.load(source)
    if not isinstance(marginal, dict) or not marginal:
        raise ValueError(f"{path}: a marginal must be a JSON object message -> probability")
    total = sum(marginal.values())
    if any(p < 0 for p in marginal.values()) or not abs(total - 1.0) < 1e-6:
        raise ValueError(f"{path}: probabilities must be non-negative and sum to 1 (they sum to {total})")
    return {message: p / total for message, p in marginal.items()}


def make_agent(game: str, **kwargs) -> ScrambledListener:
    """Plug-in entry point: ``"signalling.scramble:make_agent[mode=permute]"`` in the arena."""
    return ScrambledListener(game, **kwargs)


def check_talk_config(config: dict) -> None:
    talk_layout(config)  # raises for talk off


def scramble_spec(mode: str = "marginal", marginal: str | None = None, agent: str = "rules") -> str:
    """The arena spec of the scrambled agent."""
    arguments = [f"agent={agent}", f"mode={mode}"] + ([f"marginal={marginal}"] if marginal else [])
    return f"signalling.scramble:make_agent[{','.join(arguments)}]"


def scramble_test(config: dict, hands: int, seed: int = 0, mode: str = "marginal", marginal: str | None = None,
                  workers: int = 1, agent: str = "rules") -> dict:
    """Duplicate match ``agent`` against the same agent hearing its partner scrambled; the arena summary,
    whose ``difference`` is the loss of scrambling (units per hand, 95% interval over deals), plus
    ``effect`` (``duplicate_effect``)."""
    check_talk_config(config)
    return match_with_effect([agent, scramble_spec(mode, marginal, agent)], config, hands, seed, workers)


def value_of_talk(config: dict, hands: int, seed: int = 0, workers: int = 1, agent: str = "rules") -> dict:
    """Duplicate match ``agent`` against ``agent[speak=false,listen=false]`` in one talk configuration;
    the arena summary, whose ``difference`` is what talk is worth (units per hand, 95% interval), plus
    ``effect`` (``duplicate_effect``)."""
    if "[" in agent:
        raise ValueError(f"value_of_talk needs a bare agent name (it adds speak/listen arguments), got {agent!r}")
    return match_with_effect([agent, f"{agent}[speak=false,listen=false]"], config, hands, seed, workers)


def match_with_effect(specs: list[str], config: dict, hands: int, seed: int, workers: int) -> dict:
    """A duplicate Knüffeln match of the two ``specs`` in ``config``: the arena summary and the ``effect``
    (``duplicate_effect``) of its difference."""
    import os
    import tempfile

    from agents.arena import run_arena

    from .log import read_jsonl

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "records.jsonl")
        summary = run_arena("knuffeln", specs, hands, seed, config, workers, records_path=path)
        records = read_jsonl(path)
    summary["effect"] = duplicate_effect(records, summary["difference"]["first"], hands)
    return summary


def duplicate_effect(records: Sequence[dict], first: str, hands: int) -> dict:
    """What lies behind a duplicate difference, from the match's records: the per-deal differences
    (first agent minus second, units per seat-hand, as the arena's ``first_minus_second``), the share of
    deals on which the two agents' results differ at all, the mean over those deals, the standard deviation
    over all deals, and how many deals a 95% interval of half-width |mean| would need."""
    units = np.zeros((hands, 2))
    seat_hands = np.zeros((hands, 2))
    for record in records:
        deal = record["arena"]["deal_index"]
        for seat, label in enumerate(record["arena"]["seating"].values()):
            if label is not None:
                slot = 0 if label == first else 1
                units[deal, slot] += record["result"][seat]
                seat_hands[deal, slot] += 1
    if np.any(seat_hands == 0):
        raise ValueError("every deal needs seat-hands of both agents")
    per_deal = units[:, 0] / seat_hands[:, 0] - units[:, 1] / seat_hands[:, 1]
    differing = per_deal[np.abs(per_deal) > 1e-9]
    mean = float(per_deal.mean())
    sd = float(per_deal.std(ddof=1)) if hands > 1 else float("nan")
    needed = math.ceil((1.96 * sd / abs(mean)) ** 2) if mean and math.isfinite(sd) else None
    return {
        "deals": hands,
        "share_of_deals_differing": differing.size / hands,
        "mean_where_differing": float(differing.mean()) if differing.size else 0.0,
        "sd_per_deal": sd,
        "deals_for_half_width_equal_to_mean": needed,
    }
