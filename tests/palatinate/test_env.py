"""The PettingZoo env of Palatinate Schafkopf: API conformance, observations (no leaks), records, bad
input, illegal moves, resampling and the search helpers."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from schafkopf_env import palatinate_v0
from schafkopf_env.palatinate import kernel
from trick_core.aec import IllegalActionError
from trick_core.cards import FRENCH_32
from trick_core.layout import COMMON_FIELDS

from .helpers import EXAMPLE_HANDS, act, example_deal, is_over, legal, new_env, play_to_end, to_act

OBS_TYPES = ("observation", "information_state", "perfect")
CONFIGS = [({"players": players}, obs) for players in (3, 4) for obs in OBS_TYPES]


def block(env, name: str) -> np.ndarray:
    """Offsets of an observation block (from ``observation_layout``) as a slice helper."""
    unwrapped = env.unwrapped
    offset = 0
    code = OBS_TYPES.index(unwrapped.observation_type)
    for block_name, size in kernel.observation_layout(kernel.make_params(**unwrapped.config), code):
        if block_name == name:
            return slice(offset, offset + size)
        offset += size
    raise KeyError(name)


def random_steps(env, rng: np.random.Generator, steps: int) -> None:
    for _ in range(steps):
        if is_over(env):
            return
        options = env.unwrapped.legal_action_strings()
        if "pass" in options and rng.random() < 0.6:
            act(env, "pass")
        else:
            act(env, options[int(rng.integers(len(options)))])


# ------------------------------------------------------------------------------------ PettingZoo tests


@pytest.mark.parametrize(("config", "observation_type"), CONFIGS)
def test_rewards_sum_to_the_settlement_and_spaces_hold_observations(config, observation_type):
    env = palatinate_v0.env(observation_type=observation_type, **config)
    for seed in range(20):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            totals[agent] += reward
            assert env.observation_space(agent).contains(observation)
            if termination or truncation:
                env.step(None)
                continue
            mask = observation["action_mask"]
            assert mask.any()
            env.step(int(rng.choice(np.flatnonzero(mask))))
        settlement = env.unwrapped.game_record()["result"]
        assert [totals[a] for a in env.possible_agents] == settlement
        assert sum(settlement) == 0


def test_env_and_raw_env_are_the_class_and_strings_are_fixed():
    assert isinstance(palatinate_v0.env(), palatinate_v0.PalatinateEnv)
    assert isinstance(palatinate_v0.raw_env(), palatinate_v0.PalatinateEnv)
    e = palatinate_v0.raw_env()
    names = [e.action_to_string(a) for a in range(e.action_space("player_0").n)]
    assert len(set(names)) == len(names) == 81
    fixed_names = "pass solo heart_solo solo_du heart_solo_du simple trump:C trump:S trump:H trump:D discard:CQ"
    fixed_names += " contra re no_double schenken no_schenken accept refuse CQ H10 D7"
    for fixed in fixed_names.split():
        assert e.action_to_string(e.string_to_action(fixed)) == fixed
    assert e.string_to_action("cq") == e.string_to_action("CQ") == FRENCH_32.parse("CQ")
    with pytest.raises(ValueError, match="unknown action string"):
        e.string_to_action("grand")


def test_documented_observation_sizes():
    """The size formulas of the docs page (its table is checked against the kernel's layout in
    ``tests/core/test_env_docs.py``)."""
    for players in (3, 4):
        for d in (0, 4, 7):
            n = players
            params = kernel.make_params(players=players, max_doublings=d)
            assert kernel.observation_size(params, 0) == 84 * n + 117 + d * (n + 3)
            assert kernel.observation_size(params, 1) == 414 * n + 117 + d * (n + 3)
            assert kernel.observation_size(params, 2) == 446 * n + 149 + d * (n + 3)


# ------------------------------------------------------------------------------------ observation content


def test_observation_blocks_hold_what_they_say():
    env = new_env(observation_type="perfect")
    act(env, "pass", "heart_solo", "pass", "no_schenken", "no_double", "CQ")
    obs = env.observe("player_1")["observation"]
    hand = np.flatnonzero(obs[block(env, "hand")]).tolist()
    assert hand == sorted(FRENCH_32.parse(c) for c in EXAMPLE_HANDS["player_1"])
    assert obs[block(env, "dealer")].tolist() == [0, 1, 0]  # player_2 is one to the left of player_1
    bids = obs[block(env, "bid_one")].reshape(3, 5)
    assert bids[0].tolist() == [0, 0, 1, 0, 0]  # own heart_solo
    assert bids[1].tolist() == [1, 0, 0, 0, 0] and bids[2].tolist() == [1, 0, 0, 0, 0]
    assert obs[block(env, "declarer")].tolist() == [1, 0, 0]
    assert obs[block(env, "trump")].tolist() == [0, 0, 1, 0]
    trick = obs[block(env, "trick")].reshape(3, 32)
    assert np.flatnonzero(trick[2]).tolist() == [FRENCH_32.parse("CQ")]  # player_0 sits at position 2
    assert obs[block(env, "leader")].tolist() == [0, 0, 1]
    history = obs[block(env, "trick_history")].reshape(10, 3 + 96)
    assert history[0, :3].tolist() == [0, 0, 1] and history[0, 3 + 64 + FRENCH_32.parse("CQ")] == 1
    hands = obs[block(env, "hands")].reshape(3, 32)
    assert hands[1].sum() == 10 and hands[2].sum() == 9 and hands[0].sum() == 10
    assert np.flatnonzero(obs[block(env, "skat")]).tolist() == sorted(FRENCH_32.parse(c) for c in ("D8", "D7"))


def test_skat_and_discards_only_in_the_declarers_observation():
    for observation_type in ("observation", "information_state", "perfect"):
        env = new_env(observation_type=observation_type)
        act(env, "pass", "pass", "pass", "pass", "simple", "discard:CA", "discard:D8", "trump:C")
        for agent in env.possible_agents:
            obs = env.observe(agent)["observation"]
            shown = agent == "player_1" or observation_type == "perfect"
            assert obs[block(env, "skat_taken")].sum() == (2 if shown else 0)
            assert obs[block(env, "discards")].sum() == (2 if shown else 0)


def test_sitting_out_dealer_sees_only_public_information():
    env = new_env(example_deal(dealer=3), players=4)
    act(env, "solo", "pass", "pass", "trump:C")
    obs = env.observe("player_3")["observation"]
    assert obs[block(env, "hand")].sum() == 0
    assert obs[block(env, "declarer")].tolist() == [0, 1, 0, 0]
    assert env.observe("player_3")["action_mask"].sum() == 0


def hidden_cards(env, agent: str) -> set[str]:
    """Cards whose place ``agent`` does not know: not in its hand, not played, not its own skat/discards."""
    state = env.unwrapped.state()
    known = set(state["hands"][agent])
    known |= {card for trick in state["tricks"] for _, card in trick["cards"]}
    known |= {card for _, card in state["trick"]}
    if state["contract"] == "simple" and state["declarer"] == agent:
        known |= set(state["discards"]) | set(state["skat"])
    return set(FRENCH_32.names_of(FRENCH_32.full_mask)) - known


def swap_in_record(record: dict, a: str, b: str) -> dict:
    """The record with cards ``a`` and ``b`` exchanged everywhere (deal and discards)."""
    swap = {a: b, b: a}
    new = json.loads(json.dumps(record))
    deal = new["deal"]
    deal["hands"] = {agent: [swap.get(c, c) for c in cards] for agent, cards in deal["hands"].items()}
    deal["skat"] = [swap.get(c, c) for c in deal["skat"]]
    for entry in new["actions"]:
        if entry[1].startswith("discard:"):
            entry[1] = "discard:" + swap.get(entry[1][8:], entry[1][8:])
    new["result"] = None
    return new


def replayed_or_none(config: dict, record: dict, observation_type: str):
    env = palatinate_v0.raw_env(**config, observation_type=observation_type)
    try:
        env.replay(record)
    except ValueError:
        return None  # the swap made a recorded card play illegal: not a world consistent with the history
    return env


@pytest.mark.parametrize("players", [3, 4])
def test_no_leak_observation_ignores_cards_the_seat_cannot_see(players):
    rng = np.random.default_rng(players)
    compared = 0
    for seed in range(60):
        for observation_type in ("observation", "information_state"):
            env = palatinate_v0.raw_env(players=players, observation_type=observation_type)
            env.reset(seed=seed)
            random_steps(env, rng, int(rng.integers(0, 45)))
            if is_over(env):
                continue
            record = env.unwrapped.game_record()
            for agent in env.possible_agents:
                hidden = sorted(hidden_cards(env, agent))
                if len(hidden) < 2:
                    continue
                for _ in range(3):
                    a, b = rng.choice(hidden, size=2, replace=False)
                    compared += compare_after_swap(env, record, agent, str(a), str(b), rng)
    assert compared > 150


def compare_after_swap(env, record: dict, agent: str, a: str, b: str, rng: np.random.Generator) -> int:
    """1 if swapping hidden cards a and b gave another legal world (and the agent's observation is the same
    there), 0 if the swap is no test (illegal history or the same state)."""
    config, observation_type = env.unwrapped.config, env.unwrapped.observation_type
    other = replayed_or_none(config, swap_in_record(record, a, b), observation_type)
    if other is None or other.unwrapped.state() == env.unwrapped.state():
        return 0
    np.testing.assert_array_equal(other.observe(agent)["observation"], env.observe(agent)["observation"])
    # The control: swapping one of the seat's own cards with a hidden one is seen.
    own = env.unwrapped.state()["hands"][agent]
    if own:
        changed = replayed_or_none(config, swap_in_record(record, str(rng.choice(own)), a), observation_type)
        if changed is not None:
            assert not np.array_equal(changed.observe(agent)["observation"], env.observe(agent)["observation"])
    return 1


def test_no_leak_of_discards_and_of_the_solo_skat():
    env = new_env(observation_type="information_state")
    act(env, "pass", "pass", "pass", "pass", "simple", "discard:CA", "discard:D8", "trump:C")
    record = env.unwrapped.game_record()
    for agent, card_of_the_other_opponent in (("player_0", "SA"), ("player_2", "CQ")):
        swapped = replayed_or_none(
            env.unwrapped.config, swap_in_record(record, "CA", card_of_the_other_opponent), "information_state"
        )
        assert card_of_the_other_opponent in swapped.unwrapped.state()["discards"]
        np.testing.assert_array_equal(swapped.observe(agent)["observation"], env.observe(agent)["observation"])
        assert not np.array_equal(swapped.observe("player_1")["observation"], env.observe("player_1")["observation"])

    env = new_env(observation_type="information_state")
    act(env, "solo", "pass", "pass", "trump:C", "no_schenken")
    record = env.unwrapped.game_record()
    swapped = replayed_or_none(env.unwrapped.config, swap_in_record(record, "D8", "C7"), "information_state")
    for agent in env.possible_agents:  # the skat of a solo is seen by nobody, the declarer included
        if agent != "player_1":
            np.testing.assert_array_equal(swapped.observe(agent)["observation"], env.observe(agent)["observation"])


# ------------------------------------------------------------------------------------ records and replay


@pytest.mark.parametrize("players", [3, 4])
def test_record_replay_reproduces_the_hand(players):
    rng = np.random.default_rng(11)
    for seed in range(30):
        env = palatinate_v0.raw_env(players=players, max_doublings=3)
        env.reset(seed=seed)
        play_to_end(env, rng, prefer=())
        record = env.unwrapped.game_record()
        assert json.loads(json.dumps(record)) == record
        again = palatinate_v0.raw_env(players=players, max_doublings=3)
        again.replay(record)
        assert again.unwrapped.game_record() == record
        assert again.unwrapped.state() == env.unwrapped.state()
        fresh = palatinate_v0.raw_env(players=players, max_doublings=3)
        fresh.reset(options=record["deal"])
        assert fresh.unwrapped.state()["dealt_hands"] == env.unwrapped.state()["dealt_hands"]


def test_replay_rejects_a_record_of_another_config():
    env = new_env()
    act(env, "pass", "pass", "pass", "pass", "pass", "pass")
    record = env.unwrapped.game_record()
    with pytest.raises(ValueError, match="config"):
        palatinate_v0.raw_env(max_doublings=2).replay(record)


def test_state_is_json_serialisable_and_render_shows_the_table():
    env = palatinate_v0.raw_env(render_mode="ansi")
    env.reset(seed=5)
    play_to_end(env, np.random.default_rng(5))
    assert json.loads(json.dumps(env.unwrapped.state()))["game"] == "palatinate"
    text = env.render()
    assert "Palatinate" in text and "player_0" in text


# ------------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"players": 5}, "players must be 3 or 4"),
        ({"players": 2}, "players must be 3 or 4"),
        ({"players": True}, "players must be 3 or 4"),
        ({"max_doublings": -1}, "max_doublings must be an integer 0..10"),
        ({"max_doublings": 11}, "max_doublings must be an integer 0..10"),
        ({"max_doublings": 1.5}, "max_doublings must be an integer"),
        ({"variant": "bavarian"}, "unknown option"),
    ],
)
def test_bad_options_raise(config, message):
    with pytest.raises(ValueError, match=message):
        palatinate_v0.env(**config)


def bad(hands=None, skat=None, dealer=2, **extra):
    options = example_deal(dealer=0) | {"dealer": dealer}
    if hands is not None:
        options["hands"] = hands
    if skat is not None:
        options["skat"] = skat
    return options | extra


SHORT = dict(EXAMPLE_HANDS) | {"player_0": EXAMPLE_HANDS["player_0"][:9]}
DUPLICATE = dict(EXAMPLE_HANDS) | {"player_0": EXAMPLE_HANDS["player_0"][:9] + ["HJ"]}
UNKNOWN = dict(EXAMPLE_HANDS) | {"player_0": EXAMPLE_HANDS["player_0"][:9] + ["H6"]}


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (3, bad(hands=SHORT), "10 cards"),
        (3, bad(hands=DUPLICATE), "duplicate card HJ"),
        (3, bad(hands=UNKNOWN), "unknown card"),
        (3, bad(skat=["D8"]), "skat must have 2 cards"),
        (3, bad(skat=["D8", "D7", "C7"]), "skat must have 2 cards"),
        (3, bad(skat=["D8", "CQ"]), "duplicate card CQ"),
        (3, bad(skat="D8 D7"), "must be a list"),
        (3, {k: v for k, v in example_deal().items() if k != "skat"}, "skat"),
        (3, bad(dealer=3), "dealer"),
        (3, bad(dealer="0"), "dealer"),
        (3, bad(hands={"player_0": EXAMPLE_HANDS["player_0"]}), "missing"),
        (3, bad(stock=[]), "stock"),
        (3, bad(talon=[]), "unknown reset option"),
        (4, example_deal(dealer=1), "must name exactly"),  # player_1 deals and gets no hand
        (4, bad(hands=dict(EXAMPLE_HANDS) | {"player_3": []}, dealer=3), "must name exactly"),
    ],
)
def test_malformed_deals_raise(players, options, message):
    env = palatinate_v0.raw_env(players=players)
    with pytest.raises(ValueError, match=message):
        env.reset(options=options)


def test_dealer_alone_deals_random_cards():
    env = palatinate_v0.raw_env(players=4)
    env.reset(seed=1, options={"dealer": 2})
    state = env.unwrapped.state()
    assert state["dealer"] == 2 and state["hands"]["player_2"] == [] and to_act(env) == "player_3"


def test_illegal_action_raises_naming_the_move_and_the_legal_ones():
    env = new_env()
    with pytest.raises(ValueError, match=r"'simple'.*legal now: pass, solo, heart_solo, solo_du, heart_solo_du"):
        act(env, "simple")
    legal_now = "legal now: pass, solo, heart_solo, solo_du, heart_solo_du"
    with pytest.raises(IllegalActionError, match=rf"81 \(out of range\).*{legal_now}"):
        env.step(81)
    with pytest.raises(ValueError, match=rf"-1 \(out of range\).*{legal_now}"):
        env.step(-1)
    with pytest.raises(ValueError, match=f"must be an integer index.*{legal_now}"):
        env.step(64.0)
    act(env, "pass")  # the env is unharmed
    assert to_act(env) == "player_1"


def test_illegal_action_terminate_follows_the_pettingzoo_convention():
    env = new_env(illegal_action="terminate")
    act(env, "solo", "pass", "pass", "trump:C", "no_schenken")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(env.unwrapped.string_to_action("H7"))  # player_0 does not hold H7
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0}
    assert env.unwrapped.game_record()["result"] is None
    for _agent in env.agent_iter():
        assert env.last()[2]
        env.step(None)
    assert env.agents == []


# ------------------------------------------------------------------------------------ resampling and search


@pytest.mark.parametrize("players", [3, 4])
def test_resample_from_infostate_is_consistent_with_what_the_seat_knows(players):
    rng = np.random.default_rng(100 + players)
    varied = 0
    for seed in range(40):
        env = palatinate_v0.raw_env(players=players, observation_type="information_state")
        env.reset(seed=seed)
        random_steps(env, rng, int(rng.integers(0, 45)))
        if is_over(env):
            continue
        for agent in env.possible_agents:
            before = env.unwrapped.state()
            worlds = [env.unwrapped.resample_from_infostate(agent, rng) for _ in range(3)]
            assert env.unwrapped.state() == before  # the original is untouched
            for world in worlds:
                np.testing.assert_array_equal(world.observe(agent)["observation"], env.observe(agent)["observation"])
                after = world.state()
                assert after["hands"][agent] == before["hands"][agent]
                assert after["tricks"] == before["tricks"] and after["trick"] == before["trick"]
                assert [s for s, _ in after["history"]] == [s for s, _ in before["history"]]
                if agent == to_act(env):
                    assert world.legal_action_strings() == env.unwrapped.legal_action_strings()
                for other in env.possible_agents:
                    assert len(after["hands"][other]) == len(before["hands"][other])
                all_cards = [c for cards in after["hands"].values() for c in cards]
                all_cards += [c for trick in after["tricks"] for _, c in trick["cards"]]
                all_cards += [c for _, c in after["trick"]]
                all_cards += after["discards"] if after["contract"] == "simple" else after["skat"]
                assert sorted(all_cards) == sorted(FRENCH_32.names_of(FRENCH_32.full_mask))
                record = world.game_record()
                again = palatinate_v0.raw_env(players=players)
                again.replay(record)  # the resampled world is a legal hand
                assert again.unwrapped.state()["hands"] == after["hands"]
                play_to_end(world, rng)
            varied += len({json.dumps(w.state()["dealt_hands"]) for w in worlds}) > 1
    assert varied > 20


def test_resample_keeps_a_shown_void():
    env = new_env()
    act(env, "solo", "pass", "pass", "trump:C", "no_schenken", "CQ", "no_double", "HJ", "no_double", "SA")
    # player_2 did not follow trumps: in every world player_2 holds no trump.
    trumps = {"CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "CA", "C10", "CK", "C9", "C8", "C7"}
    rng = np.random.default_rng(0)
    for agent in ("player_0", "player_1"):
        for _ in range(30):
            world = env.unwrapped.resample_from_infostate(agent, rng)
            assert not set(world.state()["hands"]["player_2"]) & trumps


def test_resample_hides_the_solo_skat_even_from_the_declarer():
    env = new_env()
    act(env, "solo", "pass", "pass", "trump:C", "no_schenken")
    skats = {tuple(env.unwrapped.resample_from_infostate("player_0", seed).state()["skat"]) for seed in range(20)}
    assert len(skats) > 1
    env = new_env()
    act(env, "pass", "pass", "pass", "simple", "discard:SJ", "discard:D8", "trump:H")
    for seed in range(10):
        world = env.unwrapped.resample_from_infostate("player_0", seed)
        assert world.state()["skat"] == ["D8", "D7"] and world.state()["discards"] == ["SJ", "D8"]
    discards = {tuple(env.unwrapped.resample_from_infostate("player_1", s).state()["discards"]) for s in range(20)}
    assert len(discards) > 1


def test_resample_rejects_bad_agents():
    env = new_env()
    with pytest.raises(ValueError, match="unknown agent"):
        env.unwrapped.resample_from_infostate("player_9", 0)


def test_playout_values_are_zero_sum_and_seeded():
    env = new_env()
    act(env, "solo", "pass", "pass", "trump:C", "no_schenken")
    actions = env.unwrapped.legal_actions()
    values = env.unwrapped.playout_values(actions, 50, seed=3)
    assert values.shape == (len(actions), 3)
    np.testing.assert_allclose(values.sum(axis=1), 0.0)
    np.testing.assert_array_equal(values, env.unwrapped.playout_values(actions, 50, seed=3))
    assert np.abs(values).sum() > 0
    with pytest.raises(ValueError, match="not legal"):
        env.unwrapped.playout_values([env.unwrapped.string_to_action("pass")], 5, seed=0)


def test_state_layout_declares_the_common_fields_and_records_who_acted():
    assert [name for name in COMMON_FIELDS if name not in kernel.layout.fields] == []
    env = new_env()
    act(env, "solo", "pass", "pass", "trump:C", "no_schenken")
    state = env.unwrapped.kernel_state()
    length = state[kernel.S_HISTORY_LENGTH]
    seats = state[kernel.S_HISTORY_SEATS : kernel.S_HISTORY_SEATS + length].tolist()
    actions = [kernel.ACTION_NAMES[a] for a in state[kernel.S_HISTORY_ACTIONS : kernel.S_HISTORY_ACTIONS + length]]
    expected = [(0, "solo"), (1, "pass"), (2, "pass"), (0, "trump:C"), (1, "no_schenken")]
    assert list(zip(seats, actions, strict=True)) == expected


def test_kernel_state_is_a_copy():
    env = new_env()
    state = env.unwrapped.kernel_state()
    state[:] = 0
    assert to_act(env) == "player_0" and legal(env)


def test_clone_is_independent():
    env = new_env()
    act(env, "solo")
    copy = env.unwrapped.clone()
    act(env, "pass")
    assert copy.state()["history"] == [["player_0", "solo"]]
    assert env.unwrapped.state()["history"] == [["player_0", "solo"], ["player_1", "pass"]]
