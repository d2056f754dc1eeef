"""The listener's policy under message interventions, replayed from Knüffeln game records.

For an utterance at action ``index`` of a record, the speaker's message is replaced by each alternative it
could legally have said at that turn (``do(m)``). Everything the other seats did afterwards is replayed as
recorded; the listener (the speaker's partner) decides for itself, under the intervention, at every turn
it has up to and including its next decision that is not talk. Its policy there, ``pi(a | do(m))``, is
estimated from ``samples`` calls of the agent (re-seeded through its ``reset`` when it has one; one call
suffices for a deterministic agent). An alternative under which a recorded action of another seat becomes
illegal is dropped.

``intervention_events`` returns one ``InterventionEvent`` per utterance examined; ``causal_influence_of``
turns them into the causal influence of communication (``signalling.metrics.causal_influence``) with an
intervention distribution ``q`` over the alternatives: ``"marginal"`` (the speaker's message frequencies,
e.g. from its message log, restricted to the legal alternatives and renormalised; ``show:C`` gets the
``show`` mass shared by the cards it could show; uniform at a state where the speaker never said any of
the legal alternatives), ``"uniform"``, or ``"policy"`` (the speaker's own
policy at that state, estimated the same way; zero influence by definition for a deterministic speaker,
which never sends an alternative).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agents import make
from knuffeln_env import knuffeln_v0
from trick_core.checks import positive_int

from .log import is_talk
from .metrics import causal_influence, flip_rate

INTERVENTION_DISTRIBUTIONS = ("marginal", "uniform", "policy")


@dataclass
class InterventionEvent:
    """One utterance and the listener's policies under every alternative message."""

    index: int
    speaker: str
    listener: str
    actual: str
    alternatives: list[str]
    actions: list[str]  # the listener's actions seen under any alternative (columns of policies)
    policies: np.ndarray  # (alternatives, actions)
    speaker_policy: np.ndarray | None = None  # the speaker's own distribution over the alternatives

    def distribution(self, kind: str, marginal: dict[str, float] | None = None) -> np.ndarray:
        """The intervention distribution q over ``alternatives`` (module docstring)."""
        if kind == "uniform":
            return np.full(len(self.alternatives), 1.0 / len(self.alternatives))
        if kind == "policy":
            if self.speaker_policy is None:
                raise ValueError("the speaker's policy was not estimated (speaker_agent not given)")
            return self.speaker_policy
        if kind == "marginal":
            if not marginal:
                raise ValueError("q='marginal' needs the speaker's message marginal")
            shows = sum(a.startswith("show:") for a in self.alternatives)
            weights = np.array([marginal.get("show", 0.0) / shows if a.startswith("show:") else marginal.get(a, 0.0)
                                for a in self.alternatives])
            if weights.sum() <= 0:  # the speaker never said any message legal here: no preference among them
                return np.full(len(self.alternatives), 1.0 / len(self.alternatives))
            return weights / weights.sum()
        raise ValueError(f"intervention distribution must be one of {INTERVENTION_DISTRIBUTIONS}, got {kind!r}")


def _policy(agent, env, seat: str, samples: int, seed: int) -> Counter:
    counts: Counter = Counter()
    for k in range(samples):
        if callable(getattr(agent, "reset", None)):
            agent.reset(seed + k)
        counts[env.unwrapped.action_to_string(int(agent.act(env, seat)))] += 1
    return counts


def _listener_decision(env, actions, start: int, listener: str, agent, samples: int, seed: int) -> Counter | None:
    """From action ``start`` on, replay the other seats and let ``agent`` play ``listener`` until its first
    decision that is not talk; its policy there (None if a replayed action became illegal or none comes)."""
    base = env.unwrapped
    for index in range(start, len(actions)):
        seat, recorded = actions[index]
        if env.agent_selection != seat or not env.agents:
            return None
        if seat == listener:
            if not is_talk(recorded):
                return _policy(agent, env, seat, samples, seed)
            if callable(getattr(agent, "reset", None)):
                agent.reset(seed)
            env.step(int(agent.act(env, seat)))
            continue
        action = base.string_to_action(recorded)
        if action not in base.legal_actions():
            return None
        env.step(action)
    return None


def intervention_events(record: dict, listener_agent: str = "rules", speaker_agent: str | None = None,
                        speakers: Sequence[str] | None = None, samples: int = 1, seed: int = 0,
                        max_events: int | None = None) -> list[InterventionEvent]:
    """Intervene on the utterances of ``speakers`` (default: every seat) in a four-player Knüffeln record;
    the listener is the speaker's partner, played by ``listener_agent``. ``speaker_agent`` (optional)
    estimates the speaker's own policy over the alternatives."""
    config = record.get("config") if isinstance(record, dict) else None
    if not isinstance(config, dict) or record.get("game") != "knuffeln" or config.get("talk", "off") == "off" \
            or config.get("players", 4) != 4:
        raise ValueError("interventions need a four-player Knüffeln record with talk on (its 'config' says so)")
    positive_int(samples, "samples")
    seats = [f"player_{seat}" for seat in range(4)]
    if speakers is not None and not set(speakers) <= set(seats):
        raise ValueError(f"unknown speakers {sorted(set(map(str, speakers)) - set(seats))}; seats are {seats}")
    listener = make(listener_agent, "knuffeln")
    speaker = make(speaker_agent, "knuffeln") if speaker_agent else None
    env = knuffeln_v0.env(**config)
    env.reset(options={"record": record})
    base = env.unwrapped
    actions = [tuple(pair) for pair in record["actions"]]
    events = []
    for index, (seat, action) in enumerate(actions):
        if env.agent_selection != seat:
            raise ValueError(f"record expects {seat} to act at action {index}, but it is {env.agent_selection}'s turn")
        if is_talk(action) and (speakers is None or seat in speakers):
            if max_events is not None and len(events) >= max_events:
                break
            event = _intervene(env, actions, index, seat, action, listener, speaker, samples, seed)
            if event is not None:
                events.append(event)
        env.step(base.string_to_action(action))
    return events


def _intervene(env, actions, index, seat, actual, listener, speaker, samples, seed) -> InterventionEvent | None:
    base = env.unwrapped
    partner = base.possible_agents[(base.possible_agents.index(seat) + 2) % 4]
    alternatives = base.legal_action_strings()
    policies = {}
    for alternative in alternatives:
        world = base.clone()
        world.step(world.string_to_action(alternative))
        decision = _listener_decision(world, actions, index + 1, partner, listener, samples, seed)
        if decision is not None:
            policies[alternative] = decision
    if actual not in policies:
        return None
    kept = [a for a in alternatives if a in policies]
    columns = sorted({action for counts in policies.values() for action in counts})
    matrix = np.array([[policies[a][c] / samples for c in columns] for a in kept])
    speaker_policy = None
    if speaker is not None:
        counts = _policy(speaker, base, seat, samples, seed)
        weights = np.array([counts.get(a, 0) for a in kept], dtype=np.float64)
        speaker_policy = weights / weights.sum() if weights.sum() else np.full(len(kept), 1.0 / len(kept))
    return InterventionEvent(index, seat, partner, actual, kept, columns, matrix, speaker_policy)


def causal_influence_of(events: Sequence[InterventionEvent], kind: str = "marginal",
                        marginal: dict[str, float] | None = None) -> dict:
    """Causal influence of communication (bits) per event and its mean, with the flip rate (module
    docstring for ``kind``)."""
    if not events:
        raise ValueError("no intervention event to measure")
    if kind == "marginal" and marginal:
        vocabulary = {"show" if a.startswith("show:") else a for event in events for a in event.alternatives}
        unknown = sorted(set(marginal) - vocabulary)
        if unknown:
            raise ValueError(f"the marginal names messages these events could not send: {unknown} (a marginal of "
                             "another talk variant?); messages here: " + ", ".join(sorted(vocabulary)))
    values, flips = [], []
    for event in events:
        q = event.distribution(kind, marginal)
        values.append(causal_influence(event.policies, q))
        flips.append(flip_rate(event.policies, q, event.alternatives.index(event.actual)))
    return {"events": len(events), "cic_bits": float(np.mean(values)), "cic_per_event": values,
            "flip_rate": float(np.mean(flips)), "kind": kind}
