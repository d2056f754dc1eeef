"""A plug-in agent that tries to read the cards its seat cannot see, for ``test_seat_view``.

Each decision it tries every route a careless or hostile agent would, records what came back in
``ATTEMPTS`` (``(route, "refused" | repr of what it got)``), then plays its first legal action."""

from __future__ import annotations

import numpy as np

ATTEMPTS: list[tuple[str, str]] = []


def _observe_as_other_after(rewrite):
    """A route that rewrites a seat mapping so that ``observe(me)`` would read ``other``'s seat: what it
    observes then if that differs from its own observation, else refused (nothing leaked)."""

    def route(env, me, other):
        own = env.observe(me)["observation"].copy()
        rewrite(env, me, other)
        seen = env.observe(me)["observation"]
        if np.array_equal(seen, own):
            raise PermissionError("the rewrite did not reach the table")
        return seen

    return route


def _rewrite(mapping, me, other):
    mapping[me] = mapping[other]

ROUTES = {
    "unwrapped.state()": lambda env, me, other: env.unwrapped.state(),
    "unwrapped.kernel_state()": lambda env, me, other: env.unwrapped.kernel_state(),
    "unwrapped.game_record()": lambda env, me, other: env.unwrapped.game_record(),
    "unwrapped._state": lambda env, me, other: env.unwrapped._state,
    "unwrapped._deal": lambda env, me, other: env.unwrapped._deal,
    "state()": lambda env, me, other: env.state(),
    "observe(other seat)": lambda env, me, other: env.observe(other),
    "unwrapped.observe(other seat)": lambda env, me, other: env.unwrapped.observe(other),
    "resample for another seat": lambda env, me, other: env.unwrapped.resample_from_infostate(other, 0),
    "sampled kernel state for another seat": lambda env, me, other: env.unwrapped.sampled_kernel_state(other, 0),
    "vars(view)": lambda env, me, other: vars(env),
    "view.__dict__": lambda env, me, other: env.__dict__,
    "unwrapped.__dict__": lambda env, me, other: env.unwrapped.__dict__,
    "unwrapped.env": lambda env, me, other: env.unwrapped.env,
    "view.env": lambda env, me, other: env.env,
    "setattr": lambda env, me, other: setattr(env, "agent_selection", other),
    "action_to_string.__self__": lambda env, me, other: env.unwrapped.action_to_string.__self__,
    "string_to_action.__self__": lambda env, me, other: env.unwrapped.string_to_action.__self__,
    "observation_space.__self__": lambda env, me, other: env.observation_space.__self__,
    "action_space.__self__": lambda env, me, other: env.action_space.__self__,
    "rewrite agent_name_mapping": _observe_as_other_after(
        lambda env, me, other: _rewrite(env.agent_name_mapping, me, other)),
    "rewrite unwrapped.agent_name_mapping": _observe_as_other_after(
        lambda env, me, other: _rewrite(env.unwrapped.agent_name_mapping, me, other)),
    "rewrite a sampled world's agent_name_mapping": _observe_as_other_after(
        lambda env, me, other: _rewrite(env.unwrapped.resample_from_infostate(me, 0).agent_name_mapping, me, other)),
}


class HostileAgent:
    name = "hostile"

    def __init__(self, game: str) -> None:
        self.game = game

    def act(self, env, agent: str) -> int:
        other = next(a for a in env.possible_agents if a != agent)
        for route, attempt in ROUTES.items():
            try:
                got = attempt(env, agent, other)
            except (PermissionError, AttributeError, TypeError):
                ATTEMPTS.append((route, "refused"))
            else:
                ATTEMPTS.append((route, repr(got)[:200]))
        return int(np.flatnonzero(env.observe(agent)["action_mask"])[0])


def make_agent(game: str, **kwargs) -> HostileAgent:
    return HostileAgent(game, **kwargs)
