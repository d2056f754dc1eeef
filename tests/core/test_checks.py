"""The shared argument checks: what counts as a positive integer, a probability or a seed, and the message."""

import re

import numpy as np
import pytest

from trick_core.checks import check_seed, positive_int, probability


@pytest.mark.parametrize(("value", "expected"), [(1, 1), (250, 250), (np.int64(3), 3), (np.uint8(7), 7)])
def test_positive_int_takes_python_and_numpy_integers(value, expected):
    result = positive_int(value, "hands")
    assert result == expected and type(result) is int


@pytest.mark.parametrize("value", [0, -2, True, False, 2.0, "3", None, np.float64(2.0)])
def test_positive_int_refuses_anything_else_naming_the_argument(value):
    with pytest.raises(ValueError, match=rf"^hands must be a positive integer, got {re.escape(repr(value))}$"):
        positive_int(value, "hands")


@pytest.mark.parametrize(("value", "expected"), [(0, 0.0), (1, 1.0), (0.25, 0.25)])
def test_probability_takes_numbers_in_the_unit_interval(value, expected):
    result = probability(value, "explore")
    assert result == expected and type(result) is float


@pytest.mark.parametrize("value", [-0.01, 1.5, True, "0.5", None, float("nan")])
def test_probability_refuses_anything_else_naming_the_argument(value):
    with pytest.raises(ValueError, match=r"^explore must be a number in \[0, 1\], got "):
        probability(value, "explore")


@pytest.mark.parametrize(("value", "expected"), [(0, 0), (2**63 - 1, 2**63 - 1), (np.uint32(5), 5)])
def test_a_seed_is_any_non_negative_integer(value, expected):
    assert check_seed(value, "bavarian") == expected


@pytest.mark.parametrize("value", [-1, True, 1.0, "7", None])
def test_a_bad_seed_is_named_with_its_owner(value):
    with pytest.raises(ValueError, match=r"^rules: seed must be a non-negative integer \(or None\), got "):
        check_seed(value, "rules")
