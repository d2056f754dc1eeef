"""The Asserufen PettingZoo env: API and seeding tests, records and replay, bad input, illegal moves, no
leak of hidden information, resampling from an information state, playouts, rendering."""

import json

import numpy as np
import pytest

from schafkopf_env import asserufen_v0
from schafkopf_env.asserufen import kernel as K
from schafkopf_env.trumps import CARD_POINTS
from trick_core.aec import IllegalActionError
from trick_core.bits import make_rng, uniform_below
from trick_core.cards import FRENCH_32
from trick_core.drivers import compiled as compiled_drivers

DRIVERS = compiled_drivers(K)

OBSERVATION_TYPES = ("observation", "information_state", "perfect")
DEAL = {
    "player_1": "CQ SQ HQ HA H10 HK C10 C9".split(),
    "player_2": "DQ CA SJ HJ H9 SA DA D10".split(),
    "player_3": "CJ DJ H8 CK C8 SK S9 DK".split(),
    "player_0": "H7 C7 S10 S8 S7 D9 D8 D7".split(),
}


LIKELY = ("weg", "haenge_an", "darf_man", "no_double")


def random_policy(seed):
    """Leans to the ace-call game (weg and haenge_an/darf_man more often than solos)."""
    rng = np.random.default_rng(seed)

    def act(env):
        names = env.legal_action_strings()
        weights = np.array([0.2 if n in K.BID_NAMES[3:] else 5.0 if n in LIKELY else 1.0 for n in names])
        return env.string_to_action(names[rng.choice(len(names), p=weights / weights.sum())])

    return act


def play_out(env, policy, stop=None):
    """Play until the end, or until ``stop(env)`` is true."""
    while not env.terminations[env.agent_selection]:
        if stop is not None and stop(env):
            return
        env.step(policy(env))


# ------------------------------------------------------------------ PettingZoo tests


def test_spaces_and_sizes():
    for observation_type, size in zip(OBSERVATION_TYPES, (428, 1548, 1676), strict=True):
        env = asserufen_v0.env(observation_type=observation_type)
        env.reset(seed=1)
        obs = env.observe("player_1")
        assert obs["observation"].shape == (size,) and obs["observation"].dtype == np.float32
        assert env.observation_space("player_1")["observation"].contains(obs["observation"])
        assert env.action_space("player_0").n == K.NUM_ACTIONS == 56
    assert len(set(K.ACTION_NAMES)) == K.NUM_ACTIONS


def test_docs_state_the_observation_sizes():
    """The docs page states each observation type's size (its table is checked against the kernel's layout
    in ``tests/core/test_env_docs.py``)."""
    for size in K.OBS_SIZES:
        assert f"({size} entries" in asserufen_v0.__doc__


def test_action_strings_round_trip():
    env = asserufen_v0.raw_env()
    for a, name in enumerate(K.ACTION_NAMES):
        assert env.string_to_action(name) == a and env.action_to_string(a) == name
    assert env.string_to_action("cq") == env.string_to_action("CQ") == K.CARD_ACTION_BASE + 3
    assert [env.action_to_string(a) for a in range(9, 24)] == [
        "call:C",
        "call:S",
        "call:D",
        "call:C10",
        "call:S10",
        "call:D10",
        "call:CK",
        "call:SK",
        "call:DK",
        "trump:C",
        "trump:S",
        "trump:D",
        "contra",
        "re",
        "no_double",
    ]


# ------------------------------------------------------------------ records, replay, state


def test_record_replay_reproduces_random_hands():
    env = asserufen_v0.raw_env()
    for seed in range(30):
        env.reset(seed=seed)
        play_out(env, random_policy(seed))
        record = json.loads(json.dumps(env.game_record()))
        other = asserufen_v0.raw_env()
        other.reset(options={"record": record})
        for agent, action in record["actions"]:
            assert other.agent_selection == agent
            other.step(other.string_to_action(action))
        assert other.game_record() == record
        assert [other._cumulative_rewards[a] for a in other.possible_agents] == record["result"]
        other.replay(record)
        assert np.array_equal(other.kernel_state(), env.kernel_state())


def test_reset_with_seed_is_reproducible_and_deals_packets_of_eight():
    a, b = asserufen_v0.raw_env(), asserufen_v0.raw_env()
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.state() == b.state()
    hands = a.state()["hands"]
    assert all(len(h) == 8 for h in hands.values())
    assert sorted(c for h in hands.values() for c in h) == sorted(FRENCH_32.names_of(FRENCH_32.full_mask))


def test_fixed_deal_and_dealer_only_reset():
    env = asserufen_v0.raw_env()
    env.reset(options={"dealer": 2, "hands": DEAL})
    st = env.state()
    assert st["dealer"] == 2 and st["current_player"] == "player_3"
    assert sorted(st["hands"]["player_1"]) == sorted(DEAL["player_1"])
    assert env.game_record()["deal"]["dealer"] == 2
    env.reset(options={"dealer": 3})
    assert env.state()["dealer"] == 3 and env.agent_selection == "player_0"


def test_a_fixed_deal_without_a_dealer_has_player_0_as_forehand():
    env = asserufen_v0.raw_env()
    env.reset(options={"hands": DEAL})
    assert env.state()["dealer"] == 3 and env.agent_selection == "player_0"
    assert env.game_record()["deal"]["dealer"] == 3


def test_state_is_json_and_complete():
    env = asserufen_v0.raw_env()
    env.reset(seed=4)
    play_out(env, random_policy(4))
    st = json.loads(json.dumps(env.state()))
    for key in (
        "game",
        "phase",
        "dealer",
        "current_player",
        "hands",
        "history",
        "contract",
        "declarer",
        "trump",
        "called_card",
        "partner",
        "trick",
        "tricks",
        "points",
        "doublings",
        "result",
    ):
        assert key in st
    assert st["phase"] == "over" and st["current_player"] is None
    if st["contract"] is not None:
        assert sum(st["points"].values()) == sum(
            CARD_POINTS[FRENCH_32.parse(c)] for t in st["tricks"] for _, c in t["cards"]
        )


def test_render_ansi_and_human(capsys):
    env = asserufen_v0.raw_env(render_mode="ansi")
    env.reset(options={"dealer": 0, "hands": DEAL})
    for a in ["haenge_an", "weg", "weg", "weg", "call:C", "C10"]:
        env.step(env.string_to_action(a))
    text = env.render()
    assert "Asserufen" in text and "called CA" in text and "player_1" in text and "C10" in text
    env = asserufen_v0.raw_env(render_mode="human")
    env.reset(seed=0)
    assert env.render() is None and "Asserufen" in capsys.readouterr().out


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dealer": 0, "hands": {**DEAL, "player_0": DEAL["player_0"][:7]}}, "must have 8 cards"),
        ({"dealer": 0, "hands": {**DEAL, "player_0": ["CQ"] + DEAL["player_0"][1:]}}, "duplicate card CQ"),
        ({"dealer": 0, "hands": {**DEAL, "player_0": ["CX"] + DEAL["player_0"][1:]}}, "unknown card"),
        ({"dealer": 0, "hands": {k: v for k, v in DEAL.items() if k != "player_3"}}, "missing"),
        ({"dealer": 4, "hands": DEAL}, "dealer must be a seat"),
        ({"dealer": 0, "hands": DEAL, "skat": ["C7", "C8"]}, "no 'skat'"),
        ({"dealer": 0, "hands": DEAL, "talon": []}, "unknown reset option"),
        ({"dealer": 0, "hands": "CQ SQ"}, "must map each"),
    ],
)
def test_malformed_deals_raise(options, message):
    with pytest.raises(ValueError, match=message):
        asserufen_v0.raw_env().reset(options=options)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"max_doublings": 9}, "max_doublings must be in 0..8"),
        ({"max_doublings": -1}, "max_doublings must be in"),
        ({"max_doublings": True}, "max_doublings must be an integer"),
        ({"max_doublings": 2.5}, "max_doublings must be an integer"),
        ({"schenken": True}, "unknown option"),
        ({"players": 3}, "unknown option"),
    ],
)
def test_unknown_or_bad_options_raise(config, message):
    with pytest.raises(ValueError, match=message):
        asserufen_v0.env(**config)


def test_illegal_actions_raise_by_default():
    env = asserufen_v0.env()
    env.reset(options={"dealer": 0, "hands": DEAL})
    for bad in (env.string_to_action("CQ"), 99, -1, None, 1.0):
        with pytest.raises(IllegalActionError, match="legal now: weg, haenge_an"):
            env.step(bad)
    with pytest.raises(ValueError, match="unknown action string"):
        env.string_to_action("pass")
    env.step(env.string_to_action("haenge_an"))  # still usable


def test_illegal_action_terminate_follows_pettingzoo_convention():
    env = asserufen_v0.env(illegal_action="terminate")
    env.reset(options={"dealer": 0, "hands": DEAL})
    env.step(env.string_to_action("haenge_an"))
    with pytest.warns(UserWarning, match="illegal action"):
        env.step(env.string_to_action("CA"))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": -1.0, "player_3": 0.0}
    assert env.game_record()["result"] is None


# ------------------------------------------------------------------ no leak


def hidden_differs(state, other, viewer):
    return any(state[K.S_HANDS + s] != other[K.S_HANDS + s] for s in range(4) if s != viewer)


def test_observation_unchanged_when_hidden_cards_are_redealt():
    """Redealing every card the viewer cannot see (consistently with the history) changes nothing in its
    observation or information state; the perfect observation does change, so the check can fail."""
    env = asserufen_v0.raw_env()
    rng = np.random.default_rng(0)
    obs = np.zeros(K.OBS_SIZE_PERFECT, dtype=np.float32)
    other_obs = np.zeros(K.OBS_SIZE_PERFECT, dtype=np.float32)
    checked = moved_partner = perfect_changed = 0
    for seed in range(60):
        env.reset(seed=seed)
        stop_after = int(rng.integers(0, 45))
        play_out(env, random_policy(seed), stop=lambda e, n=stop_after: len(e._action_history) >= n)
        state = env.kernel_state()
        for viewer in range(4):
            resampled = np.zeros_like(state)
            assert DRIVERS.resample_hidden(state, viewer, make_rng(seed * 4 + viewer), resampled)
            for obs_type in (0, 1):
                size = K.OBS_SIZES[obs_type]
                K.observe(state, viewer, obs_type, obs[:size])
                K.observe(resampled, viewer, obs_type, other_obs[:size])
                assert np.array_equal(obs[:size], other_obs[:size]), (seed, viewer, obs_type)
            checked += 1
            K.observe(state, viewer, 2, obs)
            K.observe(resampled, viewer, 2, other_obs)
            perfect_changed += int(hidden_differs(state, resampled, viewer) and not np.array_equal(obs, other_obs))
            hidden_partner = state[K.S_PARTNER] != viewer and not state[K.S_PARTNER_KNOWN]
            if state[K.S_CONTRACT] == K.CONTRACT_ACE_CALL and hidden_partner:
                moved_partner += int(resampled[K.S_PARTNER] != state[K.S_PARTNER])
    assert checked == 240 and perfect_changed > 100 and moved_partner > 10, (perfect_changed, moved_partner)


def test_observation_unchanged_when_other_hands_are_swapped_during_bidding():
    rng = np.random.default_rng(3)
    for trial in range(20):
        viewer = f"player_{trial % 4}"
        cards = FRENCH_32.names_of(FRENCH_32.full_mask)
        rng.shuffle(cards)
        hands = {f"player_{i}": cards[8 * i : 8 * i + 8] for i in range(4)}
        others = [a for a in hands if a != viewer]
        hidden = [c for a in others for c in hands[a]]
        rng.shuffle(hidden)
        swapped = {viewer: hands[viewer], **{a: hidden[8 * i : 8 * i + 8] for i, a in enumerate(others)}}
        envs = [asserufen_v0.raw_env(observation_type="information_state") for _ in range(2)]
        for env, deal in zip(envs, (hands, swapped), strict=True):
            env.reset(options={"dealer": trial % 4, "hands": deal})
        for bid in ("weg", "haenge_an", "weg", "solo"):
            assert np.array_equal(envs[0].observe(viewer)["observation"], envs[1].observe(viewer)["observation"])
            for env in envs:
                env.step(env.string_to_action(bid))
        assert np.array_equal(envs[0].observe(viewer)["observation"], envs[1].observe(viewer)["observation"])


# ------------------------------------------------------------------ resampling


def effective_suit(card, trump):
    return "T" if card[1:] in ("Q", "J") or card[0] == trump else card[0]


def test_resample_from_infostate_is_consistent():
    env = asserufen_v0.raw_env()
    rng = np.random.default_rng(7)
    varied = 0
    for seed in range(40):
        env.reset(seed=seed)
        stop_after = int(rng.integers(5, 40))
        play_out(env, random_policy(seed), stop=lambda e, n=stop_after: len(e._action_history) >= n)
        if env.terminations[env.agent_selection]:
            continue
        agent = env.agent_selection
        truth = env.state()
        for _ in range(3):
            clone = env.resample_from_infostate(agent, rng)
            sample = clone.state()
            assert sample["hands"][agent] == truth["hands"][agent]
            assert sample["history"] == truth["history"]
            assert sample["tricks"] == truth["tricks"] and sample["trick"] == truth["trick"]
            assert {a: len(h) for a, h in sample["hands"].items()} == {a: len(h) for a, h in truth["hands"].items()}
            assert clone.legal_action_strings() == env.legal_action_strings()
            varied += int(sample["hands"] != truth["hands"])
            # Voids shown in the tricks are respected.
            trump = truth["trump"]
            for trick in truth["tricks"] + ([{"cards": truth["trick"]}] if truth["trick"] else []):
                led = effective_suit(trick["cards"][0][1], trump)
                for player, card in trick["cards"][1:]:
                    if effective_suit(card, trump) != led:
                        assert all(effective_suit(c, trump) != led for c in sample["hands"][player])
            # The called card is never with the declarer, and a known partner keeps it.
            if truth["called_card"] is not None:
                assert sample["partner"] != truth["declarer"]
                if truth["partner_known"] or truth["partner"] == agent:
                    assert sample["partner"] == truth["partner"]
            # The whole history replays legally from the resampled deal (called-card rules included).
            replayed = asserufen_v0.raw_env()
            replayed.reset(options={"record": clone.game_record()})
            for who, action in clone.game_record()["actions"]:
                assert replayed.agent_selection == who
                replayed.step(replayed.string_to_action(action))
            assert np.array_equal(replayed.kernel_state(), clone.kernel_state())
            play_out(clone, random_policy(seed))  # and the sample plays on to the end
    assert varied > 30


def test_resample_honours_a_ten_call():
    """Calling a ten means holding all three aces: every sample gives the declarer the unplayed aces."""
    hands = {
        "player_1": "CA SA DA C10 HQ HJ H9 S9".split(),
        "player_2": "CQ SQ DQ CJ SJ DJ HA H10".split(),
        "player_3": "HK H8 H7 CK C9 C8 C7 SK".split(),
        "player_0": "S10 S8 S7 D10 DK D9 D8 D7".split(),
    }
    env = asserufen_v0.raw_env()
    env.reset(options={"dealer": 0, "hands": hands})
    for a in ["haenge_an", "weg", "weg", "weg", "call:S10"]:
        env.step(env.string_to_action(a))
    partners = set()
    for seed in range(20):
        sample = env.resample_from_infostate("player_3", seed).state()
        assert {"CA", "SA", "DA"} <= set(sample["hands"]["player_1"])
        partners.add(sample["partner"])
    assert partners == {"player_2", "player_0"}  # the holder of S10 stays hidden from player_3


def test_playout_values():
    env = asserufen_v0.raw_env()
    env.reset(options={"dealer": 0, "hands": DEAL})
    for a in ["haenge_an", "weg", "weg", "weg", "call:C"]:
        env.step(env.string_to_action(a))
    actions = env.legal_actions()
    values = env.playout_values(actions, 50, seed=3)
    assert values.shape == (len(actions), 4)
    assert np.allclose(values.sum(axis=1), 0.0)
    assert np.array_equal(values, env.playout_values(actions, 50, seed=3))
    assert np.array_equal(env.playout_values(["C10"], 5, seed=1), env.playout_values([actions[0]], 5, seed=1))
    with pytest.raises(ValueError, match="not legal"):
        env.playout_values(["CA"], 5, seed=1)  # player_2 holds CA
    with pytest.raises(ValueError, match="playouts"):
        env.playout_values(actions, 0, seed=1)


def test_kernel_random_deals_give_every_seat_eight_cards_and_draw_every_dealer():
    """``deal_random`` (the deal of ``reset(seed=...)`` and of the batch env) deals the whole pack, eight
    cards a seat, with a dealer drawn uniformly; playing, settling and zero sums are ``tests/core``'s."""
    params = K.make_params()
    state = np.zeros(K.STATE_SIZE, dtype=np.int64)
    rng = make_rng(9)
    dealers = np.zeros(4, dtype=np.int64)
    for _ in range(300):
        K.deal_random(state, params, rng)
        dealt = [int(state[K.S_DEALT_HANDS + s]) for s in range(4)]
        assert all(bin(m).count("1") == 8 for m in dealt) and sum(dealt) == FRENCH_32.full_mask
        assert state[K.S_HANDS : K.S_HANDS + 4].tolist() == dealt
        assert K.current_seat(state) == (state[K.S_DEALER] + 1) % 4
        dealers[state[K.S_DEALER]] += 1
    assert dealers.min() > 50, dealers


def test_a_shuffled_pack_goes_out_in_packets_of_four_from_forehand():
    """``deal_random_for_dealer`` shuffles (Fisher-Yates from the top, ``uniform_below``) and gives the
    pack out four cards at a time, from forehand round the table twice."""
    for dealer in range(4):
        pack, rng = list(range(32)), make_rng(5 + dealer)
        for i in range(31, 0, -1):
            j = uniform_below(rng, i + 1)
            pack[i], pack[j] = pack[j], pack[i]
        expected = [0] * 4
        for packet in range(8):
            for card in pack[4 * packet : 4 * packet + 4]:
                expected[(dealer + 1 + packet) % 4] |= 1 << card
        state = np.zeros(K.STATE_SIZE, dtype=np.int64)
        K.deal_random_for_dealer(state, K.make_params(), make_rng(5 + dealer), dealer)
        assert [int(state[K.S_DEALT_HANDS + s]) for s in range(4)] == expected
        assert state[K.S_DEALER] == dealer and K.current_seat(state) == (dealer + 1) % 4
        assert not state[K.S_TRICK_CARDS : K.S_TRICK_CARDS + 32].any()  # the shuffling table is cleared
