"""The ``pimc_dd`` agent: options and their errors, legal play over whole hands in every variant, the
inference's replay and weights, a won match against ``random``, and no peeking."""

import numpy as np
import pytest

from agents import make
from agents.arena import run_matches
from agents.base import card_actions
from agents.search.pimc_dd import DoubleDummyPIMCAgent, KnuffelnDoubleDummyAgent
from agents.search.world_inference import NeuralPlayInference, PlayInference, effective_share, resampled_indices
from tests.agents.test_no_peeking import decision_points
from trick_core.registry import VARIANTS, game_spec, make_env, variant_id

VARIANT_IDS = [variant_id(game, config) for game, config in VARIANTS]
SMALL = {"worlds": 2, "bid_worlds": 3}


def test_options_and_defaults():
    agent = make("pimc_dd[worlds=5,inference=heuristic,trust=0.25,seed=3]", "bavarian")
    assert isinstance(agent, DoubleDummyPIMCAgent) and agent.name == "pimc_dd"
    assert (agent.worlds, agent.bid_worlds, agent.inference, agent.trust) == (5, 20, "heuristic", 0.25)
    assert make("pimc_dd", "palatinate").cautious is False and make("pimc_dd", "asserufen").cautious is True
    assert isinstance(make("pimc_dd", "knuffeln"), KnuffelnDoubleDummyAgent)


@pytest.mark.parametrize(
    ("spec", "game", "message"),
    [
        ("pimc_dd[worlds=0]", "bavarian", "worlds"),
        ("pimc_dd[bid_worlds=-1]", "asserufen", "bid_worlds"),
        ("pimc_dd[inference=rules]", "bavarian", "inference"),
        ("pimc_dd[trust=1.5]", "palatinate", "trust"),
        ("pimc_dd[oversample=0]", "bavarian", "oversample"),
        ("pimc_dd[cautious=1]", "bavarian", "cautious"),
        ("pimc_dd[samples=4]", "bavarian", "worlds"),  # pimc's option: the error lists pimc_dd's own
        ("pimc_dd[turn_threshold=2]", "knuffeln", "turn_threshold"),
        ("pimc_dd[cautious=False]", "knuffeln", "cautious"),
        ("pimc_dd[seed=-1]", "bavarian", "seed"),
        ("pimc_dd[exact_tricks=0]", "bavarian", "exact_tricks"),
        ("pimc_dd[fallback=no]", "asserufen", "fallback"),
        ("pimc_dd[search_tricks=0]", "palatinate", "search_tricks"),
        ("pimc_dd[blend=-0.5]", "bavarian", "blend"),
        ("pimc_dd[blend=yes]", "knuffeln", "blend"),
        ("pimc_dd[network=x.pt]", "bavarian", "network"),  # a network without inference=neural
    ],
)
def test_bad_options_raise_clear_errors(spec, game, message):
    with pytest.raises(ValueError, match=message):
        make(spec, game)


@pytest.mark.parametrize(("inference", "fallback"), [("off", True), ("heuristic", False), ("neural", False)])
@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_plays_only_legal_actions_over_whole_hands(game, config, inference, fallback):
    if inference == "neural" and config:
        pytest.skip("inference=neural reads a network trained on the table: shipped for the default tables")
    env = make_env(game, **config)
    agent = make("pimc_dd", game, inference=inference, fallback=fallback, seed=2, **SMALL)
    for hand in range(2):
        env.reset(seed=700 + hand)
        agent.reset(seed=hand)
        for name in env.agent_iter():
            if env.terminations[name] or env.truncations[name]:
                env.step(None)
                continue
            action = agent.act(env, name)
            assert action in env.unwrapped.legal_actions(), (hand, env.unwrapped.game_record()["actions"])
            env.step(action)
    stats = agent.stats()
    assert stats["inconsistent_worlds"] == 0 and stats["searches"] > 0
    assert (stats["delegated"] > 0) == fallback  # the bids at least go to pimc; without fallback nothing does


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_the_inference_replays_every_sampled_hand_from_its_deal(game, config):
    """The weights replay the hand from the deal in each world: the replay must reach the world exactly
    (else every weight would silently fall back to 1)."""
    env = make_env(game, **config)
    rng = np.random.default_rng(5)
    replays = 0
    for hand in range(3):
        env.reset(seed=900 + hand)
        while not env.terminations[env.agent_selection]:
            agent = env.agent_selection
            world = env.unwrapped.resample_from_infostate(agent, int(rng.integers(2**31)))
            inference = PlayInference(world, 0.5)
            sampled = world.kernel_state()
            state = inference.hand_start(world, sampled)
            kernel = inference.kernel
            length = int(sampled[kernel.S_HISTORY_LENGTH])
            for action in sampled[kernel.S_HISTORY_ACTIONS: kernel.S_HISTORY_ACTIONS + length]:
                kernel.apply_action(state, int(action))
            np.testing.assert_array_equal(state, sampled)
            replays += 1
            env.step(int(rng.choice(env.unwrapped.legal_actions())))
    assert replays > 10


def test_inference_weights_favour_worlds_where_the_plays_seen_are_the_heuristics():
    """Late in a hand played by the heuristic itself, the worlds that explain its plays weigh more: the
    candidate worlds' weights are not all equal, and the real deal (every play the heuristic's) weighs at
    least as much as their mean."""
    game = "bavarian"
    spec = game_spec(game)
    env = make_env(game)
    env.reset(seed=12)
    policy = spec.policy()
    rng_state = np.zeros(1, dtype=np.uint64)
    while env.unwrapped.kernel_state()[spec.kernel().S_TRICK_NUMBER] < 4 or env.agent_selection != "player_0":
        env.step(int(policy.heuristic_action(env.unwrapped.kernel_state(), rng_state, 0.0)))
    inference = PlayInference(env.unwrapped, 0.5)
    real = inference.log_likelihood(env.unwrapped, env.unwrapped.kernel_state(), 0)
    states, weights = inference.weighted_worlds(env.unwrapped, 0, 64, np.array([7], dtype=np.uint64))
    assert len(states) == 64 and weights.std() > 0
    assert np.exp(real) >= weights.mean()


def test_effective_share_and_resampling():
    assert effective_share(np.ones(8)) == pytest.approx(1.0)
    assert effective_share(np.array([1.0, 0.0, 0.0, 0.0])) == pytest.approx(0.25)
    rng = np.random.default_rng(0)
    drawn = resampled_indices(np.array([0.0, 3.0, 1.0, 0.0]), 8, rng)
    assert sorted(drawn) == [1] * 6 + [2] * 2
    assert sorted(resampled_indices(np.zeros(4), 4, rng)) == [0, 1, 2, 3]


SHIPPED_GAMES = ["bavarian", "palatinate", "asserufen", "knuffeln"]


def neural_table_late_in_a_hand(game: str, seed: int):
    """``(env, deal seed, actions)``: a table where every decision so far was the shipped network's own
    (greedy) and at least twelve cards have been played, ``player_0`` to act with a choice."""
    env = make_env(game)
    network = make("neural", game)
    is_card = card_actions(env)
    for deal in range(seed, seed + 40):
        env.reset(seed=deal)
        actions = []
        while not env.terminations[env.agent_selection]:
            choice = len(env.unwrapped.legal_actions()) > 1
            if env.agent_selection == "player_0" and choice and np.count_nonzero(is_card[actions]) >= 12:
                return env, deal, actions
            actions.append(network.act(env, env.agent_selection))
            env.step(actions[-1])
    raise AssertionError(f"{game}: no late decision of player_0 in 40 deals from {seed}")


@pytest.mark.parametrize("game", SHIPPED_GAMES)
def test_neural_inference_favours_worlds_that_explain_the_networks_decisions(game):
    """In a hand the network played at every seat, the real deal explains every decision seen: it weighs at
    least as much as the candidate worlds' mean, and the weights are not all equal."""
    env, _, _ = neural_table_late_in_a_hand(game, 40)
    inference = NeuralPlayInference(env.unwrapped, 0.5)
    real = inference.log_likelihood(env.unwrapped, env.unwrapped.kernel_state(), 0)
    states, weights = inference.weighted_worlds(env.unwrapped, 0, 64, np.array([11], dtype=np.uint64))
    assert real < 0.0 and len(states) == 64 and weights.std() > 0
    assert np.exp(real) >= weights.mean()


def test_neural_inference_weighs_every_decision_of_the_other_seats_with_a_choice():
    """The replay collects the other seats' decisions with more than one legal action, each observed from the
    actor's own seat: what the table showed that seat when it decided."""
    env, deal, actions = neural_table_late_in_a_hand("bavarian", 40)
    inference = NeuralPlayInference(env.unwrapped, 0.5)
    observations, masks, seen_actions = inference.decisions_seen(env.unwrapped, env.unwrapped.kernel_state(), 0)
    replay = make_env("bavarian")
    replay.reset(seed=deal)
    expected = []
    for action in actions:
        agent = replay.agent_selection
        if agent != "player_0" and len(replay.unwrapped.legal_actions()) > 1:
            expected.append((replay.observe(agent), action))
        replay.step(action)
    assert len(observations) == len(expected) > 8
    for observation, mask, action, (wanted, wanted_action) in zip(observations, masks, seen_actions, expected,
                                                                  strict=True):
        np.testing.assert_array_equal(observation, wanted["observation"])
        np.testing.assert_array_equal(mask, wanted["action_mask"].astype(bool))
        assert action == wanted_action


def test_neural_inference_refuses_a_table_its_network_was_not_trained_on():
    env = make_env("palatinate", players=4)
    env.reset(seed=3)
    with pytest.raises(ValueError, match="trained on"):
        NeuralPlayInference(env.unwrapped, 0.5)


def first_card_play(game: str, seed: int):
    """A table at the first card play of a hand (bids and calls by the rule-based players), and the seat to act:
    of the deal ``seed``, or the next deal that is not thrown in."""
    env = make_env(game)
    rules = make("rules", game)
    for deal in range(seed, seed + 20):
        env.reset(seed=deal)
        while not env.terminations[env.agent_selection]:
            if card_actions(env)[env.unwrapped.legal_actions()].any():
                return env, env.agent_selection
            env.step(rules.act(env, env.agent_selection))
    raise AssertionError(f"{game}: 20 deals from {seed} all thrown in")


@pytest.mark.parametrize("game", ["bavarian", "palatinate", "knuffeln"])
def test_search_tricks_decides_which_card_plays_the_fallback_takes(game):
    env, agent = first_card_play(game, 31)
    legal = env.unwrapped.legal_actions()
    assert make("pimc_dd", game, search_tricks=1, **SMALL).delegates(env, agent, legal)
    assert not make("pimc_dd", game, search_tricks=10, **SMALL).delegates(env, agent, legal)
    assert not make("pimc_dd", game, search_tricks=1, fallback=False, **SMALL).delegates(env, agent, legal)


@pytest.mark.parametrize("game", ["asserufen", "knuffeln"])
def test_blend_adds_pimcs_values_to_the_solved_means(game):
    """``blend=w`` values an action at the solved mean plus ``w`` times ``pimc``'s value (same seeds: the
    same worlds), so the blended values minus the unblended ones are ``pimc``'s own, times ``w``."""
    env, agent = first_card_play(game, 47)
    legal = np.asarray(env.unwrapped.legal_actions())
    options = {"fallback": False, "seed": 4, **SMALL}
    solved = make("pimc_dd", game, **options).action_values(env, agent, legal)
    blended = make("pimc_dd", game, blend=0.5, **options).action_values(env, agent, legal)
    pimc = make("pimc", game, seed=4).action_values(env, agent, legal)
    np.testing.assert_allclose(blended - solved, 0.5 * pimc)


def test_beats_random_in_a_small_match():
    summary = run_matches("bavarian", ["pimc_dd[worlds=4,fallback=False]", "random"], hands=8, seed=3)[0].summary()
    assert summary["difference"]["first_minus_second"] > 0 and summary["difference"]["significant"]


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_no_peeking_twin_tables_get_the_same_decision(game, config):
    for index, (table, twin) in enumerate(decision_points(game, config, count=4, seed=23)):
        agent = table.agent_selection
        for inference in ("off", "heuristic", "neural")[: 3 if not config else 2]:  # networks: default tables
            options = {"inference": inference, "fallback": False, **SMALL}
            first = make("pimc_dd", game, seed=index, **options)
            second = make("pimc_dd", game, seed=index, **options)
            np.testing.assert_array_equal(first.action_values(table, agent), second.action_values(twin, agent))
            assert first.act(table, agent) == second.act(twin, agent)


@pytest.mark.parametrize("option", ["geier", "farbwenz", "bettel", "ramsch", "short", "short-geier-farbwenz-bettel",
                                    "short-ramsch"])
def test_plays_whole_hands_of_every_bavarian_option(option):
    """Every card (and Kontra / Re) of a hand of the option's contracts is ``pimc_dd``'s own (no fallback), its
    worlds solved exactly (Geier, Farbwenz, Bettel, Ramsch's paranoid value, the short pack's six tricks):
    legal, and consistent worlds. The bidding is steered to the contract (``tests/solver``'s helper)."""
    from schafkopf_env.bavarian import kernel
    from tests.solver.test_bavarian_options import OPTIONS, bid_action

    config, contracts = OPTIONS[option]
    touts = (kernel.WENZ_TOUT, kernel.SOLO_TOUT, kernel.GEIER_TOUT, kernel.FARBWENZ_TOUT, kernel.SIE)
    contracts = [c for c in contracts if c not in touts]  # whole hands: a Tout often ends at the first trick
    env = make_env("bavarian", **config)
    agent = make("pimc_dd", "bavarian", fallback=False, seed=1, **SMALL)
    rng = np.random.default_rng(11)
    bids = [bid_action(c) for c in contracts if c != kernel.RAMSCH] + [bid_action(kernel.PASS)]
    played = 0
    for deal in range(40):
        env.reset(seed=1300 + deal)
        agent.reset(seed=deal)
        state = env.unwrapped.kernel_state()
        while state[kernel.S_PHASE] != kernel.PHASE_PLAYING and not env.terminations[env.agent_selection]:
            legal = env.unwrapped.legal_actions()
            wanted = [a for a in bids if a in legal] if state[kernel.S_PHASE] == kernel.PHASE_BIDDING else []
            env.step(int(rng.choice(wanted or legal)))
            state = env.unwrapped.kernel_state()
        if env.terminations[env.agent_selection] or state[kernel.S_CONTRACT] not in contracts:
            continue
        for name in env.agent_iter():
            if env.terminations[name] or env.truncations[name]:
                env.step(None)
                continue
            action = agent.act(env, name)
            assert action in env.unwrapped.legal_actions(), env.unwrapped.game_record()["actions"]
            env.step(action)
        played += 1
        if played == 2:
            break
    assert played == 2, f"{option}: fewer than two hands of {contracts} in 40 steered deals"
    stats = agent.stats()
    assert stats["inconsistent_worlds"] == 0 and stats["searches"] >= 10 and stats["delegated"] == 0
