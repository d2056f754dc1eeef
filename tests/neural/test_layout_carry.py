"""``agents.neural.checkpoint``: a checkpoint saved before its game's observation gained the ``voids`` block
(no ``obs_blocks``) loads carried to today's layout and plays exactly as it did; one saved today records its
blocks and loads unchanged; blocks that do not add up to the checkpoint's size are refused by name."""

import numpy as np
import pytest
import torch

from agents.neural.checkpoint import (
    ADDED_BLOCKS,
    build_network,
    carried_to_current_layout,
    checkpoint_dict,
    load_checkpoint,
    observation_blocks,
    save_checkpoint,
)
from agents.neural.rollout import make_batch_env
from agents.neural.training import new_network, resume_checkpoint, starting_checkpoint
from trick_core.layout import block_starts

GAMES = ("bavarian", "palatinate", "asserufen")


def random_network_checkpoint(game: str) -> dict:
    """A small network of today's layout with every weight drawn at random."""
    network = new_network(game, {}, (24, 16))
    generator = torch.Generator().manual_seed(11)
    with torch.no_grad():
        for name, value in network.state_dict().items():
            if name != "action_features":
                value.copy_(torch.rand(value.shape, generator=generator) + 0.1)
    names = list(make_batch_env(game, 1, seed=0, num_threads=1).action_names)
    return checkpoint_dict(network, game=game, config={}, action_names=names, head="policy", algo="ppo", training={})


def without_voids(checkpoint: dict) -> dict:
    """The same network as it was saved before the ``voids`` block: its columns dropped, no ``obs_blocks``."""
    blocks = observation_blocks(checkpoint["game"], checkpoint["config"])
    at, size = block_starts(blocks)["voids"], dict(blocks)["voids"]
    keep = np.r_[0:at, at + size : checkpoint["network"]["input_scale"].shape[0]]
    network = dict(checkpoint["network"])
    network["input_scale"] = network["input_scale"][keep].clone()
    network["torso.0.weight"] = network["torso.0.weight"][:, keep].clone()
    legacy = {key: value for key, value in checkpoint.items() if key != "obs_blocks"}
    return {**legacy, "network": network, "obs_size": checkpoint["obs_size"] - size}


def played_observations(game: str) -> np.ndarray:
    """Observations of random positions, many with voids shown."""
    env = make_batch_env(game, 32, seed=4, num_threads=1)
    out, rows, rng = env.reset(), [], np.random.default_rng(4)
    for _ in range(30):
        rows.append(out.observation.copy())
        out = env.step(np.array([rng.choice(np.flatnonzero(mask)) for mask in out.action_mask]))
    return np.concatenate(rows)


@pytest.mark.parametrize("game", GAMES)
def test_an_old_checkpoint_is_carried_with_the_new_block_unheard(game, tmp_path):
    today = random_network_checkpoint(game)
    save_checkpoint(tmp_path / "old.pt", without_voids(today))
    carried = load_checkpoint(tmp_path / "old.pt")
    assert carried["obs_size"] == today["obs_size"] and carried["obs_blocks"] == today["obs_blocks"]
    blocks = observation_blocks(game, {})
    at, size = block_starts(blocks)["voids"], dict(blocks)["voids"]
    weight = carried["network"]["torso.0.weight"]
    assert torch.count_nonzero(weight[:, at : at + size]) == 0
    heard = today["network"]["torso.0.weight"].clone()
    heard[:, at : at + size] = 0
    assert torch.equal(weight, heard), "every other column is the source's own"
    observations = played_observations(game)
    assert observations[:, at : at + size].any(), "the positions show voids"
    network, deaf = build_network(carried), observations.copy()
    deaf[:, at : at + size] = 0
    with torch.no_grad():
        seen = network.features(torch.from_numpy(network.encode(observations)))
        unseen = network.features(torch.from_numpy(network.encode(deaf)))
    assert torch.allclose(seen, unseen), "it plays as before, whatever the voids block shows"


def test_a_checkpoint_of_today_loads_unchanged(tmp_path):
    today = random_network_checkpoint("bavarian")
    assert dict(map(tuple, today["obs_blocks"]))["voids"] == 20 and "voids" in ADDED_BLOCKS
    save_checkpoint(tmp_path / "today.pt", today)
    loaded = load_checkpoint(tmp_path / "today.pt")
    assert all(torch.equal(loaded["network"][key], value) for key, value in today["network"].items())


def test_blocks_that_do_not_add_up_are_refused():
    legacy = without_voids(random_network_checkpoint("palatinate"))
    with pytest.raises(ValueError, match="add up to .* not its obs_size"):
        carried_to_current_layout({**legacy, "obs_size": legacy["obs_size"] + 1})


def test_an_old_run_cannot_be_resumed_but_can_be_started_from(tmp_path):
    legacy = {**without_voids(random_network_checkpoint("asserufen")), "resume": {"optimizer": {}}}
    save_checkpoint(tmp_path / "old_run.pt", legacy)
    with pytest.raises(ValueError, match=r"before the observation gained \['voids'\].*--init-from"):
        resume_checkpoint(str(tmp_path / "old_run.pt"), "asserufen", {}, "ppo", seed=1)
    assert starting_checkpoint(str(tmp_path / "old_run.pt"), "asserufen", {})["obs_blocks"] == [
        list(block) for block in observation_blocks("asserufen", {})]
