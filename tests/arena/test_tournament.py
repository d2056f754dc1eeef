"""The README's main job (``python -m agents.tournament``): every game has a default size, and a small
tournament plays every entrant against every other and reports each game."""

import pytest
from rich.console import Console
from rich.markup import escape

from agents import tournament
from agents.neural import neural_available
from agents.tournament import Args, entrants, overview_table, run_tournament
from trick_core.registry import GAMES


def test_every_game_has_a_default_number_of_deals():
    assert all(isinstance(spec.tournament_deals, int) and spec.tournament_deals > 0 for spec in GAMES.values())


def test_a_small_tournament_reports_every_pair(tmp_path):
    args = Args(games=["bavarian", "knuffeln"], hands=2, progress=False, json=str(tmp_path / "t.json"))
    results = run_tournament(args, Console(file=open(tmp_path / "out.txt", "w")))
    assert set(results) == {"bavarian", "knuffeln"}
    for game, summary in results.items():
        agents = entrants(args.pimc, args.extra, game)
        shipped = {"neural"} if neural_available(game) else set()
        pimc_dd = "pimc_dd[exact_tricks=5]" if game == "bavarian" else "pimc_dd"  # the spec's tournament_agents
        assert set(summary["agents"]) == set(agents) == {"random", "rules", "pimc", pimc_dd} | shipped
        assert summary["hands"] == 2
        assert len(summary["matches"]) == len(agents) * (len(agents) - 1) // 2  # a round robin
    assert (tmp_path / "t.json").stat().st_size > 0


@pytest.mark.parametrize(("change", "words"), [
    ({"games": ["bavarian", "skat"]}, "unknown game 'skat'"),
    ({"extra": ["nosuch:make_agent"]}, "cannot import nosuch"),
    ({"pimc": "pimc[nosuch=1]"}, "unexpected keyword argument 'nosuch'"),
    ({"seed": -1}, "seed must be a non-negative integer"),
    ({"hands": 0}, "hands must be a positive integer"),
])
def test_a_bad_entry_is_found_before_the_first_game_is_played(monkeypatch, change, words):
    monkeypatch.setattr(tournament, "run_arena", lambda *a, **k: pytest.fail("a game was played"))
    with pytest.raises(ValueError, match=words):
        run_tournament(Args(**{"games": ["bavarian"], "progress": False, "neural": False, **change}))


def test_an_explicit_pimc_dd_replaces_the_games_tournament_entrant():
    """Bavarian's default ``pimc_dd`` (seven exact tricks) enters ``make run`` with five (its spec's
    ``tournament_agents``: the tournament's time budget); an entrant given on the command line is taken as is."""
    assert entrants("pimc", [], "bavarian")[3] == "pimc_dd[exact_tricks=5]"
    assert entrants("pimc", [], "palatinate")[3] == "pimc_dd"
    assert entrants("pimc", [], "bavarian", pimc_dd="pimc_dd[worlds=8]")[3] == "pimc_dd[worlds=8]"


def _summary(*agents: str) -> dict:
    return {"hands": 2, "agents": {name: {"mean_units_per_hand": float(i), "significant": False}
                                   for i, name in enumerate(agents)}}


def test_the_overview_shares_a_column_between_one_agents_settings():
    """Bavarian's ``pimc_dd[exact_tricks=5]`` and another game's ``pimc_dd`` share a column; two settings of one
    agent in the same game keep their full labels."""
    shared = overview_table({"bavarian": _summary("rules", "pimc_dd[exact_tricks=5]"),
                             "palatinate": _summary("rules", "pimc_dd")})
    assert [column.header for column in shared.columns] == ["game", "rules", "pimc_dd"]
    assert list(shared.columns[2].cells) == ["+1.00", "+1.00"]
    apart = overview_table({"bavarian": _summary("pimc", "pimc[worlds=8]")})
    assert [column.header for column in apart.columns] == ["game", "pimc", escape("pimc[worlds=8]")]
