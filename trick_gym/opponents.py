"""Who plays the seats the learner does not hold in a one-seat env.

An opponent is given as

- an ``agents.make`` name (``"random"``, ``"rules"``, ``"pimc"``, ``"pimc[samples=8]"``, ``"package.module:attr"``),
- an agent object (anything with ``act(env, agent) -> int``, such as ``agents.make(...)`` returns), or
- a policy callable ``(observation, action_mask) -> action`` on one seat's observation vector and int8 mask,
  e.g. a frozen copy of the learner for self-play.

``opponents`` is one of these for every other seat, or a sequence with one per other seat, listed
clockwise from the learner (the seat after it first). Agent names build one agent per seat, so agents
that keep per-seat state never share it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


class Opponent:
    """One seat's player: ``choose(aec_env, agent_name) -> action``; ``reseed(seed)`` before each hand."""

    def __init__(self, player, game: str) -> None:
        if isinstance(player, str):
            import agents

            player = agents.make(player, game)
        if callable(getattr(player, "act", None)):
            self.agent, self.policy = player, None
        elif callable(player):
            self.agent, self.policy = None, player
        else:
            raise ValueError(
                f"an opponent must be an agents.make name, an agent with act(env, agent), or a callable "
                f"(observation, action_mask) -> action; got {player!r}"
            )
        self.name = getattr(self.agent, "name", getattr(player, "__name__", type(player).__name__))

    def reseed(self, seed: int) -> None:
        reset = getattr(self.agent, "reset", None)
        if callable(reset):
            reset(seed)

    def choose(self, aec_env, agent_name: str) -> int:
        if self.agent is not None:
            return self.agent.act(aec_env, agent_name)
        seen = aec_env.observe(agent_name)
        return self.policy(seen["observation"], seen["action_mask"])


def resolve_opponents(opponents, game: str, count: int) -> list[Opponent]:
    """``count`` opponents, one per other seat clockwise from the learner (see the module docstring)."""
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        if len(opponents) != count:
            raise ValueError(
                f"{game}: opponents lists one player per other seat ({count}), got {len(opponents)}"
            )
        return [Opponent(player, game) for player in opponents]
    return [Opponent(opponents, game) for _ in range(count)]


def batch_policy_of(opponents) -> Callable | None:
    """The vector env's opponents: ``"random"`` (None: played in compiled code) or a batched policy
    callable ``(observations (n, obs_size), action_masks (n, num_actions)) -> actions (n,)``."""
    if isinstance(opponents, str):
        if opponents != "random":
            raise ValueError(
                f"the vector env plays opponents 'random' in compiled code or through a batched policy callable "
                f"(observations, action_masks) -> actions; agent {opponents!r} plays one seat at a time: use the "
                f"one-seat env (gymnasium.make(..., opponents={opponents!r})) in a gymnasium SyncVectorEnv instead"
            )
        return None
    if not callable(opponents) or callable(getattr(opponents, "act", None)):
        raise ValueError(f"vector env opponents must be 'random' or a batched policy callable, got {opponents!r}")
    return opponents
