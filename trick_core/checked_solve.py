"""The exact solver's checked entry point: ``solve_position(env, seat, state)``, the minimax settlement of
``seat`` in a perfect-information position of the card play (``trick_core.solver``), for a caller with a
state from outside.

The compiled solver trusts its state as a kernel does: a wrong-sized array, a field out of range or a
seat the table does not have would index out of bounds and crash the process (or answer nonsense). Here
the state is first checked the way a batch env checks a loaded state (``trick_core.state_check.
checked_states``: shape, the env's configuration, every field in range, and the position its own deal and
actions make), then that the card play is on (a phase of ``CARD_PLAY_PHASES``: the solver's own entry
points also accept an earlier state and let the playout policy bid it, which a caller asking for the value
of a card-play position would not expect), and the seat: each a ``ValueError`` naming what is wrong.
"""

from __future__ import annotations

import operator

import numpy as np

from trick_core import solver
from trick_core.registry import game_spec, make_env
from trick_core.state_check import checked_states

CARD_PLAY_PHASES = frozenset({"play", "playing", "contra_offer", "doubling_round", "doubling", "talk", "turn_answer"})
"""The phases of the card play, by their names in the kernels' ``PHASE_NAMES``: the cards, and the
decisions taken between them (a double at an opponent's first card, Knüffeln's talk and turn answers),
which the solver takes by its documented defaults. Every phase before it (bids, calls, exchanges,
discards) is refused."""


def solve_position(env, seat: int, state: np.ndarray | None = None, exact_tricks: int | None = None) -> float:
    """``seat``'s exact settlement in ``state`` (default: ``env``'s current kernel state) with the last
    ``exact_tricks`` tricks solved exactly (default: the game's ``EXACT_TRICKS``, the policy playing the
    cards before them; fewer where the game caps a hand's exact tricks, ``searched_tricks``: a Bavarian
    Ramsch at most its last five). ``env``: the game's env (or a game name, for its default configuration), whose
    configuration the state must be of. ``ValueError`` for a malformed state, one outside the card play, a
    seat the table does not have, or a bad ``exact_tricks``."""
    if isinstance(env, str):
        env = make_env(env)
    table = env.unwrapped
    game = table.game_name
    kernel = table.kernel
    if state is None:
        state = table.kernel_state()
    loaded = checked_states(table, np.asarray(state)[None, ...] if np.ndim(state) == 1 else state,
                            np.zeros(1, dtype=np.int64))[0]
    phase = int(loaded[kernel.S_PHASE])
    phase_name = kernel.PHASE_NAMES[phase]
    if phase_name not in CARD_PLAY_PHASES:
        played = [name for name in kernel.PHASE_NAMES if name in CARD_PLAY_PHASES]
        raise ValueError(f"{game}: the solver values card-play positions (phases {played}), got a state in phase "
                         f"{phase_name!r}")
    seats = len(table.possible_agents)
    try:
        seat = operator.index(seat)
    except TypeError:
        raise ValueError(f"{game}: seat must be an integer seat number, got {seat!r}") from None
    if not 0 <= seat < seats:
        raise ValueError(f"{game}: seat must be in 0..{seats - 1} at this table, got {seat}")
    spec = game_spec(game)
    compiled = solver.compiled_solver(spec.kernel(), spec.policy())
    if exact_tricks is None:
        exact_tricks = compiled.exact_tricks
    if isinstance(exact_tricks, bool) or not isinstance(exact_tricks, (int, np.integer)) or exact_tricks < 1:
        raise ValueError(f"{game}: exact_tricks must be a positive integer, got {exact_tricks!r}")
    keys, bounds, version = compiled.new_table(solver.SOLVE_TABLE_BITS)
    nodes = np.zeros(1, dtype=np.int64)
    return float(compiled.solve_tricks(loaded, seat, int(exact_tricks), keys, bounds, version, nodes))
