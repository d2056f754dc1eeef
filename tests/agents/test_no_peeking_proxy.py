"""No peeking at any decision: every built-in agent plays whole hands of every game at every seat, handed
only its seat's ``SeatView`` (what the arena hands it) with a recorder of refusals. Every attempt to reach
what the seat may not see — ``state()``, ``kernel_state()``, ``game_record()``, ``clone()``, another seat's
observation, sampled world or sampled kernel state, a perfect observation, private attributes, writing to
the view — is recorded, even one the agent catches and ignores, and fails the test. At a few decisions of each hand the
agent also decides, with the same seed, on a twin table dealt differently only in cards the seat cannot
see, through the same kind of view: the decision must be the same.

The agents come from the agents' registry of names (``agents.BUILTIN_AGENTS`` and ``rules``), so a built-in
agent added there is tested here without an edit (``SMALL_SEARCH`` only keeps the search agents quick).
``test_a_cheating_agent_is_caught`` shows that an agent reading ``env.unwrapped.state()["partner"]`` while
ignoring the refusal (the mutation that passed the old twin tests) fails this harness.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from agents import BUILTIN_AGENTS, make
from agents.neural import neural_available
from agents.rules.bavarian import RulesAgent as BavarianRulesAgent
from trick_core.registry import GAME_NAMES, make_env, variant_id
from trick_core.seat_view import SeatView

AGENT_NAMES = sorted(BUILTIN_AGENTS) + ["rules"]
SMALL_SEARCH = {
    "pimc": {"samples": 3, "playouts_per_sample": 4},
    "pimc_random": {"samples": 3, "playouts_per_sample": 4},
    "nested_pimc": {"samples": 2, "playouts_per_sample": 3, "worlds": 2, "inner_playouts": 2},
    "pimc_neural": {"samples": 1},
    "ismcts": {"iterations": 40},
    "pimc_dd": {"worlds": 2, "bid_worlds": 2},
}
"""Settings that keep a search agent's decision to milliseconds (an agent not named here: its defaults)."""
CONFIGS = [(game, {}) for game in GAME_NAMES] + [("knuffeln", {"talk": "lexicon"})]
TWINS_PER_HAND = 2


def built_in_or_skip(name: str, game: str, config: dict, **kwargs):
    """``agents.make(name, game)`` with the small settings, or a skip where the agent cannot play here (a
    network shipped for the default rules only, an optional extra not installed)."""
    if name in ("neural", "pimc_neural") and (config or not neural_available(game)):
        pytest.skip(f"{name} plays the configurations with a shipped network")
    if name in BUILTIN_AGENTS and importlib.util.find_spec(BUILTIN_AGENTS[name][0]) is None:
        pytest.skip(f"{name}'s module {BUILTIN_AGENTS[name][0]} is not installed")
    return make(name, game, **{**SMALL_SEARCH.get(name, {}), **kwargs})


class Refusals(list):
    """What a seat's view refused, as ``(agent, what)`` (``SeatView``'s ``on_refusal``)."""

    def __call__(self, agent: str, what: str) -> None:
        self.append((agent, what))


def twin_table(env, config: dict, agent: str, seed: int):
    """A fresh table that replayed a world resampled for ``agent`` (differing only where it cannot see), or
    None when the world holds the same cards (the seat already knows every card)."""
    world = env.unwrapped.resample_from_infostate(agent, seed)
    twin = make_env(env.unwrapped.game_name, **config)
    twin.unwrapped.replay(world.game_record())
    return twin if twin.unwrapped.state()["hands"] != env.unwrapped.state()["hands"] else None


def play_through_views(make_agent, game: str, config: dict, hands: int, seed: int) -> tuple[Refusals, int]:
    """``hands`` whole hands, every seat played by one ``make_agent(seed)`` agent (as the arena seats one agent
    at several seats, re-seeded before each hand) through its seat's recording view; at up to
    ``TWINS_PER_HAND`` decisions with a choice, a second agent, re-seeded alike before each, decides on the
    table and on a twin table. Returns the refusals and the twin decisions compared."""
    env = make_env(game, **config)
    refusals = Refusals()
    rng = np.random.default_rng(seed)
    player, probe = make_agent(seed), make_agent(seed)
    compared = 0
    for hand in range(hands):
        env.reset(seed=seed * 100 + hand)
        player.reset(seed + hand)
        views = {agent: SeatView(env, agent, on_refusal=refusals) for agent in env.possible_agents}
        twins_left = TWINS_PER_HAND
        while not all(env.terminations.values()):
            agent = env.agent_selection
            if twins_left and len(env.unwrapped.legal_actions()) > 1 and rng.random() < 0.2:
                twin = twin_table(env, config, agent, int(rng.integers(2**31)))
                if twin is not None:
                    twins_left -= 1
                    compared += 1
                    probe.reset(compared)
                    on_table = probe.act(SeatView(env, agent, on_refusal=refusals), agent)
                    probe.reset(compared)
                    on_twin = probe.act(SeatView(twin, agent, on_refusal=refusals), agent)
                    assert on_table == on_twin, f"{agent} decides differently on a twin table, hand {hand}"
            env.step(player.act(views[agent], agent))
    return refusals, compared


@pytest.mark.parametrize("name", AGENT_NAMES)
@pytest.mark.parametrize(("game", "config"), CONFIGS, ids=[variant_id(game, config) for game, config in CONFIGS])
def test_built_in_agent_never_reaches_for_hidden_state(game, config, name):
    built_in_or_skip(name, game, config)
    hands = 1 if name == "pimc_neural" else 2  # its network playouts cost ~0.2 s a decision
    refusals, compared = play_through_views(
        lambda seed: built_in_or_skip(name, game, config, seed=seed), game, config, hands=hands, seed=3)
    assert refusals == [], f"{name} tried to reach what its seat may not see: {sorted(set(refusals))}"
    assert compared > 0, "no twin decision was compared"


class CheatingBavarianRulesAgent(BavarianRulesAgent):
    """The Bavarian rules agent, mutated to read the hidden partner whenever it can and to carry on
    silently when refused (the mutation of issue 33 that changed 165 of 6,313 card choices)."""

    def act(self, env, agent: str) -> int:
        try:
            self.peeked_partner = env.unwrapped.state()["partner"]
        except PermissionError:
            self.peeked_partner = None
        return super().act(env, agent)


def test_a_cheating_agent_is_caught():
    """The harness fails a cheat that a try/except hides: the refusal is recorded before it is raised."""
    refusals, _ = play_through_views(lambda seed: CheatingBavarianRulesAgent("bavarian", seed=seed),
                                     "bavarian", {}, hands=1, seed=3)
    assert refusals and set(refusals) == {(agent, "state") for agent, _ in refusals}
    honest, _ = play_through_views(lambda seed: BavarianRulesAgent("bavarian", seed=seed), "bavarian", {}, hands=1,
                                   seed=3)
    assert honest == []


def test_every_route_to_hidden_state_is_recorded():
    """What the recorder sees: each refusal of a view, named, including writes and another seat's calls."""
    env = make_env("palatinate", observation_type="perfect")
    env.reset(seed=1)
    me, other = env.agent_selection, next(a for a in env.possible_agents if a != env.agent_selection)
    refusals = Refusals()
    view = SeatView(env, me, on_refusal=refusals)
    attempts = {
        "state": lambda: view.unwrapped.state(),
        "kernel_state": lambda: view.unwrapped.kernel_state(),
        "game_record": lambda: view.unwrapped.game_record(),
        "clone": lambda: view.unwrapped.clone(),
        "_state": lambda: view.unwrapped._state,
        "state (env)": lambda: view.state(),
        "observe for another seat": lambda: view.observe(other),
        "resample_from_infostate for another seat": lambda: view.unwrapped.resample_from_infostate(other, 0),
        "sampled_kernel_state for another seat": lambda: view.unwrapped.sampled_kernel_state(other, 0),
        "perfect observation": lambda: view.observe(me),
        "perfect observation (unwrapped)": lambda: view.unwrapped.observe(me),
        "setting agent_selection": lambda: setattr(view, "agent_selection", other),
        "deleting _access": lambda: delattr(view, "_access"),
    }
    for attempt in attempts.values():
        with pytest.raises(PermissionError):
            attempt()
    assert [what for agent, what in refusals] == [
        "state", "kernel_state", "game_record", "clone", "_state", "state", "observe for another seat",
        "resample_from_infostate for another seat", "sampled_kernel_state for another seat",
        "perfect observation", "perfect observation",
        "setting agent_selection", "deleting _access"]
    assert {agent for agent, _ in refusals} == {me}
