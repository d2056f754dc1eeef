"""The ``ismcts`` agent: Single-Observer Information Set Monte Carlo Tree Search, compiled per game.

SO-ISMCTS (Cowling, Powley & Whitehouse 2012) grows one tree over the searching seat's information set
instead of one flat evaluation per sampled world (PIMC). A node is a sequence of actions from the
decision at hand (``agents.make("ismcts", game, iterations=...)``; on the arena's command line
``"ismcts[iterations=500]"``). Each iteration:

1. **determinize**: redeal the cards hidden from the seat, consistently with all it knows (the kernel's
   ``resample_hidden`` of ``trick_core.drivers``, from a world of ``sampled_kernel_state``, so no
   hidden card of the real table reaches the search);
2. **select**: from the root, while the node's actions legal *in this world* all have children (below
   the root: while the node has at least ``1 + widening * sqrt(visits)`` of them), pick among those
   children by UCB1 with availability counts, ``mean + c * sqrt(ln(availability) / visits)``, where a
   child's availability counts the selections at its parent in which its action was legal; then every
   such child's availability goes up by one;
3. **expand** one untried legal action: the playout policy's choice if it is untried, else one at random;
4. **play out** the rest of the hand with the game's heuristic playout policy (the ``pimc`` playouts,
   ``epsilon`` their share of random cards);
5. **back up** the settlement: each node adds the settlement of the seat that chose the action leading
   to it, so every seat maximises its own side's result (in a Rufer, an Asserufen ace-call game or a
   Knüffeln partnership a seat's settlement is its side's, whoever the partner is in the world).

The agent plays the most visited root action (ties: the lower action index). Settlements are in units
of the game (cents, points, with doublings heavy tails), so ``c`` is ``exploration`` times the standard
deviation of the seat's settlements seen so far in the search.

Departures from the paper, each for a measured or stated reason:

- *progressive widening* below the root (``widening``) with the playout policy's choice expanded first:
  a node with a dozen discards or cards does not spend its first visits on all of them at random;
- the tree stops where the seat holds a card it could not see at the root (a picked-up skat): SO-ISMCTS
  keys the seat's later nodes by actions only, so it would choose one discard and one trump for every
  possible skat; from there on the playout plays, per world, as in PIMC;
- ``bid_iterations`` (default four times ``iterations``, as ``pimc``'s ``bid_samples``) for decisions
  without card play;
- ``others="policy"`` lets the other seats choose by the playout policy inside the tree instead of by
  UCB (in SO-ISMCTS they search in the searcher's tree, so they play as if they knew its hand); the
  default ``"search"`` is the plain algorithm.

Everything but one ``sampled_kernel_state`` per decision runs in one compiled function
(``ismcts_search``, a template compiled per game with its kernel, ``resample_hidden`` and playout policy
by ``trick_core.specialise``, like the drivers), with the tree in arrays preallocated for
``iterations + 1`` nodes: one node is added per iteration, children are linked lists (first child, next
sibling). Decisions with one legal action below the root are played without a node; a forced move at
the root costs nothing (``act`` plays it without searching).

Knüffeln's talk variants: the agent keeps silent at its talk turns, as ``pimc`` does (the playouts cannot
tell one utterance from another), and inside the tree every seat keeps silent. Face-down plays
(``turn:``) and answers to them are searched like any other action.

Limits. SO-ISMCTS treats every action as seen by everybody: inside the tree an opponent's face-down
card or discard is a branch of its own, although the searching seat could not tell those branches apart
(MO-ISMCTS would merge them). Like PIMC, the determinizations respect the legality of the bids and turns
made so far, not the strength they show. Unlike PIMC, which compares every action on the same worlds,
each action here is valued on worlds of its own, so in games with large settlement variance a close
choice (a bid, a double) is decided with more noise at the same cost (``docs/results.md``).

"""

from __future__ import annotations

import functools
import math
import time

import numpy as np

from trick_core import drivers
from trick_core.bits import make_rng, nth_set_index, uniform_below
from trick_core.jit import njit
from trick_core.registry import game_spec
from trick_core.specialise import code_fingerprint, compile_copies

from ..base import (
    ActionValueAgent,
    actions_named,
    card_actions,
    legal_actions,
    positive_int,
    probability,
    seat_of,
    talk_actions,
)
from .pimc import DEFAULT_EPSILON

DEFAULT_ITERATIONS = 200
DEFAULT_EXPLORATION = 1.0
DEFAULT_WIDENING = 1.0
OTHERS = ("policy", "search")
"""How the other seats choose inside the tree: by the playout policy, or searched by UCB like the own seat
(pure SO-ISMCTS; module docstring)."""
DEFAULT_OTHERS = "search"
BID_ITERATIONS_FACTOR = 4
"""``bid_iterations`` defaults to this many times ``iterations`` (as ``pimc``'s ``bid_samples``)."""
SILENT = "silent"

kernel = None
"""The game's kernel module; bound in each compiled copy."""
policy = None
"""The game's playout policy module (``choose_action`` picks the first child to expand); bound in each
compiled copy."""
playout = None
"""The playout ``playout(state, rng, epsilon)``; bound in each compiled copy."""
resample_hidden = None
"""The game's compiled ``resample_hidden`` driver; bound in each compiled copy."""


def ucb_child(node, choices, first_child, next_sibling, node_action, visits, totals, availability, exploration):
    """The child of ``node`` whose action is among ``choices`` with the best UCB1 score (availability
    counts; ties: the lower action); then every such child's availability goes up by one."""
    best_score = -np.inf
    best = -1
    child = first_child[node]
    while child >= 0:
        if choices[node_action[child]]:
            score = totals[child] / visits[child] + exploration * np.sqrt(np.log(availability[child]) / visits[child])
            if score > best_score or (score == best_score and node_action[child] < node_action[best]):
                best_score = score
                best = child
        child = next_sibling[child]
    child = first_child[node]
    while child >= 0:
        if choices[node_action[child]]:
            availability[child] += 1.0
        child = next_sibling[child]
    return best


def ismcts_search(world, seat, allowed, iterations, exploration, widening, model_others, rng, epsilon,
                  root_visits):
    """SO-ISMCTS (module docstring) from the kernel state ``world`` for ``seat``: ``iterations``
    determinizations, only actions with ``allowed[a] != 0`` in the tree (all legal ones where none is
    allowed). Adds each root action's visits into ``root_visits`` (indexed by action); returns the number
    of iterations without a consistent redeal."""
    capacity = iterations + 1
    node_action = np.empty(capacity, dtype=np.int64)
    node_seat = np.empty(capacity, dtype=np.int64)
    first_child = np.empty(capacity, dtype=np.int64)
    next_sibling = np.empty(capacity, dtype=np.int64)
    visits = np.zeros(capacity, dtype=np.float64)
    availability = np.zeros(capacity, dtype=np.float64)
    totals = np.zeros(capacity, dtype=np.float64)
    path = np.empty(capacity, dtype=np.int64)
    work = np.empty_like(world)
    mask = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
    choices = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
    untried_mask = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
    policy_mask = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
    scratch = np.zeros(policy.SCRATCH_SIZE, dtype=np.int64)
    units = np.zeros(kernel.MAX_SEATS, dtype=np.float64)
    first_child[0] = -1
    nodes = 1
    scale = 1.0
    played = 0.0
    total = 0.0
    total_squares = 0.0
    failures = 0
    for _ in range(iterations):
        if not resample_hidden(world, seat, rng, work):
            failures += 1
            continue
        node = 0
        depth = 0
        expanded = False
        hand_at_root = work[kernel.S_HANDS + seat]
        while not expanded:
            current = kernel.current_seat(work)
            if current < 0 or work[kernel.S_HANDS + seat] & ~hand_at_root != 0:
                break  # over, or the seat holds cards it could not see at the root: the playout goes on
            kernel.legal_action_mask(work, mask)
            count = 0
            only = -1
            for a in range(mask.shape[0]):
                choices[a] = mask[a] & allowed[a]
                if choices[a]:
                    count += 1
                    only = a
            if count == 0:
                for a in range(mask.shape[0]):
                    choices[a] = mask[a]
                    if choices[a]:
                        count += 1
                        only = a
            if count == 1 and depth > 0:
                kernel.apply_action(work, only)  # a forced move inside the tree takes no node
                continue
            child = first_child[node]
            if model_others and current != seat:
                # another seat acts by the playout policy; its action's child is found or added
                action = policy.choose_action(work, policy_mask, scratch, rng, epsilon)
                if not choices[action]:
                    action = nth_set_index(choices, 0, choices.shape[0], uniform_below(rng, count))
                while child >= 0 and node_action[child] != action:
                    child = next_sibling[child]
            else:
                action = -1
                untried = count
                for a in range(choices.shape[0]):
                    untried_mask[a] = choices[a]
                while child >= 0:
                    if choices[node_action[child]]:
                        untried_mask[node_action[child]] = 0
                        untried -= 1
                    child = next_sibling[child]
                if untried > 0 and (node == 0 or count - untried < 1.0 + widening * np.sqrt(visits[node])):
                    # expand: the playout policy's action first, else an untried one at random
                    action = policy.choose_action(work, policy_mask, scratch, rng, epsilon)
                    if not untried_mask[action]:
                        action = nth_set_index(untried_mask, 0, untried_mask.shape[0], uniform_below(rng, untried))
                else:
                    child = ucb_child(node, choices, first_child, next_sibling, node_action, visits, totals,
                                      availability, exploration * scale)
            if child < 0:
                child = nodes
                nodes += 1
                node_action[child] = action
                node_seat[child] = current
                first_child[child] = -1
                next_sibling[child] = first_child[node]
                first_child[node] = child
                availability[child] = 1.0
                expanded = True
            kernel.apply_action(work, node_action[child])
            path[depth] = child
            depth += 1
            node = child
        if kernel.current_seat(work) >= 0:
            playout(work, rng, epsilon)
        kernel.settlement(work, units)
        played += 1.0
        total += units[seat]
        total_squares += units[seat] * units[seat]
        if played > 1.0:
            scale = np.sqrt(max(total_squares / played - (total / played) ** 2, 0.0)) + 1e-9
        for d in range(depth):
            visits[path[d]] += 1.0
            totals[path[d]] += units[node_seat[path[d]]]
    child = first_child[0]
    while child >= 0:
        root_visits[node_action[child]] += visits[child]
        child = next_sibling[child]
    return failures


@functools.cache
def compiled_ismcts(game: str):
    """``ismcts_search`` bound to ``game``'s kernel, its ``resample_hidden`` and its heuristic playouts
    (cached per process and, by numba, on disk)."""
    spec = game_spec(game)
    kernel_module, policy_module = spec.kernel(), spec.policy()
    namespace = {**globals(), "kernel": kernel_module, "policy": policy_module,
                 "resample_hidden": drivers.compiled(kernel_module).resample_hidden,
                 "playout": drivers.compiled_search(kernel_module, policy_module).policy_playout}
    tag = f"{game}__{code_fingerprint(kernel_module, policy_module)}"
    return compile_copies([ucb_child, ismcts_search], namespace, tag, lambda name: njit).ismcts_search


class ISMCTSAgent(ActionValueAgent):
    """Compiled SO-ISMCTS with heuristic playouts (see the module docstring)."""

    name = "ismcts"

    def __init__(self, game: str, iterations: int = DEFAULT_ITERATIONS, exploration: float = DEFAULT_EXPLORATION,
                 widening: float = DEFAULT_WIDENING, others: str = DEFAULT_OTHERS, epsilon: float | None = None,
                 bid_iterations: int | None = None, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.iterations = positive_int(iterations, "iterations")
        self.bid_iterations = positive_int(BID_ITERATIONS_FACTOR * self.iterations if bid_iterations is None
                                           else bid_iterations, "bid_iterations")
        self.exploration = non_negative(exploration, "exploration")
        self.widening = non_negative(widening, "widening")
        if others not in OTHERS:
            raise ValueError(f"others must be one of {list(OTHERS)}, got {others!r}")
        self.others = others
        if epsilon is None:  # the game's own playout epsilon (its spec's agent_defaults; pimc's), else pimc's
            epsilon = game_spec(self.game).agent_options("ismcts").get("epsilon", DEFAULT_EPSILON)
        self.epsilon = probability(epsilon, "epsilon")
        self.searches = 0
        self.search_seconds = 0.0
        self.failed_redeals = 0
        self.max_actions = game_spec(self.game).kernel().MAX_ACTIONS

    def act(self, env, agent: str) -> int:
        talk = talk_actions(env)
        legal = legal_actions(env, agent)
        if legal.size > 1 and talk[legal].all():
            silent = legal[actions_named(env, SILENT, SILENT.__eq__)[legal]]
            if silent.size:
                self.decisions += 1
                return int(silent[0])
        return super().act(env, agent)

    def action_values(self, env, agent: str, legal: np.ndarray | None = None) -> np.ndarray:
        """Visits of each legal action at the root of the search tree (in the order of ``legal``)."""
        start = time.perf_counter()
        if legal is None:
            legal = legal_actions(env, agent)
        world = env.unwrapped.sampled_kernel_state(agent, self.rng)
        allowed = np.zeros(self.max_actions, dtype=np.int8)
        talk = talk_actions(env)
        allowed[: talk.size] = ~talk | actions_named(env, SILENT, SILENT.__eq__)
        root_visits = np.zeros(self.max_actions, dtype=np.float64)
        rng = make_rng(int(self.rng.integers(2**63)))
        iterations = self.iterations if card_actions(env)[legal].any() else self.bid_iterations
        search = compiled_ismcts(self.game)
        self.failed_redeals += search(world, seat_of(env, agent), allowed, iterations,
                                      self.exploration, self.widening, self.others == "policy", rng, self.epsilon,
                                      root_visits)
        self.searches += 1
        self.search_seconds += time.perf_counter() - start
        return root_visits[legal]

    def stats(self) -> dict:
        """Decisions taken, searches run (decisions with a choice), milliseconds per search, and
        iterations that found no consistent redeal (0 expected)."""
        per_search = 1000.0 * self.search_seconds / self.searches if self.searches else float("nan")
        return {"decisions": self.decisions, "searches": self.searches, "ms_per_search": per_search,
                "failed_redeals": self.failed_redeals}

    def __repr__(self) -> str:
        return (f"ISMCTSAgent(game={self.game!r}, iterations={self.iterations}, exploration={self.exploration}, "
                f"widening={self.widening}, others={self.others!r}, epsilon={self.epsilon}, "
                f"bid_iterations={self.bid_iterations})")


def non_negative(value, what: str) -> float:
    """``value`` as a finite non-negative float, or ``ValueError`` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{what} must be a non-negative number, got {value!r}")
    return float(value)
