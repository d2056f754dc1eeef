"""Per-seat reward credit for multi-seat learners on the batch envs (``BatchStep.acting_player``,
``trick_gym.credit.SeatTransitions``)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from knuffeln_env.batch import BatchEnv as KnuffelnBatch
from schafkopf_env.batch import BatchEnv
from trick_gym.credit import SeatTransitions

numba.set_num_threads(1)


BATCHES = {
    "bavarian": lambda: BatchEnv("bavarian", 32, seed=0, num_threads=1),
    "palatinate4": lambda: BatchEnv("palatinate", 32, seed=0, num_threads=1, players=4),
    "knuffeln": lambda: KnuffelnBatch(32, seed=0, num_threads=1),
}


@pytest.mark.parametrize("make", list(BATCHES.values()), ids=list(BATCHES))
def test_every_seat_gets_its_own_settlement_on_its_own_last_decision(make):
    batch = make()
    out = batch.reset()
    assert (out.acting_player == -1).all()
    credit = SeatTransitions(batch)
    credit.start(out)
    settled = np.zeros(batch.num_seats)  # units of seats that decided in the ended hands
    credited = np.zeros(batch.num_seats)
    acted = np.zeros((batch.num_envs, batch.num_seats), dtype=bool)
    decisions = 0
    for _ in range(300):
        before = out.current_player.copy()
        actions = batch.sample_actions()
        out = batch.step(actions)
        np.testing.assert_array_equal(out.acting_player, before)
        acted[np.arange(batch.num_envs), out.acting_player] = True
        done = credit.record(actions, out)
        paid = np.zeros_like(acted)
        paid[done.row[done.done], done.seat[done.done]] = True
        # Exactly the seats that decided in an ended hand are paid, each once.
        np.testing.assert_array_equal(paid, acted & out.terminated[:, None])
        settled += (out.rewards * (acted & out.terminated[:, None])).sum(axis=0)
        acted[out.terminated] = False
        decisions += len(done.row)
        credited += np.bincount(done.seat, weights=done.reward, minlength=batch.num_seats)
        for row, seat, action, mask, reward, finished, nxt in zip(
            done.row, done.seat, done.action, done.action_mask, done.reward, done.done, done.next_observation,
            strict=True,
        ):
            assert mask[action] == 1
            if finished:
                assert reward == out.rewards[row, seat] and not nxt.any()
            else:
                assert reward == 0.0 and nxt.any()
    # Every unit a deciding seat won or lost is credited to it (a seat that took no decision in a hand, such as
    # the Palatinate dealer who sits out, has no transition to carry its units).
    np.testing.assert_allclose(credited, settled, atol=1e-3)
    assert np.abs(settled).sum() > 0
    assert decisions > 300


def test_crediting_only_the_acting_seat_would_differ():
    """The trap the helper avoids: the seat that moved last is not the only one paid."""
    batch = BatchEnv("bavarian", 64, seed=1, num_threads=1)
    out = batch.reset()
    credit = SeatTransitions(batch)
    credit.start(out)
    paid_others = 0
    for _ in range(200):
        actions = batch.sample_actions()
        out = batch.step(actions)
        done = credit.record(actions, out)
        finished = done.done & (done.reward != 0)
        paid_others += np.sum(done.seat[finished] != out.acting_player[done.row[finished]])
    assert paid_others > 0


def test_record_needs_start_and_a_step_result():
    batch = BatchEnv("bavarian", 4, seed=0, num_threads=1)
    out = batch.reset()
    credit = SeatTransitions(batch)
    with pytest.raises(RuntimeError, match="start"):
        credit.record(batch.sample_actions(), out)
    credit.start(out)
    with pytest.raises(ValueError, match="acting_player"):
        credit.record(batch.sample_actions(), out)
