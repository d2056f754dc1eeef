"""Smoke test of ``python -m benchmarks.compare``: every code path runs, in-process, with tiny windows.

The figures of such a run mean nothing, so only the structure is checked: the raw figures, the
required ratios (when their anchors are installed), the targets, and the JSON and PNG written.
Start-up subprocesses are left out here (``startup.case_script`` is still checked to compile).
"""

from __future__ import annotations

import importlib
import importlib.util
import json

import numba
import pytest

from benchmarks import compare, startup

REQUIRED_RATIOS = (
    "bavarian_batch_vs_openspiel_skat_cxx",
    "bavarian_batch_vs_reference",
    "knuffeln_batch_vs_reference",
    "bavarian_env_vs_pettingzoo_leduc",
)


def test_compare_runs_end_to_end_and_writes_json_and_plot(tmp_path, capsys):
    json_path = tmp_path / "bench.json"
    plot_path = tmp_path / "scaling.png"
    markdown_path = tmp_path / "bench.md"
    args = compare.Args(json=str(json_path), plot=str(plot_path), markdown=str(markdown_path),
                        games=("bavarian", "knuffeln"))
    compare.main_with_budget(args, compare.SMOKE)
    result = json.loads(json_path.read_text())
    assert plot_path.stat().st_size > 1000
    assert "| `bavarian_batch_vs_reference` |" in markdown_path.read_text()
    assert "ratios:" in capsys.readouterr().out

    for game in ("bavarian", "knuffeln"):
        figures = result["compiled_random_hands"][game]
        assert figures["one_thread"] > 0 and figures["all_threads"] > 0
        assert result["reference_random_hands"][game]["best"] > 0
        assert result["aec"]["ours"][game]["env_turns"]["best"] > 0
        assert result["batch_env"][game]["all_threads"] > 0
    assert result["pimc"]["bavarian"]["decisions_per_second"] > 0
    assert set(result["scaling"]["batch"]) and set(result["scaling"]["random_hands"])

    has_openspiel = importlib.util.find_spec("pyspiel") is not None
    has_rlcard = importlib.util.find_spec("rlcard") is not None
    expected = {"bavarian_batch_vs_reference", "knuffeln_batch_vs_reference"}
    expected |= {"bavarian_batch_vs_openspiel_skat_cxx"} if has_openspiel else set()
    expected |= {"bavarian_env_vs_pettingzoo_leduc"} if has_rlcard else set()
    assert expected <= set(result["ratios"])
    assert all(value > 0 for value in result["ratios"].values())
    assert set(result["targets"]) == set(compare.TARGETS)
    if not has_openspiel:
        assert "openspiel_skat_cxx" in result["skipped"]
    assert set(REQUIRED_RATIOS) - set(result["ratios"]) <= {
        name for name in REQUIRED_RATIOS if "openspiel" in name or "pettingzoo" in name
    }


def test_a_quick_run_leaves_the_committed_scaling_plot_alone(tmp_path, monkeypatch):
    monkeypatch.setattr(compare, "PLOT", tmp_path / "scaling.png")  # the default, here not the checkout's figure
    quick = compare.run(compare.Args(quick=True, games=("bavarian",)), compare.SMOKE)
    assert "plot" not in quick and not compare.PLOT.exists()
    full = compare.run(compare.Args(games=("bavarian",)), compare.SMOKE)
    assert full["plot"] == str(compare.PLOT) and compare.PLOT.stat().st_size > 1000


def test_a_target_that_was_not_measured_is_not_reported_missed(capsys):
    result = compare.run(compare.Args(quick=True, games=("bavarian",), plot=""), compare.SMOKE)
    knuffeln = result["targets"]["knuffeln_batch_vs_reference"]  # the game was not asked for
    assert knuffeln["measured"] is None and knuffeln["met"] is None
    assert result["targets"]["bavarian_batch_vs_reference"]["met"] is True
    compare.print_summary(result)
    (line,) = [line for line in capsys.readouterr().out.splitlines() if "knuffeln_batch_vs_reference" in line]
    assert line.endswith("not measured") and "MISSED" not in line


def test_startup_scripts_compile():
    for case in ("aec_env", "batch_env"):
        for game in ("bavarian", "knuffeln"):
            compile(startup.case_script(case, game, {"players": 4} if game == "knuffeln" else {}), case, "exec")


def test_agent_speed_benchmark_reports_every_game_and_agent():
    from benchmarks.agent_speed import Args, run

    specs = ["pimc[samples=2]", "pimc_random[samples=2]"]
    result = run(Args(games=["bavarian", "knuffeln"], agents=specs, positions=3))
    assert set(result) == {"bavarian", "knuffeln"}
    for row in result.values():
        assert row["legal_actions_mean"] > 1
        assert row["pimc[samples=2]"] > 0 and row["pimc_random[samples=2]"] > 0
        for spec in specs:  # the spread of the decisions beside the mean
            assert 0 < row["median_ms"][spec] <= row["p95_ms"][spec]


def test_training_throughput_reports_actors_in_one_and_in_several_processes():
    from benchmarks.training_throughput import Args, main

    args = Args(games=["bavarian"], num_envs=64, hidden=(16,), small_hidden=(), threads=[1], processes=2,
                seconds=0.05)
    report = main(args)
    (row,) = report["results"]
    assert row["dmc_actor_decisions_per_second"] > 0 and row["ppo_learner_samples_per_second"] > 0
    (together,) = report["processes"]
    assert together["processes"] == 2 and len(together["dmc_actor_decisions_per_second_each"]) == 2
    for name in ("env_steps", "dmc_actor_decisions", "ppo_actor_decisions"):
        each = together[f"{name}_per_second_each"]
        assert all(rate > 0 for rate in each)
        assert together[f"{name}_per_second"] <= sum(each) * 1.0001  # a sum over the same windows


@pytest.mark.parametrize("module, entry, options, complaint", [
    ("soak", "run", {"games": ("bavarian",), "hands": 10, "leak_positions": -1}, "--leak-positions must be at least 0"),
    ("soak", "run", {"games": ("bavarian",), "hands": 10, "workers": 0}, "--workers must be positive"),
    ("trick_gym_speed", "main", {"games": ["bavarian"], "num_envs": 8, "seconds": -1.0}, "--seconds must be positive"),
    ("trick_gym_speed", "main", {"games": ["chess"], "num_envs": 8, "seconds": 0.01},
     r"--games: unknown game\(s\) \['chess'\]"),
    ("agent_speed", "run", {"games": [], "agents": ["random"]}, r"--games: give at least one of \['"),
    ("agent_speed", "run", {"games": ["bavarian"], "agents": ["random"], "positions": 0},
     "--positions must be positive"),
    ("training_throughput", "main", {"games": ["bavarian"], "num_envs": 8, "hidden": (8,), "small_hidden": (),
                                     "threads": [1], "processes": 1, "seconds": 0.0}, "--seconds must be positive"),
    ("ray_scaling", "main", {"hands": 2, "repeats": 0}, "--repeats must be positive"),
])
def test_a_benchmark_refuses_a_size_that_would_measure_nothing_before_it_starts(
        monkeypatch, module, entry, options, complaint):
    import agents.ray_arena

    def no_ray(*args, **kwargs):
        raise AssertionError("Ray was started before the options were checked")

    monkeypatch.setattr(agents.ray_arena, "connect", no_ray)
    script = importlib.import_module(f"benchmarks.{module}")
    with pytest.raises(ValueError, match=complaint):
        getattr(script, entry)(script.Args(**options))


def test_trick_gym_speed_says_which_thread_counts_it_could_not_measure(capsys):
    """A thread count above numba's was dropped from the JSON without a word."""
    from benchmarks import trick_gym_speed

    too_many = numba.config.NUMBA_NUM_THREADS + 1
    results = trick_gym_speed.main(trick_gym_speed.Args(seconds=0.01, num_envs=8, games=["bavarian"],
                                                        threads=[1, too_many]))
    assert results["threads_not_measured"] == [too_many]
    assert results["numba_threads"] == numba.config.NUMBA_NUM_THREADS
    assert list(results["vector_random"]["bavarian"]) == ["1"] and results["vector_random"]["bavarian"]["1"] > 0
    assert f"not measured: --threads [{too_many}]" in capsys.readouterr().err


def test_instruction_count_rows_play_their_work_and_dumps_parse():
    from benchmarks import instruction_counts

    for row in instruction_counts.ROWS:
        for game in instruction_counts.GAMES:
            instruction_counts.row_work(game, row)()  # natively: the work runs, nothing is counted
    dump = "version: 1\ndesc: Trigger: Client Request: knuffeln:hands\nevents: Ir\nsummary: 22314521\n"
    assert instruction_counts.parse_dump(dump) == ("knuffeln:hands", 22314521)
    with pytest.raises(ValueError, match="unknown game"):
        instruction_counts.main(instruction_counts.Args(rows=["hands", "nonsense"]))
    with pytest.raises(ValueError, match="hash_seeds"):
        instruction_counts.main(instruction_counts.Args(rows=["hands"], hash_seeds=[]))
    per_seed = [{"bavarian": {"raw": {"instructions": total, "units": 3000, "per_unit": total / 3000}}}
                for total in (3000, 6000)]
    assert instruction_counts.mean_counts(per_seed) == {
        "bavarian": {"raw": {"instructions": 4500.0, "units": 3000, "per_unit": 1.5, "per_hash_seed": [3000, 6000]}}}


def test_ab_times_both_checkouts_in_pairs_and_refuses_a_folder_without_the_code(tmp_path):
    from pathlib import Path

    from benchmarks import ab

    checkout = str(Path(__file__).resolve().parents[2])
    tiny = {"window": 0.01, "env_window": 0.02, "pimc_window": 0.05}
    rows = ("compiled hands, 1 thread", "raw_env steps/s")
    result = ab.run(ab.Args(old=checkout, new=checkout, rounds=2, games=("palatinate",), rows=rows), tiny)
    assert result["old"] == result["new"] == checkout
    assert [(entry["game"], entry["row"]) for entry in result["rows"]] == [("palatinate", row) for row in rows]
    for entry in result["rows"]:
        assert len(entry["old"]) == len(entry["new"]) == len(entry["paired_ratios"]) == 2
        assert entry["paired_ratios"] == [new / old for old, new in zip(entry["old"], entry["new"], strict=True)]
        assert entry["min_ratio"] <= entry["median_ratio"] <= entry["max_ratio"]
        assert entry["median_ci95"] is None  # two rounds: too few for an interval
    assert result["rows_whose_interval_reaches_below_0_95"] == 2
    assert "| palatinate | raw_env steps/s |" in ab.markdown(result)
    with pytest.raises(RuntimeError, match="imported the code of|stopped"):  # installed or not
        ab.run(ab.Args(old=str(tmp_path), new=checkout, rounds=1, games=("palatinate",), rows=rows[:1]), tiny)
    with pytest.raises(ValueError, match="nonsense"):
        ab.run(ab.Args(old=checkout, rows=("nonsense",)))


def test_ab_interval_of_the_median_is_the_binomial_order_statistics():
    """Against the textbook table of distribution-free 95% intervals of a median (n: k-th smallest to k-th
    largest): n < 6 none, n = 6 the extremes, n = 10 the 2nd, n = 20 the 6th, n = 100 the 40th."""
    from benchmarks import ab

    assert ab.median_interval([1.0, 2.0, 3.0, 4.0, 5.0]) is None
    assert ab.median_interval([6.0, 1.0, 5.0, 2.0, 4.0, 3.0]) == (1.0, 6.0)
    for n, k in ((10, 2), (20, 6), (100, 40)):
        values = [float(v) for v in range(1, n + 1)]
        assert ab.median_interval(values[::-1]) == (float(k), float(n + 1 - k))
    with pytest.raises(ValueError, match="window_scale"):
        ab.run(ab.Args(old=".", window_scale=0.0))
