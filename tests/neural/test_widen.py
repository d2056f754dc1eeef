"""``agents.neural.widen``: a network carried over to a wider configuration plays as its source on every
position (its scores of the source's actions are the source's), starts deaf to the new observation blocks
and uniform over the new talk actions, and refuses a target that lacks what the source read."""

import numpy as np
import pytest
import torch

from agents.neural.checkpoint import checkpoint_dict
from agents.neural.features import parse_action_name
from agents.neural.rollout import make_batch_env
from agents.neural.training import new_network
from agents.neural.widen import NEW_ACTION_KINDS, input_index_map, observation_blocks, widened_network
from trick_core.layout import block_starts

GAME = "knuffeln"
TALK = {"talk": "tokens:8"}


@pytest.fixture(scope="module")
def source_checkpoint():
    """A small trained-looking source: a fresh network with every weight and bias drawn at random."""
    network = new_network(GAME, {}, (24, 16))
    generator = torch.Generator().manual_seed(5)
    with torch.no_grad():
        for name, value in network.state_dict().items():
            if name not in ("input_scale", "action_features"):
                value.copy_(torch.randn(value.shape, generator=generator) * 0.3)
    names = list(make_batch_env(GAME, 1, seed=0, num_threads=1).action_names)
    return checkpoint_dict(network, game=GAME, config={}, action_names=names, head="policy", algo="ppo",
                           training={})


@pytest.fixture(scope="module")
def talk_positions():
    """Observations of random Knüffeln positions with token talk (talk turns and card plays)."""
    env = make_batch_env(GAME, 64, seed=3, num_threads=1, **TALK)
    env.reset()
    rows = []
    for _ in range(60):
        out = env.step(env.sample_actions())
        rows.append(out.observation.copy())
    return np.concatenate(rows)


def source_view(observation: np.ndarray) -> np.ndarray:
    """The same positions as a talk-off table shows them: the observation without its talk block."""
    target_index, source_index = input_index_map(observation_blocks(GAME, {}), observation_blocks(GAME, TALK), 0)
    view = np.zeros((observation.shape[0], source_index.max() + 1), dtype=np.float32)
    view[:, source_index] = observation[:, target_index]
    return view


def scores(network, observation: np.ndarray, head: str) -> np.ndarray:
    with torch.no_grad():
        return network(torch.from_numpy(network.encode(observation)), head).numpy()


@pytest.mark.parametrize("head", ["policy", "q"])
def test_the_widened_network_scores_the_source_plays_as_the_source(source_checkpoint, talk_positions, head):
    from agents.neural.checkpoint import build_network

    source = build_network(source_checkpoint)
    widened = widened_network(source_checkpoint, TALK)
    assert widened.input_size == source.input_size + dict(observation_blocks(GAME, TALK))["talk"]
    old = scores(source, source_view(talk_positions), head)
    new = scores(widened, talk_positions, head)
    carried = [index for index, name in enumerate(source_checkpoint["action_names"])
               if parse_action_name(name)[0] not in NEW_ACTION_KINDS]
    assert len(carried) == 224 - 1 - 24 - 48  # all but silent, say:1..24 and show:C (48 cards)
    np.testing.assert_allclose(new[:, carried], old[:, carried], rtol=1e-5, atol=1e-5)


def test_the_new_talk_actions_start_uniform_and_the_talk_block_unheard(source_checkpoint, talk_positions):
    widened = widened_network(source_checkpoint, TALK)
    names = list(make_batch_env(GAME, 1, seed=0, num_threads=1, **TALK).action_names)
    talk = [index for index, name in enumerate(names) if name == "silent" or name.startswith("token:")]
    assert len(talk) == 9
    logits = scores(widened, talk_positions, "policy")
    assert np.ptp(logits[:, talk], axis=1).max() < 1e-5
    assert np.ptp(logits, axis=1).max() > 0.1  # the card plays are not uniform: the check can fail
    start = block_starts(observation_blocks(GAME, TALK))["talk"]
    size = dict(observation_blocks(GAME, TALK))["talk"]
    scrambled = talk_positions.copy()
    scrambled[:, start: start + size] = np.random.default_rng(1).random((len(scrambled), size))
    np.testing.assert_allclose(scores(widened, scrambled, "policy"), logits, rtol=1e-5, atol=1e-5)


def test_a_target_without_the_source_blocks_is_refused(source_checkpoint):
    talker = dict(source_checkpoint, config=TALK)
    with pytest.raises(ValueError, match="lacks the source's block 'talk'"):
        input_index_map(observation_blocks(GAME, TALK), observation_blocks(GAME, {}), 0)
    with pytest.raises(ValueError):
        widened_network(talker, {})


@pytest.mark.parametrize("config, message", [
    ([], "the source's own configuration"),
    (["talk=whisper"], "talk"),
])
def test_the_command_names_a_bad_target_before_it_builds(config, message, tmp_path):
    from agents.neural.widen import Args, check

    with pytest.raises(ValueError, match=message):
        check(Args(checkpoint="agents/neural/checkpoints/knuffeln.pt", out=str(tmp_path / "w.pt"), config=config))
    with pytest.raises(ValueError, match="no checkpoint"):
        check(Args(checkpoint=str(tmp_path / "missing.pt"), out=str(tmp_path / "w.pt"), config=["talk=tokens:8"]))
