"""A plain minimax over the kernel's rules, without pruning, tables or merged cards: what the exact solver
(``trick_core.solver``) must agree with, written without anything of the solver.

Searched are the card plays (and Knüffeln's Jann ``stop``); every other decision inside the card play
takes the solve module's documented default (``default_action``: never turn, stay silent), which is the
convention the solver is specified by. The sides are read straight from the state: the declarer and, in
a game with a partner, its partner, against the rest (Schafkopf); the teams (Knüffeln). A Bavarian Ramsch
has no sides: its value is the paranoid one (the seat solved for against the other three), as the solver's.
"""

from __future__ import annotations

import numpy as np

from trick_core.registry import game_spec


class BruteForce:
    """Minimax of one game's kernel over its card play."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.kernel = game_spec(game).kernel()
        package = self.kernel.__name__.rsplit(".", 1)[0]
        self.solve_module = __import__(f"{package}.solve", fromlist=["solve"])
        self.mask = np.zeros(self.kernel.MAX_ACTIONS, dtype=np.int8)

    def sides(self, state) -> list[int]:
        """1 for the declarer's side (Schafkopf) or team 1 (Knüffeln), per seat."""
        k = self.kernel
        if self.game == "knuffeln":
            return [int(state[k.S_TEAM + s]) for s in range(k.MAX_SEATS)]
        declarer = int(state[k.S_DECLARER])
        partner = -1
        if self.game == "bavarian" and state[k.S_CONTRACT] == k.RUFER:
            partner = int(state[k.S_PARTNER])
        if self.game == "asserufen" and state[k.S_CONTRACT] == k.CONTRACT_ACE_CALL:
            partner = int(state[k.S_PARTNER])
        return [int(s == declarer or s == partner) for s in range(k.MAX_SEATS)]

    def searched(self, state) -> list[int]:
        """The actions the minimax branches on: the legal card plays (and Jann ``stop``)."""
        k = self.kernel
        k.legal_action_mask(state, self.mask)
        legal = np.flatnonzero(self.mask)
        if self.game == "knuffeln":
            return [int(a) for a in legal if a < k.ACTION_TURN or a == k.ACTION_STOP]
        play_phase = k.PHASE_PLAYING if self.game == "bavarian" else k.PHASE_PLAY
        if state[k.S_PHASE] != play_phase:
            return []
        return [int(a) for a in legal if k.CARD_ACTION_BASE <= a < k.CARD_ACTION_BASE + 32]

    def value(self, state, seat: int) -> float:
        k = self.kernel
        state = state.copy()
        while k.current_seat(state) >= 0 and not self.searched(state):
            k.apply_action(state, int(self.solve_module.default_action(state)))
        if k.current_seat(state) < 0:
            units = np.zeros(k.MAX_SEATS, dtype=np.float64)
            k.settlement(state, units)
            return float(units[seat])
        sides = self.sides(state)
        actor = k.current_seat(state)
        values = []
        for action in self.searched(state):
            child = state.copy()
            k.apply_action(child, action)
            values.append(self.value(child, seat))
        if self.game == "bavarian" and state[k.S_CONTRACT] == k.RAMSCH:  # the paranoid value: seat against all
            return max(values) if actor == seat else min(values)
        return max(values) if sides[actor] == sides[seat] else min(values)


class SolveChecker:
    """Solves positions with ``game``'s exact solver, on one shared table and on a fresh one each time,
    and checks both against the brute-force value (and that the solve leaves the state as it was)."""

    def __init__(self, game: str, brute: BruteForce) -> None:
        from agents.search.outcomes import solver_function

        self.solver = solver_function(game)
        self.brute = brute
        self.keys, self.bounds, self.version = self.solver.new_table()
        self.nodes = np.zeros(1, dtype=np.int64)

    def check(self, state: np.ndarray, seat: int, label) -> float:
        """The brute-force value of ``state`` for ``seat``, after asserting that both solves give it."""
        expected = self.brute.value(state, seat)
        before = state.copy()
        shared = self.solver.solve_tricks(state, seat, 99, self.keys, self.bounds, self.version, self.nodes)
        assert shared == expected, (label, seat)
        assert self.solver.solve(state, seat) == expected, (label, seat)
        assert np.array_equal(state, before), "the solve changed the state it was given"
        return expected

