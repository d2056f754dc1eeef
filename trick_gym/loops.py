"""Compiled loops of the one-seat vector env, written once for every game.

Templates in the style of ``trick_core.batch_loops``: plain functions that reach the game's rules through
the module global ``kernel``, compiled per game by ``specialise`` (a uniquely named copy whose ``kernel`` is
that game's kernel module, so numba inlines the rules and caches the machine code on disk).

Each row of the batch is one hand; ``row_info[row]`` holds the learner's bookkeeping (columns below).
After every call each row is in one of three situations, which the env reads from ``current_players``:
the learner is to act (``current_players == row_info[:, LEARNER_SEAT]``), another seat is to act (only
when opponents are a Python policy: the env asks it and calls ``opponent_step_rows``), or, in next-step
autoreset mode, the learner's hand has ended and the row waits for its reset (``AWAITING_RESET`` set,
``current_players`` -1).
"""

from __future__ import annotations

import functools
import types

from numba import prange

from trick_core import batch_loops, drivers
from trick_core.bits import random_legal_action, uniform_below_modulo
from trick_core.jit import njit
from trick_core.specialise import code_fingerprint, compile_copies

kernel = None
"""The game's kernel module; bound in each specialised copy."""
advance = None
"""The game's ``advance`` driver (``trick_core.drivers``); bound in each specialised copy."""

LEARNER_SEAT, LEARNER_ACTED, AWAITING_RESET, HANDS_SKIPPED, RANDOM_SEAT, FINAL_SEAT = range(6)
"""Columns of ``row_info``: the learner's seat in the row's hand; 1 once it has acted in that hand; 1 while
the ended hand waits for a next-step reset; hands the learner sat through without a decision (ever);
1 to draw the learner's seat for every hand; the learner's seat in the hand that ended last."""
ROW_INFO_COLUMNS = 6

TEMPLATE_NAMES = ("new_hand", "continue_row", "reset_rows", "learner_step_rows", "opponent_step_rows")
SERIAL_TEMPLATES = ("new_hand", "continue_row", "opponent_step_rows")


def new_hand(state, params, deal_rng, seat_rng, info, mask, num_seats):
    """Deal the row's next hand, draw the learner's seat if it is drawn per hand; return the seat to act.
    A hand over before anyone acts (no game deals one) is dealt again."""
    kernel.deal_random(state, params, deal_rng)
    seat = kernel.current_seat(state)
    while seat < 0:
        kernel.deal_random(state, params, deal_rng)
        seat = kernel.current_seat(state)
    if info[RANDOM_SEAT] == 1:
        info[LEARNER_SEAT] = uniform_below_modulo(seat_rng, num_seats)
    info[LEARNER_ACTED] = 0
    kernel.legal_action_mask(state, mask)
    return seat


def continue_row(seat, state, params, deal_rng, action_rng, seat_rng, info, random_opponents, next_step,
                 obs_type, observation, mask, rewards_row, settlement_row, final_observation):
    """Carry a row on from ``seat`` (to act; -1: the hand just ended) until the learner is to act, or an
    opponent is (Python policy opponents), or the learner's hand ended (next-step mode). An ended hand in
    which the learner acted is settled into ``rewards_row`` (every seat) and the learner's final observation;
    one in which it did not is skipped. Return the learner's reward from hands ended here, and whether
    such a hand ended."""
    reward = 0.0
    ended = False
    while True:
        if seat < 0:
            learner = info[LEARNER_SEAT]
            if info[LEARNER_ACTED] == 1:
                kernel.settlement(state, settlement_row)
                for s in range(rewards_row.shape[0]):
                    rewards_row[s] = settlement_row[s]
                reward += settlement_row[learner]
                ended = True
                info[FINAL_SEAT] = learner
                kernel.observe(state, learner, obs_type, final_observation)
                if next_step:
                    info[AWAITING_RESET] = 1
                    info[LEARNER_ACTED] = 0
                    for a in range(mask.shape[0]):
                        mask[a] = 0
                    observation[:] = final_observation
                    return reward, ended, -1
            else:
                info[HANDS_SKIPPED] += 1
            seat = new_hand(state, params, deal_rng, seat_rng, info, mask, rewards_row.shape[0])
            continue
        if seat == info[LEARNER_SEAT] or not random_opponents:
            break
        seat = advance(state, random_legal_action(mask, action_rng), mask)
    kernel.observe(state, seat, obs_type, observation)
    return reward, ended, seat


def reset_rows(states, params, deal_rngs, action_rngs, seat_rngs, row_info, random_opponents, obs_type,
               observations, action_masks, current_players, rewards, settlements, final_observations):
    """Carry every row's freshly dealt hand (the batch env's ``reset``) on to the learner's first decision,
    drawing the learner's seat first where it is drawn per hand."""
    for i in prange(states.shape[0]):
        info = row_info[i]
        info[AWAITING_RESET] = 0
        info[LEARNER_ACTED] = 0
        rewards[i, :] = 0.0
        if info[RANDOM_SEAT] == 1:
            info[LEARNER_SEAT] = uniform_below_modulo(seat_rngs[i], rewards.shape[1])
        _, _, seat = continue_row(
            current_players[i], states[i], params, deal_rngs[i], action_rngs[i], seat_rngs[i], info,
            random_opponents, False, obs_type, observations[i], action_masks[i], rewards[i], settlements[i],
            final_observations[i],
        )
        current_players[i] = seat


def learner_step_rows(states, params, deal_rngs, action_rngs, seat_rngs, row_info, actions, random_opponents,
                      next_step, obs_type, observations, action_masks, current_players, rewards, settlements,
                      final_observations, learner_rewards, terminated):
    """Apply the learner's (validated) action in every row where it is to act, reset the rows awaiting a
    next-step reset, and carry every row on (see ``continue_row``)."""
    for i in prange(states.shape[0]):
        rewards[i, :] = 0.0
        learner_rewards[i] = 0.0
        terminated[i] = False
        info = row_info[i]
        if info[AWAITING_RESET] == 1:
            info[AWAITING_RESET] = 0
            seat = new_hand(states[i], params, deal_rngs[i], seat_rngs[i], info, action_masks[i], rewards.shape[1])
        else:
            info[LEARNER_ACTED] = 1
            seat = advance(states[i], actions[i], action_masks[i])
        reward, ended, seat = continue_row(
            seat, states[i], params, deal_rngs[i], action_rngs[i], seat_rngs[i], info, random_opponents,
            next_step, obs_type, observations[i], action_masks[i], rewards[i], settlements[i],
            final_observations[i],
        )
        learner_rewards[i] = reward
        terminated[i] = ended
        current_players[i] = seat


def opponent_step_rows(states, params, deal_rngs, action_rngs, seat_rngs, row_info, rows, actions, next_step,
                       obs_type, observations, action_masks, current_players, rewards, settlements,
                       final_observations, learner_rewards, terminated):
    """Apply one (validated) opponent action in each listed row and carry the row on; rewards and
    terminations add to those of the learner's step."""
    for j in range(rows.shape[0]):
        i = rows[j]
        seat = advance(states[i], actions[j], action_masks[i])
        reward, ended, seat = continue_row(
            seat, states[i], params, deal_rngs[i], action_rngs[i], seat_rngs[i], row_info[i], False, next_step,
            obs_type, observations[i], action_masks[i], rewards[i], settlements[i], final_observations[i],
        )
        learner_rewards[i] += reward
        terminated[i] = terminated[i] or ended
        current_players[i] = seat


@njit
def first_illegal_learner_row(actions, action_masks, row_info):
    """Index of the first row where the learner must act and ``actions`` is out of range or illegal, or -1
    (rows awaiting a next-step reset take any action)."""
    num_actions = action_masks.shape[1]
    for i in range(actions.shape[0]):
        if row_info[i, AWAITING_RESET] == 1:
            continue
        action = actions[i]
        if action < 0 or action >= num_actions or action_masks[i, action] == 0:
            return i
    return -1


@functools.cache
def specialise(kernel_module: types.ModuleType, game: str, parallel: bool) -> types.SimpleNamespace:
    """Compiled copies of the templates bound to ``kernel_module`` (cached per process and on disk)."""
    tag = f"one_seat__{game}__{batch_loops.variant_tag(parallel)}__{code_fingerprint(kernel_module)}"
    templates = [globals()[name] for name in TEMPLATE_NAMES]
    namespace = {**globals(), "kernel": kernel_module, "advance": drivers.compiled(kernel_module).advance}
    return compile_copies(templates, namespace, tag, batch_loops.decorator_for(parallel, SERIAL_TEMPLATES))
