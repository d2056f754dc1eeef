"""Asserufen (``schafkopf_env.asserufen_v0``)

One episode is one hand of Asserufen, Palatinate Schafkopf for four players with a called ace
(``docs/rules/palatinate_schafkopf.md#3-asserufen-for-four-active-players``, with the common rules of
section 1): one pass of bids, the called card or the trump suit, contra and re, eight tricks, settlement
in units. The rules run in the compiled kernel ``schafkopf_env.asserufen.kernel`` (one call per step);
``schafkopf_env.asserufen.reference`` is the plain-Python twin the kernel is tested against.

```python
import random
from schafkopf_env import asserufen_v0
env = asserufen_v0.env(render_mode="ansi", max_doublings=2)
env.reset(seed=0)
choose = random.Random(0).choice
for agent in env.agent_iter():
    if env.terminations[agent]:  # the hand is over: every agent steps None once
        env.step(None)
        continue
    legal = env.unwrapped.legal_action_strings()  # e.g. ["weg", "haenge_an", "solo", ...]
    env.step(env.unwrapped.string_to_action(choose(legal)))
print(env.render())  # the hands, the contract and the result
```

| | |
|---|---|
| Import | `from schafkopf_env import asserufen_v0` |
| Agents | `player_0` `player_1` `player_2` `player_3` (seat = index; play is clockwise in seat order) |
| Action space | `Discrete(56)`: 32 cards, 7 bids, `accept`/`refuse`, 9 cards to call, 3 solo suits, 3 doublings |
| Observation space | `Dict(observation=Box(0, 120, (N,), float32), action_mask=Box(0, 1, (56,), int8))` |
| N | 428 (`observation`), 1548 (`information_state`), 1676 (`perfect`) |
| Rewards | the settlement in units at the end of the hand (zero-sum); 0 before |

**The game in brief.** 32 French cards (`C S H D` × `A 10 K Q J 9 8 7`; A 11, 10 10, K 4, Q 3, J 2: 120
points), eight each, dealt in packets of four; no skat. All Queens and Jacks are the top trumps
(`CQ SQ HQ DQ CJ SJ HJ DJ`), then the trump suit's `A 10 K 9 8 7`; follow the led effective suit if you
can, no obligation to beat or trump. Forehand (left of the dealer) speaks and leads first. In one pass
each player says `weg` or bids higher: `haenge_an` (the ace-call game: hearts trump, the declarer calls a
non-heart ace it does not hold — a ten holding all three aces, a King holding the tens too — and its
holder is the secret partner), `darf_man` (only directly over `haenge_an`: the `haenge_an` player then
accepts and lets the `darf_man` player declare, or refuses and declares itself), `solo`, `heart_solo`,
`solo_du`, `heart_solo_du` (alone against three; a Du must take all eight tricks). While the first trick
led in the called suit is incomplete, the called card's holder must play it when another player leads
the suit, must lead it when leading the suit (unless running away with four or more cards of it) and may
not discard it. Each player but the declarer is offered `contra` before their first card; after a double
everyone else is asked `re` / `no_double` in turn. Value: game 1, hearts (heart solos), schneider,
schwarz, hoch from three top trumps; ×2 for a Du, ×2 per double.

The decisions the project took where the rules are silent are listed, with their reasons, as A1–A12 in
`docs/rules/palatinate_schafkopf.md#decisions-asserufen`.

## Arguments

`env(max_doublings=4, render_mode=None, observation_type="observation", illegal_action="raise",
illegal_reward=-1.0)`
(`raw_env` takes the same):

- `max_doublings`: 0 to 8 (0: no contra at all); doubling stops there.
- `render_mode`: `None`, `"ansi"` (`render()` returns the table as text) or `"human"` (prints it).
- `observation_type`: `"observation"`, `"information_state"` (adds perfect recall) or `"perfect"` (adds
  every hand, for centralised critics).
- `illegal_action`: `"raise"` (default: `ValueError` naming the move and the legal ones) or
  `"terminate"` (PettingZoo's `TerminateIllegalWrapper` convention, below).
- `illegal_reward`: a finite number (default -1.0), the offender's reward under `"terminate"`.

Any other option raises `ValueError`.

## Observation space

`observation["action_mask"]` marks the legal actions of the agent to act (all zeros for the others).
`observation["observation"]` holds all and only what the seat may know. Seats in it are **relative**:
0 = the observing seat, 1 = the next seat (left), 2 = across, 3 = the previous seat. Cards are one-hot in
the layout order `CA C10 CK CQ CJ C9 C8 C7 SA … D7`. The partner's seat is set only once the partnership
is public, or when the observer holds the called card itself. Card points are kept per player: until the
partnership is known every player keeps their tricks separately, and the figures are public anyway.

`observation_type="observation"` (428 entries; it shows who played which card and the trick in progress,
not how earlier tricks were grouped):

| block | indices | size | content |
|---|---|---|---|
| hand | 0..31 | 32 | own hand (card one-hot) |
| dealer | 32..35 | 4 | dealer (relative seat) |
| phase | 36..43 | 8 | phase: bidding, answer, call, trump, contra_offer, doubling_round, play, over |
| to_act | 44..47 | 4 | seat to act (relative seat; zeros once over) |
| bids | 48..79 | 32 | bids: 8 slots per relative seat (not yet spoken, then weg ... heart_solo_du in action order) |
| answer | 80..81 | 2 | answer to darf_man: accept, refuse |
| contract | 82..86 | 5 | contract: ace_call, solo, heart_solo, solo_du, heart_solo_du |
| declarer | 87..90 | 4 | declarer (relative seat) |
| trump | 91..94 | 4 | trump suit: C S H D |
| called_card | 95..126 | 32 | called card (card one-hot) |
| partner_known | 127..127 | 1 | partnership public (called card played, partner said re, or partner ran away) |
| partner | 128..131 | 4 | partner (relative seat) if this seat knows it: public, or this seat is the partner |
| called_rules | 132..133 | 2 | called-suit rules over (first trick led in the called suit complete), partner ran away |
| doublings | 134..134 | 1 | doublings so far (count) |
| doubles_by_seat | 135..138 | 4 | doubles said per relative seat (count) |
| leader | 139..142 | 4 | leader of the current trick (relative seat) |
| trick | 143..270 | 128 | current trick: card played by each relative seat (4 x 32) |
| played | 271..398 | 128 | cards played so far by each relative seat (4 x 32) |
| tricks_won | 399..402 | 4 | tricks won per relative seat (count) |
| points | 403..406 | 4 | card points taken per relative seat |
| tricks_completed | 407..407 | 1 | tricks completed (count) |
| voids | 408..427 | 20 | suits shown lacking (did not follow when led): relative seat × (C, S, H, D, trumps) |

`observation_type="information_state"` (1548 entries, perfect recall) appends:

| block | indices | size | content |
|---|---|---|---|
| trick_history | 428..1515 | 1088 | trick history: 8 tricks x (leader 4, card by relative seat 4 x 32, winner 4) |
| doubling_history | 1516..1547 | 32 | doubling history: 8 slots x the relative seat that said the k-th double |

`observation_type="perfect"` (1676 entries) appends every hand:

| block | indices | size | content |
|---|---|---|---|
| hands | 1548..1675 | 128 | cards still held by each relative seat (4 x 32) |

`kernel.observation_layout(params, obs_type)` lists these blocks (the kernel writes them in this order);
`kernel.observation_size(params, obs_type)` their total.

## Action space

| index | string | when |
|---|---|---|
| 0 | `weg` | bidding: no bid |
| 1..6 | `haenge_an` `darf_man` `solo` `heart_solo` `solo_du` `heart_solo_du` | bidding |
| 7, 8 | `accept`, `refuse` | the `haenge_an` player's answer to `darf_man` |
| 9..11 | `call:C` `call:S` `call:D` | the ace-call declarer calls an ace |
| 12..14 | `call:C10` `call:S10` `call:D10` | … a ten (holding all three aces) |
| 15..17 | `call:CK` `call:SK` `call:DK` | … a King (holding all three aces and tens) |
| 18..20 | `trump:C` `trump:S` `trump:D` | a Solo or Solo Du declarer names trump |
| 21 | `contra` | the first double, offered before one's first card |
| 22 | `re` | any further double |
| 23 | `no_double` | declining a contra offer or a doubling question |
| 24..55 | `CA` `C10` `CK` `CQ` `CJ` `C9` `C8` `C7` `SA` … `D7` | play that card (`24 + card`) |

`env.unwrapped.action_to_string(a)` / `string_to_action(s)` convert; `legal_action_strings()` lists the
legal ones.

## Rewards

At the end of the hand each agent receives its settlement in units (the sum over the episode equals it;
the four sum to zero); nothing before (a lost Du ends at the trick the opponents win). Ace-call game:
declarer and partner `+value` each, the opponents `-value` each (reversed on a loss); a solo: each
opponent `-value`, the declarer `+3 × value`. A thrown-in hand (four times `weg`) ends with all zeros.
With `illegal_action="terminate"` an illegal move ends the episode with `illegal_reward` (-1) for the
offender and 0 for the others; by default (`"raise"`) it raises `ValueError` naming the move and the legal ones.

## Deals and records

`reset(seed=s)` deals at random, reproducibly, with a random dealer. `reset(options={"dealer": d,
"hands": {"player_0": [...], ...}})` fixes the deal (eight cards per agent; `dealer` defaults to 3, so
that `player_0` is forehand; `{"dealer": d}` alone deals random hands with that dealer). Bad deals raise
`ValueError` naming the unknown, duplicate or missing card or the wrong count. `game_record()` returns the
JSON record (each hand in card-layout order); `reset(options={"record": rec})` deals its hand again (the
deal only) and `replay(rec)` deals it and plays its actions to the record's end. `public_record(agent)`
is the hand as that seat knows it: every action is public (bids,
the called card, trump, doubles, cards), so it hides only the other hands. Also on `env.unwrapped`:
`state()` (with the value item by item once the hand is over),
`resample_from_infostate(agent, rng)` (a world whose hidden cards are redealt consistently with all the
agent knows; `RuntimeError` in the very rare case that no consistent deal is found),
`playout_values(actions, playouts, seed)`, `kernel_state()`, `clone()`.

## Version history

- v0: first release.
- v0, later: takes `illegal_reward`; `state()` holds `config`, and its `dealer` is a seat index as in
  `reset` options and game records (it was the agent's name).
- v0, later: the observation gains the `voids` block after `tricks_completed`, the suits each seat has shown it
  lacks (the `played` block has no order of play to tell them); networks saved before it load with
  zero weights on it (`agents.neural.checkpoint`) and play as they did.
"""

from __future__ import annotations

from typing import Unpack

import numpy as np

from schafkopf_env.asserufen import kernel
from schafkopf_env.four_hands import FourHandsEnv
from trick_core import render
from trick_core.cards import FRENCH_32
from trick_core.env_options import EnvOptions

GAME = kernel.GAME
NUM_SEATS = kernel.NUM_SEATS


class AsserufenEnv(FourHandsEnv):
    """Asserufen as a PettingZoo AEC env (module docstring: the docs page)."""

    deck = FRENCH_32
    kernel = kernel
    action_visibility: dict[str, str] = {}
    """Every action is seen by every seat (``trick_core.visibility``): no card is played face down."""

    def __init__(
        self,
        max_doublings: int = kernel.DEFAULT_MAX_DOUBLINGS,
        **options: Unpack[EnvOptions],
    ) -> None:
        super().__init__({"max_doublings": max_doublings}, options)

    # ------------------------------------------------------------ inspection
    def state(self) -> dict:
        """The full state as plain Python (JSON-serialisable): deal, history, contract, tricks, score."""
        s = self._state
        agents = self.possible_agents
        contract = int(s[kernel.S_CONTRACT])
        over = s[kernel.S_PHASE] == kernel.PHASE_OVER
        tricks, trick_in_progress = self._tricks()
        called = int(s[kernel.S_CALLED_CARD])
        trump = int(s[kernel.S_TRUMP_KIND])
        return {
            **self._common_state(),
            "bids": {
                a: (kernel.BID_NAMES[int(s[kernel.S_BIDS + i])] if s[kernel.S_BIDS + i] >= 0 else None)
                for i, a in enumerate(agents)
            },
            "contract": kernel.CONTRACT_NAMES[contract] if contract else None,
            "declarer": self._agent(int(s[kernel.S_DECLARER])),
            "trump": "CSHD"[trump] if trump >= 0 else None,
            "called_card": FRENCH_32.name_of(called) if called >= 0 else None,
            "partner": self._agent(int(s[kernel.S_PARTNER])),
            "partner_known": bool(s[kernel.S_PARTNER_KNOWN]),
            "called_suit_rules_over": bool(s[kernel.S_CALLED_SUIT_DONE]),
            "ran_away": bool(s[kernel.S_RAN_AWAY]),
            "doublings": int(s[kernel.S_DOUBLINGS]),
            "doublers": [agents[int(s[kernel.S_DOUBLERS + k])] for k in range(int(s[kernel.S_DOUBLINGS]))],
            "trick": trick_in_progress,
            "tricks": tricks,
            "points": {a: int(s[kernel.S_POINTS + i]) for i, a in enumerate(agents)},
            "tricks_won": {a: int(s[kernel.S_TRICKS_WON + i]) for i, a in enumerate(agents)},
            "score": self._score() if over and contract != kernel.CONTRACT_NONE else None,
            "result": [float(u) for u in self._settlement()] if over else None,
        }

    def _tricks(self):
        """The completed tricks (leader, cards in playing order, winner) and the trick in progress."""
        s = self._state
        completed = int(s[kernel.S_TRICK_NUMBER])
        tricks = [
            {
                "leader": self.possible_agents[int(s[kernel.S_TRICK_LEADERS + t])],
                "cards": self._trick_cards(t, NUM_SEATS),
                "winner": self.possible_agents[int(s[kernel.S_TRICK_WINNERS + t])],
            }
            for t in range(completed)
        ]
        in_progress = []
        if s[kernel.S_PHASE] in (kernel.PHASE_OFFER, kernel.PHASE_ROUND, kernel.PHASE_PLAY):
            in_progress = self._trick_cards(completed, int(s[kernel.S_TRICK_SIZE]))
        return tricks, in_progress

    def _trick_cards(self, trick: int, count: int) -> list[list[str]]:
        """``[agent, card]`` of the first ``count`` cards of trick ``trick``, in playing order."""
        s = self._state
        leader = int(s[kernel.S_TRICK_LEADERS + trick])
        first = kernel.S_TRICK_CARDS + NUM_SEATS * trick
        return [
            [self.possible_agents[(leader + i) % NUM_SEATS], FRENCH_32.name_of(int(s[first + i]))]
            for i in range(count)
        ]

    def _score(self) -> dict[str, int]:
        """The value of the finished hand item by item (``kernel.SCORE_NAMES``)."""
        items = np.zeros(kernel.SCORE_SIZE, dtype=np.int64)
        kernel.score_items(self._state, items)
        return {name: int(v) for name, v in zip(kernel.SCORE_NAMES, items, strict=True)}

    # ------------------------------------------------------------ render
    def _render_text(self) -> str:
        st = self.state()
        lines = [f"Asserufen — dealer {self.possible_agents[st['dealer']]}, phase {st['phase']}"]
        bids = ", ".join(f"{a}: {b}" for a, b in st["bids"].items() if b is not None)
        lines.append(f"bids: {bids or '-'}")
        if st["contract"]:
            called = f", called {st['called_card']}" if st["called_card"] else ""
            lines.append(
                f"contract: {st['contract']} by {st['declarer']}, trump {st['trump']}{called}, "
                f"doublings {st['doublings']}"
            )
        lines += render.seat_lines(st, self.possible_agents, lambda agent: (
            f"{' '.join(st['hands'][agent]):<30} points {st['points'][agent]:>3} tricks {st['tricks_won'][agent]}"
        ))
        lines += render.trick_lines(st)
        if st["result"] is not None:
            lines.append("result: " + render.settlement(self.possible_agents, st["result"]))
        return "\n".join(lines)


env = raw_env = AsserufenEnv
"""``env(**config)`` and ``raw_env(**config)`` are the env class itself: what PettingZoo's wrappers would
add (turn order, bounds, legality) is built in, at no cost per step."""
