"""The per-seat credit of batch self-play (``agents.neural.rollout``) against a plain per-hand bookkeeping."""

import numpy as np
import pytest

from agents.neural.rollout import HandRecorder, RolloutEvaluator, SeatMixer, make_batch_env

GAMES_AND_CONFIGS = [("bavarian", {}), ("palatinate", {"players": 4}), ("knuffeln", {})]


def play_and_record(game, config, num_envs, steps, seed, gae_lambda=None):
    """Random play; every decision gets an id and a random value. Returns what the recorder handed out
    (flushed at irregular moments) and what a naive per-row bookkeeping says each decision should get."""
    rng = np.random.default_rng(seed)
    env = make_batch_env(game, num_envs, seed=seed, **config)
    recorder = HandRecorder(num_envs, env.num_seats, extras=("decision_id", "value"))
    out = env.reset()
    running = [[] for _ in range(num_envs)]  # per row: (id, seat, value, learner) of the hand in progress
    expected = {}  # id -> (return, advantage) for finished hands' learner decisions
    handed_out = []
    for step in range(steps):
        actions = env.sample_actions()
        learner = rng.random(num_envs) < 0.7
        ids = step * num_envs + np.arange(num_envs)
        values = rng.normal(size=num_envs).astype(np.float32)
        recorder.record(out.observation, actions, out.current_player, learner, decision_id=ids, value=values)
        for row in range(num_envs):
            running[row].append((int(ids[row]), int(out.current_player[row]), float(values[row]), bool(learner[row])))
        out = env.step(actions)
        recorder.outcome(out.rewards, out.terminated)
        for row in np.flatnonzero(out.terminated):
            expected.update(naive_credit(running[row], out.rewards[row], gae_lambda))
            running[row] = []
        if rng.random() < 0.3:
            handed_out.append(recorder.finished(gae_lambda))
    handed_out.append(recorder.finished(gae_lambda))
    return handed_out, expected


def naive_credit(hand, settlement, gae_lambda):
    """Each learner decision of one finished hand: the seat's settlement, and GAE along the seat's chain."""
    credit = {}
    for seat in {seat for _, seat, _, _ in hand}:
        chain = [(i, v, learner) for i, s, v, learner in hand if s == seat]
        advantage, next_value = 0.0, None
        for decision_id, value, learner in reversed(chain):
            target = settlement[seat] if next_value is None else next_value
            delta = target - value
            advantage = delta + (gae_lambda or 0.0) * advantage if next_value is not None else delta
            next_value = value
            if learner:
                credit[decision_id] = (float(settlement[seat]), advantage)
    return credit


@pytest.mark.parametrize(("game", "config"), GAMES_AND_CONFIGS, ids=[g for g, _ in GAMES_AND_CONFIGS])
def test_every_finished_decision_is_handed_out_once_with_its_seats_settlement(game, config):
    handed_out, expected = play_and_record(game, config, num_envs=6, steps=300, seed=3)
    ids = np.concatenate([d.extras["decision_id"] for d in handed_out]).astype(np.int64)
    returns = np.concatenate([d.returns for d in handed_out])
    assert len(ids) == len(set(ids.tolist())), "a decision was handed out twice"
    assert set(ids.tolist()) == set(expected), "handed out decisions differ from the finished hands' ones"
    for decision_id, value in zip(ids, returns, strict=True):
        assert value == pytest.approx(expected[int(decision_id)][0])
    assert sum(d.hands for d in handed_out) > 20
    assert np.any(returns != 0)


@pytest.mark.parametrize(("game", "config"), GAMES_AND_CONFIGS, ids=[g for g, _ in GAMES_AND_CONFIGS])
def test_advantages_follow_each_seats_own_chain(game, config):
    handed_out, expected = play_and_record(game, config, num_envs=5, steps=250, seed=4, gae_lambda=0.9)
    ids = np.concatenate([d.extras["decision_id"] for d in handed_out]).astype(np.int64)
    advantages = np.concatenate([d.advantages for d in handed_out])
    for decision_id, advantage in zip(ids, advantages, strict=True):
        assert advantage == pytest.approx(expected[int(decision_id)][1], rel=1e-5, abs=1e-4)


def test_handed_out_observations_are_the_recorded_ones():
    env = make_batch_env("bavarian", 4, seed=5)
    recorder = HandRecorder(4, env.num_seats, record_masks=True, extras=("decision_id",))
    out = env.reset()
    seen = {}
    for step in range(120):
        actions = env.sample_actions()
        ids = step * 4 + np.arange(4)
        for row in range(4):
            seen[int(ids[row])] = (out.observation[row].copy(), out.action_mask[row].astype(bool), int(actions[row]))
        recorder.record(out.observation, actions, out.current_player, np.ones(4, bool), out.action_mask,
                        decision_id=ids)
        out = env.step(actions)
        recorder.outcome(out.rewards, out.terminated)
    decisions = recorder.finished()
    assert len(decisions) > 0
    for index, decision_id in enumerate(decisions.extras["decision_id"].astype(np.int64)):
        observation, mask, action = seen[int(decision_id)]
        np.testing.assert_array_equal(decisions.observation[index], observation.astype(np.float16))
        np.testing.assert_array_equal(decisions.action_mask[index], mask)
        assert decisions.action[index] == action


def test_recorder_rejects_misuse():
    recorder = HandRecorder(2, 4, extras=("value",))
    with pytest.raises(RuntimeError, match="outcome"):
        recorder.outcome(np.zeros((2, 4)), np.zeros(2, bool))
    with pytest.raises(ValueError, match="extras"):
        recorder.record(np.zeros((2, 3)), np.zeros(2), np.zeros(2), np.ones(2, bool))
    with pytest.raises(ValueError, match="value"):
        HandRecorder(2, 4).finished(gae_lambda=0.9)


def test_seat_mixer_gives_the_learner_one_team_in_knuffeln_and_half_the_seats_elsewhere():
    rng = np.random.default_rng(0)
    knuffeln = SeatMixer("knuffeln", 400, 4, opponent_fraction=0.5, rng=rng)
    assert knuffeln.learner_seats.all()
    knuffeln.redraw(np.ones(400, bool))
    mixed = ~knuffeln.learner_seats.all(axis=1)
    assert 120 < mixed.sum() < 280
    for seating in knuffeln.learner_seats[mixed]:
        assert seating.tolist() in ([True, False, True, False], [False, True, False, True])
    bavarian = SeatMixer("bavarian", 400, 4, opponent_fraction=1.0, rng=rng)
    bavarian.redraw(np.ones(400, bool))
    assert (bavarian.learner_seats.sum(axis=1) == 2).all()
    palatinate = SeatMixer("palatinate", 400, 3, opponent_fraction=1.0, rng=rng)
    palatinate.redraw(np.ones(400, bool))
    assert set(palatinate.learner_seats.sum(axis=1).tolist()) == {1, 2}
    selfplay = SeatMixer("bavarian", 50, 4, 0.0, rng)
    selfplay.redraw(np.ones(50, bool))
    assert selfplay.learner_seats.all()
    with pytest.raises(ValueError, match="opponent_fraction"):
        SeatMixer("bavarian", 5, 4, 1.5, rng)


def lowest_legal_action(observation, action_mask):
    """A deterministic policy for the tests: the legal action of lowest index."""
    return np.argmax(action_mask.astype(bool), axis=1)


@pytest.mark.parametrize(("game", "config"), GAMES_AND_CONFIGS, ids=[g for g, _ in GAMES_AND_CONFIGS])
def test_rollouts_score_each_pair_as_playing_it_out_alone(game, config):
    """The evaluator (few rows refilled as hands end) gives every (position, action) pair the return of
    playing that hand out on its own in a one-row env."""
    env = make_batch_env(game, 4, seed=6, **config)
    out = env.reset()
    states, seats, actions = [], [], []
    for _ in range(40):
        for row in range(4):
            legal = np.flatnonzero(out.action_mask[row])
            if legal.size > 1:
                for action in legal[:2]:
                    states.append(env.kernel_states()[row])
                    seats.append(out.current_player[row])
                    actions.append(action)
        out = env.step(env.sample_actions())
    states, seats, actions = np.array(states), np.array(seats), np.array(actions)
    evaluator = RolloutEvaluator(make_batch_env(game, 3, seed=0, **config))
    returns, decisions = evaluator.evaluate(states, seats, actions, lowest_legal_action)
    assert decisions > len(actions)
    alone = make_batch_env(game, 1, seed=0, **config)
    alone.reset()
    for index in range(0, len(actions), 7):
        step = alone.load_states(states[index : index + 1], rows=np.array([0]))
        step = alone.step(np.array([actions[index]]))
        while not step.terminated[0]:
            step = alone.step(lowest_legal_action(step.observation, step.action_mask))
        assert returns[index] == step.rewards[0, seats[index]]
    assert np.isfinite(returns).all() and np.any(returns != 0)
