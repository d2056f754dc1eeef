"""The README's main job (``python -m agents.tournament``): every game has a default size, and a small
tournament plays every entrant against every other and reports each game."""

from rich.console import Console

from agents.games import GAMES
from agents.tournament import DEFAULT_HANDS, Args, entrants, run_tournament


def test_every_game_has_a_default_number_of_deals():
    assert set(DEFAULT_HANDS) == set(GAMES)
    assert all(isinstance(n, int) and n > 0 for n in DEFAULT_HANDS.values())


def test_a_small_tournament_reports_every_pair(tmp_path):
    args = Args(games=["bavarian", "knuffeln"], hands=2, progress=False, json=str(tmp_path / "t.json"))
    results = run_tournament(args, Console(file=open(tmp_path / "out.txt", "w")))
    assert set(results) == {"bavarian", "knuffeln"}
    for game, summary in results.items():
        agents, _ = entrants(game, args.pimc, args.extra)
        assert set(summary["agents"]) == set(agents) == {"random", "rules", "pimc", "neural"}
        assert summary["hands"] == 2
        assert len(summary["matches"]) == 6  # a round robin of four agents
    assert (tmp_path / "t.json").stat().st_size > 0
