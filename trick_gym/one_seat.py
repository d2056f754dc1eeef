"""The one-seat Gymnasium env: the learner holds one seat of a game, other players hold the rest.

One episode is one hand (with Knüffeln ``match=True``, one match). ``reset`` deals, lets the other seats
play until the learner is to act, and returns the learner's observation; ``step(action)`` applies the
learner's action and again lets the others play until the learner is to act or the hand is over. The
reward is the learner's own settlement for the hand, in the rules' units, given in the step that ends
it (0 before): the result reaches the seat whose decisions earned it, whoever moved last.

A hand in which the learner takes no decision (the dealer who sits out in Palatinate ``players=4``; a
Bavarian Sie bid before the learner's turn) is played out by the others and is not an episode: the next
hand is dealt at once (``info["hands_skipped"]`` counts them).

Observations (``observation_mode``):

- ``"vector"`` (default): ``Box`` — the seat's observation vector, exactly the AEC env's
  ``observation["observation"]`` (``observation_type`` as there). The legal actions come from
  ``action_masks()`` (what SB3-contrib's ``MaskablePPO`` calls) and ``info["action_mask"]``. The default,
  because most single-agent libraries feed the whole observation to the network, and a mask inside it
  would become an input feature rather than a constraint.
- ``"dict"``: ``Dict(observations=Box, action_mask=Box(0, 1, (num_actions,), int8))`` — the layout of
  RLlib's action-masking model (the ``"observations"`` key, plural) and of other masked-model recipes.

Illegal moves. By default (``illegal_action="terminate"``, as PettingZoo's classic envs do) an illegal move
ends the episode with ``illegal_reward`` for the learner, and ``info["illegal_action"]`` set; so Gymnasium's
and SB3's ``check_env``, which step unmasked random actions, pass on every registered id as it is. The
default ``illegal_reward`` (None) is the worst settlement a seat can suffer in one hand of the game and
config (``trick_gym.penalties``: Bavarian −114, Palatinate −1216, Asserufen −1728, Knüffeln −78 with the
default rules): no legal way of losing is worse, so an unmasked learner has no reason to learn illegal
moves. ``illegal_action="raise"`` raises ``IllegalActionError`` (a ``ValueError``) naming the action and
the legal ones instead, for code that must never play one. An action that is not an integer index (a
float, a bool, an array of shape ``(1,)``) is a programming error, not an illegal move: it raises
``ActionTypeError`` (a ``TypeError``, and an ``IllegalActionError``) in either mode.

``gymnasium.make(id)`` returns the ``OneSeatEnv`` itself (the ids are registered without Gymnasium's
order-enforcing and checker wrappers, which forward no attributes in Gymnasium 1.x; the env checks the
order of ``reset`` and ``step`` itself), so ``env.action_masks()`` works on it. Under wrappers of your own,
call ``env.unwrapped.action_masks()`` (SB3-contrib finds it through wrappers by itself).
"""

from __future__ import annotations

import gymnasium
import numpy as np

from trick_core.aec import IllegalActionError, integer_action
from trick_core.env_options import check_illegal_action

from .games import GYM_IDS, check_game, make_aec_env
from .opponents import resolve_opponents
from .penalties import worst_settlement

OBSERVATION_MODES = ("vector", "dict")
MAX_SKIPPED_HANDS = 1000
"""A seat that takes no decision in this many hands in a row never will (e.g. a seat that always sits out)."""


def check_seat(seat, num_seats: int):
    """``seat`` as an int in ``0..num_seats-1``, or ``"random"`` (a seat drawn for each hand)."""
    if seat == "random":
        return seat
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < num_seats:
        raise ValueError(f"seat must be 0..{num_seats - 1} or 'random', got {seat!r}")
    return int(seat)


def observation_spaces(table_space: gymnasium.spaces.Dict, observation_mode: str) -> gymnasium.spaces.Space:
    """The learner's observation space in ``observation_mode`` (see the module docstring), from a seat's
    PettingZoo ``Dict(observation, action_mask)`` space."""
    if observation_mode not in OBSERVATION_MODES:
        raise ValueError(f"unknown observation_mode {observation_mode!r}; choose from {OBSERVATION_MODES}")
    if observation_mode == "vector":
        return table_space["observation"]
    return gymnasium.spaces.Dict(
        {"observations": table_space["observation"], "action_mask": table_space["action_mask"]}
    )


class OneSeatEnv(gymnasium.Env):
    """One seat of ``game`` for a single-agent learner (see the module docstring).

    ``OneSeatEnv(game, opponents="random", seat=0, observation_mode="vector", observation_type="observation",
    illegal_action="terminate", illegal_reward=None, render_mode=None, **config)`` (``illegal_reward`` None:
    the game's worst settlement, module docstring); ``config`` holds the game's
    rule options, exactly those of its PettingZoo env (``variant=``, ``players=``, ``talk=``, ...).
    ``opponents``: see ``trick_gym.opponents``. ``seat``: the learner's seat, or ``"random"`` for a seat
    drawn from the env's seeded generator for every hand.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        game: str = "bavarian",
        opponents="random",
        seat: int | str = 0,
        observation_mode: str = "vector",
        observation_type: str = "observation",
        illegal_action: str = "terminate",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
        **config,
    ) -> None:
        self.game = check_game(game)
        if illegal_reward is not None:
            check_illegal_action(illegal_action, illegal_reward)
        self.aec_env = make_aec_env(game, observation_type=observation_type, render_mode=render_mode, **config)
        """The PettingZoo table the hand is played on (``game_record()``, ``state()`` for analysis)."""
        self.config = dict(self.aec_env.config)
        if illegal_reward is None:
            illegal_reward = worst_settlement(self.game, self.config)
        illegal_reward = check_illegal_action(illegal_action, illegal_reward)
        self.num_seats = self.aec_env.num_seats
        self.seat_choice = check_seat(seat, self.num_seats)
        self.observation_mode = observation_mode
        self.observation_space = observation_spaces(
            self.aec_env.observation_space(self.aec_env.possible_agents[0]), observation_mode
        )
        self.action_space = gymnasium.spaces.Discrete(self.aec_env.num_actions)
        self.illegal_action = illegal_action
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.opponents = resolve_opponents(opponents, game, self.num_seats - 1)
        self.seat = self.seat_choice if self.seat_choice != "random" else 0
        """The learner's seat in the current hand."""
        self._over = True
        self._started = False

    # ------------------------------------------------------------------ gymnasium API

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal a hand (at random, or ``options={"deal": {...}}``: the AEC env's fixed-deal ``reset`` options)
        and play the other seats until the learner is to act. ``options={"seat": s}`` seats the learner
        at ``s`` for this hand."""
        super().reset(seed=seed)
        options = dict(options or {})
        deal = options.pop("deal", None)
        seat = check_seat(options.pop("seat", self.seat_choice), self.num_seats)
        if options:
            raise ValueError(f"unknown reset option(s) {sorted(options)}; known: ['deal', 'seat']")
        skipped = self._start_hand(seat, deal)
        self._started = True
        info = self._info()
        info["hands_skipped"] = skipped
        return self._observation(), info

    def step(self, action):
        if not self._started:
            raise RuntimeError(f"{self.game}: reset() must be called before step()")
        if self._over:
            raise RuntimeError(f"{self.game}: the hand is over; call reset() to deal the next one")
        legal = self.aec_env.observe(self._learner)["action_mask"]
        if not _is_index(action, legal.size) or not legal[int(action)]:
            return self._illegal(action, legal)
        reward = self._play(int(action))
        self._over = not self.aec_env.agents or self.aec_env.terminations[self._learner]
        info = self._info()
        if self._over:
            info["result"] = self.aec_env.game_record()["result"]
        return self._observation(), reward, self._over, False, info

    def action_masks(self) -> np.ndarray:
        """``bool (num_actions,)``: the learner's legal actions now (all False once the hand is over)."""
        if self._over:
            return np.zeros(self.action_space.n, dtype=bool)
        return self.aec_env.observe(self._learner)["action_mask"].astype(bool)

    def render(self):
        return self.aec_env.render()

    def close(self) -> None:
        self.aec_env.close()

    def action_to_string(self, action: int) -> str:
        return self.aec_env.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return self.aec_env.string_to_action(text)

    # ------------------------------------------------------------------ the hand

    @property
    def _learner(self) -> str:
        return self.aec_env.possible_agents[self.seat]

    def _start_hand(self, seat, deal: dict | None) -> int:
        """Deal until a hand in which the learner acts; return how many hands were skipped."""
        for skipped in range(MAX_SKIPPED_HANDS):
            self.seat = int(self.np_random.integers(self.num_seats)) if seat == "random" else seat
            for opponent in self.opponents:
                opponent.reseed(int(self.np_random.integers(2**63)))
            if deal is None:
                self.aec_env.reset(seed=int(self.np_random.integers(2**63)))
            else:
                self.aec_env.reset(options=deal)
            self._play(None)
            if self.aec_env.agents and not self.aec_env.terminations[self._learner]:
                self._over = False
                return skipped
            if deal is not None:
                raise ValueError(f"{self.game}: in the deal given, {self._learner} takes no decision")
        raise RuntimeError(f"{self.game}: seat {seat} took no decision in {MAX_SKIPPED_HANDS} hands")

    def _play(self, learner_action: int | None) -> float:
        """Apply the learner's action (if any), then the others' until the learner is to act or the hand is
        over; return the learner's reward over those steps."""
        table = self.aec_env
        learner = self._learner
        reward = 0.0
        if learner_action is not None:
            table.step(learner_action)
            reward += table.rewards[learner]
        while table.agents and not table.terminations[learner]:
            agent = table.agent_selection
            if agent == learner:
                break
            relative_seat = (table.agent_name_mapping[agent] - self.seat) % self.num_seats
            action = self.opponents[relative_seat - 1].choose(table, agent)
            if type(action) is not int:  # 37.9 is no action: refused, not truncated (ActionTypeError)
                action = integer_action(action, f"{self.game}: the opponent playing {agent}",
                                        table.legal_action_strings())
            table.step(action)
            reward += table.rewards[learner]
        return float(reward)

    def _illegal(self, action, legal: np.ndarray):
        legal_names = [self.aec_env.action_to_string(int(a)) for a in np.flatnonzero(legal)]
        action = integer_action(action, self.game, legal_names)  # a wrong type raises whatever illegal_action says
        try:
            name = repr(self.aec_env.action_to_string(int(action)))
        except (TypeError, ValueError):
            name = "out of range"
        message = (
            f"{self.game}: illegal action {action!r} ({name}) for the learner ({self._learner}); legal now: "
            f"{', '.join(legal_names)}. Mask the policy with env.action_masks() (env.unwrapped.action_masks() "
            f"under wrappers) or info['action_mask']"
        )
        if self.illegal_action == "raise":
            raise IllegalActionError(
                message + "; environment checkers that step random actions need illegal_action='terminate' "
                "(the default)"
            )
        gymnasium.logger.warn(f"{message}. Ending the episode with reward {self.illegal_reward}.")
        self._over = True
        info = self._info()
        info["illegal_action"] = True
        return self._observation(), self.illegal_reward, True, False, info

    # ------------------------------------------------------------------ outputs

    def _observation(self):
        seen = self.aec_env.observe(self._learner)
        if self._over:
            seen["action_mask"][:] = 0
        if self.observation_mode == "vector":
            return seen["observation"]
        return {"observations": seen["observation"], "action_mask": seen["action_mask"]}

    def _info(self) -> dict:
        return {"seat": self.seat, "action_mask": self.action_masks()}


def _is_index(action, size: int) -> bool:
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    return isinstance(action, (int, np.integer)) and not isinstance(action, bool) and 0 <= int(action) < size


def make_env(game: str, **kwargs) -> gymnasium.Env:
    """``gymnasium.make`` of the game's registered id (``Bavarian-v0``, ...) with ``kwargs``."""
    return gymnasium.make(GYM_IDS[check_game(game)], **kwargs)
