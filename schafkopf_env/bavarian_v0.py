"""Bavarian Schafkopf (``schafkopf_env.bavarian_v0``)

One episode is one hand of four-player Bavarian Schafkopf with the bidding of a "you against three"
rule card: one round of bids (Rufer < Wenz < Solo < Wenz Tout < Solo Tout < Sie), the called ace or the
trump suit, eight tricks, settlement in units. **The rules** — every rule, every pinned interpretation and
every decision the project took where the rules are silent (B1–B22) — are `docs/rules/bavarian_schafkopf.md`.
Rule options (below) give the game as the online servers play it: their tariff, the short pack, Kontra and Re,
Klopfen, Ramsch, Geier, Farbwenz and Bettel.
They run in the compiled kernel ``schafkopf_env.bavarian.kernel`` (one call per step);
``schafkopf_env.bavarian.reference`` is the plain-Python twin the kernel is tested against.

```python
import numpy as np
from schafkopf_env import bavarian_v0
env = bavarian_v0.env(render_mode="ansi")
env.reset(seed=0)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    action = None if termination or truncation else int(np.flatnonzero(observation["action_mask"])[0])
    env.step(action)
```

| | |
|---|---|
| Import | `from schafkopf_env import bavarian_v0` |
| Agents | `player_0` `player_1` `player_2` `player_3` (seat = index; play is clockwise in seat order) |
| Action space | `Discrete(46)`: 32 cards, 7 bids (`pass` to `sie`), 3 aces to call, 4 solo suits |
| Observation space | `Dict(observation=Box(0, 1, (N,), float32), action_mask=Box(0, 1, (46,), int8))` |
| N | 385 (`observation`), 1473 (`information_state`), 1601 (`perfect`) |
| Rewards | the settlement in the tariff's units at the end of the hand (zero-sum); 0 before |
| Arguments | below; an unknown one raises `ValueError` |

## Arguments

- `tariff` (default `"card"`): what a hand is worth. `"card"`: the units of the rule card (Rufer 1, Wenz and
  Solo 5, Schneider 1, Schwarz 2, 1 a Laufender; a Tout doubled, a Sie quadrupled). `"sauspiel"`: the cents
  of sauspiel.de, where openschafkopf's real games come from (Rufer 20, Wenz and Solo 50, Schneider 10 and
  Schwarz 10 more, 10 a Laufender, the Laufende counted from three, in a Wenz from two). A mapping sets a
  custom tariff per contract family, `{"rufer": {"base": 20, "schneider_schwarz": 10, "laufende": 10,
  "laufende_from": 3}, "solo": {...}, "wenz": {...}}` (openschafkopf's `SPayoutDeciderParams`; Solo Tout and
  Sie priced by `"solo"`, Wenz Tout by `"wenz"`); missing entries take the `"sauspiel"` values (decision
  B12), an unknown family or key or a value below 0 (`laufende_from` below 1) raises `ValueError`. The
  rewards are in the tariff's units; the record's `config` holds a custom tariff in full. The training
  scripts divide returns by a scale that follows the tariff (`agents.neural.reward_scales`, about the spread
  of a seat's settlement between the rule-based bots): 5 under `"card"`, 60 under `"sauspiel"` (cents), and
  for a custom tariff 60 times the ratio of its spread to sauspiel's, computed from the measured mean
  products of how often each Rufer, Solo and Wenz price is paid (`docs/results/reward_spread.json`; its
  `laufende_from` taken as the presets'). The other options keep the tariff's scale; `--reward-scale`
  overrides it.
- `pack` (default `"long"`): `"long"` (32 cards, eight a hand, eight tricks) or `"short"` (24 cards: the 8s
  and 7s left out, six a hand, six tricks; a Sie is the six highest trumps, decision B13). The action space
  and the observation keep their sizes (the cards left out are never held or played); `tricks_won` counts in
  sixths. A fixed deal gives six cards a seat, none of them an 8 or a 7.
- `doubling` (default `False`): `True` plays Kontra and Re (Stoß). Each player but the declarer is offered
  `contra` before its own first card while nobody has doubled (the hidden partner of a Rufer too, which may
  only decline: `no_double`); after a double every other player, from the doubler's left, is asked `re` /
  `no_double`, and only the side doubled last may say `re`; three answers without a double, or the fourth
  double, end it. Each double doubles the settlement; a partner who says `re` is revealed. It adds the
  actions `contra` `re` `no_double` (46..48: `Discrete(49)`), the phases `contra_offer` and
  `doubling_round` (shown as `playing` in the phase block), and 18 observation entries after `tricks_won`
  (below).
- `klopfen` (default `False`): `True` plays Klopfen. Before the bidding each seat, from forehand to the
  dealer, has seen the first half of its hand (four cards, three with the short pack: the first listed in a
  fixed deal) and says `knock` or `no_knock`; each knock doubles the settlement. Its observation and its
  `public_record` show only those cards until the bidding starts. It adds the phase `klopfen` (shown as
  `bidding` in the phase block), the actions `knock` `no_knock` (49..50: `Discrete(51)`, with `contra` `re`
  `no_double` at 46..48 legal only under `doubling`) and 5 observation entries after those of `doubling`
  (below). A record lists each hand's first half first.
- `ramsch` (default `False`): `True` plays a Ramsch when all four pass instead of throwing the hand in:
  hearts trump as in a Rufer, no declarer, everyone for itself; the player with the most card points pays
  (tariff family `"ramsch"`: `{"base": price, "durchmarsch": "all" | 61..120 | None, "jungfrau": None |
  "double_all" | "double_individually_once" | "double_individually_multiple"}`, both presets `"all"` and
  `"double_all"`; openschafkopf's `SRulesRamsch`). No Kontra in a Ramsch; knocks double it. The contract
  is `"ramsch"` in `state()`; the observation's `contract` and `declarer` blocks stay zero while the
  `phase` shows playing. Actions and sizes as without it.
- `geier` (default `False`): `True` adds the bids `geier` and `geier_tout`: the four Obers are the only
  trumps (E > G > H > S), the Unters rank in their suits `A 10 K U 9 8 7`; priced by the tariff family
  `"geier"` (`"card"` 5, `"sauspiel"` 50, the Laufende counted from two). A Tout doubles and is won only with
  every trick, as the other Touts.
- `farbwenz` (default `False`): `True` adds the bids `farbwenz` and `farbwenz_tout`; the declarer then names
  its suit with `trump:E` … `trump:S` (a suit of which it holds a card other than the Unter, decision B19):
  the four Unters, then that suit `A 10 K O 9 8 7`; tariff family `"farbwenz"` (5 / 50, Laufende from three).
- `bettel` (default `False`): `True` adds the bid `bettel`: no trumps, every suit ranks `A K O U 10 9 8 7`;
  the declarer wins if it takes no trick (every trick is played), no Schneider, no Laufende; tariff family
  `"bettel"` (only `"base"`: `"card"` 1, `"sauspiel"` 20), paid three times by or to the declarer as every
  game alone (decision B21). No Stichzwang.

  With any of these three the ladder is Rufer < Bettel < Geier < Farbwenz < Wenz < Solo < Geier Tout <
  Farbwenz Tout < Wenz Tout < Solo Tout < Sie (openschafkopf's priorities, decision B18); the bids are actions
  51..55 (`Discrete(56)`: the doubling and Klopfen actions at 46..50 legal only under their options), and 25
  observation entries follow those of `doubling` and `klopfen` (below, decision B22).
- `observation_type` (default `"observation"`): `"observation"` (what the seat sees now),
  `"information_state"` (plus perfect recall of its deal and every trick), `"perfect"` (plus every seat's
  cards: for centralised critics).
- `illegal_action` (default `"raise"`): `"raise"` (`IllegalActionError` naming the move and the legal
  ones) or `"terminate"` (PettingZoo's `TerminateIllegalWrapper` convention).
- `illegal_reward` (default `-1.0`): a finite number, the offender's reward under `"terminate"`.
- `render_mode` (default `None`): `"ansi"` (`render()` returns the table as text) or `"human"` (prints it).

## Observation space

`observation["action_mask"]` marks the legal actions of the agent to act (all zeros for the others).
`observation["observation"]` holds all and only what the seat may know. Seats in it are **relative**:
0 = the observing seat, 1 = the next seat (left), 2 = across, 3 = the previous seat. Every entry lies in
[0, 1]; one-hots are all zero while the thing is unknown or not yet decided.

`observation_type="observation"` (385 entries):

| block | indices | size | feature |
|---|---|---|---|
| hand | 0..31 | 32 | cards held (card index) |
| dealer | 32..35 | 4 | dealer (relative seat) |
| to_act | 36..39 | 4 | seat to act (zeros once the hand is over) |
| phase | 40..44 | 5 | phase: bidding, calling, choosing_trump, playing, over |
| bids | 45..72 | 28 | bids: relative seat × (pass, rufer, wenz, solo, wenz_tout, solo_tout, sie) |
| contract | 73..78 | 6 | contract once fixed: rufer, wenz, solo, wenz_tout, solo_tout, sie |
| declarer | 79..82 | 4 | declarer (highest bidder so far) |
| trump | 83..87 | 5 | trumps: Obers, Unters and suit E, G, H, S; or Wenz (Unters only) |
| called_suit | 88..91 | 4 | suit of the called ace: E, G, H, S (H is never called) |
| partner | 92..95 | 4 | holder of the called ace, once this seat knows it (its own seat if it holds the ace) |
| called_done | 96..96 | 1 | the first trick led in the called suit is complete (the called-ace rules are over) |
| leader | 97..100 | 4 | leader of the trick in progress |
| trick | 101..228 | 128 | trick in progress: relative seat × card it played |
| played | 229..356 | 128 | completed tricks: relative seat × cards it played |
| points | 357..360 | 4 | card points taken per seat / 120 |
| tricks_won | 361..364 | 4 | tricks taken per seat / 8 |
| voids | 365..384 | 20 | suits shown lacking (did not follow when led): relative seat × (E, G, H, S, trumps) |

With `pack="short"` the sizes are the same: the 8s and 7s are never held or played, and `tricks_won` is
the tricks taken / 6. With `doubling=True` two blocks follow `voids` (every later block moves 18 on:
403 / 1491 / 1619 entries): `doubling_turn` (2: this decision is a contra offer, a round of asking after a
double) and `doublers` (16: the relative seat that said the k-th double, k = 0..3). With `klopfen=True`
two more blocks follow (5 more entries): `klopfen_turn` (1: this decision is Klopfen) and `knocked` (4: the
relative seats that knocked); at Klopfen `hand` and `dealt_hand` hold the first half of the hand only.
With `geier`, `farbwenz` or `bettel` two more blocks follow (25 entries): `extra_bids` (20: relative seat ×
`geier farbwenz geier_tout farbwenz_tout bettel`, the bids the `bids` block has no column for) and
`extra_contract` (5: the contract once fixed, if one of those five; the `contract` block stays zero then). The
`trump` block shows a Farbwenz's suit (E, G, H, S) and stays zero in a Geier and a Bettel.

`observation_type="information_state"` (1473 entries, perfect recall) appends:

| block | indices | size | feature |
|---|---|---|---|
| dealt_hand | 385..416 | 32 | the hand as dealt |
| trick_history | 417..1472 | 1056 | completed trick t = 0..7 at 417 + 132 t: leader (4), relative seat × card (128) |

`observation_type="perfect"` (1601 entries) appends to the information state:

| block | indices | size | feature |
|---|---|---|---|
| hands | 1473..1600 | 128 | cards every seat holds: relative seat × card |

`kernel.observation_layout(params, obs_type)` lists these blocks (the kernel writes them in this order);
`kernel.observation_size(params, obs_type)` their total.

## Action space

| index | string | meaning |
|---|---|---|
| 0..31 | `EA` `E10` `EK` `EO` `EU` `E9` `E8` `E7` `GA` … `S7` | play that card (index = suit × 8 + rank) |
| 32 | `pass` | pass in the bidding |
| 33..38 | `rufer` `wenz` `solo` `wenz_tout` `solo_tout` `sie` | bid that contract |
| 39..41 | `call:E` `call:G` `call:S` | call that ace (Rufer) |
| 42..45 | `trump:E` `trump:G` `trump:H` `trump:S` | name that trump suit (Solo, Solo Tout) |
| 46..48 | `contra` `re` `no_double` | with `doubling=True` only: double, double again, decline |
| 49..50 | `knock` `no_knock` | with `klopfen=True` only: knock or not, before the bidding |
| 51..55 | `geier` `farbwenz` `geier_tout` `farbwenz_tout` `bettel` | with `geier` / `farbwenz` / `bettel` only: bids |

`env.unwrapped.action_to_string(a)` / `string_to_action(s)` convert; `legal_action_strings()` lists the
legal ones.

## Rewards

At the end of the hand each agent receives its settlement in units (the sum over the episode equals
it; the four sum to zero). A thrown-in hand ends with all zeros. With `illegal_action="terminate"` an
illegal move ends the episode with `illegal_reward` (-1) for the offender and 0 for the others (PettingZoo's
`TerminateIllegalWrapper` convention); by default (`"raise"`) it raises `ValueError` naming the move and
the legal ones.

## Deals and records

`reset(seed=s)` deals at random, reproducibly. `reset(options={"dealer": d, "hands": {"player_0": [...],
...}})` fixes the deal (eight cards per agent, six with the short pack; `dealer` defaults to 3, so that
`player_0` is forehand; `{"dealer": d}` alone deals random hands with that dealer). Bad deals raise
`ValueError` naming the unknown, duplicate or missing card, a card outside the pack or the wrong count.
`game_record()` returns the JSON record (its `config` the rule options) and `reset(options={"record": rec})`
deals its hand again (the deal only); `replay(rec)` also plays its actions. `public_record(agent)` is the
hand as that seat knows it: every action is public (bids, the called ace, trump, cards), so it hides only the
other hands. Also on `env.unwrapped`: `state()`, `resample_from_infostate(agent, rng)`,
`playout_values(actions, playouts, seed)`, `kernel_state()`, `clone()`.

Decisions where the rules are silent are listed, with their reasons, in
`docs/rules/bavarian_schafkopf.md#decisions-where-the-rules-are-silent` (B1–B22).

## Version history

- v0: first release.
- v0, later: takes `illegal_reward`; `state()` holds `config` (empty).
- v0, later: rule options `tariff`, `pack`, `doubling`, `klopfen` and `ramsch` (defaults: the game as
  before; the config holds the options that are not defaults).
- v0, later: rule options `geier`, `farbwenz` and `bettel` (defaults: the game as before).
- v0, later: the observation gains the `voids` block after `tricks_won`, the suits each seat has shown it
  lacks (the `played` block has no order of play to tell them); networks saved before it load with
  zero weights on it (`agents.neural.checkpoint`) and play as they did.
"""

from __future__ import annotations

from typing import Unpack

import numpy as np

from schafkopf_env.bavarian import kernel
from schafkopf_env.four_hands import DEFAULT_DEALER, FourHandsEnv
from trick_core import render
from trick_core.cards import GERMAN_32
from trick_core.deal import DealBuilder, parse_dealer, parse_hands
from trick_core.env_options import EnvOptions, check_env_options
from trick_core.kernel_env import Deal

GAME = kernel.GAME


class BavarianSchafkopfEnv(FourHandsEnv):
    """Bavarian Schafkopf as a PettingZoo AEC env (module docstring: the docs page); rule options ``tariff``,
    ``pack``, ``doubling``, ``klopfen``, ``ramsch``, ``geier``, ``farbwenz``, ``bettel`` (``FourHandsEnv`` does the
    rest)."""

    deck = GERMAN_32
    kernel = kernel
    action_visibility: dict[str, str] = {}
    """Every action is seen by every seat (``trick_core.visibility``): no card is played face down."""

    def __init__(self, tariff: str | dict = "card", pack: str = "long", doubling: bool = False,
                 klopfen: bool = False, ramsch: bool = False, geier: bool = False, farbwenz: bool = False,
                 bettel: bool = False, **options: Unpack[EnvOptions]) -> None:
        rules = {"tariff": tariff, "pack": pack, "doubling": doubling, "klopfen": klopfen, "ramsch": ramsch,
                 "geier": geier, "farbwenz": farbwenz, "bettel": bettel}
        check_env_options(self.game_name, options)
        self.action_names = kernel.action_names(kernel.make_params(**rules))  # 46, 49 doubling, 51 klopfen, 56
        super().__init__(rules, options)
        self._short_pack = pack == "short"
        self.pack_cards = np.array(GERMAN_32.cards_of(int(kernel.SHORT_PACK_MASK if self._short_pack
                                                          else kernel.FULL_MASK)), dtype=np.int64)
        # the card indices of the pack dealt, ascending (``trick_core.state_check`` checks deals against them)

    def _deal_options(self, deal) -> dict:
        """The ``reset`` options of the hand; with ``klopfen`` each hand lists the first half it was dealt
        (what its seat saw at Klopfen) before the rest, so that a record deals the same halves again."""
        options = super()._deal_options(deal)
        if self.config.get("klopfen"):
            options["hands"] = {agent: [GERMAN_32.name_of(c) for c in self._first_then_rest(self._state, seat)]
                                for seat, agent in enumerate(self.possible_agents)}
        return options

    def _deal_from_state(self, state: np.ndarray) -> Deal:
        if not self.config.get("klopfen"):
            return super()._deal_from_state(state)
        cards = [c for seat in range(kernel.NUM_SEATS) for c in self._first_then_rest(state, seat)]
        return Deal(int(state[kernel.S_DEALER]), np.array(cards, dtype=np.int64))

    def _seen_dealt_hand(self, agent: str, state: dict) -> list[str]:
        """At Klopfen a seat has seen only the first half of its hand (``klopfen``); the rest once the
        bidding starts."""
        if int(self._state[kernel.S_PHASE]) != kernel.PHASE_KLOPFEN:
            return super()._seen_dealt_hand(agent, state)
        first = int(self._state[kernel.S_FIRST_CARDS + self._seat_of(agent)])
        seen = {GERMAN_32.name_of(card) for card in GERMAN_32.cards_of(first)}
        return [card for card in state["dealt_hands"][agent] if card in seen]

    @staticmethod
    def _first_then_rest(state: np.ndarray, seat: int) -> list[int]:
        first = int(state[kernel.S_FIRST_CARDS + seat])
        rest = int(state[kernel.S_DEALT_HANDS + seat]) & ~first
        return GERMAN_32.cards_of(first) + GERMAN_32.cards_of(rest)

    def _rule_config(self, rules: dict) -> dict:
        """The options as ``kernel.checked_options`` writes them: the defaults left out (the default game's
        config stays empty), a custom tariff in full."""
        return kernel.checked_options(**rules)

    def _parse_deal(self, options: dict) -> Deal:
        """The long pack's deal as every four-hand game's; the short pack's: six cards a hand, 24 in all,
        no 8 or 7 (``ValueError`` naming a card outside the pack, a missing one or a wrong count)."""
        if not self._short_pack or "hands" not in options:
            return super()._parse_deal(options)
        for key in ("skat", "stock"):
            if key in options:
                raise ValueError(f"{self.game_name}: all 24 cards are dealt to the four seats; there is no {key!r}")
        dealer = parse_dealer(options, kernel.NUM_SEATS, self.game_name, DEFAULT_DEALER)
        builder = DealBuilder(self.deck, self.game_name)
        hands = parse_hands(builder, options, self.possible_agents, kernel.SHORT_HAND_SIZE)
        outside = builder.used_mask & ~int(kernel.SHORT_PACK_MASK)
        if outside:
            raise ValueError(f"{self.game_name}: {self.deck.format_mask(outside)} not in the short pack (no 8s, no 7s)")
        missing = int(kernel.SHORT_PACK_MASK) & ~builder.used_mask
        if missing:
            raise ValueError(f"{self.game_name}: the deal is missing {self.deck.format_mask(missing)}")
        cards = np.array([card for agent in self.possible_agents for card in hands[agent]], dtype=np.int64)
        return Deal(dealer, cards)

    # ------------------------------------------------------------ inspection
    def state(self) -> dict:
        """The full deal and history as plain JSON-serialisable Python (for critics and tests)."""
        s = self._state
        contract = int(s[kernel.S_CONTRACT])
        declarer = int(s[kernel.S_DECLARER])
        trump_kind = int(s[kernel.S_TRUMP_KIND])
        over = int(s[kernel.S_PHASE]) == kernel.PHASE_OVER
        tricks, trick_in_progress = self._tricks()
        side_points, side_tricks = kernel.declarer_side_totals(s) if contract != kernel.PASS else (0, 0)
        result = [float(u) for u in self._settlement()] if over else None
        return {
            **self._common_state(),
            "bids": {
                a: kernel.CONTRACT_NAMES[int(s[kernel.S_BIDS + i])]
                for i, a in enumerate(self.possible_agents)
                if s[kernel.S_BIDS + i] >= 0
            },
            "contract": kernel.CONTRACT_NAMES[contract] if contract != kernel.PASS else None,
            "declarer": self._agent(declarer) if contract != kernel.PASS else None,
            "trump": _trump_name(trump_kind),
            "called_suit": "EGHS"[s[kernel.S_CALLED_SUIT]] if s[kernel.S_CALLED_SUIT] >= 0 else None,
            "partner": self._agent(int(s[kernel.S_PARTNER])),
            "partner_known": bool(s[kernel.S_PARTNER_KNOWN]),
            "called_ace_rules_over": bool(s[kernel.S_CALLED_DONE]),
            "trick": trick_in_progress,
            "tricks": tricks,
            "points": {a: int(s[kernel.S_POINTS + i]) for i, a in enumerate(self.possible_agents)},
            "tricks_won": {a: int(s[kernel.S_TRICKS_WON + i]) for i, a in enumerate(self.possible_agents)},
            "declarer_side_points": int(side_points),
            "declarer_side_tricks": int(side_tricks),
            "laufende": int(s[kernel.S_LAUFENDE]),
            "tout_lost": bool(s[kernel.S_TOUT_LOST]),
            "doublers": [self._agent(int(s[kernel.S_DOUBLERS + k])) for k in range(int(s[kernel.S_DOUBLINGS]))],
            "knocked": [a for i, a in enumerate(self.possible_agents) if s[kernel.S_KNOCKED + i]],
            "result": result,
        }

    def _tricks(self):
        s = self._state
        completed = int(s[kernel.S_TRICK_NUMBER])
        tricks = []
        for t in range(completed):
            base = kernel.S_TRICKS + t * kernel.TRICK_RECORD
            leader = int(s[base])
            tricks.append(
                {
                    "leader": self.possible_agents[leader],
                    "cards": [
                        [self.possible_agents[(leader + i) % 4], GERMAN_32.name_of(int(s[base + 1 + i]))]
                        for i in range(4)
                    ],
                    "winner": self.possible_agents[int(s[base + 5])],
                }
            )
        in_progress = []
        if int(s[kernel.S_PHASE]) in (kernel.PHASE_PLAYING, kernel.PHASE_CONTRA_OFFER, kernel.PHASE_DOUBLING_ROUND):
            base = kernel.S_TRICKS + completed * kernel.TRICK_RECORD
            leader = int(s[base])
            in_progress = [
                [self.possible_agents[(leader + i) % 4], GERMAN_32.name_of(int(s[base + 1 + i]))]
                for i in range(int(s[kernel.S_TRICK_SIZE]))
            ]
        return tricks, in_progress

    # ------------------------------------------------------------ render
    def _render_text(self) -> str:
        st = self.state()
        lines = [f"Bavarian Schafkopf — dealer {self.possible_agents[st['dealer']]}, phase {st['phase']}"]
        if st["contract"]:
            detail = f", trump {st['trump']}" if st["trump"] else ""
            if st["called_suit"]:
                detail += f", called ace {st['called_suit']}A"
            lines.append(f"contract {st['contract']} by {st['declarer']}{detail}")
        lines += render.seat_lines(st, self.possible_agents, lambda agent: (
            f"{' '.join(st['hands'][agent]):<32} bid {st['bids'].get(agent, ''):<9} "
            f"points {st['points'][agent]:>3} tricks {st['tricks_won'][agent]}"
        ))
        lines += render.trick_lines(st)
        if st["result"] is not None:
            lines.append("result: " + render.settlement(self.possible_agents, st["result"]))
        return "\n".join(lines)


_TRUMP_NAMES = {
    **{suit_index: suit for suit_index, suit in enumerate("EGHS")},  # hearts (Rufer) or a Solo's suit
    **{kernel.TRUMP_FARBWENZ + suit_index: suit for suit_index, suit in enumerate("EGHS")},
    kernel.TRUMP_WENZ: "wenz",
    kernel.TRUMP_GEIER: "geier",
    kernel.TRUMP_BETTEL: "bettel",
}
"""``state()``'s name of each trump kind (``schafkopf_env.trumps``); none (``None``) before the contract."""


def _trump_name(kind: int) -> str | None:
    return _TRUMP_NAMES.get(kind)


BavarianSchafkopfEnv.action_names = kernel.ACTION_NAMES[: kernel.BASE_NUM_ACTIONS]
"""The default game's actions (an instance holds those of its options: ``kernel.action_names(params)``)."""

env = raw_env = BavarianSchafkopfEnv
"""``env(**config)`` and ``raw_env(**config)`` are the env class itself: what PettingZoo's wrappers would
add (turn order, bounds, legality) is built in, at no cost per step."""
