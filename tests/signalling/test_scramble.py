"""The talk view, the scrambled listener, the scramble test and the value of talk."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.arena import run_arena
from knuffeln_env import knuffeln_v0
from signalling.scramble import ScrambledListener, message_marginal, scramble_test, value_of_talk, write_marginal
from signalling.views import TalkSlot, TalkView, talk_layout


def table_after_talk(talk: str = "lexicon", seed: int = 4):
    """A table where every seat has said something: player_0 to player_3 speak and play in trick 1."""
    env = knuffeln_v0.env(talk=talk)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while len(env.unwrapped.state()["talk"]) < 4:
        legal = env.unwrapped.legal_action_strings()
        talk_words = [a for a in legal if a.startswith(("say:", "token:"))]
        choice = talk_words[int(rng.integers(len(talk_words)))] if talk_words else legal[0]
        env.step(env.unwrapped.string_to_action(choice))
    return env


def test_identity_view_changes_nothing():
    env = table_after_talk()
    view = TalkView(env, lambda index, slot, observation: slot)
    for agent in env.possible_agents:
        assert np.array_equal(view.observe(agent)["observation"], env.observe(agent)["observation"])
    assert view.unwrapped.config == env.unwrapped.config
    assert view.agent_selection == env.agent_selection


def test_talk_layout_reads_the_slots_the_env_wrote():
    env = table_after_talk()
    layout = talk_layout(env.unwrapped.config)
    said = env.unwrapped.state()["talk"]
    slots = layout.slots(env.observe("player_0")["observation"])
    assert len(slots) == len(said)
    for slot, (speaker, words) in zip(slots, said, strict=True):
        assert slot.speaker == int(speaker[-1])  # relative to player_0
        assert slot.utterance == (0 if words == "silent" else int(words[4:]))
    with pytest.raises(ValueError, match="talk='off'"):
        talk_layout({"talk": "off"})


def test_scrambled_listener_hears_its_partner_scrambled_and_nothing_else():
    env = table_after_talk()
    agent = ScrambledListener("knuffeln", mode="permute", seed=3)
    observer = env.agent_selection
    seen = {}

    def rewrite(index, slot, observation):
        new = agent._rewrite(observer, index, slot, observation, view)
        seen[index] = (slot, new)
        return new

    view = TalkView(env, rewrite)
    first = view.observe(observer)["observation"]
    second = view.observe(observer)["observation"]
    assert np.array_equal(first, second)  # a replacement stays fixed within the hand
    layout = view.layout
    teammates = layout.teammates(env.observe(observer)["observation"])
    changed = {index for index, (old, new) in seen.items() if old != new}
    assert changed  # the partner's words were rewritten (a random permutation of 26 moves them)...
    assert all(seen[i][0].speaker in teammates for i in changed)  # ...and only the partner's
    agent.reset(4)
    assert not agent._cache


def test_scrambled_marginal_draws_the_given_messages(tmp_path):
    path = tmp_path / "marginal.json"
    write_marginal({"say:12": 1.0}, str(path))
    env = table_after_talk()
    agent = ScrambledListener("knuffeln", marginal=str(path), seed=0)
    observer = env.agent_selection
    view = TalkView(env, lambda index, slot, observation: agent._rewrite(observer, index, slot, observation, view))
    teammates = view.layout.teammates(env.observe(observer)["observation"])
    for slot in view.layout.slots(view.observe(observer)["observation"]):
        if slot.speaker in teammates:
            assert slot.utterance == 12  # "Certainly", whatever the partner said
    assert message_marginal([{"message": "show:H2"}, {"message": "silent"}]) == {"show": 0.5, "silent": 0.5}


def test_bad_marginals_and_modes_are_rejected(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"say:1": 0.7, "say:2": 0.7}))
    with pytest.raises(ValueError, match="sum to 1"):
        ScrambledListener("knuffeln", marginal=str(bad))
    with pytest.raises(ValueError, match="mode"):
        ScrambledListener("knuffeln", mode="shuffle")
    with pytest.raises(ValueError, match="Knüffeln"):
        ScrambledListener("bavarian")
    agent = ScrambledListener("knuffeln")
    env = knuffeln_v0.env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="talk='off'"):
        agent.act(env, env.agent_selection)


def test_a_deaf_listener_loses_nothing_to_scrambling():
    summary = run_arena("knuffeln", ["rules[listen=false]", "signalling.scramble:make_agent[listen=false]"], 6, 2,
                        {"talk": "lexicon"})
    assert summary["difference"]["first_minus_second"] == 0.0
    assert summary["difference"]["ci95"] == [0.0, 0.0]


def test_scramble_test_and_value_of_talk_run_duplicate_matches():
    scrambled = scramble_test({"talk": "lexicon"}, 4, seed=1, mode="permute")
    assert scrambled["hands"] == 4 and "scrambled_rules" in scrambled["difference"]["second"]
    off = value_of_talk({"talk": "off"}, 4, seed=1)  # without talk the two agents are the same player
    assert off["difference"]["first_minus_second"] == 0.0
    with pytest.raises(ValueError, match="bare agent"):
        value_of_talk({"talk": "lexicon"}, 2, agent="rules[show=false]")
    with pytest.raises(ValueError, match="talk='off'"):
        scramble_test({"talk": "off"}, 2)


def test_talk_slots_round_trip_through_write():
    env = table_after_talk("tokens:6")
    layout = talk_layout(env.unwrapped.config)
    observation = np.array(env.observe("player_1")["observation"])
    replaced = TalkSlot(2, 5, None)
    layout.write(observation, 1, replaced)
    assert layout.slots(observation)[1] == replaced
