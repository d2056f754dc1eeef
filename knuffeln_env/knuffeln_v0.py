"""Knüffeln (``knuffeln_env.knuffeln_v0``)

One episode is one hand of Knüffeln, the North Frisian partnership game of ``docs/rules/knuffeln.md``:
Bohmstedt rules by default, with the Hattstedt, Bernhard 1924 and Grünberg 1938 variants, five players,
table talk between partners, and ladder-scored matches (``match=True``: one episode is a match). The rules
run in the compiled kernel ``knuffeln_env.knuffeln.kernel`` (one call per step);
``knuffeln_env.knuffeln.reference`` is the plain-Python twin it is tested against.

48 French cards (no 5s; Bernhard 1924: 5s instead of 10s), nine to each of four players in threes from
forehand, twelve to the stock. The top stock card is turned, then the next until one of another suit:
the two suits are the *chosen suits* (four of one suit: the same dealer deals again, inside the same
hand). The five Oles `H2 > C4 > S8 > H9 > D9` are always top cards; in the chosen suits A, J, 6, 2, 3, 4
are beaters, a led 7 is unbeatable, a led 9/8 loses only to a chosen A/J or an Ole, a led K/Q needs a
chosen 2/3 or better; in the unchosen suits only the ace ranks. No duty to follow: the trick goes card by
card to each card that beats the provisional winner. A chosen ten may be exchanged for a turned card of
its suit; an Ole at the bottom of the stock for the Queen (else King) of its suit. First team to five
tricks wins; five in a row is a *Jann* (stop, or lead on and be committed to win all nine: *Durchmarsch*).
A leader may lead face down (*drehen*): the next opponent accepts (stake +1) or flees (the hand ends, the
fleeing team pays the stake so far). Each loser pays each winner: plain 1 + turns, Jann 10 + turns,
march 30 + turns. Every rule, pin and decision: ``docs/rules/knuffeln.md``.

```python
import numpy as np
from knuffeln_env import knuffeln_v0

env = knuffeln_v0.env(talk="lexicon", render_mode="ansi")
env.reset(seed=0)
rng = np.random.default_rng(0)
for agent in env.agent_iter():                  # talk turns, exchanges, answers and card plays
    observation, reward, termination, truncation, info = env.last()
    legal = np.flatnonzero(observation["action_mask"])
    env.step(None if termination or truncation else int(rng.choice(legal)))
print(env.render())                             # the table, the talk and the settlement
```

| | |
|---|---|
| Import | `from knuffeln_env import knuffeln_v0` |
| Agents | `player_0` … `player_3` (`players=5`: … `player_4`); seat = index, clockwise; teams 0+2 v 1+3 |
| Action space | `Discrete(224)` (`talk="tokens:N"`: `224 + N`) |
| Observation space | `Dict("observation": Box(0, 64, (N,), float32), "action_mask": Box(0, 1, (A,), int8))`, N below |
| Rewards | the hand's settlement in units at the end (zero-sum), 0 before; `match=True`: ±1 / ±2 at its end |

## Arguments

`knuffeln_v0.env(variant="bohmstedt", players=4, talk="off", match=False, render_mode=None,
observation_type="observation", illegal_action="raise", illegal_reward=-1.0)`; any other option raises
`ValueError` naming it.

- `variant`: `"bohmstedt"`; `"hattstedt"` (no drehen; unchosen suits rank `A K Q J 10 9 8 7 6 4 3 2`, a
  card beating lower cards of its own suit only; Jann 2, march 4); `"bernhard1924"` (fives pack
  `KNUFFELN_48_FIVES`, the 5 taking the ten's exchange role; the bottom three stock cards lie face up and
  each Ole among them may be exchanged for its suit's Queen (King); a team may turn only after two tricks
  won, again after four once accepted; unchosen ranking); `"gruenberg1938"` (as 1924 with tens, free
  turning, payments 5 / 10 / 20 plus turns). Rules page, section 9.
- `players`: 4, or 5 (Bohmstedt only): the dealer, having seen the stock, plays alone with it (needs 4
  tricks, the four need 5; the player second to the dealer's right leads) or sits out (the four play an
  ordinary hand, partners opposite among them).
- `talk`: `"off"`; `"lexicon"` (`silent`, `say:1`..`say:24` — the 24 stock phrases, `PHRASES` — and
  `show:C`, half-showing a card to the partner); `"tokens:N"`, 1 ≤ N ≤ 64 (`silent`, `token:1`..`token:N`,
  no preset meaning). With talk on, every card-play turn (lead face up or down, follow, the Jann choice) is
  preceded by a talk turn of the same player. Utterances are public; a shown card's identity only reaches
  the shower's partner(s); the engine never checks the truth of a phrase.
- `match`: `True` (four players) makes an episode a match of hands scored on the ladder, the deal passing
  to the left (``knuffeln_env.knuffeln.match``).
- `observation_type`: `"observation"` (default), `"information_state"` (adds the trick-by-trick history:
  perfect recall), `"perfect"` (adds the hidden cards, for centralised critics).
- `illegal_action`: `"raise"` (`ValueError` naming the move and the legal ones) or `"terminate"` (the
  episode ends with `illegal_reward` for the offender and 0 for the others, PettingZoo's
  `TerminateIllegalWrapper` convention). `render_mode`: `None`, `"ansi"`, `"human"`.

## Observation space

`observation["action_mask"]` marks the legal actions of the agent to act (all zeros for the others).
`observation["observation"]` holds all and only what the seat may know. Seats are relative: entry *r* of
a per-seat block is the seat *r* places to the observer's left (0 = the observer). `n` = players, `c` = 48
cards (layout of `trick_core.cards`). Sizes (`observation` / `information_state` / `perfect`): 4 players,
talk off 1215 / 2988 / 3276; lexicon 2871 / 4644 / 4932; `tokens:8` 2259 / 4032 / 4320; 5 players, talk
off 1413 / 3627 / 3963; `match=True` adds 3 entries. `kernel.observation_layout(params, t)` lists the
blocks for any configuration (all but the 3 match entries, which the env appends); the table holds those of
the default configuration (four players, talk off) and observation type `perfect`, in order.

| block | indices (n = 4) | size | content |
|---|---|---|---|
| dealer | 0..3 | n | the dealer |
| team | 4..7 | n | my team (observer included); a sitting-out dealer takes the team on its left |
| active | 8..11 | n | the seats playing (0 for a dealer who sits out) |
| phase | 12..18 | 7 | dealer_choice, ten_exchange, ole_exchange, talk, play, turn_answer, over |
| to_act | 19..22 | n | the seat to act |
| first_suit | 23..26 | 4 | the first chosen suit, `C S H D` |
| second_suit | 27..30 | 4 | the second chosen suit |
| hand | 31..78 | c | my hand |
| turned | 79..126 | c | cards turned to choose the suits |
| face_up | 127..174 | c | cards now face up beside the stock (a ten exchanged in takes its card's place) |
| stock_shown_to_all | 175..222 | c | stock cards shown to all (bottom Oles; 1924/1938: the three bottom cards) |
| stock_known | 223..270 | c | face-down stock cards I know (the dealer: those looked at; five players: all) |
| out_of_play | 271..318 | c | Queens/Kings given for Oles |
| received | 319..510 | n·c | cards each seat received by exchange |
| given | 511..702 | n·c | cards each seat gave by exchange |
| dealer_choice | 703..705 | 3 | five players: dealer's choice undecided / alone / sits out |
| ole_on_offer | 706..753 | c | the Ole on offer |
| played | 754..945 | n·c | cards each seat has played face up (or face down and accepted) |
| trick | 946..1137 | n·c | the current trick, by seat (a face-down card awaiting its answer is not in it) |
| leader | 1138..1141 | n | leader of the current trick |
| awaiting_answer | 1142..1145 | n | seat whose face-down lead awaits an answer |
| my_face_down | 1146..1193 | c | my own face-down card (only the turner sees it unless accepted) |
| counters | 1194..1202 | 9 | tricks mine/theirs, needed mine/theirs, played; accepted turns all/mine/theirs; stake |
| flags | 1203..1206 | 4 | Jann choice pending mine / theirs; march committed mine / theirs |
| result | 1207..1214 | 8 | over, won, lost, result plain / jann / march / failed_march / fled |
| trick_history | 1215..2987 | 9·(n+n·c+1) | `information_state`: per trick its leader, each card, face down accepted |
| hands | 2988..3179 | n·c | `perfect`: every seat's hand |
| stock | 3180..3227 | c | `perfect`: the face-down stock |
| face_down_lead | 3228..3275 | c | `perfect`: the face-down led card |

With talk on, a block `talk` of 36·(n + V + 16) entries follows the result block (at 1215 with four players),
before the trick history: 36 slots in speaking order, each the speaker, the utterance and the shown
card's suit (4) and rank (12). Talk utterance one-hot: `lexicon` V = 26 (silent, say:1..24, show),
`tokens:N` V = N + 1 (silent, token:1..N). The shown card's suit and rank are filled only for the shower
and its partner(s).
`match=True` appends rungs left mine, theirs, and hands played.

## Action space

| index | string | when |
|---|---|---|
| 0..47 | `"H2"`, `"C10"`, … | play (or lead face up) that card; any card of the hand is legal |
| 48..95 | `"turn:C"` | lead C face down (drehen) |
| 96..143 | `"exchange:C"` | ten exchange: take turned card C for one's chosen ten |
| 144..191 | `"show:C"` | talk (`lexicon`): half-show C to the partner |
| 192 / 193 | `"take_ole"` / `"decline"` | bottom-Ole exchange; `decline` also ends one's ten exchange turn |
| 194 | `"stop"` | take the Jann (leader of trick 6) |
| 195 / 196 | `"accept"` / `"flee"` | answer to a face-down lead |
| 197 / 198 | `"play_alone"` / `"sit_out"` | five players: the dealer's choice |
| 199, 200..223 | `"silent"`, `"say:1"` … `"say:24"` | talk (`lexicon`: the 24 phrases of section 7) |
| 224.. | `"token:1"` … `"token:N"` | talk (`tokens:N`) |

Order of a hand (four players): the ten-exchange round (every seat from forehand is asked, holding a
chosen ten or not, and asked again after each exchange it makes: `exchange:C` or `decline`); the
bottom-Ole exchange (1924/1938: the three face-up bottom cards), in which every seat from forehand is
asked in turn (`take_ole` is legal only for the entitled seat) until one takes the Ole; then the tricks,
each card-play turn preceded by a talk turn when talk is on. Five players: the dealer first chooses
`play_alone` or `sit_out`, then the ten exchange from the dealer's left (the dealer last when playing
alone), then play; there is no bottom-Ole exchange. `env.unwrapped.action_to_string(a)` /
`string_to_action(s)` convert; `legal_action_strings()` lists the legal ones.

## Rewards

Units of the base stake (Bohmstedt 10 cents), each loser paying each winner: plain 1 + T, Jann 10 + T,
march 30 + T, failed march 30 + T paid by the committed team, flee: the fleeing team pays 1 + T (T:
accepted turns, before the fled offer). Hattstedt: 1 / 2 / 4. Grünberg 1938: 5 + T / 10 + T / 20 + T.
Bernhard 1924: the Bohmstedt scale. Five players: between the dealer and each of the four (the
sitting-out dealer gets 0). Every step before the end rewards 0. `match=True`: every step rewards 0 but
the last of the match: +1 to each winner, -1 to each loser (Knüppel), ±2 if the winners wiped all four
rungs in one hand (Brille).

## Deals and records

`reset(seed=s)` draws the dealer uniformly and shuffles the pack, reproducibly.
`reset(options={"dealer": d, "hands": {...}, "stock": [...]})` fixes the deal: nine cards per agent (five
players: the four other than the dealer), the stock listed from the top (turned first) to the bottom;
`dealer` defaults to the last seat, so that `player_0` is forehand; `{"dealer": d}` alone deals at random
with that dealer. Bad deals raise `ValueError` naming the unknown, duplicate or missing card or the wrong
count. A fixed deal whose top four stock cards share a suit is redealt by the kernel, pseudo-randomly but
reproducibly from the given cards (`state()["redeals"]`); the record keeps the deal as given.
`game_record()` returns the JSON record (match play: every hand's deal under `match_deals`) and
`reset(options={"record": rec})` deals its hand again (the deal only); `replay(rec)` also plays its actions.
`public_record(agent)` is the hand as that seat knows it (what an agent in the arena may read): a
face-down lead reads `turn:?` to every seat but its leader until it is accepted (a lead fled from stays
`turn:?`), and a half-shown card `show:?` to every seat outside the shower's team
(`KnuffelnEnv.action_visibility`). Also on `env.unwrapped`: `state()`,
`chosen_suits()`, `kernel_state()`, `clone()`, `playout_values(actions, playouts, seed)` and
`resample_from_infostate(agent, rng)`: a sampled world holding nothing `agent` could not see (its hidden
cards redealt and the hand replayed on the sample, the cards of actions it did not see drawn from the
sampled hands; in match play the finished hands are resampled too and later deals are not carried over).

Decisions where the rules are silent: ``docs/rules/knuffeln.md#decisions-where-the-rules-are-silent``
(K1–K25).

## Version history

- v0: first release.
"""

from __future__ import annotations

from typing import Unpack

import numpy as np

from trick_core import render
from trick_core.bits import make_rng
from trick_core.cards import KNUFFELN_48, KNUFFELN_48_FIVES
from trick_core.deal import DealBuilder, parse_dealer, parse_hands
from trick_core.env_options import OBSERVATION_TYPES, EnvOptions, check_env_options
from trick_core.kernel_env import Deal, KernelEnv, make_deal, seed_of
from trick_core.visibility import SEEN_BY_ACTOR_TEAM, SEEN_BY_ACTOR_UNTIL_ACCEPTED

from .knuffeln import kernel
from .knuffeln import match as match_play

GAME = kernel.GAME

PHRASES = kernel.PHRASES
"""The lexicon of ``say:k`` (``PHRASES[k - 1]``): the 24 stock phrases of section 7 of the rules."""


class KnuffelnEnv(KernelEnv):
    """Knüffeln as a PettingZoo AEC env (module docstring: the docs page)."""

    # Match mode keeps a ladder and deals the next hand mid-episode (from the env's generator): clones copy
    # the match's lists and the generator.
    _clone_containers = ("_queued_deals", "_ladder_log", "_match_rewards", "_hand_deals")
    _clone_copies_rng = True

    kernel = kernel
    action_visibility = {"turn": SEEN_BY_ACTOR_UNTIL_ACCEPTED, "show": SEEN_BY_ACTOR_TEAM}
    """Who sees the card of a hidden action (``trick_core.visibility``; rules sections 6 and 7, decision K8):
    a face-down lead its leader, and everyone once accepted; a half-shown card the shower's team. Every other
    action is public, the exchanges included (rules section 3.5)."""
    env_only_options = ("match",)  # ladder scoring over hands: played here, not in the kernel

    def __init__(
        self,
        variant: str = "bohmstedt",
        players: int = 4,
        talk: str = "off",
        match: bool = False,
        **options: Unpack[EnvOptions],
    ) -> None:
        check_env_options(GAME, options)
        params = kernel.make_params(variant, players, talk)
        if not isinstance(match, bool):
            raise ValueError(f"{GAME}: match must be True or False, got {match!r}")
        if match and players != 4:
            raise ValueError(f"{GAME}: match=True (ladder scoring of two fixed teams) needs players=4")
        self.deck = KNUFFELN_48_FIVES if variant == "bernhard1924" else KNUFFELN_48
        self.action_names = kernel.action_names(params, self.deck)
        talk_mode, tokens = kernel.parse_talk(talk)
        talk_name = ("off", "lexicon", f"tokens:{tokens}")[talk_mode]
        config = {"variant": variant, "players": players, "talk": talk_name, "match": match}
        super().__init__(players, config, **options)
        self._match = match
        self._kernel_obs_size = kernel.observation_size(params, OBSERVATION_TYPES.index(self.observation_type))
        self._setup_kernel(params, self._kernel_obs_size + (match_play.MATCH_FEATURES if match else 0),
                           kernel.OBS_HIGH)
        self._reset_match()

    # ------------------------------------------------------------ deals
    # A random deal is drawn from the env's generator (the dealer, then a permutation of the pack) and
    # started like a fixed deal; a fixed deal is the cards of the hands (seat order) and of the stock (top
    # first). Records write the deal as given (a redeal of four turned cards of one suit happens in the
    # kernel, reproducibly, decision K1).

    def _random_deal(self, rng: np.random.Generator, dealer: int = -1) -> Deal:
        if dealer < 0:
            dealer = int(rng.integers(self.num_seats))
        return make_deal(dealer, np.asarray(rng.permutation(kernel.NUM_CARDS), dtype=np.int64))

    def _hand_agents(self, dealer: int) -> list[str]:
        """Who is dealt a hand: everyone, or with five players the four other than the dealer."""
        return [a for i, a in enumerate(self.possible_agents) if self.num_seats == 4 or i != dealer]

    def _parse_deal(self, options: dict) -> Deal:
        if not isinstance(options, dict):
            raise ValueError(f"{GAME}: a deal must be a dict with 'dealer', 'hands' and 'stock'")
        if "skat" in options:
            raise ValueError(f"{GAME}: Knüffeln has a 'stock' of 12 cards, not a 'skat'")
        dealer = parse_dealer(options, self.num_seats, GAME, self.num_seats - 1)
        if "hands" not in options and "stock" not in options:
            return self._random_deal(self._generator(), dealer)
        builder = DealBuilder(self.deck, GAME)
        hands = parse_hands(builder, options, self._hand_agents(dealer), kernel.CARDS_PER_HAND)
        stock = builder.take(options.get("stock"), "stock", kernel.STOCK_SIZE)
        builder.require_complete()
        cards = [card for agent in self._hand_agents(dealer) for card in hands[agent]] + stock
        return Deal(dealer, np.array(cards, dtype=np.int64))

    def _deal_options(self, deal: Deal) -> dict:
        agents = self._hand_agents(deal.dealer)
        size = kernel.CARDS_PER_HAND
        names = [self.deck.name_of(int(c)) for c in deal.cards]
        return {
            "dealer": int(deal.dealer),
            "hands": {a: names[i * size:(i + 1) * size] for i, a in enumerate(agents)},
            "stock": names[len(agents) * size:],
        }

    def _deal_from_state(self, state: np.ndarray) -> Deal:
        """The deal (after any redeal) held in a kernel state."""
        dealer = int(state[kernel.S_DEALER])
        cards = []
        for seat in range(self.num_seats):
            if self.num_seats == 4 or seat != dealer:
                cards += self.deck.cards_of(int(state[kernel.S_DEALT_HANDS + seat]))
        cards += [int(state[kernel.S_STOCK + k]) for k in range(kernel.STOCK_SIZE)]
        return Deal(dealer, np.array(cards, dtype=np.int64))

    def _start(self, deal: Deal) -> None:
        super()._start(deal)
        self._hand_deals.append(deal)

    # ------------------------------------------------------------ match play (ladder scoring)

    def _reset_match(self) -> None:
        self._ladder = match_play.new_ladder()
        self._hand_deals: list[Deal] = []
        self._queued_deals: list[Deal] = []
        self._match_rewards: list[float] | None = None
        self._ladder_log: list[dict] = []

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._reset_match()
        super().reset(seed=seed, options=options)

    def _deal_from_record(self, record: dict) -> Deal:
        deal = super()._deal_from_record(record)
        if self._match:
            later = record.get("match_deals", [])[1:]
            self._queued_deals = [self._parse_deal(d) for d in later]
        return deal

    def _after_action(self, seat: int) -> None:
        if seat < 0 and self._match and self._illegal_seat < 0:
            seat = self._next_hand_of_match()
        super()._after_action(seat)

    def _next_hand_of_match(self) -> int:
        """Score the finished hand on the ladder; deal the next hand unless the match is over (-1)."""
        state = self._state
        winners = int(state[kernel.S_WINNER_TEAM])
        before = int(self._ladder[winners])
        rewards = np.zeros(self.num_seats, dtype=np.float64)
        match_over = bool(match_play.finish_hand_of_match(state, self._ladder, rewards))
        self._ladder_log.append({
            "winning_team": winners,
            "result": kernel.RESULT_NAMES[int(state[kernel.S_RESULT_KIND])],
            "rungs_wiped": before - int(self._ladder[winners]),
        })
        if match_over:
            self._match_rewards = rewards.tolist()
            return -1
        if self._queued_deals:
            deal = self._queued_deals.pop(0)
        else:
            deal = self._random_deal(self._generator(), int(match_play.next_dealer(state)))
        self._start(deal)
        seat = self._current_seat()
        self._fill_action_mask(self._action_mask)
        return seat

    def _settlement(self) -> np.ndarray:
        if not self._match:
            return self._hand_settlement()
        rewards = np.zeros(self.num_seats, dtype=np.float64)
        if self._match_rewards is not None:
            rewards[:] = self._match_rewards
        return rewards

    def _hand_settlement(self) -> np.ndarray:
        """Units per seat of the hand being played (the settlement of a single hand)."""
        return super()._settlement()

    def _fill_observation(self, seat: int, out: np.ndarray) -> None:
        self._kernel_observe(self._state, seat, self._obs_type_code, out[: self._kernel_obs_size])
        if self._match:
            match_play.write_match_features(self._ladder, seat, out, self._kernel_obs_size)

    def game_record(self) -> dict:
        record = super().game_record()
        if self._match:
            record["match_deals"] = [self._deal_options(d) for d in self._hand_deals]
        return record

    # ------------------------------------------------------------ sampled worlds

    def resample_from_infostate(self, agent: str, rng) -> KnuffelnEnv:
        """``KernelEnv``'s sampled world (``rng``: a ``numpy.random.Generator`` or an int seed); in match play
        the finished hands of the match are resampled for ``agent`` too: they hid cards from it as well (the
        stock, unplayed cards, a face-down lead fled from, shows to the other partnership)."""
        world = super().resample_from_infostate(agent, rng)
        if self._match and len(self._hand_deals) > 1:
            self._resample_earlier_hands(world, self._seat_of(agent))
        return world

    def _world_from_state(self, sampled: np.ndarray, seed: int) -> KnuffelnEnv:
        """``KernelEnv``'s world with this env's extras: the sampled hand's deal as the only deal, no later
        deal of a record carried over, and the ladder (public)."""
        world = super()._world_from_state(sampled, seed)
        world._hand_deals = [world._deal]
        world._queued_deals = []
        world._ladder = self._ladder.copy()
        return world

    def _resample_earlier_hands(self, world: KnuffelnEnv, seat: int) -> None:
        """Replay each finished hand of the match from its deal and the recorded actions, resample it at its
        end for ``seat`` (drawing from the world's own generator), and put the sampled deals and actions
        before the world's current hand."""
        rng = make_rng(seed_of(world._generator(), GAME))
        state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        sampled = np.empty_like(state)
        position = 0
        deals, history = [], []
        for deal in self._hand_deals[:-1]:
            kernel.init_state(state, self._params, deal.dealer, deal.cards)
            while state[kernel.S_SEAT_TO_ACT] >= 0:
                kernel.apply_action(state, self._action_history[position][1])
                position += 1
            if not self._drivers.resample_hidden(state, seat, rng, sampled):
                raise RuntimeError(f"{GAME}: found no deal of an earlier hand consistent with what seat {seat} knows")
            deals.append(self._deal_from_state(sampled))
            history += self._kernel_history(sampled)
        world._hand_deals = deals + world._hand_deals
        world._deal = deals[0]
        world._action_history = history + world._action_history

    # ------------------------------------------------------------ inspection

    def _teammates(self, seat: int, other: int) -> bool:
        """Partners in the hand being played (a sitting-out five-player dealer has none); a match keeps its
        two teams from hand to hand, so this holds for its earlier hands too."""
        team = self._state[kernel.S_TEAM + seat]
        return bool(team >= 0 and team == self._state[kernel.S_TEAM + other])

    def chosen_suits(self) -> tuple[str, str]:
        """The two chosen suits of this hand, first first, e.g. ``("H", "S")``."""
        suits = self.deck.suits
        return suits[int(self._state[kernel.S_FIRST_SUIT])], suits[int(self._state[kernel.S_SECOND_SUIT])]

    def _exchanges(self) -> list[dict]:
        s = self._state
        out = []
        oles = 0
        for seat, action in self._kernel_history(s):
            if kernel.ACTION_EXCHANGE <= action < kernel.ACTION_SHOW:
                took = action - kernel.ACTION_EXCHANGE
                ten = took - took % kernel.NUM_RANKS + kernel.RANK_EXCHANGE
                out.append({"agent": self._agent(seat), "kind": "ten", "gave": self.deck.name_of(ten),
                            "took": self.deck.name_of(took)})
            elif action == kernel.ACTION_TAKE_OLE:
                out.append({"agent": self._agent(seat), "kind": "ole",
                            "gave": self.deck.name_of(int(s[kernel.S_OLE_LOG_GIVEN + oles])),
                            "took": self.deck.name_of(int(s[kernel.S_OLE_LOG_TAKEN + oles]))})
                oles += 1
        return out

    def _playing_order(self, leader: int) -> list[int]:
        order = [leader]
        while len(order) < int(self._state[kernel.S_NUM_ACTIVE]):
            order.append(int(self._state[kernel.S_NEXT + order[-1]]))
        return order

    def _tricks(self) -> list[dict]:
        s = self._state
        tricks = []
        for t in range(int(s[kernel.S_TRICK_NUMBER])):
            log = kernel.S_TRICK_LOG + t * kernel.TRICK_LOG_WIDTH
            leader = int(s[log])
            cards = [[self._agent(seat), self.deck.name_of(int(s[log + 3 + seat]))]
                     for seat in self._playing_order(leader) if s[log + 3 + seat] >= 0]
            tricks.append({"leader": self._agent(leader), "cards": cards, "winner": self._agent(int(s[log + 1])),
                           "face_down_accepted": bool(s[log + 2] == 1)})
        return tricks

    def state(self) -> dict:
        """The full deal and history as plain JSON-serialisable Python (for critics and tests)."""
        s = self._state
        k = kernel
        over = int(s[k.S_PHASE]) == k.PHASE_OVER
        trick = [[self._agent(int(s[k.S_TRICK_SEAT + i])), self.deck.name_of(int(s[k.S_TRICK_CARD + i]))]
                 for i in range(int(s[k.S_TRICK_SIZE]))]
        talk = [[self._agent(int(s[k.S_TALK_SEAT + i])), self.action_names[int(s[k.S_TALK_ACTION + i])]]
                for i in range(int(s[k.S_TALK_COUNT]))]
        result = None
        if over:
            result = {
                "kind": k.RESULT_NAMES[int(s[k.S_RESULT_KIND])],
                "winning_team": int(s[k.S_WINNER_TEAM]),
                "units": int(s[k.S_RESULT_UNITS]),
                "settlement": [float(u) for u in self._hand_settlement()],
            }
        face_down = int(s[k.S_FACE_DOWN_CARD])
        agents = self.possible_agents
        state = {
            **self._common_state(),
            "forehand": int(s[k.S_FOREHAND]),
            "redeals": int(s[k.S_REDEALS]),
            "chosen_suits": list(self.chosen_suits()),
            "turned": [self.deck.name_of(int(s[k.S_STOCK + i])) for i in range(int(s[k.S_NUM_TURNED]))],
            "face_up": self._card_names(s[k.S_FACE_UP_MASK]),
            "stock_order": [self.deck.name_of(int(s[k.S_STOCK + i])) for i in range(k.STOCK_SIZE)],
            "stock": self._card_names(s[k.S_STOCK_MASK]),
            "out_of_play": self._card_names(s[k.S_OUT_MASK]),
            "exchanges": self._exchanges(),
            "dealer_choice": (None, "play_alone", "sit_out")[int(s[k.S_DEALER_MODE])],
            "teams": {a: (int(s[k.S_TEAM + i]) if s[k.S_TEAM + i] >= 0 else None) for i, a in enumerate(agents)},
            "trick": trick,
            "trick_face_down": bool(s[k.S_TRICK_FACE_DOWN]),
            "face_down_card": self.deck.name_of(face_down) if face_down >= 0 else None,
            "tricks": self._tricks(),
            "tricks_won": [int(s[k.S_TEAM_TRICKS]), int(s[k.S_TEAM_TRICKS + 1])],
            "tricks_needed": [int(s[k.S_TARGET]), int(s[k.S_TARGET + 1])],
            "accepted_turns": int(s[k.S_ACCEPTED]),
            "stake": int(k.PAY_BASE[int(s[k.S_VARIANT])] + s[k.S_ACCEPTED]),
            "jann_pending": bool(s[k.S_JANN_PENDING]),
            "committed_team": int(s[k.S_COMMITTED]) if s[k.S_COMMITTED] >= 0 else None,
            "talk": talk,
            "result": result,
        }
        if self._match:
            ladder = self._ladder
            state["match"] = {
                "rungs_left": [int(ladder[match_play.TEAM_0_RUNGS]), int(ladder[match_play.TEAM_1_RUNGS])],
                "hands_played": int(ladder[match_play.HANDS_PLAYED]),
                "hands": list(self._ladder_log),
                "rewards": self._match_rewards,
            }
        return state

    # ------------------------------------------------------------ render

    def _utterance_text(self, action: str) -> str:
        if action.startswith("say:"):
            return f'says "{PHRASES[int(action[4:]) - 1]}"'
        if action.startswith("show:"):
            return f"shows a card ({action[5:]})"
        return action

    def _render_text(self) -> str:
        st = self.state()
        config = self.config
        lines = [
            f"Knüffeln ({config['variant']}, {config['players']} players, talk {config['talk']}) — dealer "
            f"{self.possible_agents[st['dealer']]}, phase {st['phase']}",
            f"chosen suits {st['chosen_suits'][0]} (first) {st['chosen_suits'][1]}; turned {' '.join(st['turned'])}; "
            f"face up {' '.join(st['face_up'])}; stake {st['stake']} (accepted turns {st['accepted_turns']})",
        ]
        if st["dealer_choice"]:
            lines.append(f"dealer {st['dealer_choice']}")
        for exchange in st["exchanges"]:
            lines.append(f"{exchange['agent']} gave {exchange['gave']} for {exchange['took']} ({exchange['kind']})")
        teams = {agent: "-" if team is None else team for agent, team in st["teams"].items()}
        lines += render.seat_lines(st, self.possible_agents, lambda agent: (
            f"[team {teams[agent]}] {' '.join(st['hands'][agent])}"
        ))
        lines += render.trick_lines(
            st, lambda trick: " (face down, accepted)" if trick["face_down_accepted"] else "", st["trick_face_down"]
        )
        lines.append(f"tricks won: team 0 {st['tricks_won'][0]}, team 1 {st['tricks_won'][1]}"
                     + ("; Jann choice pending" if st["jann_pending"] else "")
                     + (f"; team {st['committed_team']} committed to the march" if st["committed_team"] is not None
                        else ""))
        if st["talk"]:
            lines.append("talk: " + "; ".join(f"{a} {self._utterance_text(u)}" for a, u in st["talk"]))
        if st["result"] is not None:
            result = st["result"]
            lines.append(f"result: {result['kind']}, team {result['winning_team']} wins {result['units']} units: "
                         + render.settlement(self.possible_agents, result["settlement"]))
        if self._match:
            match = st["match"]
            lines.append(f"match: rungs left team 0 {match['rungs_left'][0]}, team 1 {match['rungs_left'][1]}, "
                         f"hands played {match['hands_played']}")
        return "\n".join(lines)


env = raw_env = KnuffelnEnv
"""``env(**config)`` and ``raw_env(**config)`` are the env class itself: what PettingZoo's wrappers would
add (turn order, bounds, legality) is built in, at no cost per step."""
