"""Other-Play for token talk: every seat reads and says the tokens under its own random relabelling.

Other-Play (Hu, Lerer, Peysakhovich and Foerster, 2020) trains a policy against partners whose view of
the game is transformed by a random symmetry of the game, so that a convention cannot hang on an arbitrary
label: in Hanabi it raised cross-play between independently trained agents from 2.52 to 15.32 points.
Knüffeln's ``talk="tokens:N"`` has such a symmetry: the N tokens have no preset meaning, so any permutation
of their labels leaves the game unchanged (silence is not a token and stays fixed). The suits offer no
such symmetry: the five permanent Oles are fixed cards (``H2 > C4 > S8 > H9 > D9``, two of them hearts), so
a permutation of the suits changes which cards are Oles, free cards and beaters, and with it the game.

``TokenRelabelledEnv`` wraps a Knüffeln batch env of token talk. In each hand (row) every seat draws its
own permutation ``sigma`` of the token numbers; the seat to act sees every utterance of the talk block
through ``sigma^-1`` (its own past tokens come back as it chose them), and a token it plays is said at the
table as ``sigma(k)``. A network trained on the wrapped env (``experiments.ppo --symmetry tokens``) plays
with partners whose labels are random relative to its own, so it learns only conventions that survive any
relabelling; played without the wrapper (the arena), it is an ordinary agent of the table. The
permutations of a row are redrawn whenever its hand ends and at every ``reset``, from a generator seeded
by the reset's seed (a run's segment seed), so a resumed run draws the same ones.
"""

from __future__ import annotations

import numpy as np

from trick_core.batch_env import BatchStep

SYMMETRIES = ("none", "tokens")
"""``--symmetry`` of the self-play scripts: ``tokens`` wraps the env in ``TokenRelabelledEnv``."""


class TokenRelabelledEnv:
    """A Knüffeln ``talk="tokens:N"`` batch env seen and played through per-seat token relabellings."""

    def __init__(self, env, config: dict, seed: int | None = None) -> None:
        from knuffeln_env.knuffeln.layout import MAX_TALK
        from trick_core.layout import block_starts

        from .widen import observation_blocks

        talk = str(config.get("talk", "off")) if env.game == "knuffeln" else ""
        if not talk.startswith("tokens:"):
            raise ValueError(f"token relabelling needs Knüffeln with talk='tokens:N', not {env.game} {config}")
        self.env = env
        self.tokens = int(talk.split(":")[1])
        blocks = observation_blocks(env.game, config)
        self.talk_start, self.slots = block_starts(blocks)["talk"], MAX_TALK
        self.slot_width, self.seats_in_slot = dict(blocks)["talk"] // MAX_TALK, env.num_seats
        self.vocabulary = self.tokens + 1
        self.first_token_action = env.string_to_action("token:1")
        self.rng = np.random.default_rng(seed)
        self.forward = np.zeros((env.num_envs, env.num_seats, self.tokens + 1), dtype=np.int64)
        self._redraw(np.ones(env.num_envs, dtype=bool))

    def __getattr__(self, name: str):
        return getattr(self.env, name)

    def _redraw(self, rows: np.ndarray) -> None:
        """New permutations (frame -> table, silence fixed) for every seat of ``rows``."""
        count = int(rows.sum()) * self.env.num_seats
        if count:
            order = self.rng.permuted(np.tile(np.arange(1, self.tokens + 1), (count, 1)), axis=1)
            self.forward[rows] = np.concatenate([np.zeros((count, 1), np.int64), order], axis=1).reshape(
                int(rows.sum()), self.env.num_seats, self.tokens + 1)

    def _seen(self, out: BatchStep) -> BatchStep:
        """``out`` with the talk block of each row in the frame of its seat to act."""
        observation = out.observation.copy()
        rows = np.arange(len(observation))
        forward = self.forward[rows, out.current_player]  # (rows, N + 1)
        talk = observation[:, self.talk_start: self.talk_start + self.slots * self.slot_width]
        talk = talk.reshape(len(rows), self.slots, self.slot_width)
        utterance = talk[:, :, self.seats_in_slot: self.seats_in_slot + self.vocabulary]
        talk[:, :, self.seats_in_slot: self.seats_in_slot + self.vocabulary] = np.take_along_axis(
            utterance, forward[:, None, :], axis=2)
        return out._replace(observation=observation)

    def reset(self, seed=None) -> BatchStep:
        if seed is not None:
            self.rng = np.random.default_rng([int(np.asarray(seed).ravel()[0]) if np.ndim(seed) else int(seed), 7])
        out = self.env.reset(seed=seed)
        self._redraw(np.ones(self.env.num_envs, dtype=bool))
        self._last = out
        return self._seen(out)

    def step(self, actions) -> BatchStep:
        actions = np.asarray(actions, dtype=np.int64).copy()
        rows = np.arange(len(actions))
        token = (actions >= self.first_token_action) & (actions < self.first_token_action + self.tokens)
        frame = actions[token] - self.first_token_action + 1
        table = self.forward[rows[token], self._last.current_player[token], frame]
        actions[token] = table - 1 + self.first_token_action
        out = self.env.step(actions)
        self._redraw(out.terminated)
        self._last = out
        return self._seen(out)
