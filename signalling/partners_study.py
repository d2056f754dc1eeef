"""Hidden-partner studies: self-play ace-call hands and the certainty statistics across them, from the
per-hand summaries of ``signalling.partners`` (``hand_summary``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from trick_core.bits import derived_seed

from .deal_counting import NUM_SEATS
from .partners import ACE_CALL_CONTRACTS, certainty_trick, partner_timeline

ROLES = ("public", "declarer", "defender", "partner")


def self_play_ace_calls(game: str, agent: str, wanted: int, seed: int = 0, max_deals: int | None = None):
    """Play hands of ``game`` with ``agent`` at every seat (seeded, reproducible) until ``wanted`` ace-call
    hands are found or ``max_deals`` (default 20 x wanted) are played; (ace-call hands, deals played)."""
    from agents import make
    from trick_core.registry import make_env

    if game not in ACE_CALL_CONTRACTS:
        raise ValueError(f"hidden partners are studied in {sorted(ACE_CALL_CONTRACTS)}, not {game!r}")
    env = make_env(game)
    players = [make(agent, game) for _ in range(NUM_SEATS)]
    limit = max_deals if max_deals is not None else 20 * wanted
    hands, deals = [], 0
    while len(hands) < wanted and deals < limit:
        for index, player in enumerate(players):
            if callable(getattr(player, "reset", None)):
                player.reset(derived_seed(seed, deals, index))
        env.reset(seed=derived_seed(seed, deals))
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            seat = env.agent_selection
            env.step(players[env.unwrapped.possible_agents.index(seat)].act(env, seat))
        hand = partner_timeline(env.unwrapped.game_record())
        deals += 1
        if hand is not None:
            hands.append(hand)
    return hands, deals


def aggregate(summaries: Sequence[dict]) -> dict:
    """Across hands: per role, how often the partner is certain before each trick ends, the mean trick of
    certainty, and the mean posterior on the true holder before each trick; the rules' own reveal beside."""
    if not summaries:
        raise ValueError("no hand to aggregate")
    by_role: dict[str, list] = {role: [] for role in ROLES}
    trajectories: dict[str, list] = {role: [] for role in ("public", "declarer", "defender")}
    for summary in summaries:
        certain = summary["certain_at"]
        by_role["public"].append(certain["public"])
        by_role["declarer"].append(certain["declarer"])
        by_role["defender"] += [certain["defender_0"], certain["defender_1"]]
        by_role["partner"].append(certain["partner"])
        posterior_on = summary["posterior_on_holder"]
        trajectories["public"].append(posterior_on["public"])
        trajectories["declarer"].append(posterior_on["declarer"])
        trajectories["defender"] += [posterior_on["defender_0"], posterior_on["defender_1"]]
    reveals = [s["public_reveal"] for s in summaries]
    result = {"hands": len(summaries), "roles": {}, "rules_reveal": _trick_stats(reveals)}
    for role, points in by_role.items():
        result["roles"][role] = _trick_stats(points)
    ahead = [r - p for r, p in zip(reveals, by_role["public"], strict=True) if r is not None and p is not None]
    result["public_ahead_of_reveal"] = {
        "share_of_hands": sum(a > 0 for a in ahead) / len(ahead) if ahead else None,
        "mean_cards_ahead": float(np.mean(ahead)) if ahead else None,
    }
    result["posterior_on_holder"] = {role: _mean_trajectory(paths) for role, paths in trajectories.items()}
    return result


def _trick_stats(points: Sequence[int | None]) -> dict:
    tricks = [certainty_trick(p) for p in points]
    known = [t for t in tricks if t is not None]
    histogram = [sum(1 for t in known if t == k) for k in range(9)]
    cumulative = np.cumsum(histogram) / len(tricks)
    return {"mean_trick": float(np.mean(known)) if known else None, "never": len(tricks) - len(known),
            "by_trick": histogram, "certain_by_end_of_trick": [float(c) for c in cumulative]}


def _mean_trajectory(paths: Sequence[dict]) -> dict[int, float]:
    points = sorted({p for path in paths for p in path})
    return {p: float(np.mean([path[p] for path in paths if p in path])) for p in points}
