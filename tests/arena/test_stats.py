"""The interval arithmetic of the arena against hand-computed values (no scipy)."""

import math

import pytest

from agents.stats import (
    mean_interval,
    paired_difference_interval,
    regularized_incomplete_beta,
    student_t_cdf,
    student_t_quantile,
    win_record,
)

# Two-sided 95% critical values t(0.975, df) from any statistics table.
T_TABLE = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 9: 2.2622, 10: 2.2281, 19: 2.0930,
           30: 2.0423, 60: 2.0003, 120: 1.9799}


@pytest.mark.parametrize(("df", "expected"), sorted(T_TABLE.items()))
def test_t_quantiles_match_the_table(df, expected):
    assert student_t_quantile(0.975, df) == pytest.approx(expected, abs=5e-5)


def test_t_quantile_tends_to_the_normal_one_and_is_symmetric():
    assert student_t_quantile(0.975, 10**7) == pytest.approx(1.959964, abs=1e-5)
    assert student_t_quantile(0.025, 7) == pytest.approx(-student_t_quantile(0.975, 7), abs=1e-9)
    assert student_t_quantile(0.5, 3) == pytest.approx(0.0, abs=1e-9)


def test_t_cdf_closed_forms():
    # df = 1 is the Cauchy distribution; df = 2 has cdf 1/2 + t / (2 sqrt(2 + t^2)).
    for t in (-3.0, -0.4, 0.0, 1.0, 7.5):
        assert student_t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)
        assert student_t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)), abs=1e-12)


def test_incomplete_beta_closed_forms():
    # I_x(1, 1) = x and I_x(a, 1) = x^a.
    assert regularized_incomplete_beta(1.0, 1.0, 0.3) == pytest.approx(0.3, abs=1e-13)
    assert regularized_incomplete_beta(3.0, 1.0, 0.6) == pytest.approx(0.216, abs=1e-13)
    with pytest.raises(ValueError, match="x must lie"):
        regularized_incomplete_beta(1.0, 1.0, 1.5)


def test_mean_interval_by_hand():
    # 1..5: mean 3, s = sqrt(2.5), se = s / sqrt(5) = 0.70711, t(0.975, 4) = 2.776445 -> half 1.963243.
    interval = mean_interval([1, 2, 3, 4, 5])
    assert interval.mean == 3.0
    assert interval.std == pytest.approx(math.sqrt(2.5))
    assert interval.low == pytest.approx(3 - 1.963243, abs=1e-6)
    assert interval.high == pytest.approx(3 + 1.963243, abs=1e-6)
    assert interval.excludes_zero()
    # 90% interval: t(0.95, 4) = 2.131847 -> half 1.507443.
    assert mean_interval([1, 2, 3, 4, 5], confidence=0.9).half_width == pytest.approx(1.507443, abs=1e-6)


def test_interval_of_a_constant_or_single_value():
    constant = mean_interval([2.0, 2.0, 2.0])
    assert (constant.low, constant.high) == (2.0, 2.0)
    single = mean_interval([4.0])
    assert single.mean == 4.0 and single.as_list() == [None, None] and not single.excludes_zero()


def test_paired_difference_is_the_interval_of_differences():
    first, second = [3.0, 1.0, 4.0, 1.0, 5.0], [2.0, 0.0, 2.0, 2.0, 3.0]  # differences 1 1 2 -1 2
    paired = paired_difference_interval(first, second)
    direct = mean_interval([1.0, 1.0, 2.0, -1.0, 2.0])
    assert paired == direct
    assert paired.mean == pytest.approx(1.0)
    # s = sqrt(1.5), se = 0.547723, half = 2.776445 * 0.547723 = 1.520722
    assert paired.half_width == pytest.approx(1.520722, abs=1e-6)
    assert not paired.excludes_zero()
    with pytest.raises(ValueError, match="differ in length"):
        paired_difference_interval([1.0], [1.0, 2.0])


def test_bad_samples_raise():
    with pytest.raises(ValueError, match="empty"):
        mean_interval([])
    with pytest.raises(ValueError, match="NaN"):
        mean_interval([1.0, float("nan")])
    with pytest.raises(ValueError, match="confidence"):
        mean_interval([1.0, 2.0], confidence=95)


def test_win_record_counts_deals():
    record = win_record([1.0, 0.0, -2.0, 3.0], [0.0, 0.0, 1.0, 1.0])
    assert (record.wins, record.ties, record.losses) == (2, 1, 1)
    assert record.win_rate == pytest.approx(2.5 / 4)
