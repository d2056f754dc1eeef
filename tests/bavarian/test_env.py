"""``bavarian_v0`` as a PettingZoo env: API and seeding, observations (contents and no leaks), records,
bad input, resampling for search, playouts, and the kernel contract functions behind them."""

from __future__ import annotations

import json
import re
import warnings

import numpy as np
import pytest

from schafkopf_env import bavarian_v0
from schafkopf_env.bavarian import kernel, reference
from tests.bavarian.helpers import hidden_permutation
from tests.tables import live_turns
from trick_core.bits import make_rng
from trick_core.env_options import OBSERVATION_TYPES

AGENTS = [f"player_{s}" for s in range(4)]
HAND_A = {
    "player_0": "EO GO HO HA H10 E9 G9 S9".split(),
    "player_1": "SO EU GU HK G10 GK S10 SK".split(),
    "player_2": "EA EK E8 HU SU H9 GA SA".split(),
    "player_3": "E10 E7 G8 G7 H8 H7 S8 S7".split(),
}


def random_step(env, rng: np.random.Generator, prefer_rufer: bool = False) -> None:
    """A uniformly random legal action; with ``prefer_rufer`` the first seat able to bid a Rufer bids it
    and the others pass, so that the called-ace situations (hidden partner) are reached."""
    legal = np.flatnonzero(env.unwrapped._action_mask)
    if prefer_rufer and env.unwrapped._state[kernel.S_PHASE] == kernel.PHASE_BIDDING:
        rufer = kernel.BID_ACTION_BASE + kernel.RUFER
        env.step(rufer if rufer in legal else kernel.BID_ACTION_BASE + kernel.PASS)
        return
    env.step(int(rng.choice(legal)))


def play_random_episode(env, rng: np.random.Generator) -> dict[str, float]:
    """Run the AEC loop with random legal actions; return each agent's summed rewards."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for observation in live_turns(env, totals):
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


# ---------------------------------------------------------------- PettingZoo API
def test_raw_env_is_the_same_class_and_spaces_match_the_docs():
    assert type(bavarian_v0.raw_env()) is type(bavarian_v0.env())
    for code, name in enumerate(OBSERVATION_TYPES):
        env = bavarian_v0.env(observation_type=name)
        space = env.observation_space("player_0")
        assert space["observation"].shape == (kernel.OBS_SIZES[code],)
        assert env.action_space("player_0").n == kernel.BASE_NUM_ACTIONS == 46
        env.reset(seed=1)
        observation = env.observe("player_2")
        assert space.contains(observation)


def test_docs_state_the_observation_sizes():
    """The docs page states each observation type's size (its table is checked against the kernel's layout
    in ``tests/core/test_env_docs.py``)."""
    for size in kernel.OBS_SIZES:
        assert f"({size} entries" in bavarian_v0.__doc__


def test_action_strings_are_unique_and_round_trip():
    env = bavarian_v0.env()
    names = [env.unwrapped.action_to_string(a) for a in range(46)]
    assert len(set(names)) == 46
    assert names[32:] == [
        "pass",
        "rufer",
        "wenz",
        "solo",
        "wenz_tout",
        "solo_tout",
        "sie",
        "call:E",
        "call:G",
        "call:S",
        "trump:E",
        "trump:G",
        "trump:H",
        "trump:S",
    ]
    for action, name in enumerate(names):
        assert env.unwrapped.string_to_action(name) == action
    assert env.unwrapped.string_to_action("eo") == 3
    assert env.unwrapped.string_to_action("Call:e") == 39


# ---------------------------------------------------------------- rewards and seeding
@pytest.mark.parametrize("seed", range(30))
def test_rewards_sum_to_the_settlement_and_to_zero(seed):
    env = bavarian_v0.env()
    env.reset(seed=seed)
    totals = play_random_episode(env, np.random.default_rng(seed))
    result = env.unwrapped.game_record()["result"]
    assert [totals[a] for a in AGENTS] == result
    assert sum(result) == 0


def test_reset_seed_reproduces_the_deal():
    first, second = bavarian_v0.env(), bavarian_v0.env()
    first.reset(seed=7)
    second.reset(seed=7)
    assert first.unwrapped.state() == second.unwrapped.state()
    second.reset(seed=8)
    assert first.unwrapped.state()["hands"] != second.unwrapped.state()["hands"]


def test_fixed_deal_and_dealer():
    env = bavarian_v0.env()
    env.reset(options={"dealer": 1, "hands": HAND_A})
    state = env.unwrapped.state()
    assert state["dealer"] == 1 and env.agent_selection == "player_2"
    assert {a: sorted(h) for a, h in state["hands"].items()} == {a: sorted(h) for a, h in HAND_A.items()}
    env.reset(options={"hands": HAND_A})
    assert env.unwrapped.state()["dealer"] == 3 and env.agent_selection == "player_0"
    env.reset(options={"dealer": 2})  # a dealer alone: random hands
    assert env.unwrapped.state()["dealer"] == 2 and env.agent_selection == "player_3"


# ---------------------------------------------------------------- records
@pytest.mark.parametrize("seed", range(10))
def test_record_replays_exactly(seed):
    env = bavarian_v0.env()
    env.reset(seed=seed)
    play_random_episode(env, np.random.default_rng(seed))
    record = json.loads(json.dumps(env.unwrapped.game_record()))
    assert record["game"] == "bavarian" and record["result"] is not None
    again = bavarian_v0.env()
    again.unwrapped.replay(record)
    assert again.unwrapped.game_record() == record
    again.reset(options={"record": record})
    assert again.unwrapped.game_record()["deal"] == record["deal"]
    assert again.unwrapped.game_record()["actions"] == []


def test_record_of_a_thrown_in_hand():
    env = bavarian_v0.env()
    env.reset(options={"hands": HAND_A})
    for _ in range(4):
        env.step(env.unwrapped.string_to_action("pass"))
    record = env.unwrapped.game_record()
    assert record["result"] == [0.0, 0.0, 0.0, 0.0]
    assert all(env.terminations.values())
    bavarian_v0.env().unwrapped.replay(record)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "options, message",
    [
        ({"hands": {**HAND_A, "player_3": ["EO", *HAND_A["player_3"][1:]]}}, "duplicate card EO"),
        ({"hands": {**HAND_A, "player_3": HAND_A["player_3"][:7]}}, "must have 8 cards"),
        ({"hands": {**HAND_A, "player_3": [*HAND_A["player_3"][:7], "EX"]}}, "unknown card"),
        ({"hands": {**HAND_A, "player_3": [*HAND_A["player_3"][:7], "E6"]}}, "unknown card"),
        ({"hands": {a: h for a, h in HAND_A.items() if a != "player_2"}}, "missing ['player_2']"),
        ({"hands": {**HAND_A, "player_4": ["EA"]}}, "extra ['player_4']"),
        ({"hands": "EA EK"}, "'hands' must map"),
        ({"hands": HAND_A, "dealer": 4}, "dealer must be"),
        ({"hands": HAND_A, "skat": ["EA", "EK"]}, "no 'skat'"),
        ({"hands": HAND_A, "trump": "H"}, "unknown reset option"),
        ({"record": {"game": "knuffeln", "deal": {}}}, "record is of game"),
    ],
)
def test_malformed_deals_raise_value_error(options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        bavarian_v0.env().reset(options=options)


def test_unknown_options_raise_value_error():
    """``players`` (an option of Palatinate) is unknown here. Bavarian's own options are tested in
    ``test_options.py``, the options every env takes in ``tests/core/test_misuse.py``."""
    with pytest.raises(ValueError, match=r"unknown option\(s\) \['players'\]"):
        bavarian_v0.env(players=3)
    with pytest.raises(ValueError, match="unknown rule option"):
        kernel.make_params(variant="short")


def test_illegal_action_raises_naming_the_move_and_the_legal_ones():
    env = bavarian_v0.env()
    env.reset(options={"hands": HAND_A})
    with pytest.raises(ValueError, match=r"'sie'.*legal now: pass, rufer, wenz, solo, wenz_tout, solo_tout"):
        env.step(env.unwrapped.string_to_action("sie"))
    out_of_range, not_an_index = "out of range", "must be an integer index"
    for bad, why in ((46, out_of_range), (-1, out_of_range), (3.0, not_an_index), (None, not_an_index)):
        with pytest.raises(ValueError, match=f"{why}.*legal now: pass, rufer"):
            env.step(bad)
    with pytest.raises(ValueError, match="unknown action string 'call:H'"):  # hearts are trumps: no call
        env.unwrapped.string_to_action("call:H")
    env.step(env.unwrapped.string_to_action("rufer"))  # the env is still usable
    assert env.agent_selection == "player_1"


def test_illegal_action_terminate_follows_the_pettingzoo_convention():
    env = bavarian_v0.env(illegal_action="terminate")
    env.reset(options={"hands": HAND_A})
    env.step(env.unwrapped.string_to_action("pass"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(env.unwrapped.string_to_action("EA"))  # a card in the bidding, by player_1
    assert all(env.terminations.values())
    assert {a: env._cumulative_rewards[a] for a in AGENTS} == {
        "player_0": 0.0,
        "player_1": -1.0,
        "player_2": 0.0,
        "player_3": 0.0,
    }
    steps = 0
    for _agent in env.agent_iter():
        assert env.last()[2]
        env.step(None)
        steps += 1
    assert steps == 4 and env.agents == []


# ---------------------------------------------------------------- observations
def observation(env, agent: str) -> np.ndarray:
    return env.observe(agent)["observation"]


def test_observation_contents_at_the_start():
    env = bavarian_v0.env()
    env.reset(options={"dealer": 0, "hands": HAND_A})
    obs = observation(env, "player_2")
    hand = [reference.PACK.index(card) for card in HAND_A["player_2"]]
    assert np.flatnonzero(obs[kernel.OBS_HAND : kernel.OBS_HAND + 32]).tolist() == sorted(hand)
    assert obs[kernel.OBS_DEALER + 2] == 1  # dealer player_0 sits two seats after player_2
    assert obs[kernel.OBS_TO_ACT + 3] == 1  # player_1 (forehand) is the seat before player_2
    assert obs[kernel.OBS_PHASE + kernel.PHASE_BIDDING] == 1
    assert obs[kernel.OBS_HAND + 32 :].sum() == 3  # dealer, seat to act and phase: nothing else yet


def test_partner_is_known_to_the_holder_at_once_and_to_the_table_when_the_ace_falls():
    env = bavarian_v0.env()
    env.reset(options={"hands": HAND_A})
    for action in ("rufer", "pass", "pass", "pass", "call:E"):
        env.step(env.unwrapped.string_to_action(action))

    def partner_slot(agent):
        return np.flatnonzero(observation(env, agent)[kernel.OBS_PARTNER : kernel.OBS_PARTNER + 4]).tolist()

    assert partner_slot("player_2") == [0]  # the holder (player_2) knows itself
    assert partner_slot("player_0") == partner_slot("player_1") == partner_slot("player_3") == []
    for card in ("E9", "HK"):
        env.step(env.unwrapped.string_to_action(card))
    assert partner_slot("player_0") == []
    env.step(env.unwrapped.string_to_action("EA"))
    assert partner_slot("player_0") == [2] and partner_slot("player_1") == [1] and partner_slot("player_3") == [3]


@pytest.mark.parametrize("observation_type", ["observation", "information_state"])
@pytest.mark.parametrize("seed", range(8))
def test_no_leak_observation_ignores_cards_the_seat_cannot_see(observation_type, seed):
    rng = np.random.default_rng(seed)
    env = bavarian_v0.env(observation_type=observation_type)
    env.reset(seed=seed)
    checked = differs_when_perfect = 0
    stops = {2, 5, 6, 9, 14, 20, 27, 36}  # points in the hand: bidding, after the call, mid-trick, late
    while env.unwrapped._current_seat() >= 0:
        if len(env.unwrapped._action_history) in stops:
            record = env.unwrapped.game_record()
            original = bavarian_v0.env(observation_type="perfect")
            original.unwrapped.replay(record)
            for observer, agent in enumerate(AGENTS):
                for _ in range(6):
                    permuted = hidden_permutation(record, observer, rng)
                    if permuted is None:
                        continue
                    other = bavarian_v0.env(observation_type=observation_type)
                    other.unwrapped.replay(permuted)
                    assert np.array_equal(observation(other, agent), observation(env, agent)), (seed, agent)
                    assert np.array_equal(other.observe(agent)["action_mask"], env.observe(agent)["action_mask"])
                    checked += 1
                    perfect = bavarian_v0.env(observation_type="perfect")
                    perfect.unwrapped.replay(permuted)
                    seen = observation(perfect, agent), observation(original, agent)
                    differs_when_perfect += not np.array_equal(*seen)
        random_step(env, rng, prefer_rufer=seed % 2 == 0)
    assert checked >= 20
    assert differs_when_perfect > 0  # the permutations did move hidden cards that a leak would show


# ---------------------------------------------------------------- resampling for search
def _voids(record: dict) -> tuple[dict[int, set[str]], reference.BavarianGame]:
    """Effective suits each seat has shown it lacks (failed to follow), from the public play, and the
    reference game of the record (which raises if any action of the record is illegal)."""
    hands = [record["deal"]["hands"][a] for a in AGENTS]
    game = reference.play_hand(record["deal"]["dealer"], hands, [a for _, a in record["actions"]])
    voids: dict[int, set[str]] = {s: set() for s in range(4)}
    tricks = [(t["seats"], t["cards"]) for t in game.completed_tricks]
    if game.trick:
        tricks.append(([s for s, _ in game.trick], [c for _, c in game.trick]))
    for seats, cards in tricks:
        led = game.trumps.effective_suit(cards[0])
        for seat, card in zip(seats[1:], cards[1:], strict=True):
            if game.trumps.effective_suit(card) != led:
                voids[seat].add(led)
    return voids, game


@pytest.mark.parametrize("seed", range(12))
def test_resample_is_consistent_with_what_the_seat_knows(seed):
    rng = np.random.default_rng(seed)
    env = bavarian_v0.env()
    env.reset(seed=seed)
    for _ in range(int(rng.integers(1, 30))):
        if env.unwrapped._current_seat() < 0:
            break
        random_step(env, rng, prefer_rufer=seed % 2 == 0)
    record = env.unwrapped.game_record()
    voids, _ = _voids(record)
    original = env.unwrapped.state()
    for agent in AGENTS:
        seen_hands = set()
        for sample in range(5):
            clone = env.unwrapped.resample_from_infostate(agent, np.random.default_rng(100 * seed + sample))
            state = clone.state()
            assert state["hands"][agent] == original["hands"][agent]  # own hand identical
            assert state["history"] == original["history"] and state["tricks"] == original["tricks"]
            assert state["trick"] == original["trick"]  # played cards identical
            for other in AGENTS:
                assert len(state["hands"][other]) == len(original["hands"][other])
            sampled = clone.game_record()
            _, game = _voids(sampled)  # replays legally under the reference, or raises
            for seat, suits in voids.items():
                for card in game.hands[seat] if suits else []:
                    assert game.trumps.effective_suit(card) not in suits  # voids respected
            assert np.array_equal(clone.observe(agent)["observation"], env.observe(agent)["observation"])
            if clone._current_seat() >= 0:  # the mask is that of the resampled hand to act
                mask = np.zeros(clone.num_actions, dtype=np.int8)
                kernel.legal_action_mask(clone._state, mask)
                assert np.array_equal(clone._action_mask, mask)
            bavarian_v0.env().unwrapped.replay({**sampled, "result": None})
            seen_hands.add(json.dumps(state["hands"]))
        hidden = sum(len(h) for a, h in original["hands"].items() if a != agent)
        if hidden > 3:
            assert len(seen_hands) > 1  # the hidden cards really are redealt


def test_resample_keeps_a_revealed_runaway_partner():
    env = bavarian_v0.env()
    hands = {
        "player_0": "EO GO HO HA H10 E9 G9 S9".split(),
        "player_1": "SO EU GU HK G10 GK S10 SK".split(),
        "player_2": "EA E10 EK E8 HU SU H9 GA".split(),
        "player_3": "E7 G8 G7 H8 H7 SA S8 S7".split(),
    }
    env.reset(options={"hands": hands})
    for action in "rufer pass pass pass call:E H10 HK HU H7 E8 E7 E9 G10".split():
        env.step(env.unwrapped.string_to_action(action))  # player_2 ran away; the trick is over
    for seed in range(20):
        clone = env.unwrapped.resample_from_infostate("player_1", seed)
        assert "EA" in clone.state()["hands"]["player_2"]


def test_resample_after_a_sie_gives_the_declarer_all_obers_and_unters():
    env = bavarian_v0.env()
    sie = "EO GO HO SO EU GU HU SU".split()
    rest = [card for card in reference.PACK if card not in sie]
    hands = {"player_0": rest[:8], "player_1": rest[8:16], "player_2": sie, "player_3": rest[16:]}
    env.reset(options={"hands": hands})
    for action in ("pass", "pass", "sie"):
        env.step(env.unwrapped.string_to_action(action))
    assert all(env.terminations.values())
    for seed in range(5):
        clone = env.unwrapped.resample_from_infostate("player_0", seed)
        assert sorted(clone.state()["hands"]["player_2"]) == sorted(sie)
        assert clone.state()["hands"]["player_0"] == env.unwrapped.state()["hands"]["player_0"]


def test_resample_rejects_bad_arguments():
    env = bavarian_v0.env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="unknown agent 'player_9'"):
        env.unwrapped.resample_from_infostate("player_9", 0)
    with pytest.raises(ValueError, match="rng must be"):
        env.unwrapped.resample_from_infostate("player_0", "seed")


# ---------------------------------------------------------------- playouts, clone, state, render
def test_playout_values_are_zero_sum_reproducible_and_checked():
    env = bavarian_v0.env()
    env.reset(options={"hands": HAND_A})
    for action in ("rufer", "pass", "pass", "pass", "call:E"):
        env.step(env.unwrapped.string_to_action(action))
    legal = env.unwrapped.legal_actions()
    values = env.unwrapped.playout_values(legal, 50, seed=3)
    assert values.shape == (len(legal), 4)
    assert np.allclose(values.sum(axis=1), 0.0)
    assert np.array_equal(values, env.unwrapped.playout_values(legal, 50, seed=3))
    with pytest.raises(ValueError, match="not legal"):
        env.unwrapped.playout_values([env.unwrapped.string_to_action("EA")], 5, seed=0)
    with pytest.raises(ValueError, match="playouts"):
        env.unwrapped.playout_values(legal, 0, seed=0)




def test_clone_is_independent():
    env = bavarian_v0.env()
    env.reset(seed=2)
    clone = env.unwrapped.clone()
    random_step(clone, np.random.default_rng(0))
    assert clone.unwrapped.state()["history"] != env.unwrapped.state()["history"]
    assert env.unwrapped.state()["history"] == []


def test_state_and_render_describe_the_table():
    env = bavarian_v0.env(render_mode="ansi")
    env.reset(options={"hands": HAND_A})
    for action in "rufer pass pass pass call:E E9 HK EA".split():
        env.step(env.unwrapped.string_to_action(action))
    state = env.unwrapped.state()
    json.dumps(state)
    assert state["contract"] == "rufer" and state["declarer"] == "player_0" and state["called_suit"] == "E"
    assert state["partner"] == "player_2" and state["partner_known"] is True
    assert state["trick"] == [["player_0", "E9"], ["player_1", "HK"], ["player_2", "EA"]]
    assert state["current_player"] == "player_3" and state["phase"] == "playing"
    text = env.render()
    assert "rufer" in text and "player_3" in text and "EA" in text
    assert np.array_equal(env.unwrapped.kernel_state(), env.unwrapped._state)


# ---------------------------------------------------------------- kernel contract functions
def test_deal_random_deals_every_card_once_reproducibly():
    params = kernel.make_params()
    first, second = np.zeros(kernel.STATE_SIZE, np.int64), np.zeros(kernel.STATE_SIZE, np.int64)
    rng_a, rng_b = make_rng(42), make_rng(42)
    dealers = set()
    for _ in range(50):
        kernel.deal_random(first, params, rng_a)
        kernel.deal_random(second, params, rng_b)
        assert np.array_equal(first, second)
        hands = [int(first[kernel.S_HANDS + s]) for s in range(4)]
        assert all(bin(h).count("1") == 8 for h in hands)
        assert hands[0] | hands[1] | hands[2] | hands[3] == (1 << 32) - 1
        dealers.add(int(first[kernel.S_DEALER]))
    assert dealers == {0, 1, 2, 3}



