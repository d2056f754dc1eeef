"""The communication metrics on synthetic channels with known answers: a perfect channel, a useless one,
a bluffing one; the causal influence against the reference implementation's log|M| offset."""

from __future__ import annotations

import math

import numpy as np
import pytest

from signalling.metrics import (
    Proportion,
    bluff_stats,
    causal_influence,
    entropy,
    entropy_of_distribution,
    flip_rate,
    instantaneous_coordination,
    message_entropy,
    mutual_information,
    mutual_information_test,
    reference_cic_with_mean_marginal,
    speaker_consistency,
    turn_stats,
)


def binary_entropy(p: float) -> float:
    return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


# --------------------------------------------------------------------------------------- entropy and MI


def test_entropy_of_uniform_and_constant_messages():
    assert entropy(["a", "b", "c", "d"] * 5) == pytest.approx(2.0)
    assert entropy(["silent"] * 7) == 0.0
    assert entropy_of_distribution([0.5, 0.25, 0.25, 0.0]) == pytest.approx(1.5)


def test_perfect_channel_carries_its_whole_entropy():
    # four equally likely states, a distinct message for each, the listener acts on the message: I = H(M)
    states = [0, 1, 2, 3] * 25
    messages = [f"token:{s + 1}" for s in states]
    actions = [f"act{s}" for s in states]
    assert mutual_information(messages, actions) == pytest.approx(entropy(messages)) == pytest.approx(2.0)


def test_useless_channel_carries_nothing():
    # every (message, action) combination equally often: independent, I = 0 exactly
    messages = [m for m in "abcd" for _ in range(3)]
    actions = [a for _ in "abcd" for a in "xyz"]
    assert mutual_information(messages, actions) == pytest.approx(0.0, abs=1e-12)


def test_bluffing_channel_has_its_known_information():
    # strong or weak with probability 1/2; strong says "strong"; weak says "strong" (a bluff) half the time:
    # I(S; M) = H(M) - H(M|S) = h(3/4) - 1/2 bits
    rows = [("strong", "strong")] * 4 + [("weak", "strong")] * 2 + [("weak", "weak")] * 2
    states, messages = zip(*rows, strict=True)
    assert mutual_information(states, messages) == pytest.approx(binary_entropy(0.75) - 0.5)
    assert mutual_information(states, messages) == pytest.approx(0.311278, abs=1e-6)


def test_mutual_information_is_symmetric_and_rejects_bad_input():
    x, y = [1, 2, 2, 3, 3, 3], ["a", "b", "b", "a", "c", "c"]
    assert mutual_information(x, y) == pytest.approx(mutual_information(y, x))
    with pytest.raises(ValueError, match="differ in length"):
        mutual_information([1, 2], [1])
    with pytest.raises(ValueError, match="empty"):
        mutual_information([], [])


def test_permutation_test_separates_information_from_noise():
    rng = np.random.default_rng(0)
    states = rng.integers(0, 4, 400)
    informative = mutual_information_test(states, states, groups=np.arange(400) // 10, permutations=100, seed=1)
    assert informative.significant() and informative.p_value < 0.02
    assert informative.ci95[0] > 1.5
    noise = mutual_information_test(states, rng.integers(0, 4, 400), permutations=100, seed=1)
    assert noise.bits > 0  # the plug-in estimate is biased upwards...
    assert noise.bits < noise.null_q95 * 2 and not noise.significant(0.01)  # ...but not beyond its null
    assert noise.above_null == pytest.approx(noise.bits - noise.null_mean)


def hand_confounded_samples(seed: int, hands: int = 40, rows: int = 10) -> tuple[list, list, np.ndarray]:
    """Message and target each follow their hand (a state per hand, kept 80% of the time) but not each
    other: no information beyond the hand's."""
    rng = np.random.default_rng(seed)
    message_state, target_state = rng.integers(0, 3, hands), rng.integers(0, 3, hands)
    x = [message_state[h] if rng.random() < 0.8 else rng.integers(0, 3) for h in range(hands) for _ in range(rows)]
    y = [target_state[h] if rng.random() < 0.8 else rng.integers(0, 3) for h in range(hands) for _ in range(rows)]
    return x, y, np.repeat(np.arange(hands), rows)


def test_the_permutation_test_does_not_take_a_hands_rows_for_independent_evidence():
    """Shuffled across hands, such samples came out significant at 5% in about 70% of trials; shuffled
    within hands the test keeps its level."""
    trials = 60
    significant = sum(
        mutual_information_test(*hand_confounded_samples(seed), permutations=49, bootstrap=5, seed=seed).p_value < 0.05
        for seed in range(trials)
    )
    assert significant / trials < 0.15
    hands = hand_confounded_samples(0)[2]
    shuffled_across = [mutual_information_test(*hand_confounded_samples(seed)[:2], permutations=49, seed=seed)
                       for seed in range(20)]
    assert sum(result.p_value < 0.05 for result in shuffled_across) >= 8  # what the groups protect against
    rng = np.random.default_rng(1)
    within = rng.integers(0, 3, 400)
    related = np.where(rng.random(400) < 0.5, within, rng.integers(0, 3, 400))
    assert mutual_information_test(within, related, groups=hands, permutations=99, seed=1).p_value < 0.02


@pytest.mark.parametrize(("options", "words"), [
    ({"permutations": 0}, "permutations must be a positive integer"),
    ({"permutations": -1}, "permutations must be a positive integer"),
    ({"bootstrap": 0}, "bootstrap must be a positive integer"),
    ({"groups": [0, 1]}, "one group per pair"),
])
def test_the_permutation_test_refuses_bad_sizes(options, words):
    with pytest.raises(ValueError, match=words):
        mutual_information_test([0, 1, 0, 1], [1, 0, 1, 0], **options)


def test_flip_rate_needs_the_row_of_the_message_sent():
    policies, q = np.eye(2), np.array([0.5, 0.5])
    assert flip_rate(policies, q, 1) == 0.5
    for actual in (-1, 2, 1.0, True):
        with pytest.raises(ValueError, match="actual must be the row"):
            flip_rate(policies, q, actual)


# --------------------------------------------------------------------------------------- message-log metrics


def log_rows(channel: str, hands: int = 40) -> list[dict]:
    """Synthetic message-log rows: the speaker's strength, its message, its own next action and its
    listener's next action, for a perfect, useless or bluffing speaker."""
    rows = []
    for hand in range(hands):
        for k in range(4):
            strong = (hand + k) % 2 == 0
            if channel == "perfect":
                message = "say:6" if strong else "say:9"
            elif channel == "useless":
                message = "say:6" if k < 2 else "say:9"  # unrelated to the strength
            else:  # bluffing: weak speakers claim strength every other time
                message = "say:6" if strong or k % 2 == 1 else "say:9"
            claim_true = strong if message == "say:6" else not strong
            rows.append({
                "hand": hand, "message": message, "speaker_next_class": "ole" if strong else "blank",
                "listener_next_class": "blank" if message == "say:6" else "high_beater",
                "features": {"oles": int(strong)}, "truth": "true" if claim_true else "false",
                "phrase": int(message[4:]), "team_won_trick": strong, "team_units": 1.0 if strong else -1.0,
            })
    return rows


def test_speaker_consistency_and_coordination_on_synthetic_logs():
    perfect = log_rows("perfect")
    assert speaker_consistency(perfect).bits == pytest.approx(1.0)
    assert speaker_consistency(perfect, target="oles").bits == pytest.approx(1.0)
    assert instantaneous_coordination(perfect).bits == pytest.approx(1.0)
    useless = log_rows("useless")
    assert speaker_consistency(useless).bits == pytest.approx(0.0, abs=1e-12)
    assert instantaneous_coordination(useless).bits == pytest.approx(1.0)  # the listener still follows words
    bluffing = log_rows("bluffing")
    assert speaker_consistency(bluffing, permutations=20).bits == pytest.approx(binary_entropy(0.75) - 0.5)
    assert message_entropy(bluffing) == pytest.approx(binary_entropy(0.75))


def test_bluff_rate_and_success_on_a_bluffing_channel():
    stats = bluff_stats(log_rows("bluffing"))
    # every two hands: four strong claims (true), two weak claims "strong" (false), two weak "weak" (true)
    assert stats["checkable_claims"] == 160
    assert stats["bluff_rate"]["rate"] == pytest.approx(0.25)
    low, high = stats["bluff_rate"]["ci95"]
    assert low < 0.25 < high
    assert stats["trick_won_after_false"]["rate"] == 0.0
    assert stats["per_phrase"]["6"] == {"true": 80, "false": 40}
    assert bluff_stats(log_rows("perfect"))["bluff_rate"]["rate"] == 0.0


def test_wilson_interval_matches_a_worked_value():
    interval = Proportion(8, 10).ci95  # Wilson 95%: 0.490 .. 0.943
    assert interval[0] == pytest.approx(0.4902, abs=1e-3) and interval[1] == pytest.approx(0.9433, abs=1e-3)
    assert Proportion(0, 0).ci95 is None


# --------------------------------------------------------------------------------------- causal influence


def test_causal_influence_of_a_listener_that_reads_the_message():
    messages = 4
    policies = np.eye(messages)  # the listener's action reveals the message
    q = np.full(messages, 1 / messages)
    assert causal_influence(policies, q) == pytest.approx(math.log2(messages))
    skewed = np.array([0.7, 0.1, 0.1, 0.1])
    assert causal_influence(policies, skewed) == pytest.approx(entropy_of_distribution(skewed))


def test_causal_influence_of_a_listener_that_ignores_the_message_is_zero():
    policies = np.tile([0.2, 0.5, 0.3], (5, 1))
    assert causal_influence(policies, np.full(5, 0.2)) == pytest.approx(0.0, abs=1e-12)
    assert flip_rate(policies, np.full(5, 0.2), actual=2) == 0.0


def test_the_reference_implementation_is_off_by_log_of_the_vocabulary():
    rng = np.random.default_rng(3)
    for messages in (2, 3, 8, 26):
        policies = rng.dirichlet(np.ones(5), size=messages)
        q = rng.dirichlet(np.ones(messages))
        ours = causal_influence(policies, q)
        reference = reference_cic_with_mean_marginal(policies, q)
        assert reference == pytest.approx(ours + math.log2(messages))
    # a listener that ignores the messages: the reference reports log|M| bits of influence, not 0
    ignoring = np.tile([0.5, 0.5], (4, 1))
    assert reference_cic_with_mean_marginal(ignoring, np.full(4, 0.25)) == pytest.approx(2.0)


def test_causal_influence_rejects_malformed_policies():
    with pytest.raises(ValueError, match="one row per message"):
        causal_influence(np.eye(3), np.full(2, 0.5))
    with pytest.raises(ValueError, match="probability distribution"):
        causal_influence(np.ones((2, 2)), np.full(2, 0.5))
    with pytest.raises(ValueError, match="sum to 1"):
        causal_influence(np.eye(2), np.array([0.7, 0.7]))


def test_flip_rate_counts_the_mass_of_messages_that_change_the_action():
    policies = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    assert flip_rate(policies, np.array([0.5, 0.25, 0.25]), actual=0) == pytest.approx(0.25)


# --------------------------------------------------------------------------------------- turned cards


def test_turn_statistics_from_records():
    def record(answer: str, result: list[float]) -> dict:
        return {"game": "knuffeln", "config": {"players": 4}, "result": result,
                "actions": [["player_0", "silent"], ["player_0", "turn:C6"], ["player_1", answer]],
                "arena": {"seating": {"player_0": "A", "player_1": "B", "player_2": "A", "player_3": "B"}}}

    records = [record("accept", [2.0, -2.0, 2.0, -2.0]), record("accept", [-2.0, 2.0, -2.0, 2.0]),
               record("flee", [1.0, -1.0, 1.0, -1.0])]
    stats = turn_stats(records)["A"]
    assert stats["offers"] == 3
    assert stats["accept_rate"]["rate"] == pytest.approx(2 / 3)
    assert stats["turner_units_after_accept"]["mean"] == 0.0
    assert stats["turner_won_after_accept"]["hits"] == 1
    assert stats["turner_units_after_flee"]["mean"] == 1.0
    assert turn_stats(records, by="answerer_agent")["B"]["offers"] == 3


def meaning_rows(hands: int = 60, lie_every: int = 0) -> list[dict]:
    """Token talk whose ``token:1`` is said when phrase 5 holds and ``token:2`` when it does not, with every
    ``lie_every``-th ``token:1`` said against it; phrase 9 is a coin flip unrelated to the message."""
    rng = np.random.default_rng(4)
    rows = []
    for hand in range(hands):
        for index in range(10):
            holds = bool(rng.random() < 0.4)
            lie = lie_every and (hand * 10 + index) % lie_every == 0 and not holds
            message = "token:1" if holds or lie else "token:2"
            truths = {str(k): "uncheckable" for k in range(1, 25)}
            truths["5"] = "true" if holds else "false"
            truths["9"] = "true" if rng.random() < 0.5 else "false"
            rows.append({"hand": hand, "message": message, "phrase_truths": truths})
    return rows


def test_token_meanings_read_a_code_its_lies_and_ignore_an_unrelated_phrase():
    from signalling.metrics import token_meanings

    honest = token_meanings(meaning_rows(), permutations=50)
    assert honest["per_message"]["token:1"]["meaning"] == 5
    assert honest["per_message"]["token:1"]["true_rate"] == 1.0
    assert honest["per_message"]["token:1"]["lies"]["hits"] == 0
    assert honest["per_phrase"]["5"]["p_value"] < 0.05 and honest["per_phrase"]["5"]["bits"] > 0.5
    assert honest["per_phrase"]["9"]["p_value"] > 0.05
    assert "1" not in honest["per_phrase"]  # never checkable
    lying = token_meanings(meaning_rows(lie_every=7), permutations=50)
    lies = lying["per_message"]["token:1"]["lies"]
    assert lying["per_message"]["token:1"]["meaning"] == 5 and 0 < lies["hits"] < lies["trials"] / 3
    with pytest.raises(ValueError, match="phrase truths"):
        token_meanings([{"hand": 0, "message": "say:3", "phrase_truths": None}])
