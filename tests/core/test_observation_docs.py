"""The observation index tables of the Bavarian and Asserufen docs pages, read row by row: at every step of
seeded hands played at random, each seat's observation holds in each documented range what that row says, worked
out from ``state()``. A row whose text, start or size drifts from the encoder fails here (the layout tests
in ``test_env_docs`` check only that the rows are the kernel's blocks)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from schafkopf_env import asserufen_v0, bavarian_v0

BAVARIAN_CONTRACTS = ("pass", "rufer", "wenz", "solo", "wenz_tout", "solo_tout", "sie")
ASSERUFEN_BIDS = ("weg", "haenge_an", "darf_man", "solo", "heart_solo", "solo_du", "heart_solo_du")
ASSERUFEN_CONTRACTS = ("ace_call", "solo", "heart_solo", "solo_du", "heart_solo_du")


def documented_rows(doc: str) -> list[tuple[int, int, str]]:
    """``(start, size, feature)`` of every index-table row of the Observation space section,
    ``| block | first..last | size | feature |``."""
    doc = doc.split("\n## Observation space\n")[1].split("\n## ")[0]
    rows = re.findall(r"^\| \w+ \| (\d+)\.\.(\d+) \| \d+ \| (.+?) \|$", doc, re.M)
    return sorted((int(a), int(b) - int(a) + 1, text) for a, b, text in rows)


class Seat:
    """What a row needs: the state, the observer, relative seats, card vectors."""

    def __init__(self, env, me: int):
        self.env, self.me, self.st = env, me, env.unwrapped.state()
        self.agents = env.possible_agents
        self.parse = env.unwrapped.deck.parse

    def rel(self, agent) -> int:
        seat = agent if isinstance(agent, int) else self.agents.index(agent)
        return (seat - self.me) % 4

    def one_hot(self, size: int, index: int | None) -> np.ndarray:
        v = np.zeros(size)
        if index is not None:
            v[index] = 1
        return v

    def seat_one_hot(self, agent) -> np.ndarray:
        return self.one_hot(4, None if agent is None else self.rel(agent))

    def cards(self, names) -> np.ndarray:
        v = np.zeros(32)
        v[[self.parse(n) for n in names]] = 1
        return v

    def by_seat(self, pairs) -> np.ndarray:
        """A relative seat x card block of ``[agent, card]`` pairs."""
        v = np.zeros((4, 32))
        for agent, card in pairs:
            v[self.rel(agent), self.parse(card)] = 1
        return v.ravel()

    def per_seat(self, values: dict) -> np.ndarray:
        return np.array([values[self.agents[(self.me + r) % 4]] for r in range(4)], dtype=float)

    def held_by_seat(self) -> np.ndarray:
        return np.concatenate([self.cards(self.st["hands"][self.agents[(self.me + r) % 4]]) for r in range(4)])

    def completed(self) -> list:
        return [pair for trick in self.st["tricks"] for pair in trick["cards"]]

    def leader(self):
        """The leader of the trick in progress: its first card, else the last winner, else forehand."""
        st = self.st
        if st["trick"]:
            return st["trick"][0][0]
        if st["tricks"]:
            return st["tricks"][-1]["winner"]
        dealer = st["dealer"] if isinstance(st["dealer"], int) else self.agents.index(st["dealer"])
        return (dealer + 1) % 4

    def partner_if_known(self):
        partner = self.st["partner"]
        known = partner is not None and (self.st["partner_known"] or self.agents.index(partner) == self.me)
        return partner if known else None

    def voids(self, suits: str, trump_ranks: tuple[str, ...]) -> np.ndarray:
        """Relative seat x (``suits``, trumps): a card of a trick (completed or in progress) that is not of
        the led effective suit; trumps are the ``trump_ranks`` and the trump suit, or the Unters in a Wenz."""
        trump = self.st["trump"]
        ranks = ("U",) if trump == "wenz" else trump_ranks

        def effective(card: str) -> int:
            return 4 if card[1:] in ranks or card[0] == trump else suits.index(card[0])

        v = np.zeros((4, 5))
        for trick in [trick["cards"] for trick in self.st["tricks"]] + [self.st["trick"]]:
            for agent, card in trick[1:]:
                if effective(card) != effective(trick[0][1]):
                    v[self.rel(agent), effective(trick[0][1])] = 1
        return v.ravel()

    def trick_history(self, winner_too: bool) -> np.ndarray:
        slots = []
        for t in range(8):
            trick = self.st["tricks"][t] if t < len(self.st["tricks"]) else None
            slot = [self.seat_one_hot(trick and trick["leader"]), self.by_seat(trick["cards"] if trick else [])]
            if winner_too:
                slot.append(self.seat_one_hot(trick and trick["winner"]))
            slots.append(np.concatenate(slot))
        return np.concatenate(slots)


def _bavarian_declarer(s: Seat):
    """The highest bidder so far."""
    best, rank = None, 0
    for agent, action in s.st["history"]:
        if action in BAVARIAN_CONTRACTS and BAVARIAN_CONTRACTS.index(action) > rank:
            best, rank = agent, BAVARIAN_CONTRACTS.index(action)
    return best


def _bavarian_bids(s: Seat) -> np.ndarray:
    v = np.zeros((4, 7))
    for agent, bid in s.st["bids"].items():
        v[s.rel(agent), BAVARIAN_CONTRACTS.index(bid)] = 1
    return v.ravel()


def _bavarian_trumps(s: Seat) -> np.ndarray:
    trump = s.st["trump"]
    return s.one_hot(5, None if trump is None else 4 if trump == "wenz" else "EGHS".index(trump))


BAVARIAN = {
    "cards held (card index)": lambda s: s.cards(s.st["hands"][s.agents[s.me]]),
    "dealer (relative seat)": lambda s: s.seat_one_hot(s.st["dealer"]),
    "seat to act (zeros once the hand is over)": lambda s: s.seat_one_hot(
        None if s.st["phase"] == "over" else s.st["current_player"]),
    "phase: bidding, calling, choosing_trump, playing, over": lambda s: s.one_hot(
        5, ("bidding", "calling", "choosing_trump", "playing", "over").index(s.st["phase"])),
    "bids: relative seat × (pass, rufer, wenz, solo, wenz_tout, solo_tout, sie)": _bavarian_bids,
    "contract once fixed: rufer, wenz, solo, wenz_tout, solo_tout, sie": lambda s: s.one_hot(
        6, None if s.st["contract"] is None or s.st["phase"] == "bidding"
        else BAVARIAN_CONTRACTS.index(s.st["contract"]) - 1),
    "declarer (highest bidder so far)": lambda s: s.seat_one_hot(_bavarian_declarer(s)),
    "trumps: Obers, Unters and suit E, G, H, S; or Wenz (Unters only)": _bavarian_trumps,
    "suit of the called ace: E, G, H, S (H is never called)": lambda s: s.one_hot(
        4, None if s.st["called_suit"] is None else "EGHS".index(s.st["called_suit"])),
    "holder of the called ace, once this seat knows it (its own seat if it holds the ace)": lambda s: (
        s.seat_one_hot(s.partner_if_known())),
    "the first trick led in the called suit is complete (the called-ace rules are over)": lambda s: np.array(
        [float(s.st["called_ace_rules_over"])]),
    "leader of the trick in progress": lambda s: s.seat_one_hot(s.leader() if s.st["phase"] == "playing" else None),
    "trick in progress: relative seat × card it played": lambda s: s.by_seat(s.st["trick"]),
    "completed tricks: relative seat × cards it played": lambda s: s.by_seat(s.completed()),
    "card points taken per seat / 120": lambda s: s.per_seat(s.st["points"]) / 120,
    "tricks taken per seat / 8": lambda s: s.per_seat(s.st["tricks_won"]) / 8,
    "suits shown lacking (did not follow when led): relative seat × (E, G, H, S, trumps)": lambda s: (
        s.voids("EGHS", ("O", "U"))),
    "the hand as dealt": lambda s: s.cards(s.st["dealt_hands"][s.agents[s.me]]),
    "completed trick t = 0..7 at 417 + 132 t: leader (4), relative seat × card (128)": lambda s: (
        s.trick_history(winner_too=False)),
    "cards every seat holds: relative seat × card": Seat.held_by_seat,
}


def _asserufen_bids(s: Seat) -> np.ndarray:
    v = np.zeros((4, 8))
    for agent, bid in s.st["bids"].items():
        v[s.rel(agent), 0 if bid is None else 1 + ASSERUFEN_BIDS.index(bid)] = 1
    return v.ravel()


def _asserufen_leader(s: Seat):
    return s.leader() if s.st["phase"] in ("contra_offer", "doubling_round", "play") else None


def _said(s: Seat, word: str) -> float:
    return float(any(action == word for _, action in s.st["history"]))


def _doubling_history(s: Seat) -> np.ndarray:
    slots = [s.seat_one_hot(s.st["doublers"][k] if k < len(s.st["doublers"]) else None) for k in range(8)]
    return np.concatenate(slots)


ASSERUFEN = {
    "own hand (card one-hot)": BAVARIAN["cards held (card index)"],
    "dealer (relative seat)": BAVARIAN["dealer (relative seat)"],
    "phase: bidding, answer, call, trump, contra_offer, doubling_round, play, over": lambda s: s.one_hot(
        8, ("bidding", "answer", "call", "trump", "contra_offer", "doubling_round", "play", "over").index(
            s.st["phase"])),
    "seat to act (relative seat; zeros once over)": lambda s: s.seat_one_hot(s.st["current_player"]),
    "bids: 8 slots per relative seat (not yet spoken, then weg ... heart_solo_du in action order)": _asserufen_bids,
    "answer to darf_man: accept, refuse": lambda s: np.array([_said(s, "accept"), _said(s, "refuse")]),
    "contract: ace_call, solo, heart_solo, solo_du, heart_solo_du": lambda s: s.one_hot(
        5, None if s.st["contract"] is None else ASSERUFEN_CONTRACTS.index(s.st["contract"])),
    "declarer (relative seat)": lambda s: s.seat_one_hot(s.st["declarer"]),
    "trump suit: C S H D": lambda s: s.one_hot(4, None if s.st["trump"] is None else "CSHD".index(s.st["trump"])),
    "called card (card one-hot)": lambda s: s.cards([s.st["called_card"]] if s.st["called_card"] else []),
    "partnership public (called card played, partner said re, or partner ran away)": lambda s: np.array(
        [float(s.st["partner_known"])]),
    "partner (relative seat) if this seat knows it: public, or this seat is the partner": lambda s: (
        s.seat_one_hot(s.partner_if_known())),
    "called-suit rules over (first trick led in the called suit complete), partner ran away": lambda s: np.array(
        [float(s.st["called_suit_rules_over"]), float(s.st["ran_away"])]),
    "doublings so far (count)": lambda s: np.array([float(s.st["doublings"])]),
    "doubles said per relative seat (count)": lambda s: s.per_seat(
        {a: s.st["doublers"].count(a) for a in s.agents}),
    "leader of the current trick (relative seat)": lambda s: s.seat_one_hot(_asserufen_leader(s)),
    "current trick: card played by each relative seat (4 x 32)": lambda s: s.by_seat(s.st["trick"]),
    "cards played so far by each relative seat (4 x 32)": lambda s: s.by_seat(s.completed() + s.st["trick"]),
    "tricks won per relative seat (count)": lambda s: s.per_seat(s.st["tricks_won"]),
    "card points taken per relative seat": lambda s: s.per_seat(s.st["points"]),
    "tricks completed (count)": lambda s: np.array([float(len(s.st["tricks"]))]),
    "suits shown lacking (did not follow when led): relative seat × (C, S, H, D, trumps)": lambda s: (
        s.voids("CSHD", ("Q", "J"))),
    "trick history: 8 tricks x (leader 4, card by relative seat 4 x 32, winner 4)": lambda s: (
        s.trick_history(winner_too=True)),
    "doubling history: 8 slots x the relative seat that said the k-th double": _doubling_history,
    "cards still held by each relative seat (4 x 32)": Seat.held_by_seat,
}


@pytest.mark.parametrize(("module", "features"), [(bavarian_v0, BAVARIAN), (asserufen_v0, ASSERUFEN)],
                         ids=["bavarian", "asserufen"])
def test_every_documented_observation_range_holds_what_its_row_says(module, features):
    rows = documented_rows(module.__doc__)
    assert [text for _, _, text in rows] == list(features), "the rows, in order, are the features checked here"
    env = module.env(observation_type="perfect", max_doublings=8) if module is asserufen_v0 else module.env(
        observation_type="perfect")
    assert sum(size for _, size, _ in rows) == env.observation_space("player_0")["observation"].shape[0]
    for seed in range(20):  # each action drawn towards the low indices: passes, so every contract comes up
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.agents:
            for me, agent in enumerate(env.possible_agents):
                seat, observation = Seat(env, me), env.observe(agent)["observation"]
                for start, size, text in rows:
                    expected = features[text](seat)
                    assert np.allclose(observation[start:start + size], expected, atol=1e-6), (seed, agent, text)
            agent = env.agent_selection
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            env.step(None if env.terminations[agent] else int(legal[(rng.geometric(0.6) - 1) % len(legal)]))
