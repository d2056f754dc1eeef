"""Communication metrics: entropy, mutual information, speaker consistency, instantaneous coordination,
causal influence of communication, bluff rate and success, and the statistics of turned cards.

Information is measured in **bits** (log base 2) throughout. The sample-based quantities are *plug-in*
estimates from counts (empirical distributions); they are biased upwards for small samples (roughly
``(|X| - 1)(|Y| - 1) / (2 N ln 2)`` bits for a mutual information), so ``mutual_information_test``
reports the plug-in value beside its null distribution under shuffling (permutation test) and a
bootstrap interval over independent groups (hands). Given the groups, the permutation test shuffles
within each group: the rows of one hand are not independent of each other (the same cards, the same
speaker), and a shuffle across hands would count an association that only the hands share (a hand's
messages and its targets both following its cards) as evidence, giving far too many small p-values.
The within-hand null asks whether the message tells more than its hand does.

Definitions (Lowe, Foerster, Boureau, Pineau, Dauphin 2019, "On the pitfalls of measuring emergent
communication"; M the message, A an action, S the speaker's private state):

- **message entropy** ``H(M) = -sum_m p(m) log2 p(m)``;
- **speaker consistency** ``SC = I(M; A_speaker)``: how much the message tells about the speaker's own
  next action, or ``I(M; S)`` for a private feature S of the speaker (``I(X; Y) = H(X) + H(Y) - H(X, Y)``);
- **instantaneous coordination** ``IC = I(M; A_listener)``: between the message and the listener's next
  action (both estimated by counting co-occurrences, not by intervening);
- **causal influence of communication** (one step): at a state s, replace the message by each alternative
  m (an intervention ``do(m)``) and read the listener's policy ``pi(a | do(m))``. With the intervention
  distribution q(m),

  ``CIC(s) = sum_m q(m) sum_a pi(a|do(m)) log2 [pi(a|do(m)) / p(a)]``, ``p(a) = sum_m q(m) pi(a|do(m))``,

  the mutual information between the intervened message and the listener's action, averaged over states.
  It is 0 when the listener ignores the message and ``H(q)`` when the listener's action reveals the message.

  **The log|M| error of the reference implementation.** ``calc_cic`` in ``measuring_emergent_comm/eval.py``
  of facebookresearch/measuring-emergent-comm (the code released with the paper) forms the joint
  ``p(a, m) = q(m) pi(a|do(m))`` and then the marginal with ``np.mean(p_am, axis=0)``: the *mean* over the
  |M| messages instead of the sum. Its ``p(a)`` is therefore ``1/|M|`` of the true marginal, every log term
  gains ``log |M|``, and since the joint sums to one the result is the true CIC **plus log |M|** (in nats
  there; here log2 |M| bits): a listener that ignores the messages scores log |M| instead of 0.
  ``causal_influence`` sums over messages; ``reference_cic_with_mean_marginal`` reproduces the reference's
  formula so that the tests can show the offset (and published numbers can be corrected by it).

- **bluff rate**: the share of checkable claims (truth label true or false, ``signalling.lexicon``) that
  are false; **bluff success**: how often the speaker's team then wins the trick (and the hand), after
  false claims against after true ones;
- **turned cards** (drehen): how often a face-down lead is accepted or fled, and what the turning team
  then scores.

Proportions carry Wilson score intervals (95%); means carry Student-t intervals (``agents.stats``).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agents.stats import mean_interval
from trick_core.checks import positive_int

Z95 = 1.959963984540054


# --------------------------------------------------------------------------------------- information


def _codes(values) -> tuple[np.ndarray, int]:
    """Integer codes 0..k-1 of arbitrary hashable values (None is a value of its own)."""
    mapping: dict = {}
    codes = np.fromiter((mapping.setdefault(v, len(mapping)) for v in values), dtype=np.int64)
    return codes, len(mapping)


def entropy_of_distribution(probabilities) -> float:
    """``H(p)`` in bits of a probability vector (zeros allowed)."""
    p = np.asarray(probabilities, dtype=np.float64).ravel()
    if p.size == 0 or np.any(p < 0) or not math.isclose(float(p.sum()), 1.0, abs_tol=1e-9):
        raise ValueError("a probability vector must be non-negative and sum to 1")
    nonzero = p[p > 0]
    return float(-(nonzero * np.log2(nonzero)).sum())


def entropy(values: Sequence) -> float:
    """Plug-in entropy ``H(X)`` in bits of a sample of values (messages)."""
    codes, k = _codes(values)
    if codes.size == 0:
        raise ValueError("cannot take the entropy of an empty sample")
    return entropy_of_distribution(np.bincount(codes, minlength=k) / codes.size)


def mutual_information(x: Sequence, y: Sequence) -> float:
    """Plug-in mutual information ``I(X; Y)`` in bits of paired samples."""
    if len(x) != len(y):
        raise ValueError(f"paired samples differ in length: {len(x)} and {len(y)}")
    if len(x) == 0:
        raise ValueError("cannot take a mutual information of empty samples")
    xc, kx = _codes(x)
    yc, ky = _codes(y)
    return _mutual_information_codes(xc, kx, yc, ky)


def _mutual_information_codes(xc: np.ndarray, kx: int, yc: np.ndarray, ky: int) -> float:
    joint = np.bincount(xc * ky + yc, minlength=kx * ky).reshape(kx, ky) / xc.size
    px = joint.sum(axis=1, keepdims=True)
    py = joint.sum(axis=0, keepdims=True)
    nonzero = joint > 0
    value = float((joint[nonzero] * np.log2(joint[nonzero] / (px @ py)[nonzero])).sum())
    return max(value, 0.0)  # rounding can leave -1e-17


@dataclass(frozen=True)
class InformationEstimate:
    """A plug-in mutual information with its permutation null and a bootstrap interval."""

    bits: float
    samples: int
    null_mean: float  # mean over shuffles of y against x: the estimator's bias when there is no information
    null_q95: float
    p_value: float  # share of shuffles reaching the observed value (with the observed one counted)
    ci95: tuple[float, float] | None  # basic bootstrap interval over groups (None without groups)

    @property
    def above_null(self) -> float:
        """The plug-in value less its bias under independence (the null mean)."""
        return self.bits - self.null_mean

    def significant(self, level: float = 0.05) -> bool:
        return self.p_value < level

    def as_dict(self) -> dict:
        return {"bits": self.bits, "samples": self.samples, "null_mean": self.null_mean, "null_q95": self.null_q95,
                "above_null": self.above_null, "p_value": self.p_value,
                "ci95": list(self.ci95) if self.ci95 else None}


def mutual_information_test(x: Sequence, y: Sequence, groups: Sequence | None = None, permutations: int = 200,
                            bootstrap: int = 200, seed: int = 0) -> InformationEstimate:
    """``I(X; Y)`` with a permutation test and, given ``groups`` (e.g. the hand of each pair: the unit of
    independence), a basic bootstrap interval resampling whole groups. Without groups y is shuffled
    against x over all pairs; with groups, within each group (module docstring)."""
    if len(x) != len(y):
        raise ValueError(f"paired samples differ in length: {len(x)} and {len(y)}")
    if len(x) == 0:
        raise ValueError("cannot test a mutual information on empty samples")
    positive_int(permutations, "permutations")
    positive_int(bootstrap, "bootstrap")
    if groups is not None and len(groups) != len(x):
        raise ValueError(f"groups must give one group per pair: {len(groups)} groups for {len(x)} pairs")
    rng = np.random.default_rng(seed)
    xc, kx = _codes(x)
    yc, ky = _codes(y)
    gc, kg = _codes(groups) if groups is not None else (np.zeros(len(x), dtype=np.int64), 1)
    observed = _mutual_information_codes(xc, kx, yc, ky)
    by_group = np.argsort(gc, kind="stable")
    null = np.array([_mutual_information_codes(xc, kx, _shuffled_within(yc, gc, by_group, rng), ky)
                     for _ in range(permutations)])
    p_value = (1 + int(np.sum(null >= observed - 1e-12))) / (1 + permutations)
    interval = None
    if groups is not None:
        members = [np.flatnonzero(gc == g) for g in range(kg)]
        values = []
        for _ in range(bootstrap):
            chosen = np.concatenate([members[g] for g in rng.integers(0, kg, kg)])
            values.append(_mutual_information_codes(xc[chosen], kx, yc[chosen], ky))
        # the basic bootstrap interval (2 I - upper quantile, 2 I - lower quantile): resampled groups repeat
        # pairs, which inflates a plug-in information, and this reflection removes that shift
        low, high = np.quantile(values, 0.025), np.quantile(values, 0.975)
        interval = (max(0.0, float(2 * observed - high)), float(2 * observed - low))
    return InformationEstimate(observed, len(x), float(null.mean()), float(np.quantile(null, 0.95)), p_value,
                               interval)


def _shuffled_within(values: np.ndarray, groups: np.ndarray, by_group: np.ndarray, rng) -> np.ndarray:
    """``values`` shuffled within each group (``by_group``: the positions sorted by group)."""
    shuffled = np.empty_like(values)
    shuffled[by_group] = values[np.lexsort((rng.random(len(values)), groups))]
    return shuffled


def speaker_consistency(rows: Sequence[dict], target: str = "speaker_next_class", fold_shows: bool = True,
                        **test_options) -> InformationEstimate:
    """``I(M; target)`` over message-log rows: the speaker's next action class by default, or any key of
    a row (``"speaker_next"``) or of its ``features`` (``"oles"``, ``"can_take_certainly"``...).
    ``fold_shows``: every ``show:C`` counts as one message ``show`` (``message_classes``)."""
    messages, targets, hands = _paired(rows, target, fold_shows)
    return mutual_information_test(messages, targets, hands, **test_options)


def instantaneous_coordination(rows: Sequence[dict], target: str = "listener_next_class", fold_shows: bool = True,
                               **test_options) -> InformationEstimate:
    """``I(M; listener's next action)`` over message-log rows (rows without a listener action are left out)."""
    messages, targets, hands = _paired(rows, target, fold_shows)
    return mutual_information_test(messages, targets, hands, **test_options)


def message_entropy(rows: Sequence[dict], fold_shows: bool = True) -> float:
    """``H(M)`` in bits of the messages of message-log rows."""
    return entropy(message_classes(rows) if fold_shows else [row["message"] for row in rows])


def message_classes(rows: Sequence[dict]) -> list[str]:
    """Messages with every ``show:C`` folded into ``show`` (the vocabulary without the card)."""
    return ["show" if row["message"].startswith("show:") else row["message"] for row in rows]


def _value(row: dict, key: str):
    if key in row:
        return row[key]
    features = row.get("features") or {}
    if key in features:
        return features[key]
    raise KeyError(f"message-log rows have no {key!r} (nor a feature of that name)")


def _paired(rows: Sequence[dict], target: str, fold_shows: bool):
    kept = [row for row in rows if _value(row, target) is not None]
    if not kept:
        raise ValueError(f"no row has a value for {target!r}")
    messages = message_classes(kept) if fold_shows else [row["message"] for row in kept]
    return messages, [_value(r, target) for r in kept], [r["hand"] for r in kept]


# --------------------------------------------------------------------------------------- causal influence


def _check_policies(policies, message_probabilities) -> tuple[np.ndarray, np.ndarray]:
    pi = np.asarray(policies, dtype=np.float64)
    q = np.asarray(message_probabilities, dtype=np.float64).ravel()
    if pi.ndim != 2 or pi.shape[0] != q.size:
        raise ValueError(f"policies must be (messages, actions) with one row per message; got {pi.shape} and {q.size}")
    if np.any(pi < 0) or not np.allclose(pi.sum(axis=1), 1.0, atol=1e-9):
        raise ValueError("each row of policies must be a probability distribution over actions")
    if np.any(q < 0) or not math.isclose(float(q.sum()), 1.0, abs_tol=1e-9):
        raise ValueError("message probabilities must be non-negative and sum to 1")
    return pi, q


def causal_influence(policies, message_probabilities) -> float:
    """One-step causal influence of communication at one state, in bits: ``I(M; A)`` under the
    intervention distribution ``q`` (``message_probabilities``) and the listener's policies
    ``pi(a | do(m))`` (``policies``: one row per message). See the module docstring."""
    pi, q = _check_policies(policies, message_probabilities)
    joint = q[:, None] * pi
    marginal = joint.sum(axis=0)  # p(a) = sum over messages (the reference takes the mean: +log|M|)
    nonzero = joint > 0
    ratio = pi[nonzero] / np.broadcast_to(marginal, pi.shape)[nonzero]
    return max(float((joint[nonzero] * np.log2(ratio)).sum()), 0.0)


def reference_cic_with_mean_marginal(policies, message_probabilities) -> float:
    """What the reference implementation's ``calc_cic`` computes (in bits here): the marginal over actions
    taken as the *mean* over messages. Equals ``causal_influence + log2(number of messages)``; kept only
    to document and test that offset, never to be used as a measurement."""
    pi, q = _check_policies(policies, message_probabilities)
    joint = q[:, None] * pi
    joint = joint / joint.sum()
    marginal = joint.mean(axis=0)
    total = 0.0
    for m in range(joint.shape[0]):
        for a in range(joint.shape[1]):
            if joint[m, a] > 0:
                total += joint[m, a] * math.log2(joint[m, a] / (q[m] * marginal[a]))
    return total


def flip_rate(policies, message_probabilities, actual: int) -> float:
    """Probability, under ``q``, that an intervened message moves the listener's most likely action away
    from the one it takes after the actual message (row ``actual``): a plain-language companion of CIC."""
    pi, q = _check_policies(policies, message_probabilities)
    if isinstance(actual, bool) or not isinstance(actual, (int, np.integer)) or not 0 <= actual < len(q):
        raise ValueError(f"actual must be the row of the message sent, 0..{len(q) - 1}; got {actual!r}")
    chosen = np.argmax(pi, axis=1)
    return float(q[chosen != chosen[actual]].sum())


# --------------------------------------------------------------------------------------- bluffs and turns


@dataclass(frozen=True)
class Proportion:
    """``hits`` of ``trials`` with its Wilson score interval (95%)."""

    hits: int
    trials: int

    @property
    def rate(self) -> float:
        return self.hits / self.trials if self.trials else math.nan

    @property
    def ci95(self) -> tuple[float, float] | None:
        if not self.trials:
            return None
        n, p = self.trials, self.hits / self.trials
        centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def as_dict(self) -> dict:
        interval = self.ci95
        return {"hits": self.hits, "trials": self.trials, "rate": None if not self.trials else self.rate,
                "ci95": list(interval) if interval else None}


def bluff_stats(rows: Sequence[dict]) -> dict:
    """Bluff rate (false among checkable claims) and bluff success (the speaker's team wins the trick,
    and the hand, after a false claim against after a true one), overall and per phrase."""
    claims = [r for r in rows if r.get("truth") in ("true", "false")]
    false = [r for r in claims if r["truth"] == "false"]
    true = [r for r in claims if r["truth"] == "true"]
    per_phrase = defaultdict(lambda: [0, 0])
    for row in claims:
        per_phrase[row["phrase"]][row["truth"] == "false"] += 1
    return {
        "utterances": len(rows),
        "checkable_claims": len(claims),
        "bluff_rate": Proportion(len(false), len(claims)).as_dict(),
        "trick_won_after_false": _won(false, "team_won_trick").as_dict(),
        "trick_won_after_true": _won(true, "team_won_trick").as_dict(),
        "hand_won_after_false": _hand_won(false).as_dict(),
        "hand_won_after_true": _hand_won(true).as_dict(),
        "per_phrase": {str(k): {"true": v[0], "false": v[1]} for k, v in sorted(per_phrase.items())},
    }


MIN_MEANING_USES = 20
"""A token is given a meaning only from at least this many uses whose phrase is checkable."""


def token_meanings(rows: Sequence[dict], permutations: int = 200, seed: int = 0) -> dict:
    """What learned tokens mean, read off the 24 lexicon phrases: over the token-talk rows of a message log
    (``silent`` and ``token:k``, each with the truth of every phrase in its speaker's state, ``phrase_truths``):

    - ``per_phrase``: the information ``I(message; truth of phrase j)`` in bits (rows where phrase j is
      checkable; permutation null over all rows) and the phrase's base rate of being true;
    - ``per_message``: each message's *meaning*, the phrase whose truth rate rises most when it is said
      (at least ``MIN_MEANING_USES`` checkable uses), that rate against the base rate, and its **lies**: the
      uses in which the message's own meaning was false (``Proportion``: a consistent code lies rarely;
      a message said against its usual meaning, which the opponents overhear too, is a candidate bluff).
    """
    rows = [row for row in rows if row.get("phrase_truths")]
    if not rows:
        raise ValueError("no token-talk rows with phrase truths to read meanings from")
    messages = np.array([row["message"] for row in rows])
    per_phrase = {}
    for phrase in sorted({int(k) for row in rows for k in row["phrase_truths"]}):
        truths = np.array([row["phrase_truths"][str(phrase)] for row in rows])
        checkable = truths != "uncheckable"
        if checkable.sum() < 2:
            continue
        true = truths[checkable] == "true"
        estimate = mutual_information_test(messages[checkable], true, None, permutations, seed=seed)
        per_phrase[phrase] = {"checkable": int(checkable.sum()), "base_true_rate": float(true.mean()),
                              "bits": estimate.bits, "above_null": estimate.above_null, "p_value": estimate.p_value}
    per_message = {}
    for message in sorted(set(messages.tolist())):
        said = [row for row in rows if row["message"] == message]
        best = None
        for phrase, entry in per_phrase.items():
            labels = [row["phrase_truths"][str(phrase)] for row in said]
            checkable = [label for label in labels if label != "uncheckable"]
            if len(checkable) < MIN_MEANING_USES:
                continue
            rate = sum(label == "true" for label in checkable) / len(checkable)
            lift = rate - entry["base_true_rate"]
            if best is None or lift > best["lift"]:
                best = {"meaning": phrase, "true_rate": rate, "base_true_rate": entry["base_true_rate"],
                        "lift": lift, "lies": Proportion(len(checkable) - round(rate * len(checkable)),
                                                         len(checkable)).as_dict()}
        per_message[message] = {"uses": len(said), **(best or {"meaning": None})}
    return {"utterances": len(rows), "per_phrase": {str(k): v for k, v in per_phrase.items()},
            "per_message": per_message}


def _hand_won(rows: Sequence[dict]) -> Proportion:
    """Hands the speaker's team won (units above zero), among the rows of finished hands."""
    finished = [r for r in rows if r.get("team_units") is not None]
    return Proportion(sum(r["team_units"] > 0 for r in finished), len(finished))


def _won(rows: Sequence[dict], key: str) -> Proportion:
    decided = [r for r in rows if r.get(key) is not None]
    return Proportion(sum(bool(r[key]) for r in decided), len(decided))


def turn_events(record: dict) -> list[dict]:
    """Every face-down lead of a Knüffeln record: who turned, who answered, the answer, and the turning
    team's settlement (teams are fixed by seat parity with four players)."""
    if record.get("game") != "knuffeln" or record.get("config", {}).get("players", 4) != 4:
        raise ValueError("turn statistics read four-player Knüffeln records")
    seating = (record.get("arena") or {}).get("seating", {})
    result = record.get("result") or [0.0] * 4
    events = []
    actions = record["actions"]
    for index, (agent, action) in enumerate(actions):
        if not action.startswith("turn:"):
            continue
        answer = next(((a, act) for a, act in actions[index + 1:] if act in ("accept", "flee")), (None, None))
        seat = int(agent.split("_")[1])
        events.append({
            "turner": agent, "turner_agent": seating.get(agent), "answerer": answer[0],
            "answerer_agent": seating.get(answer[0]) if answer[0] else None, "answer": answer[1],
            "turner_units": float(result[seat]),
        })
    return events


def turn_stats(records: Sequence[dict], by: str = "turner_agent") -> dict:
    """Accept/flee statistics of turned cards, grouped by ``by`` (``turner_agent`` or ``answerer_agent``):
    offers, accept rate, and the turning team's units per hand after an accept and after a flee."""
    groups: dict = defaultdict(list)
    for record in records:
        for event in turn_events(record):
            groups[event[by]].append(event)
    summary = {}
    for label, events in sorted(groups.items(), key=lambda item: str(item[0])):
        accepted = [e["turner_units"] for e in events if e["answer"] == "accept"]
        fled = [e["turner_units"] for e in events if e["answer"] == "flee"]
        summary[str(label)] = {
            "offers": len(events),
            "accept_rate": Proportion(len(accepted), len(accepted) + len(fled)).as_dict(),
            "turner_units_after_accept": _mean_or_none(accepted),
            "turner_won_after_accept": Proportion(sum(u > 0 for u in accepted), len(accepted)).as_dict(),
            "turner_units_after_flee": _mean_or_none(fled),
        }
    return summary


def _mean_or_none(values: list[float]) -> dict | None:
    if not values:
        return None
    interval = mean_interval(values)
    return {"mean": interval.mean, "ci95": interval.as_list(), "count": len(values)}


def talk_metrics(rows: Sequence[dict], permutations: int = 200, seed: int = 0) -> dict:
    """Every log-based metric of one set of message-log rows (one agent type in one talk configuration):
    message entropy, speaker consistency with the next own action and with a few private features,
    instantaneous coordination, truth labels and bluffs."""
    if not rows:
        raise ValueError("no message-log rows to measure")
    options = {"permutations": permutations, "seed": seed}
    consistency = {"next_action": speaker_consistency(rows, **options).as_dict()}
    for feature in ("oles", "power_cards", "can_take_certainly", "can_beat"):
        consistency[feature] = speaker_consistency(rows, target=feature, **options).as_dict()
    truth = Counter(row["truth"] for row in rows)
    kinds = Counter(row["kind"] for row in rows)
    return {
        "utterances": len(rows),
        "hands": len({row["hand"] for row in rows}),
        "entropy_bits": message_entropy(rows),
        "speaker_consistency": consistency,
        "instantaneous_coordination": instantaneous_coordination(rows, **options).as_dict(),
        "truth": {value: truth.get(value, 0) for value in ("true", "false", "uncheckable")},
        "kinds": dict(sorted(kinds.items())),
        "shown_classes": dict(sorted(Counter(r["shown_class"] for r in rows if r["shown_class"]).items())),
        "bluffs": bluff_stats(rows),
    }
