"""The exact (double-dummy) solver, written once and compiled per game: the minimax settlement of a seat
when every remaining card of a perfect-information world is played perfectly by both sides.

The search runs over the kernel's own state arrays with the kernel's own legality and ``apply_action``
(copy-on-descend), so it can never disagree with the rules (the called ace, Knüffeln's free play and its
Jann, a Tout or Du ending early). What is the game's own comes from a small per-game module,
``<game>/solve.py`` (bound as the module global ``game`` of each compiled copy, like the kernel in
``trick_core.drivers``):

| name | what it is |
|---|---|
| ``searched_cards(state)`` | the cards the seat to act may play now (``uint64`` bits; 0: not a card play) |
| ``card_action(card)`` | the action that plays ``card`` |
| ``extra_action(state)`` | a searched choice that is not a card (Knüffeln's Jann ``stop``), or -1 |
| ``default_action(state)`` | a decision inside the solve that is not searched (no double, silent) |
| ``counted(state, seat, other)`` | whether ``other`` maximises the searched value (else minimises) |
| ``score(state)`` | the part of the final value already taken, added up trick by trick |
| ``final_value(state, seat)`` | the searched value once the hand is over |
| ``value_bounds(state, seat)`` | the lowest and highest final value still possible (any position) |
| ``outcome_classes(state, seat, values, settlements)`` | per settlement class: its lowest value and ``seat``'s settlement |
| ``hands_key(state)`` | a 64-bit key of the hands at a trick boundary (Schafkopf: relative ranks) |
| ``position_key(state)`` | what else the rest of the hand depends on (part of the table's key) |
| ``tricks_left(state)`` | tricks still to be played (an upper bound where a hand may end early) |
| ``distinct(state, cards)`` | ``cards`` less those equivalent to another of them in what remains |
| ``first_card(state, cards, scratch)`` | the card tried first (the playout policy's); ``SCRATCH_SIZE`` |
| ``card_order(state, card)`` | the order of the other cards: a higher key is tried first |
| ``EXACT_TRICKS`` | the tricks solved exactly by default (the policy plays the cards before them) |
| ``searched_tricks(state, exact_tricks)`` | the tricks solved exactly in this hand when ``exact_tricks`` are asked (at most those) |
| ``lean_position(state, seat, lean)`` | the card play as the game's lean position (``LEAN_SIZE`` numbers), or False |
| ``lean_value(lean, alpha, beta, keys, bounds, version, nodes)`` | the lean search's value of the searched score |

**Lean search.** Where the game's ``lean_position`` takes the position where the search starts, the
null-window tests run the game's own lean search over it (``lean_value``: the three Schafkopf games share
``schafkopf_env.lean_solve``, make/unmake over a few numbers instead of copying the kernel's state; Knüffeln
has none), with the same table, value and classes; otherwise ``search`` below, over the kernel's state.
``compiled_solver(..., lean=False)`` is the general search everywhere: the tests check the lean search
against it on thousands of positions, and the benchmark times both.

**What is searched.** Only the card play (and ``extra_action``). A decision before it (bids, calls,
doubles, Knüffeln's exchanges and talk) is taken by the game's playout policy
(``policy.heuristic_action(state, rng, 0.0)``, with a fixed random stream, so a solve is reproducible)
until the first searched decision; one inside the searched part by ``game.default_action``. With
``exact_tricks`` below the hand's tricks, the policy also plays the cards until that many tricks remain.

**The search value.** In Schafkopf the settlement is a monotone function of the declarer side's
*score* (a card point counted above all tricks together, plus the tricks: ``score``), which is added up
trick by trick; so the search is alpha-beta over the final score (the declarer's side maximises), and the
transposition table, at trick boundaries, keyed on every seat's remaining cards (``hands_key``: in
Schafkopf their ranks relative to the live cards, so that positions differing only in the cards already
played share an entry), the seat to lead and ``position_key`` (the called ace's state), holds bounds on what the *rest* of the hand adds: valid
whatever the tricks before were. Knüffeln's settlement is no such sum: its value is the settlement itself,
``score`` is zero and ``position_key`` holds the history that matters. The minimax value is located
among the game's settlement classes (``outcome_classes``; classes with equal settlements merged) by a
search of null-window tests that starts at the class the playout policy reaches (usually the answer
or next to it), a few per solve. Cards equivalent in what remains are tried once
(``distinct``); the card tried first is the table's best card of an earlier test, else the playout
policy's. The table is a fixed-size array (``new_table``) versioned per solve (an entry of an earlier
solve never matches), so a caller that solves many worlds allocates it once. The card plays of one
world (``solve_actions``) share one version: their solves are of the same hand (a card changes nothing
the key leaves out, such as the contract or the sides), so each reuses the entries of the others
(checked against fresh tables on 300 positions per game, ``benchmarks/solver.py --sharing-positions``).

| compiled function | what it does |
|---|---|
| ``solve(state, seat)`` | the exact settlement of ``seat`` (``EXACT_TRICKS`` of the game) |
| ``solve_tricks(state, seat, exact_tricks, keys, bounds, version, nodes)`` | the same with the tricks solved exactly and a table (``new_table()``) given; adds the positions searched to ``nodes[0]`` |
| ``solve_actions(state, seat, actions, exact_tricks, keys, bounds, version, nodes, out)`` | ``seat``'s exact settlement after each of ``actions``: ``out[i]`` (NaN: illegal); the card plays share one table version |
| ``solve_outcomes(world, seat, actions, samples, rng, out)`` | per redeal of the cards hidden from ``seat`` (``samples``) and candidate action: ``seat``'s exact settlement in ``out[sample, i]`` (NaN: no redeal, or the action illegal there) |
| ``solve_outcomes_tricks(world, seat, actions, samples, rng, exact_tricks, out)`` | the same with the tricks solved exactly given |
"""  # noqa: E501  (the tables' rows)

from __future__ import annotations

import functools
import importlib
import sys
import types

import numpy as np

from .bits import lowest_bit
from .drivers import compiled
from .jit import inline_njit, njit
from .specialise import code_fingerprint, compile_copies, templates_of

kernel = None
"""The game's kernel module; bound in each compiled copy."""
game = None
"""The game's solve module (``<game>/solve.py``); bound in each compiled copy."""
policy = None
"""The game's playout policy module; bound in each compiled copy."""
resample_hidden = None
"""The compiled ``trick_core.drivers.resample_hidden`` of the game; bound in each compiled copy."""

TABLE_BITS = 20
"""A table of ``new_table()`` holds ``2 ** TABLE_BITS`` entries (replaced on collision): 32 MiB (keys and bounds), for a
caller that keeps one over many solves."""
SOLVE_TABLE_BITS = 16
"""The table ``solve`` allocates for its one solve (2 MiB: zeroing a large one would cost more than a
small solve)."""
OUTCOMES_TABLE_BITS = 18
"""The table ``solve_outcomes`` allocates once for all its solves (8 MiB)."""
MAX_DEPTH = 160
"""Most decisions one solve descends through (cards, searched choices, defaults): the copy stack's rows."""
(F_ALPHA, F_BETA, F_START_ALPHA, F_START_BETA, F_BEST, F_MAXIMISING, F_SLOT, F_EXTRA, F_FIRST, F_SCORE, F_TRIED,
 F_BEST_CARD) = range(12)
FRAME_SIZE = 12
"""A searched position's row of the iterative search (``search``): its window, the window it started
with, the best value so far, whether its side maximises, its table slot (-1: none), the extra choice
not yet tried (-1: none), the card to try first (-1: none), the score already taken (``game.score``),
the card tried last and the card of the best value so far (-1: the extra choice, or none)."""
MAX_OUTCOMES = 64
"""Most settlement classes a game may list in ``outcome_classes``."""

_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def new_table(bits: int = TABLE_BITS):
    """A transposition table for ``solve_tricks``: (keys, bounds, version). Plain Python: call once."""
    size = 1 << bits
    return (np.zeros(size, dtype=np.uint64), np.zeros((size, 3), dtype=np.float64), np.zeros(1, dtype=np.uint64))


# --------------------------------------------------------------------------------------------- templates


def mix(h, value):
    """One step of the transposition key: splitmix64's finaliser over ``h`` and ``value``."""
    z = (h ^ np.uint64(value)) + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


def position_hash(state, version):
    """The transposition key of a trick boundary: every seat's hand, the seat to lead, the game's
    ``position_key``, and the table's version (an entry of an earlier solve never matches). The version
    is mixed on its own first: ``mix(version, seat)`` hashes ``version ^ seat``, so version 4 with seat 1
    led would have matched version 5 with seat 0 (the same hands with another leader, a wrong bound)."""
    h = mix(mix(np.uint64(0), version), kernel.current_seat(state))
    h = mix(h, game.hands_key(state))
    h = mix(h, game.position_key(state))
    return h | np.uint64(1)  # 0 marks an empty slot


def search(stack, seat, alpha, beta, keys, bounds, version, scratch, frames, cards_left, nodes):
    """The minimax of the searched value (``game.final_value``; the ``game.counted`` seats maximise) from
    ``stack[0]`` (fail-soft alpha-beta within ``(alpha, beta)``), iterative: position ``d`` is
    ``stack[d]``, its search state the row ``frames[d]`` (``F_*``), its untried cards
    ``cards_left[d, 0]`` and its table key ``cards_left[d, 1]``; a child is copied into
    ``stack[d + 1]``."""
    depth = 0
    frames[0, F_ALPHA] = alpha
    frames[0, F_BETA] = beta
    entering = True
    value = 0.0
    while True:
        state = stack[depth]
        if entering:
            entering = False
            nodes[0] += 1
            done = False
            while True:  # decisions the search does not branch on (forced cards too), and the end of the hand
                if kernel.current_seat(state) < 0:
                    value = game.final_value(state, seat)
                    done = True
                    break
                cards = game.searched_cards(state)
                extra = game.extra_action(state)
                if extra < 0 and cards != np.uint64(0) and (cards & (cards - np.uint64(1))) == np.uint64(0):
                    kernel.apply_action(state, game.card_action(lowest_bit(cards)))  # a forced card: no branch
                    continue
                if cards != np.uint64(0) or extra >= 0:
                    break
                kernel.apply_action(state, game.default_action(state))
            alpha = frames[depth, F_ALPHA]
            beta = frames[depth, F_BETA]
            slot = -1
            score = 0.0
            stored_card = -1
            if not done:
                low, high = game.value_bounds(state, seat)
                if state[kernel.S_TRICK_SIZE] == 0:
                    key = position_hash(state, version)
                    slot = np.int64(key & np.uint64(keys.shape[0] - 1))
                    cards_left[depth, 1] = key
                    score = game.score(state)
                    if keys[slot] == key:
                        low = max(low, bounds[slot, 0] + score)
                        high = min(high, bounds[slot, 1] + score)
                        stored_card = np.int64(bounds[slot, 2])
                if low >= beta or low == high:
                    value = low
                    done = True
                    slot = -1
                elif high <= alpha:
                    value = high
                    done = True
                    slot = -1
                else:
                    alpha = max(alpha, low)
                    beta = min(beta, high)
            if not done:
                maximising = game.counted(state, seat, kernel.current_seat(state))
                remaining = game.distinct(state, cards)
                frames[depth, F_ALPHA] = alpha
                frames[depth, F_BETA] = beta
                frames[depth, F_START_ALPHA] = alpha
                frames[depth, F_START_BETA] = beta
                frames[depth, F_BEST] = -np.inf if maximising else np.inf
                frames[depth, F_MAXIMISING] = 1.0 if maximising else 0.0
                frames[depth, F_SLOT] = slot
                frames[depth, F_SCORE] = score
                frames[depth, F_EXTRA] = extra
                if stored_card >= 0 and (remaining >> np.uint64(stored_card)) & np.uint64(1):
                    frames[depth, F_FIRST] = stored_card  # the best card of an earlier search of this position
                elif remaining != np.uint64(0):
                    frames[depth, F_FIRST] = game.first_card(state, remaining, scratch)
                else:
                    frames[depth, F_FIRST] = -1
                frames[depth, F_BEST_CARD] = -1
                cards_left[depth, 0] = remaining
        else:  # a child returned ``value``
            maximising = frames[depth, F_MAXIMISING] != 0.0
            best = frames[depth, F_BEST]
            if maximising:
                if value > best:
                    best = value
                    frames[depth, F_BEST_CARD] = frames[depth, F_TRIED]
                if best > frames[depth, F_ALPHA]:
                    frames[depth, F_ALPHA] = best
            else:
                if value < best:
                    best = value
                    frames[depth, F_BEST_CARD] = frames[depth, F_TRIED]
                if best < frames[depth, F_BETA]:
                    frames[depth, F_BETA] = best
            frames[depth, F_BEST] = best
            done = frames[depth, F_ALPHA] >= frames[depth, F_BETA]
            if not done and cards_left[depth, 0] == np.uint64(0) and frames[depth, F_EXTRA] < 0:
                done = True
            if done:
                value = best
                slot = np.int64(frames[depth, F_SLOT])
                if slot >= 0:
                    if keys[slot] != cards_left[depth, 1]:  # empty, or taken by another position
                        keys[slot] = cards_left[depth, 1]
                        bounds[slot, 0] = -np.inf
                        bounds[slot, 1] = np.inf
                    # the best card is worth trying first only where it refuted the window (or was exact)
                    if frames[depth, F_MAXIMISING] != 0.0:
                        useful = best > frames[depth, F_START_ALPHA]
                    else:
                        useful = best < frames[depth, F_START_BETA]
                    bounds[slot, 2] = frames[depth, F_BEST_CARD] if useful else -1.0
                    rest = best - frames[depth, F_SCORE]  # the table holds what the rest of the hand adds
                    if best <= frames[depth, F_START_ALPHA]:
                        bounds[slot, 1] = min(bounds[slot, 1], rest)
                    elif best >= frames[depth, F_START_BETA]:
                        bounds[slot, 0] = max(bounds[slot, 0], rest)
                    else:
                        bounds[slot, 0] = rest
                        bounds[slot, 1] = rest
        if done:
            if depth == 0:
                return value
            depth -= 1
            continue
        # descend into the next move of ``depth``
        if frames[depth, F_EXTRA] >= 0:
            action = np.int64(frames[depth, F_EXTRA])
            frames[depth, F_EXTRA] = -1.0
            frames[depth, F_TRIED] = -1.0
        else:
            card = np.int64(frames[depth, F_FIRST])
            if card < 0:
                card = pick_card(state, cards_left[depth, 0])
            frames[depth, F_FIRST] = -1.0
            cards_left[depth, 0] &= ~(np.uint64(1) << np.uint64(card))
            frames[depth, F_TRIED] = card
            action = game.card_action(card)
        child = stack[depth + 1]
        for k in range(state.shape[0]):
            child[k] = state[k]
        kernel.apply_action(child, action)
        frames[depth + 1, F_ALPHA] = frames[depth, F_ALPHA]
        frames[depth + 1, F_BETA] = frames[depth, F_BETA]
        depth += 1
        entering = True


def pick_card(state, remaining):
    """The card of ``remaining`` to try next: the highest ``game.card_order``."""
    best_card = lowest_bit(remaining)
    best_key = game.card_order(state, best_card)
    rest = remaining & (remaining - np.uint64(1))
    while rest != np.uint64(0):
        card = lowest_bit(rest)
        rest &= rest - np.uint64(1)
        key = game.card_order(state, card)
        if key > best_key:
            best_card, best_key = card, key
    return best_card


def merge_classes(values, settlements, count):
    """Sort the classes ``values[:count]`` (each the lowest value of ``game.final_value`` in its class,
    with ``seat``'s settlement in it) ascending, and merge a class into the one below when its settlement
    is the same (fewer null-window tests); returns the number left."""
    for i in range(1, count):
        value = values[i]
        units = settlements[i]
        j = i - 1
        while j >= 0 and values[j] > value:
            values[j + 1] = values[j]
            settlements[j + 1] = settlements[j]
            j -= 1
        values[j + 1] = value
        settlements[j + 1] = units
    kept = 0
    for i in range(count):
        if kept == 0 or (values[i] != values[kept - 1] and settlements[i] != settlements[kept - 1]):
            values[kept] = values[i]
            settlements[kept] = settlements[i]
            kept += 1
    return kept


def play_policy_until(state, exact_tricks, rng):
    """Take the playout policy's decisions until the first searched decision with at most
    ``exact_tricks`` tricks left (fewer where the game's ``searched_tricks`` caps them: a Bavarian Ramsch),
    or the end of the hand, in place."""
    while kernel.current_seat(state) >= 0:
        searched = game.searched_cards(state) != np.uint64(0) or game.extra_action(state) >= 0
        if searched and game.tricks_left(state) <= game.searched_tricks(state, exact_tricks):
            return
        kernel.apply_action(state, policy.heuristic_action(state, rng, 0.0))


def solve_tricks(state, seat, exact_tricks, keys, bounds, version, nodes):
    """The exact settlement of ``seat`` (module docstring), with the last ``exact_tricks`` tricks solved
    exactly and the transposition table ``keys, bounds, version`` (``new_table``; a new version, so no
    entry of an earlier solve matches); adds the positions searched to ``nodes[0]``."""
    version[0] += np.uint64(1)
    return solve_at_version(state, seat, exact_tricks, keys, bounds, version[0], nodes)


def solve_at_version(state, seat, exact_tricks, keys, bounds, version, nodes):
    """``solve_tricks`` with the table's entries of ``version`` (a number) valid: those of another solve
    that left the hand's context (contract, sides, trumps, stakes: what the key leaves out) as it is."""
    stack = np.empty((MAX_DEPTH, state.shape[0]), dtype=np.int64)
    for k in range(state.shape[0]):
        stack[0, k] = state[k]
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(0x5EED)
    play_policy_until(stack[0], exact_tricks, rng)
    if kernel.current_seat(stack[0]) < 0:
        units = np.zeros(kernel.MAX_SEATS, dtype=np.float64)
        kernel.settlement(stack[0], units)
        return units[seat]
    scratch = np.zeros(game.SCRATCH_SIZE, dtype=np.int64)
    frames = np.zeros((MAX_DEPTH, FRAME_SIZE), dtype=np.float64)
    cards_left = np.zeros((MAX_DEPTH, 2), dtype=np.uint64)
    values = np.empty(MAX_OUTCOMES, dtype=np.float64)
    settlements = np.empty(MAX_OUTCOMES, dtype=np.float64)
    count = merge_classes(values, settlements, game.outcome_classes(stack[0], seat, values, settlements))
    low = 0  # the minimax value lies in class low..high (class i: from values[i] to values[i + 1])
    high = count - 1
    guess = guessed_class(stack, seat, values, count, rng)
    lean = np.empty(game.LEAN_SIZE, dtype=np.int64)
    leaned = game.lean_position(stack[0], seat, lean)
    while low < high:
        middle = min(max(guess, low + 1), high)  # test "class >= middle" next to the guess first
        threshold = values[middle]
        if leaned:
            value = game.lean_value(lean, threshold - 0.5, threshold, keys, bounds, version, nodes)
        else:
            for k in range(state.shape[0]):
                stack[1, k] = stack[0, k]
            value = search(stack[1:], seat, threshold - 0.5, threshold, keys, bounds, version, scratch, frames,
                           cards_left, nodes)
        if value >= threshold:
            low = middle
            guess = middle + 1
        else:
            high = middle - 1
            guess = middle - 1
    return settlements[low]


def guessed_class(stack, seat, values, count, rng):
    """The class of the value the playout policy reaches from ``stack[0]`` (played out in ``stack[1]``):
    where the null-window tests start, since it is usually the answer or next to it."""
    for k in range(stack.shape[1]):
        stack[1, k] = stack[0, k]
    while kernel.current_seat(stack[1]) >= 0:
        kernel.apply_action(stack[1], policy.heuristic_action(stack[1], rng, 0.0))
    reached = game.final_value(stack[1], seat)
    guess = 0
    for i in range(count):
        if values[i] <= reached:
            guess = i
    return guess


def solve(state, seat):
    """The exact settlement of ``seat``, the game's ``EXACT_TRICKS`` solved exactly (a fresh table)."""
    size = 1 << SOLVE_TABLE_BITS
    keys = np.zeros(size, dtype=np.uint64)
    bounds = np.zeros((size, 3), dtype=np.float64)
    version = np.zeros(1, dtype=np.uint64)
    nodes = np.zeros(1, dtype=np.int64)
    return solve_tricks(state, seat, game.EXACT_TRICKS, keys, bounds, version, nodes)


def is_root_card(state, action):
    """Whether ``action`` plays one of the cards ``state``'s seat to act may play (a searched card)."""
    cards = game.searched_cards(state)
    while cards != np.uint64(0):
        card = lowest_bit(cards)
        cards &= cards - np.uint64(1)
        if game.card_action(card) == action:
            return True
    return False


def solve_actions(state, seat, actions, exact_tricks, keys, bounds, version, nodes, out):
    """``seat``'s exact settlement after each of ``actions`` in ``state``: ``out[i]`` (NaN: not legal).
    The card plays among them share one table version (their solves reuse each other's entries: a card
    changes nothing the key leaves out, so every entry is a bound of the same hand); any other action (a
    bid, a double, Knüffeln's turn or Jann) gets a version of its own, as in ``solve_tricks``."""
    mask = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
    kernel.legal_action_mask(state, mask)
    work = np.empty_like(state)
    version[0] += np.uint64(1)
    shared = version[0]
    for i in range(actions.shape[0]):
        if actions[i] < 0 or actions[i] >= mask.shape[0] or mask[actions[i]] == 0:
            out[i] = np.nan
            continue
        for k in range(state.shape[0]):
            work[k] = state[k]
        kernel.apply_action(work, actions[i])
        if is_root_card(state, actions[i]):
            out[i] = solve_at_version(work, seat, exact_tricks, keys, bounds, shared, nodes)
        else:
            out[i] = solve_tricks(work, seat, exact_tricks, keys, bounds, version, nodes)


def solve_outcomes_tricks(world, seat, actions, samples, rng, exact_tricks, out):
    """``samples`` redeals of the cards hidden from ``seat`` in ``world``; for each, every candidate
    ``actions[i]`` applied and the rest solved (``solve_actions``: one table version per world for its
    card plays): ``out[sample, i]`` (NaN: no redeal, or illegal there)."""
    size = 1 << OUTCOMES_TABLE_BITS
    keys = np.zeros(size, dtype=np.uint64)
    bounds = np.zeros((size, 3), dtype=np.float64)
    version = np.zeros(1, dtype=np.uint64)
    sampled = np.empty_like(world)
    nodes = np.zeros(1, dtype=np.int64)
    for sample in range(samples):
        if not resample_hidden(world, seat, rng, sampled):
            out[sample, :] = np.nan
            continue
        solve_actions(sampled, seat, actions, exact_tricks, keys, bounds, version, nodes, out[sample])


def solve_outcomes(world, seat, actions, samples, rng, out):
    """``solve_outcomes_tricks`` with the game's ``EXACT_TRICKS``."""
    solve_outcomes_tricks(world, seat, actions, samples, rng, game.EXACT_TRICKS, out)


# --------------------------------------------------------------------------------------------- compilation

INLINE = frozenset({"mix", "position_hash", "pick_card", "merge_classes"})
"""Small helpers inlined into the search."""
TEMPLATES = ("mix", "position_hash", "pick_card", "search", "merge_classes", "guessed_class",
             "play_policy_until", "solve_at_version", "solve_tricks", "solve", "is_root_card", "solve_actions",
             "solve_outcomes_tricks", "solve_outcomes")


@inline_njit
def never_lean(state, seat, lean):
    """The ``lean_position`` of ``compiled_solver(..., lean=False)``: no position is lean."""
    return False


def general_only(solve_module: types.ModuleType) -> types.ModuleType:
    """A copy of a game's solve module whose ``lean_position`` is ``never_lean``: the general search solves
    every position (the check of the lean search, and the benchmark's before)."""
    general = types.ModuleType(f"{solve_module.__name__}__general")
    general.__dict__.update(vars(solve_module))
    general.lean_position = never_lean
    return general


@functools.cache
def compiled_solver(kernel_module: types.ModuleType, policy_module: types.ModuleType,
                    lean: bool = True) -> types.SimpleNamespace:
    """The solver bound to a game's kernel, its solve module (``<package>.solve`` beside the kernel) and
    its playout policy (cached per process and on disk): ``solve``, ``solve_tricks``, ``solve_outcomes``,
    ``solve_outcomes_tricks``, plus ``exact_tricks`` (the game's default) and ``new_table``. With ``lean``
    (the default) a position the game's ``lean_position`` takes is searched by its lean search (the
    Schafkopf card play, ``schafkopf_env.lean_solve``); ``lean=False`` searches every position with the
    kernel's own state (``search``)."""
    package = kernel_module.__name__.rsplit(".", 1)[0]
    solve_module = importlib.import_module(f"{package}.solve")
    policy_name = policy_module.__name__.replace(".", "_")
    tag = f"{kernel_module.GAME}__{policy_name}__{code_fingerprint(kernel_module, solve_module, policy_module)}"
    if not lean:
        solve_module = general_only(solve_module)
        tag = f"{tag}__general"
    namespace = {**globals(), "kernel": kernel_module, "game": solve_module, "policy": policy_module,
                 "resample_hidden": compiled(kernel_module).resample_hidden}
    functions = compile_copies(templates_of(sys.modules[__name__], TEMPLATES), namespace, f"solver__{tag}",
                               lambda name: inline_njit if name in INLINE else njit)
    return types.SimpleNamespace(**vars(functions), exact_tricks=solve_module.EXACT_TRICKS, new_table=new_table)
