"""The derived card features (``agents.neural.derived``) against the kernels' own rule tables and trick
winners, on positions of random hands of every variant."""

import numpy as np
import pytest

from agents.neural import derived
from agents.neural.derived import FeatureEncoder
from schafkopf_env import trumps as common
from tests.tables import random_play_positions
from trick_core.registry import VARIANTS, kernel_module, make_env, variant_id

knuffeln_kernel = kernel_module("knuffeln")

TRUMP_LETTERS = {"bavarian": "EGHS", "palatinate": "CSHD", "asserufen": "CSHD"}


def test_rule_tables_match_the_kernels():
    np.testing.assert_array_equal(derived.EFFECTIVE_SUIT, common.EFFECTIVE_SUIT)
    np.testing.assert_array_equal(derived.POWER, common.TRICK_POWER)
    np.testing.assert_array_equal(derived.ATTACK, knuffeln_kernel.ATTACK)
    np.testing.assert_array_equal(derived.DEFENCE, knuffeln_kernel.DEFENCE)
    np.testing.assert_array_equal(derived.SUIT_RANK, knuffeln_kernel.SUIT_RANK)


@pytest.mark.parametrize("config", [{}, {"players": 5}, {"talk": "lexicon"}, {"variant": "bernhard1924"}])
def test_knuffeln_cards_seen_elsewhere_are_the_card_blocks_a_seat_sees(config):
    """The blocks the features take as the cards a seat sees elsewhere are the kernel's five 48-card blocks
    of cards out of the hidden hands, in every variant and configuration."""
    params = knuffeln_kernel.make_params(**config)
    starts, start = {}, 0
    for name, size in knuffeln_kernel.observation_layout(params, 0):
        starts[start] = (name, size)
        start += size
    seen = [starts[offset] for offset in derived.knuffeln_layout("knuffeln", config).seen_blocks]
    names = ("turned", "face_up", "stock_shown_to_all", "stock_known", "out_of_play")
    assert seen == [(name, 48) for name in names]


def positions(game, config, count, seed):
    """Tables at random moments of random hands (acting seat to move)."""
    rng = np.random.default_rng(seed)

    def pick(env, _legal):
        return env.unwrapped.clone() if rng.random() < 0.3 else None

    return random_play_positions(make_env(game, **config), seed * 1000, rng, count, pick)


def blocks(encoder, features):
    """The derived features cut into named blocks."""
    if encoder.game == "knuffeln":
        cards, names = 48, ["chosen", "attack", "defence", "beats", "safe"]
    else:
        cards, names = 32, ["trump", "strength", "top", "beats"]
    out = {name: features[index * cards : (index + 1) * cards] for index, name in enumerate(names)}
    rest = features[len(names) * cards :]
    if encoder.game != "knuffeln":
        rest = rest[10:]  # own and unseen cards per effective suit
    out["winner"] = rest[: encoder._layout.seats]
    return out


def trump_kind(state: dict, game: str) -> int:
    """The kernel's trump kind (``schafkopf_env.trumps``) of the contract ``state()`` names."""
    family = (state["contract"] or "").removesuffix("_tout")
    if family == "wenz":
        return common.TRUMP_WENZ
    if family == "geier":
        return common.TRUMP_GEIER
    if family == "bettel":
        return common.TRUMP_BETTEL
    suit = TRUMP_LETTERS[game].index(state["trump"])
    return common.TRUMP_FARBWENZ + suit if family == "farbwenz" else suit


def expected_trick(env, game, config):
    """(winning agent, would-win per held card) of the trick in progress, from the kernels' functions."""
    state = env.unwrapped.state()
    trick = state["trick"]
    if not trick or state.get("trick_face_down"):
        return None
    agent = env.agent_selection
    if game == "knuffeln":
        deck_cards = env.unwrapped.deck
        chosen = sum(1 << "CSHD".index(s) for s in state["chosen_suits"])
        ranking = derived.RANKING_OF_VARIANT[config.get("variant", "bohmstedt")]

        def winner_position(cards):
            return knuffeln_kernel.trick_winner_position(ranking, chosen, np.array(cards, np.int64), len(cards))
    else:
        deck_cards = env.unwrapped.deck
        kind = trump_kind(state, game)

        def winner_position(cards):
            return common.trick_winner_index(kind, np.array(cards, np.int64), len(cards))

    cards = [deck_cards.parse(card) for _, card in trick]
    winner = trick[winner_position(cards)][0]
    would_win = {deck_cards.parse(card): winner_position(cards + [deck_cards.parse(card)]) == len(cards)
                 for card in state["hands"][agent]}
    return winner, would_win


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_trick_winner_and_takeover_features_match_the_kernel(game, config):
    encoder = FeatureEncoder(game, config, "cards")
    checked = 0
    for table in positions(game, config, 60, seed=3):
        agent = table.agent_selection
        expected = expected_trick(table, game, config)
        observation = table.observe(agent)["observation"]
        features = blocks(encoder, encoder.derived(observation[None, :])[0])
        held = np.flatnonzero(observation[encoder._layout.hand : encoder._layout.hand + features["beats"].size])
        held_now = set(table.unwrapped.state()["hands"][agent])
        if table.unwrapped.state()["phase"] == "klopfen":  # Bavarian's Klopfen: the seat has seen half its hand
            held_now &= set(table.unwrapped.public_record(agent)["hand"])
        assert {table.unwrapped.deck.name_of(c) for c in held} == held_now
        if expected is None:
            assert not features["beats"].any() and not features["winner"].any()
            continue
        winner, would_win = expected
        names = table.possible_agents
        relative = (names.index(winner) - names.index(agent)) % len(names)
        assert features["winner"].argmax() == relative and features["winner"].sum() == 1
        for card, wins in would_win.items():
            assert bool(features["beats"][card]) == wins, (table.unwrapped.deck.name_of(card), expected)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("game", ["bavarian", "palatinate", "asserufen", "knuffeln"])
def test_encoder_appends_a_fixed_number_of_features(game):
    encoder = FeatureEncoder(game, {}, "cards")
    env = make_env(game)
    env.reset(seed=0)
    observation = env.observe(env.agent_selection)["observation"]
    encoded = encoder(observation)
    assert encoded.shape == (observation.size + encoder.size,)
    np.testing.assert_array_equal(encoded[: observation.size], observation)
    assert np.isfinite(encoded).all()
    assert FeatureEncoder(game, {}, "none")(observation).shape == observation.shape
    with pytest.raises(ValueError, match="feature set"):
        FeatureEncoder(game, {}, "magic")


def unseen_cards(table, game):
    """Cards the acting seat cannot see anywhere: those other seats hold (and Palatinate's untaken skat)."""
    state = table.unwrapped.state()
    agent = table.agent_selection
    hidden = {card for other, cards in state["hands"].items() if other != agent for card in cards}
    if game == "palatinate" and state.get("contract") not in ("simple",):
        hidden |= set(state.get("skat") or [])
    if game == "knuffeln":
        hidden |= set(state.get("stock") or []) - set(state.get("face_up") or [])
    return {table.unwrapped.deck.parse(card) for card in hidden}


@pytest.mark.parametrize("game", ["bavarian", "asserufen", "knuffeln"])
def test_highest_left_and_safe_features_follow_their_definitions(game):
    """Schafkopf: a held card is flagged when no unseen card of its effective suit ranks above it;
    Knüffeln: when no unseen card would beat it if it were led. Checked against the hidden hands."""
    encoder = FeatureEncoder(game, {}, "cards")
    checked = 0
    for table in positions(game, {}, 40, seed=5):
        state = table.unwrapped.state()
        if state["phase"] not in ("play", "playing") or state.get("trick_face_down"):
            continue
        observation = table.observe(table.agent_selection)["observation"]
        features = blocks(encoder, encoder.derived(observation[None, :])[0])
        hidden = unseen_cards(table, game)
        held = [table.unwrapped.deck.parse(card) for card in state["hands"][table.agent_selection]]
        for card in held:
            if game == "knuffeln":
                chosen = sum(1 << "CSHD".index(s) for s in state["chosen_suits"])
                flagged = bool(features["safe"][card])
                expected = not any(knuffeln_kernel.beats(0, chosen, other, card) for other in hidden)
            else:
                kind = trump_kind(state, game)
                flagged = bool(features["top"][card])
                expected = not any(
                    common.EFFECTIVE_SUIT[kind, other] == common.EFFECTIVE_SUIT[kind, card]
                    and common.TRICK_POWER[kind, other] > common.TRICK_POWER[kind, card]
                    for other in hidden
                )
            assert flagged == expected, (table.unwrapped.deck.name_of(card), state["hands"])
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_compiled_features_equal_the_numpy_reference(game, config):
    """The encoder's compiled loops (``agents.neural.compiled_features``) give exactly the numpy
    definition's numbers, on every seat's observation of positions of random hands, batched and row by row."""
    encoder = FeatureEncoder(game, config, "cards")
    observations = np.stack([
        table.observe(agent)["observation"] for table in positions(game, config, 120, seed=11)
        for agent in table.possible_agents
    ])
    reference = encoder.reference(observations)
    assert reference[:, observations.shape[1]:].any(axis=0).sum() > encoder.size // 2  # features that vary
    np.testing.assert_array_equal(encoder(observations), reference)
    for row in range(0, observations.shape[0], 37):
        np.testing.assert_array_equal(encoder(observations[row]), reference[row])
