"""The ``neural`` agent: its network, its checkpoints, legal play, no peeking, and clear errors."""

import json

import numpy as np
import pytest
import torch

from agents import make
from agents.neural.checkpoint import (
    SHIPPED_DIR,
    build_network,
    checkpoint_dict,
    load_checkpoint,
    save_checkpoint,
    shipped_checkpoint_path,
)
from agents.neural.features import action_features, parse_action_name
from agents.neural.network import NumpyPolicy, TrickNet
from agents.neural.training import new_network
from tests.agents.test_no_peeking import decision_points
from trick_core.registry import make_env
from trick_core.seat_view import SeatView

GAMES = ["bavarian", "palatinate", "asserufen", "knuffeln"]


def tiny_checkpoint(tmp_path, game, config=None, head="q", seed=0):
    """A small random network for ``game``, saved as a checkpoint (the agent's behaviour does not depend
    on the weights being trained)."""
    config = config or {}
    torch.manual_seed(seed)
    network = new_network(game, config, (24, 24))
    names = make_env(game, **config).unwrapped.action_names
    path = tmp_path / f"{game}-{head}-{seed}.pt"
    save_checkpoint(path, checkpoint_dict(network, game=game, config=config, action_names=names, head=head,
                                          algo="dmc", training={}))
    return path


def test_action_names_are_parsed_into_kind_suit_and_rank():
    assert parse_action_name("EO") == ("card", "E", "O")
    assert parse_action_name("H10") == ("card", "H", "10")
    assert parse_action_name("turn:C10") == ("turn", "C", "10")
    assert parse_action_name("discard:SQ") == ("discard", "S", "Q")
    assert parse_action_name("call:E") == ("call", "E", None)
    assert parse_action_name("call:SK") == ("call", "S", "K")
    assert parse_action_name("say:5") == ("say", None, None)
    assert parse_action_name("pass") == ("pass", None, None)
    features = action_features(["EA", "E10", "pass", "turn:EA"])
    assert features.shape == (4, 4 + 3 + 1 + 2)
    np.testing.assert_array_equal(features[:, :4], np.eye(4))
    assert features[0, 4] == features[1, 4] == 1 and features[3, 6] == 1  # kinds: card, pass, turn
    np.testing.assert_array_equal(features[0, 7:], features[3, 7:])  # EA and turn:EA share suit and rank


@pytest.mark.parametrize("game", GAMES)
def test_numpy_forward_pass_matches_torch(game):
    torch.manual_seed(1)
    network = new_network(game, {}, (32, 32))
    env = make_env(game)
    env.reset(seed=2)
    observation = np.stack([env.observe(agent)["observation"] for agent in env.possible_agents])
    with torch.no_grad():
        encoded = torch.from_numpy(network.encode(observation))
        expected = {head: network(encoded, head).numpy() for head in ("q", "policy")}
    weights = network.numpy_weights()
    for head, scores in expected.items():
        np.testing.assert_allclose(NumpyPolicy(weights, head).scores(observation), scores, rtol=1e-4, atol=1e-5)


def test_network_rejects_bad_shapes():
    with pytest.raises(ValueError, match="hidden"):
        TrickNet(np.ones(5, np.float32), np.eye(3, dtype=np.float32), ())
    with pytest.raises(ValueError, match="head"):
        TrickNet(np.ones(5, np.float32), np.eye(3, dtype=np.float32), (4,)).head_matrix("value")


def test_checkpoint_round_trips(tmp_path):
    path = tiny_checkpoint(tmp_path, "bavarian")
    checkpoint = load_checkpoint(path)
    rebuilt = build_network(checkpoint)
    for key, value in checkpoint["network"].items():
        assert torch.equal(rebuilt.state_dict()[key], value)
    assert checkpoint["obs_size"] == 385 and checkpoint["num_actions"] == 46


@pytest.mark.parametrize("game", GAMES)
def test_neural_agent_plays_only_legal_actions(game, tmp_path):
    path = tiny_checkpoint(tmp_path, game)
    agent = make(f"neural[path={path}]", game)
    env = make_env(game)
    for hand in range(12):
        env.reset(seed=100 + hand)
        while not env.terminations[env.agent_selection]:
            name = env.agent_selection
            mask = env.observe(name)["action_mask"].copy()
            action = agent.act(SeatView(env, name), name)  # as the arena calls it
            assert isinstance(action, int) and mask[action] == 1
            env.step(action)
        assert env.unwrapped.game_record()["result"] is not None


@pytest.mark.parametrize("game", GAMES)
def test_neural_agent_decides_the_same_on_twin_tables(game, tmp_path):
    """Tables that differ only in cards the acting seat cannot see get the same decision."""
    paths = [tiny_checkpoint(tmp_path, game, head=head, seed=seed) for head, seed in (("q", 3), ("policy", 4))]
    for path in paths:
        agent = make(f"neural[path={path}]", game)
        for table, twin in decision_points(game, {}, count=8, seed=23):
            seat = table.agent_selection
            # the twin tables hold information_state observations; the agent needs the default ones
            views = [SeatView(as_default_table(t, game), seat) for t in (table, twin)]
            assert agent.act(views[0], seat) == agent.act(views[1], seat)


def as_default_table(table, game):
    """The same position on a table with the default observation type (replayed from the record)."""
    record = table.unwrapped.game_record()
    fresh = make_env(game)
    fresh.reset(options=record["deal"])
    for _, action in record["actions"]:
        fresh.step(fresh.unwrapped.string_to_action(action))
    return fresh


def test_neural_agent_decisions_depend_on_the_seats_own_cards(tmp_path):
    """The twin test could pass vacuously if the agent ignored the table."""
    agent = make(f"neural[path={tiny_checkpoint(tmp_path, 'bavarian', seed=5)}]", "bavarian")
    env = make_env("bavarian")
    scores = []
    for seed in range(4):
        env.reset(seed=seed)
        scores.append(agent.policy.scores(env.observe(env.agent_selection)["observation"]))
    assert not all(np.allclose(scores[0], other) for other in scores[1:])


def test_neural_agent_errors_name_the_problem(tmp_path):
    path = tiny_checkpoint(tmp_path, "knuffeln")
    with pytest.raises(ValueError, match="trained for 'knuffeln', not 'bavarian'"):
        make(f"neural[path={path}]", "bavarian")
    with pytest.raises(ValueError, match="no checkpoint"):
        make(f"neural[path={tmp_path / 'missing.pt'}]", "bavarian")
    (tmp_path / "junk.pt").write_text("not a checkpoint")
    with pytest.raises(ValueError, match="not a readable checkpoint"):
        make(f"neural[path={tmp_path / 'junk.pt'}]", "bavarian")
    with pytest.raises(ValueError, match="unknown head"):
        make(f"neural[path={path},head=value]", "knuffeln")
    agent = make(f"neural[path={path}]", "knuffeln")
    talking = make_env("knuffeln", talk="lexicon")
    talking.reset(seed=0)
    with pytest.raises(ValueError, match=r"trained on knuffeln with config \{\}; this table has config .*'talk': "
                                         r"'lexicon'"):
        agent.act(talking, talking.agent_selection)
    other_observation = make_env("knuffeln", observation_type="information_state")
    other_observation.reset(seed=0)
    with pytest.raises(ValueError, match="another variant or observation_type"):
        agent.act(other_observation, other_observation.agent_selection)


@pytest.mark.parametrize("game", GAMES)
def test_a_shipped_checkpoint_loads_with_its_training_record(game):
    """Every shipped checkpoint is small, records how it was trained, and plays (games without one are
    skipped: ``agents.make("neural", game)`` then names the missing file)."""
    if not (SHIPPED_DIR / f"{game}.pt").is_file():
        with pytest.raises(ValueError, match="no shipped neural checkpoint"):
            make("neural", game)
        pytest.skip(f"no checkpoint shipped for {game}")
    path = shipped_checkpoint_path(game)
    checkpoint = load_checkpoint(path)
    assert checkpoint["game"] == game and checkpoint["config"] == {}
    assert checkpoint["resume"] is None
    assert path.stat().st_size < 8 * 2**20, "shipped checkpoints should stay a few MB"
    record = json.loads((SHIPPED_DIR / f"{game}.json").read_text())
    for key in ("command", "seed", "commit", "wall_seconds", "cpu_seconds", "evaluation"):
        assert key in record, f"{game}.json lacks {key}"
    agent = make("neural", game)
    env = make_env(game)
    env.reset(seed=0)
    action = agent.act(SeatView(env, env.agent_selection), env.agent_selection)
    assert env.observe(env.agent_selection)["action_mask"][action] == 1


@pytest.mark.parametrize("game", ["bavarian", "knuffeln"])
def test_shipped_checkpoint_decides_as_with_the_numpy_features(game):
    """The agent's compiled features must not change a single decision of a shipped network: on every
    seat's view of many seeded positions its scores equal those computed with the numpy reference
    features, bit for bit, and so do its chosen actions."""
    if not (SHIPPED_DIR / f"{game}.pt").is_file():
        pytest.skip(f"no checkpoint shipped for {game}")
    agent = make("neural", game)
    encoder = agent.policy.encoder
    reference = NumpyPolicy(build_network(load_checkpoint(shipped_checkpoint_path(game))).numpy_weights(),
                            agent.policy.head)
    reference.encoder = encoder.reference
    env = make_env(game)
    rng = np.random.default_rng(5)
    observations, masks = [], []
    for hand in range(40):
        env.reset(seed=500 + hand)
        while not env.terminations[env.agent_selection]:
            seen = env.observe(env.agent_selection)
            observations.append(seen["observation"])
            masks.append(seen["action_mask"].astype(bool))
            env.step(int(rng.choice(env.unwrapped.legal_actions())))
    observations, masks = np.stack(observations), np.stack(masks)
    scores = agent.policy.scores(observations)
    np.testing.assert_array_equal(scores, reference.scores(observations))
    for row in range(0, len(observations), 13):
        np.testing.assert_array_equal(agent.policy.scores(observations[row][None, :]),
                                      reference.scores(observations[row][None, :]))
    chosen = np.where(masks, scores, -np.inf).argmax(axis=1)
    assert len(set(chosen.tolist())) > 10  # the positions cover many different decisions
