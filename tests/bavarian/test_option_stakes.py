"""Bavarian Schafkopf's options that raise the stakes or change who plays (issue 32): Kontra and Re
(``doubling``), Klopfen (``klopfen``) and Ramsch (``ramsch``) on the env: their turns, what each seat sees
(no-leak twin tests: a Kontra, a Re or a knock reveals nothing hidden), the settlement they multiply, sampled
worlds, and the agents and command lines that play them. The kernel-vs-reference comparison of every option
is ``test_options.py``'s.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from schafkopf_env import bavarian_v0
from schafkopf_env.bavarian import kernel, reference
from tests.bavarian.helpers import AGENTS, hidden_permutation, play_with_agents
from tests.bavarian.test_options import OPTION_CONFIGS, option_id


# ---------------------------------------------------------------- doubling
def test_doubling_adds_three_actions_and_two_observation_blocks():
    env = bavarian_v0.env(doubling=True, observation_type="perfect")
    assert env.action_space("player_0").n == 49
    assert env.unwrapped.action_names[46:] == ("contra", "re", "no_double")
    assert env.observation_space("player_0")["observation"].shape == (1601 + 18,)
    assert bavarian_v0.env(doubling=True).observation_space("player_0")["observation"].shape == (385 + 18,)
    assert bavarian_v0.env(doubling=False).action_space("player_0").n == 46
    with pytest.raises(ValueError, match="doubling must be True or False"):
        bavarian_v0.env(doubling=1)


KONTRA_DEAL = {  # player_0 forehand calls the Gras ace (player_2 holds it); player_1 and player_3 defend
    "player_0": "EO GO EU HA H10 G9 S9 E9".split(),
    "player_1": "SO GU HK G10 GK S10 SK E7".split(),
    "player_2": "HO SU GA EA EK E8 H9 H8".split(),
    "player_3": "HU E10 G8 G7 H7 SA S8 S7".split(),
}


def play_strings(env, actions: list[str]) -> None:
    for action in actions:
        env.step(env.unwrapped.string_to_action(action))


def test_kontra_and_re_double_the_settlement_and_reveal_a_re_saying_partner():
    """forehand plays a Rufer; player_1 gives Kontra at its first card, the hidden partner player_2 says
    Re (and is revealed), nobody doubles again: the settlement is four times the undoubled one."""
    plain = bavarian_v0.env()
    doubled = bavarian_v0.env(doubling=True)
    for env in (plain, doubled):
        env.reset(options={"hands": KONTRA_DEAL})
        play_strings(env, ["rufer", "pass", "pass", "pass", "call:G", "EO"])
    assert doubled.unwrapped.state()["history"][-1] == ["player_0", "EO"]  # the declarer is never offered
    assert doubled.unwrapped.state()["phase"] == "contra_offer"
    assert sorted(doubled.unwrapped.legal_action_strings()) == ["contra", "no_double"]
    play_strings(doubled, ["contra"])
    assert doubled.unwrapped.state()["phase"] == "doubling_round"
    assert sorted(doubled.unwrapped.legal_action_strings()) == ["no_double", "re"]  # player_2, the partner
    assert doubled.observe("player_3")["observation"][kernel.OBS_PARTNER : kernel.OBS_PARTNER + 4].sum() == 0
    play_strings(doubled, ["re"])
    partner_seen = doubled.observe("player_3")["observation"][kernel.OBS_PARTNER : kernel.OBS_PARTNER + 4]
    assert partner_seen.tolist() == [0, 0, 0, 1]  # player_2 is player_3's right-hand neighbour
    assert sorted(doubled.unwrapped.legal_action_strings()) == ["no_double", "re"]  # player_3: doubled side
    play_strings(doubled, ["no_double"])  # player_3
    assert doubled.unwrapped.legal_action_strings() == ["no_double"]  # player_0: its own side said the last
    play_strings(doubled, ["no_double"])
    assert sorted(doubled.unwrapped.legal_action_strings()) == ["no_double", "re"]  # player_1
    play_strings(doubled, ["no_double"])  # the third answer: the doubling is over, player_1 plays
    state = doubled.unwrapped.state()
    assert state["phase"] == "playing" and state["current_player"] == "player_1"
    assert doubled.unwrapped.legal_action_strings() == plain.unwrapped.legal_action_strings()
    rng = np.random.default_rng(0)
    while plain.agents and plain.unwrapped._current_seat() >= 0:
        legal = plain.unwrapped.legal_action_strings()
        assert doubled.unwrapped.legal_action_strings() == legal
        card = legal[int(rng.integers(len(legal)))]
        play_strings(plain, [card])
        play_strings(doubled, [card])
    assert doubled.unwrapped.state()["doublers"] == ["player_1", "player_2"]
    assert doubled.unwrapped.state()["result"] == [4 * units for units in plain.unwrapped.state()["result"]]


@pytest.mark.parametrize("config", [{"doubling": True}, {"doubling": True, "pack": "short"}], ids=option_id)
def test_no_leak_a_kontra_or_re_reveals_nothing_hidden(config):
    """Twin hands: at every decision of the doubling (and the cards around it) each seat's observation and
    mask are the same whatever the cards it cannot see, as long as the public actions stay legal; a hidden
    partner is asked like everyone else. The perfect observation does differ (the twins are real twins)."""
    rng = np.random.default_rng(7)
    checked = differs_when_perfect = doubling_stops = 0
    for seed in range(30):
        env = bavarian_v0.env(observation_type="information_state", **config)
        env.reset(seed=seed)
        while env.unwrapped._current_seat() >= 0:
            phase = env.unwrapped.state()["phase"]
            if phase in ("contra_offer", "doubling_round") or rng.random() < 0.1:
                doubling_stops += phase != "playing"
                record = env.unwrapped.game_record()
                original = bavarian_v0.env(observation_type="perfect", **config)
                original.unwrapped.replay(record)
                for observer, agent in enumerate(AGENTS):
                    permuted = hidden_permutation(record, observer, rng, config)
                    if permuted is None:
                        continue
                    twin = bavarian_v0.env(observation_type="information_state", **config)
                    twin.unwrapped.replay(permuted)
                    assert np.array_equal(twin.observe(agent)["observation"], env.observe(agent)["observation"])
                    assert np.array_equal(twin.observe(agent)["action_mask"], env.observe(agent)["action_mask"])
                    checked += 1
                    perfect = bavarian_v0.env(observation_type="perfect", **config)
                    perfect.unwrapped.replay(permuted)
                    differs_when_perfect += not np.array_equal(perfect.observe(agent)["observation"],
                                                               original.observe(agent)["observation"])
            legal = np.flatnonzero(env.unwrapped._action_mask)
            bids = [a for a in legal if env.unwrapped.action_names[a] in ("rufer", "pass")]
            env.step(int(rng.choice(bids if phase == "bidding" and bids else legal)))
    assert doubling_stops >= 30 and checked >= 100
    assert differs_when_perfect > 0


# ---------------------------------------------------------------- agents under the options
def test_the_rules_agent_doubles_with_strong_defence_and_plays_every_option():
    """The rules agent plays every option to the end; with ``doubling`` it gives Kontra sometimes, never as
    the declarer's side and only where the mask allows it (the env raises on an illegal action)."""
    import agents

    players = [agents.make("rules", "bavarian", seed=seat) for seat in range(4)]
    for config in OPTION_CONFIGS:
        env = bavarian_v0.env(**config)
        doubled = 0
        for seed in range(60):
            play_with_agents(env, players, seed)
            state = env.unwrapped.state()
            assert state["phase"] == "over"
            doubled += bool(state["doublers"])
            for doubler in state["doublers"][:1]:  # the first double is a Kontra: a defender's
                assert doubler != state["declarer"] and doubler != state["partner"]
        if not config.get("doubling"):
            assert doubled == 0
        elif config.get("pack", "long") == "long":  # six-card hands rarely reach the eight-card thresholds
            assert doubled > 0, config


def test_pimc_and_pimc_dd_play_the_options():
    """``pimc`` searches the kernel state, whose params carry the options (tariff, pack, doubling); the exact
    solver of ``pimc_dd`` prices the tariff and the doublings, and searches the short pack and a Ramsch."""
    import agents

    for config in ({"doubling": True, "tariff": "sauspiel"}, {"pack": "short"}):
        env = bavarian_v0.env(**config)
        players = [agents.make("pimc", "bavarian", seed=seat, samples=4, playouts_per_sample=2, bid_samples=4)
                   for seat in range(4)]
        play_with_agents(env, players, 1)
        assert env.unwrapped.state()["phase"] == "over"
    env = bavarian_v0.env(pack="short")
    env.reset(options={"hands": {"player_0": "EO GO HO SO EU H9".split(), "player_1": "HU SU EA E10 EK E9".split(),
                                 "player_2": "GA G10 GK G9 HA H10".split(), "player_3": "GU HK SA S10 SK S9".split()}})
    play_strings(env, ["solo", "pass", "pass", "pass", "trump:H"])
    dd = agents.make("pimc_dd", "bavarian", seed=0, worlds=2, fallback=False)
    assert env.observe("player_0")["action_mask"][dd.act(env, "player_0")] == 1
    env = bavarian_v0.env(ramsch=True)
    env.reset(options={"hands": KONTRA_DEAL})
    play_strings(env, ["pass", "pass", "pass", "pass"])
    assert env.unwrapped.state()["contract"] == "ramsch"
    assert env.observe("player_0")["action_mask"][dd.act(env, "player_0")] == 1


def test_command_line_options_reach_the_batch_env_and_trick_gym():
    """The training scripts' ``--config tariff=sauspiel pack=short doubling=true`` (``agents.config``) builds
    the batch env, the compiled random hands and the one-seat Gymnasium env of those rules."""
    import gymnasium

    import trick_gym  # noqa: F401  (registers the ids)
    from agents.config import parse_config
    from schafkopf_env.batch import BatchEnv, play_random_hands

    config = parse_config(["tariff=sauspiel", "pack=short", "doubling=true"])
    assert config == {"tariff": "sauspiel", "pack": "short", "doubling": True}
    batch = BatchEnv("bavarian", num_envs=4, seed=0, num_threads=1, **config)
    assert batch.num_actions == 49 and batch.obs_size == 385 + 18
    sums = play_random_hands("bavarian", 200, seed=0, num_threads=1, **config)
    assert abs(sums.sum()) < 1e-6 and np.abs(sums).max() > 0
    assert (sums % 10 == 0).all()  # cents of sauspiel.de, every payment a multiple of ten
    env = gymnasium.make("Bavarian-v0", opponents="random", **config)
    observation, info = env.reset(seed=0)
    assert observation.shape == (403,) and info["action_mask"].shape == (49,)



# ---------------------------------------------------------------- Klopfen
def test_klopfen_shows_the_first_cards_and_doubles_per_knock():
    env = bavarian_v0.env(klopfen=True, observation_type="information_state")
    assert env.action_space("player_0").n == 51
    assert env.observation_space("player_0")["observation"].shape == (1473 + 5,)
    env.reset(options={"hands": KONTRA_DEAL})
    assert env.unwrapped.state()["phase"] == "klopfen"
    obs = env.observe("player_0")["observation"]
    first = KONTRA_DEAL["player_0"][:4]
    shown = [reference.PACK[i] for i in np.flatnonzero(obs[kernel.OBS_HAND : kernel.OBS_HAND + 32])]
    assert sorted(shown) == sorted(first)
    dealt = obs[kernel.OBS_DEALT_HAND + 5 : kernel.OBS_DEALT_HAND + 5 + 32]
    assert sorted(reference.PACK[i] for i in np.flatnonzero(dealt)) == sorted(first)
    assert obs[kernel.OBS_EXTRA] == 1  # the Klopfen turn
    play_strings(env, ["knock", "no_knock", "knock", "no_knock"])
    obs = env.observe("player_0")["observation"]
    assert env.unwrapped.state()["phase"] == "bidding" and obs[kernel.OBS_EXTRA] == 0
    assert obs[kernel.OBS_EXTRA + 1 : kernel.OBS_EXTRA + 5].tolist() == [1, 0, 1, 0]  # itself and across
    assert obs[kernel.OBS_HAND : kernel.OBS_HAND + 32].sum() == 8
    assert env.unwrapped.state()["knocked"] == ["player_0", "player_2"]
    plain = bavarian_v0.env()
    plain.reset(options={"hands": KONTRA_DEAL})
    rng = np.random.default_rng(2)
    while plain.unwrapped._current_seat() >= 0:
        legal = plain.unwrapped.legal_action_strings()
        assert env.unwrapped.legal_action_strings() == legal
        action = "rufer" if "rufer" in legal else legal[int(rng.integers(len(legal)))]
        play_strings(plain, [action])
        play_strings(env, [action])
    assert env.unwrapped.state()["result"] == [4 * u for u in plain.unwrapped.state()["result"]]
    record = env.unwrapped.game_record()
    assert record["deal"]["hands"]["player_0"][:4] == sorted(first, key=reference.PACK.index)
    again = bavarian_v0.env(klopfen=True)
    again.unwrapped.replay(record)
    assert again.unwrapped.game_record() == record


@pytest.mark.parametrize("config", [{"klopfen": True}, {"klopfen": True, "doubling": True, "pack": "short"}],
                         ids=option_id)
def test_no_leak_klopfen_sees_only_the_first_cards(config):
    """At Klopfen a seat's observation is the same whatever the cards it has not seen, its own second half
    included; once the bidding starts its whole hand shows. Resampled worlds at Klopfen redeal the seat's own
    second half too."""
    rng = np.random.default_rng(3)
    size = 6 if config.get("pack") == "short" else 8
    pack = reference.SHORT_PACK if size == 6 else reference.PACK
    changed_own = 0
    for seed in range(20):
        env = bavarian_v0.env(observation_type="information_state", **config)
        env.reset(seed=seed)
        for _ in range(int(rng.integers(0, 4))):
            play_strings(env, [["knock", "no_knock"][int(rng.integers(2))]])
        observer = env.unwrapped._current_seat()
        agent = AGENTS[observer]
        record = env.unwrapped.game_record()
        first = record["deal"]["hands"][agent][: size // 2]
        for _ in range(5):
            rest = [card for card in rng.permutation(pack) if card not in first]
            hands, at = {}, 0
            for seat, other in enumerate(AGENTS):
                take = size - len(first) if seat == observer else size
                hands[other] = (list(first) if seat == observer else []) + list(rest[at : at + take])
                at += take
            twin = bavarian_v0.env(observation_type="information_state", **config)
            twin.unwrapped.replay({**record, "deal": {**record["deal"], "hands": hands}, "result": None})
            assert np.array_equal(twin.observe(agent)["observation"], env.observe(agent)["observation"])
            assert np.array_equal(twin.observe(agent)["action_mask"], env.observe(agent)["action_mask"])
            changed_own += sorted(hands[agent]) != sorted(record["deal"]["hands"][agent])
        world = env.unwrapped.resample_from_infostate(agent, np.random.default_rng(seed))
        world_hand = world.state()["hands"][agent]
        assert set(first) <= set(world_hand) and len(world_hand) == size
        assert np.array_equal(world.observe(agent)["observation"], env.observe(agent)["observation"])
    assert changed_own > 50  # the twins did move the seat's own unseen cards


@pytest.mark.parametrize("config", [{"doubling": True, "klopfen": True}, {"ramsch": True, "pack": "short"},
                                    {"doubling": True, "pack": "short", "tariff": "sauspiel"}], ids=option_id)
def test_sampled_worlds_look_the_same_to_their_seat(config):
    """``resample_from_infostate`` under the options: the sampled world shows its seat the same observation
    and mask as the real table (a Kontra, a Re, a knock and the Ramsch included), and it replays legally."""
    rng = np.random.default_rng(11)
    seen_phases: Counter = Counter()
    for seed in range(25):
        env = bavarian_v0.env(observation_type="information_state", **config)
        env.reset(seed=seed)
        for _ in range(int(rng.integers(0, 30))):
            if env.unwrapped._current_seat() < 0:
                break
            legal = np.flatnonzero(env.unwrapped._action_mask)
            names = [env.unwrapped.action_names[a] for a in legal]
            preferred = [a for a, n in zip(legal, names, strict=True) if n in ("contra", "re", "knock", "pass")]
            env.step(int(rng.choice(preferred if preferred and rng.random() < 0.6 else legal)))
        if env.unwrapped._current_seat() < 0:
            continue
        state = env.unwrapped.state()
        seen_phases[state["phase"] if state["contract"] != "ramsch" else "ramsch"] += 1
        for agent in AGENTS:
            world = env.unwrapped.resample_from_infostate(agent, np.random.default_rng(seed))
            assert np.array_equal(world.observe(agent)["observation"], env.observe(agent)["observation"])
            assert np.array_equal(world.observe(agent)["action_mask"], env.observe(agent)["action_mask"])
            bavarian_v0.env(**config).unwrapped.replay({**world.game_record(), "result": None})
    assert len(seen_phases) >= 2, seen_phases
