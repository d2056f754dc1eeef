"""Every command that writes files at the end checks where before it plays, measures or trains: a missing
folder, a folder given for a file, or a file given for a folder is one line naming the option, and nothing
was played (the play functions are replaced by ones that fail the test)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from trick_core.output_paths import check_output_file, check_output_file_in_new_folder, check_output_folder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def places(tmp_path):
    """A missing folder, an existing folder, and a file, all inside ``tmp_path``."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "file.txt").write_text("x")
    return {"missing": tmp_path / "nodir" / "out.json", "folder": tmp_path / "folder",
            "under_file": tmp_path / "file.txt" / "sub", "fine": tmp_path / "folder" / "out.json"}


def test_the_checks(places):
    with pytest.raises(ValueError, match=r"--json '.*nodir/out.json': its folder '.*nodir' does not exist"):
        check_output_file(places["missing"], "--json")
    with pytest.raises(ValueError, match="--json .* is a folder; name a file"):
        check_output_file(places["folder"], "--json")
    with pytest.raises(ValueError, match="--json: an empty path"):
        check_output_file("", "--json")
    assert check_output_file(places["fine"], "--json") == places["fine"]
    with pytest.raises(ValueError, match="--plot-dir .* is a file, not a folder"):
        check_output_folder(places["folder"].parent / "file.txt", "--plot-dir")
    with pytest.raises(ValueError, match="--plot-dir .*file.txt/sub.* lies in .*file.txt', a file"):
        check_output_folder(places["under_file"], "--plot-dir")
    new = places["folder"] / "a" / "b"
    assert check_output_folder(new, "--plot-dir") == new and not new.exists()  # creatable; nothing created
    with pytest.raises(ValueError, match="--save-path .* lies in .*file.txt', a file"):
        check_output_file_in_new_folder(places["under_file"] / "model.zip", "--save-path")
    assert check_output_file_in_new_folder(new / "model.zip", "--save-path") == new / "model.zip"


@pytest.mark.parametrize("option", ["json", "records", "plot"])
def test_arena_outputs_are_checked_before_the_first_deal(monkeypatch, places, option):
    from agents import arena

    monkeypatch.setattr(arena, "run_arena", lambda *a, **k: pytest.fail("a deal was played"))
    args = arena.Args(game="bavarian", agents=["random", "rules"], hands=1, progress=False,
                      **{option: str(places["missing"])})
    with pytest.raises(ValueError, match=f"--{option} .*nodir/out.json.* does not exist"):
        arena.main(args)


def test_the_arena_command_says_so_in_one_line_before_playing(tmp_path):
    done = subprocess.run([sys.executable, "-m", "agents.arena", "--game", "bavarian", "--agents", "random", "rules",
                           "--json", "nodir/out.json"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 1
    assert done.stderr == "agents.arena: --json 'nodir/out.json': its folder " \
                          f"'{tmp_path / 'nodir'}' does not exist\n", done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(("change", "words"), [
    ({"json": "missing"}, "--json .* does not exist"),
    ({"plot_dir": "under_file"}, "--plot-dir .* a file"),
])
def test_tournament_outputs_are_checked_before_the_first_game(monkeypatch, places, change, words):
    from agents import tournament

    monkeypatch.setattr(tournament, "run_arena", lambda *a, **k: pytest.fail("a game was played"))
    option, place = next(iter(change.items()))
    with pytest.raises(ValueError, match=words):
        tournament.run_tournament(tournament.Args(games=["bavarian"], neural=False, progress=False,
                                                  **{option: str(places[place])}))


def test_the_tournaments_plot_dir_is_created_when_it_writes(monkeypatch, places):
    from agents import tournament

    summary = {"game": "bavarian", "hands": 1, "seed": 0, "agents": {}, "matches": []}
    monkeypatch.setattr(tournament, "run_arena", lambda *a, **k: summary)
    monkeypatch.setattr(tournament, "print_leaderboard", lambda *a, **k: None)
    written = []
    monkeypatch.setattr(tournament, "save_plot", lambda _, path: written.append(Path(path)))
    plot_dir = places["folder"] / "plots" / "today"
    tournament.run_tournament(tournament.Args(games=["bavarian"], neural=False, progress=False,
                                              plot_dir=str(plot_dir)))
    assert written == [plot_dir / "bavarian.png"] and plot_dir.is_dir()


def test_a_tournament_without_torch_names_the_extra_and_the_way_around_it(monkeypatch):
    from agents import tournament
    from trick_core.extras import MissingExtraError

    def make(name, game):
        if name == "neural":
            raise MissingExtraError("torch", "torch", "agent 'neural'")

    monkeypatch.setattr(tournament, "make", make)
    monkeypatch.setattr(tournament, "neural_available", lambda game: True)
    with pytest.raises(ValueError, match=r"'neural' needs the \[torch\] extra.*; or play without it: --no-neural"):
        tournament.check_entries(tournament.Args(games=["bavarian"]))


def test_compare_checks_its_reports_and_its_default_plot_before_measuring(monkeypatch, places, tmp_path):
    from benchmarks import compare

    with pytest.raises(ValueError, match="--json .* does not exist"):
        compare.run(compare.Args(quick=True, json=str(places["missing"])), compare.SMOKE)
    with pytest.raises(ValueError, match="--markdown .* is a folder"):
        compare.check(compare.Args(quick=True, markdown=str(places["folder"])))
    monkeypatch.setattr(compare, "PLOT", places["missing"].with_suffix(".png"))
    with pytest.raises(ValueError, match="the default --plot .* does not exist"):
        compare.check(compare.Args())  # a full run's default plot, checked too


def test_compares_default_plot_is_the_checkouts_figure_or_none(monkeypatch, tmp_path):
    from benchmarks import compare

    assert compare.default_plot(quick=False) == ROOT / "benchmarks" / "scaling.png"  # wherever it is started
    assert compare.default_plot(quick=True) is None
    monkeypatch.setattr(compare, "CHECKOUT", tmp_path)  # an installed package: no docs page beside it
    assert compare.default_plot(quick=False) is None


@pytest.mark.parametrize("module", ["benchmarks.soak", "benchmarks.agent_speed", "benchmarks.ab",
                                    "benchmarks.instruction_counts"])
def test_benchmarks_check_their_json_first(module, places):
    import importlib

    benchmark = importlib.import_module(module)
    required = {"old": str(ROOT), "new": str(ROOT)} if module == "benchmarks.ab" else {}
    with pytest.raises(ValueError, match="--json .* does not exist"):
        benchmark.check(benchmark.Args(json=str(places["missing"]), **required))


def test_training_runs_check_their_folders_first(places):
    pytest.importorskip("torch")
    from experiments import dmc
    from experiments.common import check_args

    with pytest.raises(ValueError, match="--runs-dir .* a file"):
        check_args(dmc.Args(runs_dir=str(places["under_file"])), "dmc")
    with pytest.raises(ValueError, match="--run-dir .* a file"):
        check_args(dmc.Args(run_dir=str(places["under_file"])), "dmc")


def test_the_sb3_recipe_checks_its_save_path_first(places):
    pytest.importorskip("sb3_contrib")
    from experiments.common import check_args
    from experiments.sb3_maskable_ppo import Args

    with pytest.raises(ValueError, match="--save-path .* a file"):
        check_args(Args(save_path=str(places["under_file"] / "model.zip")))


def test_the_signalling_study_checks_its_folder_first(places):
    from experiments.signalling_study import Args, check_options

    with pytest.raises(ValueError, match="--out .* a file"):
        check_options(Args(out=str(places["under_file"]), quick=True))
