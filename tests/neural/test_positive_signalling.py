"""PPO's ``--signal-coef`` (positive signalling on the talk turns): the information term on known
distributions, the talk-turn rows, that it raises the term when trained alone, that a run logs it and
differs from one without it, and that a table without talk refuses it."""

import math

import pytest
import torch

from experiments import ppo
from experiments.common import check_args

from .test_training import network_state, tiny_args


def log_probs(rows) -> torch.Tensor:
    return torch.log(torch.tensor(rows, dtype=torch.float64))


def test_the_information_term_on_known_distributions():
    same = log_probs([[0.5, 0.25, 0.25]] * 4)
    assert abs(ppo.signalling_information(same).item()) < 1e-9  # every state says the same: no information
    own = log_probs([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    assert ppo.signalling_information(own).item() == pytest.approx(math.log(3))
    half = log_probs([[1.0, 0.0], [0.5, 0.5]])  # H(0.75, 0.25) - (0 + log 2) / 2
    expected = -(0.75 * math.log(0.75) + 0.25 * math.log(0.25)) - math.log(2) / 2
    assert ppo.signalling_information(half).item() == pytest.approx(expected)


def test_talk_only_rows_are_the_rows_with_nothing_but_talk_legal():
    talk_columns = torch.tensor([False, False, True, True])
    legal = torch.tensor([[0, 0, 1, 1], [1, 0, 0, 0], [1, 0, 1, 0], [0, 0, 0, 1]])
    assert ppo.talk_only_rows(legal, talk_columns).tolist() == [True, False, False, True]


def test_gradient_steps_on_the_term_alone_make_messages_depend_on_the_state():
    torch.manual_seed(0)
    states = torch.eye(6)
    speaker = torch.nn.Linear(6, 4)
    optimizer = torch.optim.SGD(speaker.parameters(), lr=0.5)
    before = ppo.signalling_information(torch.log_softmax(speaker(states), 1)).item()
    for _ in range(200):
        loss = -ppo.signalling_information(torch.log_softmax(speaker(states), 1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    after = ppo.signalling_information(torch.log_softmax(speaker(states), 1)).item()
    assert before < 0.1 and after > 1.0  # log 4 = 1.39 at most


def test_a_run_with_the_term_logs_it_and_trains_otherwise(tmp_path):
    talk = {"game": "knuffeln", "config": ["talk=tokens:4"], "seed": 6}
    plain = ppo.main(tiny_args(ppo, tmp_path, "plain", **talk))
    signalling = ppo.main(tiny_args(ppo, tmp_path, "signal", signal_coef=0.5, **talk))
    assert "losses/signal_information" not in plain["metrics"]
    assert math.isfinite(signalling["metrics"]["losses/signal_information"])
    first, second = network_state(plain["final"]), network_state(signalling["final"])
    assert any(not torch.equal(first[key], second[key]) for key in first)


@pytest.mark.parametrize("options", [{"game": "bavarian"}, {"game": "knuffeln", "config": ["talk=off"]}])
def test_a_table_without_talk_refuses_the_term(options, tmp_path):
    with pytest.raises(ValueError, match="signal-coef acts on talk turns"):
        check_args(tiny_args(ppo, tmp_path, "x", signal_coef=0.1, **options), ppo.ALGO)
