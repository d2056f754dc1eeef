"""``agents.neural.symmetry.TokenRelabelledEnv`` (Other-Play for token talk): a seat hears its own tokens
back as it chose them, its partner hears them relabelled, silence and everything outside the talk block
are untouched, the same seed draws the same relabellings, and the option is refused where it cannot apply."""

import numpy as np
import pytest

from agents.neural.rollout import make_batch_env
from agents.neural.symmetry import TokenRelabelledEnv
from agents.neural.widen import observation_blocks
from experiments import ppo
from experiments.common import check_args
from trick_core.layout import block_starts

CONFIG = {"talk": "tokens:8"}
ROWS = 32


def talk_slots(observation: np.ndarray, seats: int = 4):
    """Per row, the talk slots as ``(relative speaker, utterance)`` pairs (empty slots left out)."""
    blocks = observation_blocks("knuffeln", CONFIG)
    start, size = block_starts(blocks)["talk"], dict(blocks)["talk"]
    slots = observation[:, start: start + size].reshape(len(observation), 36, -1)
    rows = []
    for row in slots:
        used = row[:, :seats].any(axis=1)
        rows.append([(int(np.argmax(slot[:seats])), int(np.argmax(slot[seats: seats + 9]))) for slot in row[used]])
    return rows


def random_actions(out, rng) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in out.action_mask])


def play(steps: int, seed: int = 3):
    """Steps of random play on the wrapped env: per step the wrapped and the table's observations, and
    what each seat said (frame token numbers) in the hand so far."""
    inner = make_batch_env("knuffeln", ROWS, seed=seed, num_threads=1, **CONFIG)
    env = TokenRelabelledEnv(inner, CONFIG)
    out = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    said = [[[] for _ in range(4)] for _ in range(ROWS)]
    history = []
    first_token = inner.string_to_action("token:1")
    for _ in range(steps):
        history.append((out, inner._result().observation.copy(), [[list(s) for s in row] for row in said]))
        actions = random_actions(out, rng)
        for row, action in enumerate(actions):
            if action >= first_token:
                said[row][out.current_player[row]].append(int(action - first_token + 1))
            elif inner.action_to_string(int(action)) == "silent":
                said[row][out.current_player[row]].append(0)
        out = env.step(actions)
        for row in np.flatnonzero(out.terminated):
            said[row] = [[] for _ in range(4)]
    return history


def test_a_seat_hears_its_own_tokens_as_it_chose_them_and_its_partner_relabelled():
    own_checked, partner_same, partner_tokens = 0, 0, 0
    for out, table_observation, said in play(400):
        seen, table = talk_slots(out.observation), talk_slots(table_observation)
        for row in range(ROWS):
            seat = out.current_player[row]
            mine = [utterance for speaker, utterance in seen[row] if speaker == 0]
            assert mine == said[row][seat]
            own_checked += len(mine)
            assert [speaker for speaker, _ in seen[row]] == [speaker for speaker, _ in table[row]]
            for (_, heard), (_, true) in zip(seen[row], table[row], strict=True):
                assert (heard == 0) == (true == 0)  # silence is silence in every frame
            partner = [(heard, true) for (speaker, heard), (_, true) in zip(seen[row], table[row], strict=True)
                       if speaker == 2 and true]
            partner_tokens += len(partner)
            partner_same += sum(heard == true for heard, true in partner)
    assert own_checked > 1000
    assert partner_tokens > 1000 and partner_same / partner_tokens < 0.3  # about 1/8 under random labels


def test_only_the_talk_block_changes():
    blocks = observation_blocks("knuffeln", CONFIG)
    start, size = block_starts(blocks)["talk"], dict(blocks)["talk"]
    changed = False
    for out, table_observation, _ in play(200):
        np.testing.assert_array_equal(out.observation[:, :start], table_observation[:, :start])
        np.testing.assert_array_equal(out.observation[:, start + size:], table_observation[:, start + size:])
        changed |= not np.array_equal(out.observation, table_observation)
    assert changed


def test_the_same_seed_draws_the_same_relabellings():
    first = [out.observation for out, _, _ in play(120, seed=11)]
    second = [out.observation for out, _, _ in play(120, seed=11)]
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("options, message", [
    (["--game=bavarian", "--symmetry=tokens"], "talk=tokens"),
    (["--game=knuffeln", "--symmetry=tokens"], "talk=tokens"),
    (["--game=knuffeln", "--config", "talk=tokens:8", "--symmetry=tokens", "--actors=2",
      "--actor-backend=local"], "--actors 0"),
    (["--game=knuffeln", "--symmetry=colours"], "unknown symmetry"),
])
def test_the_option_is_refused_where_it_cannot_apply(options, message):
    import tyro

    with pytest.raises(ValueError, match=message):
        check_args(tyro.cli(ppo.Args, args=options), ppo.ALGO)
