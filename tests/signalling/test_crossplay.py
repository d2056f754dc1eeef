"""Partner pairs, token-permuted talkers, the cross-play matrix, and message interventions."""

from __future__ import annotations

import numpy as np
import pytest

from agents.arena import run_arena
from knuffeln_env import knuffeln_v0
from signalling.crossplay import (
    DEFAULT_OPPONENT,
    PairAgent,
    TokenPermutedAgent,
    crossplay_matrix,
    decode_spec,
    encode_spec,
    pair,
    pair_spec,
    permuted_population,
)
from signalling.influence import causal_influence_of, intervention_events
from tests.signalling.helpers import play_hand


class Recorder:
    """A stand-in agent that remembers the seats it was asked to play."""

    name = "recorder"

    def __init__(self):
        self.seats = []

    def act(self, env, agent):
        self.seats.append(agent)
        return int(np.flatnonzero(env.observe(agent)["action_mask"])[0])


def test_specs_travel_inside_a_pair_spec():
    spec = "signalling.crossplay:permuted_tokens[agent=rules,permutation=3]"
    assert decode_spec(encode_spec(spec)) == spec
    assert "," not in encode_spec(spec) and "[" not in encode_spec(spec)
    made = pair("knuffeln", encode_spec("rules"), encode_spec(spec))
    assert made.name == "pair(rules+rules~tokens3)"
    with pytest.raises(ValueError, match="first= and second="):
        pair("knuffeln", "rules", "rules", third="random")
    with pytest.raises(ValueError, match="four-player Knüffeln"):
        PairAgent("bavarian", "rules", "rules")


def test_pair_gives_the_lower_seat_to_first_and_the_upper_to_second():
    agent = PairAgent("knuffeln", "random", "random")
    first, second = Recorder(), Recorder()
    agent.members = (first, second)
    env = knuffeln_v0.env()
    env.reset(seed=1)
    for _ in range(60):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        seat = env.agent_selection
        env.step(agent.act(env, seat))
    assert set(first.seats) <= {"player_0", "player_1"} and set(second.seats) <= {"player_2", "player_3"}
    assert first.seats and second.seats


def test_token_permutation_tables_are_inverse():
    agent = TokenPermutedAgent("knuffeln", permutation=2)
    forward, inverse = agent.tables(8)
    assert forward[0] == 0 and sorted(forward) == list(range(9))
    assert list(inverse[forward]) == list(range(9))
    assert list(TokenPermutedAgent("knuffeln", permutation=0).tables(8)[0]) == list(range(9))
    assert list(forward) != list(range(9))
    with pytest.raises(ValueError, match="tokens:N"):
        env = knuffeln_v0.env(talk="lexicon")
        env.reset(seed=0)
        agent.act(env, env.agent_selection)


def test_same_permutation_partners_play_exactly_like_the_unpermuted_talker():
    config = {"talk": "tokens:8"}
    plain = run_arena("knuffeln", [pair_spec("rules", "rules"), DEFAULT_OPPONENT], 5, 3, config)
    permuted_spec = permuted_population(4)[3]
    permuted = run_arena("knuffeln", [pair_spec(permuted_spec, permuted_spec), DEFAULT_OPPONENT], 5, 3, config)
    assert plain["difference"]["first_minus_second"] == permuted["difference"]["first_minus_second"]


def test_crossplay_matrix_of_permuted_talkers():
    result = crossplay_matrix(permuted_population(2), 4, seed=2, config={"talk": "tokens:8"})
    means = result["mean"]
    assert means[0][0] == means[1][1]  # self-play is the same convention under two labellings
    assert len(means) == 2 and len(result["ci95"][0]) == 2
    gap = result["gap"]["mean"]
    expected = (means[0][0] + means[1][1]) / 2 - (means[0][1] + means[1][0]) / 2
    assert gap == pytest.approx(expected)
    with pytest.raises(ValueError, match="four-player"):
        crossplay_matrix(["rules", "rules"], 2, config={"talk": "lexicon", "players": 5})
    with pytest.raises(ValueError, match="at least two"):
        crossplay_matrix(["rules"], 2)


# --------------------------------------------------------------------------------------- interventions


@pytest.fixture(scope="module")
def talk_record():
    return play_hand("knuffeln", ["rules"] * 4, 7, {"talk": "lexicon"})


def test_the_actual_message_reproduces_the_recorded_action(talk_record):
    events = intervention_events(talk_record, max_events=12)
    assert events
    actions = talk_record["actions"]
    for event in events:
        actual_row = event.policies[event.alternatives.index(event.actual)]
        chosen = event.actions[int(np.argmax(actual_row))]
        recorded = next(m for a, m in actions[event.index + 1:] if a == event.listener and not m.startswith(
            ("say:", "show:", "token:")) and m != "silent")
        assert chosen == recorded
        assert "silent" in event.alternatives and event.actual in event.alternatives


def test_a_deaf_listener_is_not_influenced(talk_record):
    deaf = intervention_events(talk_record, listener_agent="rules[listen=false]", max_events=10)
    result = causal_influence_of(deaf, "uniform")
    assert result["cic_bits"] == 0.0 and result["flip_rate"] == 0.0
    hearing = intervention_events(talk_record, max_events=40)
    assert causal_influence_of(hearing, "uniform")["cic_bits"] > 0.0


def test_intervention_distributions(talk_record):
    event = intervention_events(talk_record, speaker_agent="rules", max_events=1)[0]
    q = event.distribution("policy")
    assert q[event.alternatives.index(event.actual)] == 1.0  # a deterministic speaker sends one message
    assert causal_influence_of([event], "policy")["cic_bits"] == 0.0
    marginal = event.distribution("marginal", {"silent": 0.5, "show": 0.5})
    shows = [i for i, a in enumerate(event.alternatives) if a.startswith("show:")]
    if shows:
        assert marginal[shows].sum() == pytest.approx(0.5)
    with pytest.raises(ValueError, match="marginal"):
        event.distribution("marginal")
    with pytest.raises(ValueError, match="intervention distribution"):
        event.distribution("softmax")


def test_a_marginal_of_another_vocabulary_is_refused(talk_record):
    events = intervention_events(talk_record, max_events=3)
    assert causal_influence_of(events, "marginal", {"silent": 0.5, "say:3": 0.5})["events"] == 3
    with pytest.raises(ValueError, match=r"could not send: \['token:1', 'token:2'\]"):
        causal_influence_of(events, "marginal", {"silent": 0.4, "token:1": 0.3, "token:2": 0.3})


@pytest.mark.parametrize(("options", "words"), [
    ({"samples": 0}, "samples must be a positive integer"),
    ({"speakers": [0]}, r"unknown speakers \['0'\]"),
])
def test_interventions_refuse_bad_options(talk_record, options, words):
    with pytest.raises(ValueError, match=words):
        intervention_events(talk_record, **options)


def test_interventions_refuse_records_out_of_order_or_without_config(talk_record):
    actions = list(talk_record["actions"])
    swapped = {**talk_record, "actions": [actions[1], actions[0], *actions[2:]]}
    with pytest.raises(ValueError, match="record expects"):
        intervention_events(swapped)
    with pytest.raises(ValueError, match="'config'"):
        intervention_events({k: v for k, v in talk_record.items() if k != "config"})


def test_paired_against_plays_both_agents_on_the_same_deals_and_differences_them():
    from signalling.crossplay import paired_against

    talking, silent = "rules", "rules[speak=false,listen=false]"
    result = paired_against(talking, silent, 4, seed=3, config={"talk": "lexicon"}, opponent="random")
    first, second, difference = result["first_units"], result["second_units"], result["difference"]
    assert difference["mean"] == pytest.approx(first["mean"] - second["mean"])
    assert first["mean"] > 0 and second["mean"] > 0  # both beat random
    same = paired_against(talking, talking, 4, seed=3, config={"talk": "lexicon"}, opponent="random")
    assert same["difference"]["mean"] == 0.0  # the same agent on the same deals: paired exactly
    per_deal = paired_against(talking, silent, 4, seed=3, config={"talk": "lexicon"}, opponent="random",
                              per_deal=True)["difference_per_deal"]
    assert len(per_deal) == 4 and np.mean(per_deal) == pytest.approx(difference["mean"])


def test_pooled_difference_averages_matches_deal_by_deal():
    from signalling.crossplay import pooled_difference

    pooled = pooled_difference([np.array([1.0, 3.0, 2.0]), np.array([3.0, 1.0, 2.0])])
    # deal by deal the two matches average 2, 2, 2: no spread left, so the interval closes on the mean
    assert (pooled["matches"], pooled["deals"], pooled["mean"]) == (2, 3, 2.0)
    assert pooled["ci95"] == [2.0, 2.0] and pooled["significant"]
    apart = pooled_difference([np.array([1.0, 3.0, 2.0])])
    assert apart["ci95"][0] < 2.0 < apart["ci95"][1]
    with pytest.raises(ValueError, match="same deals"):
        pooled_difference([np.array([1.0, 2.0]), np.array([1.0])])
    with pytest.raises(ValueError, match="same deals"):
        pooled_difference([])
