"""Knüffeln (``knuffeln_env.knuffeln_v0``)

One episode is one hand of Knüffeln, the North Frisian partnership game of ``shared/rules/knuffeln.md``
(Bohmstedt rules by default; Hattstedt, Bernhard 1924 and Grünberg 1938 variants; five players; table
talk; ladder-scored matches). The rules run in the compiled kernel ``knuffeln_env.kernel`` (one call per
step); ``knuffeln_env.reference`` is the plain-Python twin it is tested against.

```python
from knuffeln_env import knuffeln_v0
env = knuffeln_v0.env(talk="lexicon", render_mode="ansi")
env.reset(seed=0)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    action = None if termination or truncation else int(np.flatnonzero(observation["action_mask"])[0])
    env.step(action)
```

| | |
|---|---|
| Import | `from knuffeln_env import knuffeln_v0` |
| Agents | `player_0` … `player_3` (`players=5`: … `player_4`); seat = index, clockwise; teams 0+2 v 1+3 |
| Action space | `Discrete(224)` (`talk="tokens:N"`: `224 + N`) |
| Observation space | `Dict("observation": Box(0, 64, (N,), float32), "action_mask": Box(0, 1, (A,), int8))`, N below |
| Rewards | the hand's settlement in units at the end (zero-sum), 0 before; `match=True`: ±1 / ±2 at its end |
| Config | see below; anything else raises `ValueError` |

Config: `variant` (`"bohmstedt"`, `"hattstedt"`, `"bernhard1924"`, `"gruenberg1938"`), `players` (4, 5),
`talk` (`"off"`, `"lexicon"`, `"tokens:N"`, 1 ≤ N ≤ 64), `match` (bool), `render_mode` (`None`, `"ansi"`,
`"human"`), `observation_type` (`"observation"`, `"information_state"`, `"perfect"`), `illegal_action`
(`"raise"`, `"terminate"`), `illegal_reward` (default -1).

Observation sizes (`observation` / `information_state` / `perfect`): 4 players, talk off 1215 / 2988 / 3276;
lexicon 2871 / 4644 / 4932; `tokens:8` 2259 / 4032 / 4320; 5 players, talk off 1413 / 3627 / 3963.
`match=True` adds 3 entries.

## Rules (summary)

48 French cards (no 5s; Bernhard 1924: 5s instead of 10s), nine to each of four players in threes from
forehand, twelve to the stock. The top stock card is turned, then the next until one of another suit:
the two suits are the *chosen suits* (four of one suit: the same dealer deals again, inside the same
hand). The five Oles `H2 > C4 > S8 > H9 > D9` are always top cards; in the chosen suits A, J, 6, 2, 3, 4
are beaters (in that order), a led 7 is unbeatable, a led 9/8 loses only to a chosen A/J or an Ole, a
led K/Q needs a chosen 2/3 or better; in the unchosen suits only the ace ranks (beaten by a chosen 6 or
better) — Hattstedt and the early variants rank the whole unchosen suit. No duty to follow: the trick
goes card by card to each card that beats the provisional winner (section 4's attack/defence table).
A chosen ten may be exchanged for a turned card of its suit; an Ole at the bottom of the stock for the
Queen (else King) of its suit. First team to five tricks wins; five in a row is a *Jann* (stop, or lead
on and be committed to win all nine: *Durchmarsch*). A leader may lead face down (*drehen*): the
next opponent accepts (stake +1) or flees (the hand ends, the fleeing team pays the stake so far).
Each loser pays each winner: plain 1 + turns, Jann 10 + turns, march 30 + turns.

## Phases and actions

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
asked in turn (`take_ole` is legal only for the entitled seat) until one takes the Ole; then the tricks.
Asking every seat keeps the turn order from revealing who holds a ten, Queen or King. With talk on,
every card-play turn (lead, face up or down, or the Jann choice) is preceded by a talk turn of the same
player (`silent`, `say:k`, `show:C` / `token:k`). Five players: the dealer first chooses `play_alone` or
`sit_out` (having seen the stock), then the ten exchange from the dealer's left (the dealer last when
playing alone), then play; there is no bottom-Ole exchange.

## Observation (`observation_type="observation"`)

Seats are relative: entry *r* of a per-seat block is the seat *r* places to the observer's left (0 =
the observer). `n` = players, `c` = 48 cards (layout of `trick_core.cards`).

| offset (n = 4) | size | content |
|---|---|---|
| 0 | n | dealer |
| 4 | n | my team (1 = teammate, observer included; a sitting-out dealer takes the team on its left) |
| 8 | n | active seats (0 for a dealer who sits out) |
| 12 | 7 | phase: dealer_choice, ten_exchange, ole_exchange, talk, play, turn_answer, over |
| 19 | n | seat to act |
| 23 | 4 + 4 | first chosen suit, second chosen suit (`C S H D`) |
| 31 | c | my hand |
| 79 | c | cards turned to choose the suits |
| 127 | c | cards now face up beside the stock (a ten exchanged in takes its card's place) |
| 175 | c | stock cards shown to all (bottom Oles; 1924/1938: the three bottom cards) |
| 223 | c | face-down stock cards I know (the dealer: the cards looked at; five players: the whole stock) |
| 271 | c | out of play (Queens/Kings given for Oles) |
| 319 | n·c | cards each seat received by exchange |
| 511 | n·c | cards each seat gave by exchange |
| 703 | 3 | five players: dealer's choice undecided / alone / sits out |
| 706 | c | the Ole on offer |
| 754 | n·c | cards each seat has played face up (or face down and accepted) |
| 946 | n·c | the current trick, by seat (a face-down card awaiting its answer is not in it) |
| 1138 | n | leader of the current trick |
| 1142 | n | seat whose face-down lead awaits an answer |
| 1146 | c | my own face-down card (only the turner ever sees it unless accepted) |
| 1194 | 9 | tricks mine, theirs; tricks needed mine, theirs; tricks played; accepted turns all, mine, theirs; stake |
| 1203 | 4 | Jann choice pending mine / theirs; march committed mine / theirs |
| 1207 | 8 | over, won, lost, result plain / jann / march / failed_march / fled |
| 1215 | 36·(n+V+16) | talk (if on), 36 slots in speaking order: speaker, utterance, shown card suit 4 + rank 12 |

Talk utterance one-hot: `lexicon` V = 26 (silent, say:1..24, show), `tokens:N` V = N + 1 (silent,
token:1..N). The shown card's suit and rank are filled only for the shower and its partner(s).

`information_state` appends the trick history, 9 × (leader n, card of each seat n·c, face-down accepted
1); `perfect` appends every hand (n·c), the face-down stock (c) and the face-down led card (c).
`match=True` appends rungs left mine, theirs, and hands played. `kernel.observation_layout(params, t)`
lists the sections for any configuration.

## Rewards

Units of the base stake (Bohmstedt 10 cents), each loser paying each winner (section 8): plain 1 + T,
Jann 10 + T, march 30 + T, failed march 30 + T paid by the committed team, flee: the fleeing team pays
1 + T (T: accepted turns; before the fled offer). Hattstedt: 1 / 2 / 4. Grünberg 1938: 5 + T / 10 + T /
20 + T. Bernhard 1924: the Bohmstedt scale. Five players: between the dealer and each of the four
(the sitting-out dealer gets 0).

## Variants

`hattstedt`: no drehen; unchosen suits rank `A K Q J 10 9 8 7 6 4 3 2` (a card beats lower cards of its
own suit only). `bernhard1924`: fives pack (`KNUFFELN_48_FIVES`, the 5 takes the ten's exchange role);
the cutter lays the bottom three stock cards face up, each Ole among them may be exchanged for its
suit's Queen (King); a team may turn only after two tricks won, again after four once accepted;
unchosen ranking. `gruenberg1938`: as 1924 with tens, free turning, the Grünberg payment scale.
`players=5` (Bohmstedt): dealer plays alone (needs 4 tricks, the four need 5; the player second to the
dealer's right leads) or sits out (the four play an ordinary hand, partners opposite among them).

## Talk (section 7, pinned)

`talk="off"`; `"lexicon"`: `silent`, `say:k` (the 24 stock phrases, `PHRASES`), `show:C`; `"tokens:N"`:
`silent`, `token:1`..`token:N` (no preset meaning). Utterances are public: every seat's observation
holds who said what, in order; a shown card's identity only reaches the shower's partner. The engine
never checks the truth of a phrase; phrases 23 and 24 are words, not actions.

## Pins and decisions (where the rules are silent)

- Every seat is asked in the ten-exchange round and in each Ole offer (see above), so decisions reveal
  nothing beyond the exchanges themselves (which are public).
- An Ole whose Queen and King no player holds cannot be taken: the checking ends (1924/1938: the next
  face-up Ole is offered). 1924/1938: "the King if that Queen is in the stock" is read as "if no player
  holds the Queen" (as Bohmstedt's pin); each face-up Ole is offered in turn from the bottom, a refusal
  does not end the others, and the no-double-exchange rule applies.
- Bernhard 1924: the 5 ranks between the 6 and the 4 in an unchosen suit; a team's k-th turn needs 2k
  tricks won (turning = offering; k-1 of its turns accepted so far); payments on the Bohmstedt scale.
  Grünberg: accepted turns add to the Jann and march values too.
- A fixed deal whose top four stock cards share a suit is redealt by the kernel, pseudo-randomly but
  reproducibly from the given cards (`state()["redeals"]`); the record keeps the given deal.
- `reset(options=...)` without `"dealer"`: the last seat deals, so `player_0` is forehand.
- Five players: Bohmstedt only; the lone dealer does not talk; a shown card is seen by all the shower's
  teammates; a dealer game has min(9, dealer's cards) tricks (a march takes all of them).
- Talk precedes the Jann choice (it is a lead turn), but not an answer, an exchange or the dealer's choice.
- A committed team may still turn; the opponents' flight then makes the march fail (rules' pin).
- `match=True` (4 players): an episode is a match of hands, the deal passing to the left; each team has
  four rungs; a won hand wipes 1 (Jann 2) plus 1 per accepted turn, a march all; a failed march wipes
  all of the opponents' rungs; a fled turn counts as the turner's plain win. The first team to wipe all
  its rungs wins: rewards +1 to each winner, -1 to each loser (Knüppel), ±2 if the winners wiped all four
  rungs in one hand (Brille); every other step rewards 0. Records list every hand's deal (`match_deals`).
- A face-down card (pending, or after a flee) is in no observation but the turner's own ("my face-down
  card": it was its card); accepted, it is public. `state()` (the full state) names it.
- The default `observation` summarises the play (cards played per seat, the current trick, counters);
  `information_state` adds the trick-by-trick history, as in the project's other games.
- `resample_from_infostate(agent, rng)` returns a sampled world that holds nothing `agent` could not
  see: the cards hidden from it are redealt and the hand's history is replayed on the sampled deal, the
  cards of actions it did not see (another seat's face-down lead not accepted, a card shown to the other
  partnership) drawn from the sampled hands, so its record, `state()`, talk and observations name the
  sampled world's cards only. A sample is kept only if every recorded action is legal in it and `agent`
  had exactly its real legal actions at each of its own decisions, past and present (e.g. whether it
  was entitled to an Ole). The five-player dealer knows the stock as a set (its observation has no
  order, and no order matters then): samples lay it in a fresh order. In match play the finished hands
  are resampled the same way and later deals are not carried over.

## Speed

`python -m knuffeln_env.perf` prints compiled random hands per second, AEC steps per second and the
reference's hands per second as JSON.

## Version history

- v0: first release.
"""

from __future__ import annotations

import numpy as np

from trick_core import drivers
from trick_core.aec import (
    ADVANCE_SIGNATURE,
    OBSERVATION_TYPES,
    OBSERVE_SIGNATURE,
    CompiledKernel,
    TrickTakingEnv,
    check_no_unknown_kwargs,
)
from trick_core.bits import make_rng
from trick_core.cards import KNUFFELN_48, KNUFFELN_48_FIVES
from trick_core.deal import DealBuilder, parse_dealer, parse_hands

from . import kernel

GAME = "knuffeln"
LADDER_RUNGS = 4
MATCH_FEATURES = 3

PHRASES = (
    "Are you old?",
    "Can you take any tricks?",
    "Can you?",
    "Can you meet me?",
    "Have you got something suitable?",
    "You play first, I have an Ole",
    "I have a beater and two leaders",
    "I have only two Puzers",
    "I feel bad",
    "Let it come",
    "Let it run",
    "Certainly",
    "I can't do anything",
    "I can't, you must play a beater",
    "I can go a little ahead",
    "I can help you only once",
    "I'll certainly make two tricks",
    "One for the Jann",
    "Who can?",
    "A sign of weakness",
    "They play that in bad weather",
    "We'll play",
    "I'll turn one",
    "We fold",
)
"""The lexicon of ``say:k`` (``PHRASES[k - 1]``), section 7 of the rules (English gist)."""

DRIVERS = drivers.compiled(kernel)
"""The game's compiled drivers (``trick_core.drivers``)."""


def env(**config) -> KnuffelnEnv:
    """The environment. The safety of PettingZoo's wrappers (turn order, bounds, legality) is built in."""
    return KnuffelnEnv(**config)


def raw_env(**config) -> KnuffelnEnv:
    """The same class as ``env``: nothing is lost by skipping the wrappers, which are built in."""
    return KnuffelnEnv(**config)


class KnuffelnEnv(TrickTakingEnv):
    """Knüffeln as a PettingZoo AEC env (module docstring: the docs page)."""

    # Match mode keeps a ladder and deals the next hand mid-episode: clones copy both (and the deals of
    # the match, which a resampled clone rewrites).
    _clone_containers = ("_ladder", "_queued_deals", "_ladder_log", "_match_rewards", "_hand_deals")
    _clone_copies_rng = True

    metadata = {**TrickTakingEnv.metadata, "name": "knuffeln_v0"}
    game_name = GAME
    _kernel_advance = CompiledKernel(DRIVERS.advance, ADVANCE_SIGNATURE)
    _kernel_observe = CompiledKernel(kernel.observe, OBSERVE_SIGNATURE)

    def __init__(
        self,
        variant: str = "bohmstedt",
        players: int = 4,
        talk: str = "off",
        match: bool = False,
        render_mode: str | None = None,
        observation_type: str = "observation",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        **unknown,
    ) -> None:
        check_no_unknown_kwargs(GAME, unknown)
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
        super().__init__(
            players, config, render_mode=render_mode, observation_type=observation_type,
            illegal_action=illegal_action, illegal_reward=illegal_reward,
        )
        self._params = params
        self._match = match
        self._obs_type_code = OBSERVATION_TYPES.index(observation_type)
        self._kernel_obs_size = kernel.observation_size(params, self._obs_type_code)
        self._setup_spaces(self._kernel_obs_size + (MATCH_FEATURES if match else 0), kernel.OBS_HIGH)
        self._state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        self._reset_match()

    # ------------------------------------------------------------ deals

    def _random_deal(self, rng: np.random.Generator, dealer: int | None = None):
        if dealer is None:
            dealer = int(rng.integers(self.num_seats))
        return dealer, tuple(rng.permutation(kernel.NUM_CARDS).tolist())

    def _hand_agents(self, dealer: int) -> list[str]:
        """Who is dealt a hand: everyone, or with five players the four other than the dealer."""
        return [a for i, a in enumerate(self.possible_agents) if self.num_seats == 4 or i != dealer]

    def _parse_deal(self, options: dict):
        if not isinstance(options, dict):
            raise ValueError(f"{GAME}: a deal must be a dict with 'dealer', 'hands' and 'stock'")
        if "skat" in options:
            raise ValueError(f"{GAME}: Knüffeln has a 'stock' of 12 cards, not a 'skat'")
        dealer = parse_dealer(options, self.num_seats, GAME, self.num_seats - 1)
        if "hands" not in options and "stock" not in options:
            return self._random_deal(self._np_random, dealer)
        builder = DealBuilder(self.deck, GAME)
        hands = parse_hands(builder, options, self._hand_agents(dealer), kernel.CARDS_PER_HAND)
        stock = builder.take(options.get("stock"), "stock", kernel.STOCK_SIZE)
        builder.require_complete()
        cards = [card for agent in self._hand_agents(dealer) for card in hands[agent]] + stock
        return dealer, tuple(cards)

    def _deal_options(self, deal) -> dict:
        dealer, cards = deal
        agents = self._hand_agents(dealer)
        size = kernel.CARDS_PER_HAND
        return {
            "dealer": int(dealer),
            "hands": {a: [self.deck.name_of(c) for c in cards[i * size:(i + 1) * size]] for i, a in enumerate(agents)},
            "stock": [self.deck.name_of(c) for c in cards[len(agents) * size:]],
        }

    def _deal_of_state(self, state: np.ndarray):
        """The deal (after any redeal) held in a kernel state, in ``_start``'s representation."""
        dealer = int(state[kernel.S_DEALER])
        cards = []
        for i, _agent in enumerate(self.possible_agents):
            if self.num_seats == 4 or i != dealer:
                cards += self.deck.cards_of(int(state[kernel.S_DEALT + i]))
        cards += [int(state[kernel.S_STOCK + k]) for k in range(kernel.STOCK_SIZE)]
        return dealer, tuple(cards)

    # ------------------------------------------------------------ kernel hooks

    def _start(self, deal) -> None:
        dealer, cards = deal
        kernel.init_state(self._state, self._params, dealer, np.array(cards, dtype=np.int64))
        self._hand_deals.append(deal)

    def _current_seat(self) -> int:
        return int(self._state[kernel.S_CURRENT])

    def _fill_action_mask(self, out: np.ndarray) -> None:
        kernel.legal_action_mask(self._state, out)

    def _apply(self, action: int) -> None:
        kernel.apply_action(self._state, action)

    def _advance(self, action: int) -> int:
        return self._kernel_advance(self._state, action, self._action_mask)

    def _hand_settlement(self) -> np.ndarray:
        units = np.zeros(self.num_seats, dtype=np.float64)
        kernel.settlement(self._state, units)
        return units

    def _settlement(self) -> np.ndarray:
        if self._match:
            rewards = np.zeros(self.num_seats, dtype=np.float64)
            if self._match_rewards is not None:
                rewards[:] = self._match_rewards
            return rewards
        return self._hand_settlement()

    def _fill_observation(self, seat: int, out: np.ndarray) -> None:
        self._kernel_observe(self._state, seat, self._obs_type_code, out[: self._kernel_obs_size])
        if self._match:
            team = seat % 2
            out[self._kernel_obs_size:] = (self._ladder[team], self._ladder[1 - team], self._hands_played)

    # ------------------------------------------------------------ match play (ladder scoring)

    def _reset_match(self) -> None:
        self._ladder = [LADDER_RUNGS, LADDER_RUNGS]
        self._hand_deals: list = []
        self._queued_deals: list = []
        self._hands_played = 0
        self._match_rewards = None
        self._ladder_log: list[dict] = []

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._reset_match()
        super().reset(seed=seed, options=options)

    def _deal_from_record(self, record: dict):
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
        """Score the finished hand on the ladder; deal the next hand unless the match is over."""
        s = self._state
        kind = int(s[kernel.S_RESULT_KIND])
        winners = int(s[kernel.S_WINNER_TEAM])
        wiped = LADDER_RUNGS if kind in (kernel.RESULT_MARCH, kernel.RESULT_FAILED_MARCH) else (
            (2 if kind == kernel.RESULT_JANN else 1) + int(s[kernel.S_ACCEPTED])
        )
        before = self._ladder[winners]
        self._ladder[winners] = max(0, before - wiped)
        self._hands_played += 1
        self._ladder_log.append(
            {"winning_team": winners, "result": kernel.RESULT_NAMES[kind],
             "rungs_wiped": before - self._ladder[winners]}
        )
        if self._ladder[winners] == 0:
            brille = before == LADDER_RUNGS
            points = 2.0 if brille else 1.0
            self._match_rewards = [points if seat % 2 == winners else -points for seat in range(self.num_seats)]
            self._match_end = "brille" if brille else "knueppel"
            return -1
        dealer = (int(s[kernel.S_DEALER]) + 1) % self.num_seats
        deal = self._queued_deals.pop(0) if self._queued_deals else self._random_deal(self._np_random, dealer)
        self._start(deal)
        seat = self._current_seat()
        self._fill_action_mask(self._action_mask)
        return seat

    def game_record(self) -> dict:
        record = super().game_record()
        if self._match:
            record["match_deals"] = [self._deal_options(d) for d in self._hand_deals]
        return record

    # ------------------------------------------------------------ inspection

    def kernel_state(self) -> np.ndarray:
        """A copy of the kernel's ``int64`` state array (layout: ``knuffeln_env.kernel.S_*``)."""
        return self._state.copy()

    def chosen_suits(self) -> tuple[str, str]:
        """The two chosen suits of this hand, first first, e.g. ``("H", "S")``."""
        suits = self.deck.suits
        return suits[int(self._state[kernel.S_FIRST_SUIT])], suits[int(self._state[kernel.S_SECOND_SUIT])]

    def _names(self, mask) -> list[str]:
        return self.deck.names_of(int(mask))

    def _agent(self, seat: int) -> str | None:
        return self.possible_agents[seat] if seat >= 0 else None

    def _kernel_history(self) -> list[tuple[int, int]]:
        s = self._state
        entries = s[kernel.S_HIST:kernel.S_HIST + int(s[kernel.S_HIST_LEN])]
        return [(int(e) // kernel.HIST_SEAT_FACTOR, int(e) % kernel.HIST_SEAT_FACTOR) for e in entries]

    def _exchanges(self) -> list[dict]:
        s = self._state
        out = []
        oles = 0
        for seat, action in self._kernel_history():
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
        for t in range(int(s[kernel.S_TRICK_NO])):
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
        over = int(s[kernel.S_PHASE]) == kernel.PHASE_OVER
        trick = [[self._agent(int(s[kernel.S_TRICK_SEAT + k])), self.deck.name_of(int(s[kernel.S_TRICK_CARD + k]))]
                 for k in range(int(s[kernel.S_TRICK_COUNT]))]
        talk = [[self._agent(int(s[kernel.S_TALK_SEAT + k])), self.action_names[int(s[kernel.S_TALK_ACTION + k])]]
                for k in range(int(s[kernel.S_TALK_COUNT]))]
        result = None
        if over:
            result = {
                "kind": kernel.RESULT_NAMES[int(s[kernel.S_RESULT_KIND])],
                "winning_team": int(s[kernel.S_WINNER_TEAM]),
                "units": int(s[kernel.S_RESULT_UNITS]),
                "settlement": [float(u) for u in self._hand_settlement()],
            }
        face_down = int(s[kernel.S_FACE_DOWN_CARD])
        dealer_mode = int(s[kernel.S_DEALER_MODE])
        state = {
            "game": GAME,
            "config": dict(self.config),
            "phase": kernel.PHASE_NAMES[int(s[kernel.S_PHASE])],
            "dealer": int(s[kernel.S_DEALER]),
            "forehand": int(s[kernel.S_FOREHAND]),
            "current_player": self._agent(int(s[kernel.S_CURRENT])),
            "redeals": int(s[kernel.S_REDEALS]),
            "chosen_suits": list(self.chosen_suits()),
            "turned": [self.deck.name_of(int(s[kernel.S_STOCK + k])) for k in range(int(s[kernel.S_NUM_TURNED]))],
            "face_up": self._names(s[kernel.S_FACE_UP_MASK]),
            "stock_order": [self.deck.name_of(int(s[kernel.S_STOCK + k])) for k in range(kernel.STOCK_SIZE)],
            "stock": self._names(s[kernel.S_STOCK_MASK]),
            "out_of_play": self._names(s[kernel.S_OUT_MASK]),
            "dealt_hands": {a: self._names(s[kernel.S_DEALT + i]) for i, a in enumerate(self.possible_agents)},
            "hands": {a: self._names(s[kernel.S_HAND + i]) for i, a in enumerate(self.possible_agents)},
            "exchanges": self._exchanges(),
            "dealer_choice": (None, "play_alone", "sit_out")[dealer_mode],
            "teams": {a: (int(s[kernel.S_TEAM + i]) if s[kernel.S_TEAM + i] >= 0 else None)
                      for i, a in enumerate(self.possible_agents)},
            "history": [[self.possible_agents[seat], self.action_names[a]] for seat, a in self._action_history],
            "trick": trick,
            "trick_face_down": bool(s[kernel.S_TRICK_FACE_DOWN]),
            "face_down_card": self.deck.name_of(face_down) if face_down >= 0 else None,
            "tricks": self._tricks(),
            "tricks_won": [int(s[kernel.S_WON]), int(s[kernel.S_WON + 1])],
            "tricks_needed": [int(s[kernel.S_TARGET]), int(s[kernel.S_TARGET + 1])],
            "accepted_turns": int(s[kernel.S_ACCEPTED]),
            "stake": int(kernel.PAY_BASE[int(s[kernel.S_VARIANT])] + s[kernel.S_ACCEPTED]),
            "jann_pending": bool(s[kernel.S_JANN_PENDING]),
            "committed_team": int(s[kernel.S_COMMITTED]) if s[kernel.S_COMMITTED] >= 0 else None,
            "talk": talk,
            "result": result,
        }
        if self._match:
            state["match"] = {"rungs_left": list(self._ladder), "hands_played": self._hands_played,
                              "hands": list(self._ladder_log), "rewards": self._match_rewards}
        return state

    def resample_from_infostate(self, agent: str, rng) -> KnuffelnEnv:
        """A clone whose cards hidden from ``agent`` are redealt consistently with all it knows (turned
        cards, exchanges, cards shown to it, face-down cards' hiddenness, plays, its own legal actions at
        each of its decisions), with the history rewritten to match: nothing reachable from the clone
        depends on a card ``agent`` cannot see (module docstring).

        ``rng`` is a ``numpy.random.Generator`` or an int seed. Raises ``RuntimeError`` if no consistent
        deal is found."""
        if agent not in self.agent_name_mapping:
            raise ValueError(f"{GAME}: unknown agent {agent!r}; agents are {self.possible_agents}")
        if not self._started:
            raise RuntimeError(f"{GAME}: reset() must be called before resample_from_infostate()")
        out = np.empty_like(self._state)
        kernel_rng = _kernel_rng(rng)
        if not DRIVERS.resample_hidden(self._state, self.agent_name_mapping[agent], kernel_rng, out):
            raise RuntimeError(f"{GAME}: found no deal consistent with what {agent} knows")
        clone = self.clone()
        clone._state = out
        deal = self._deal_of_state(out)
        clone._hand_deals[-1] = deal
        if len(clone._hand_deals) == 1:
            clone._deal = deal
        # The sampled world's own history: the kernel replayed it with hidden cards (another seat's
        # unanswered face-down lead, a card shown to another partnership) drawn from the sampled hands.
        length = int(out[kernel.S_HIST_LEN])
        sampled = out[kernel.S_HIST:kernel.S_HIST + length]
        if not np.array_equal(sampled, self._state[kernel.S_HIST:kernel.S_HIST + length]):
            earlier_hands = len(self._action_history) - length
            clone._action_history = self._action_history[:earlier_hands] + _history_entries(sampled)
        if self._match:
            self._resample_earlier_hands(clone, self.agent_name_mapping[agent], kernel_rng)
            # Later deals (queued from a record, or drawn from the table's generator) are hidden too.
            clone._queued_deals = []
            clone._np_random = np.random.default_rng(int(kernel_rng[0]))
        if out[kernel.S_CURRENT] >= 0:
            kernel.legal_action_mask(out, clone._action_mask)
        return clone

    def _resample_earlier_hands(self, clone: KnuffelnEnv, seat: int, kernel_rng: np.ndarray) -> None:
        """Match play: the finished hands of the match hid cards from ``seat`` too (the stock, unplayed
        cards, a face-down lead fled from, shows to the other partnership). Each is replayed to its end and
        resampled there, so the clone's earlier deals and actions are a sampled world's as well."""
        earlier = len(self._hand_deals) - 1
        if earlier == 0:
            return
        state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        out = np.empty_like(state)
        position = 0
        deals, history = [], []
        for dealer, cards in self._hand_deals[:earlier]:
            kernel.init_state(state, self._params, dealer, np.array(cards, dtype=np.int64))
            while state[kernel.S_CURRENT] >= 0:
                kernel.apply_action(state, self._action_history[position][1])
                position += 1
            if not DRIVERS.resample_hidden(state, seat, kernel_rng, out):
                raise RuntimeError(f"{GAME}: found no deal of an earlier hand consistent with what seat {seat} knows")
            deals.append(self._deal_of_state(out))
            history += _history_entries(out[kernel.S_HIST:kernel.S_HIST + int(out[kernel.S_HIST_LEN])])
        clone._hand_deals[:earlier] = deals
        clone._deal = deals[0]
        clone._action_history[:position] = history

    def playout_values(self, actions, playouts: int, seed: int) -> np.ndarray:
        """Summed settlements, shape ``(len(actions), players)``, of ``playouts`` uniformly random playouts
        of this hand after each candidate action of the seat to act, computed in compiled code."""
        if not self._started or self._current_seat() < 0:
            raise ValueError(f"{GAME}: playout_values needs a hand in progress")
        actions = [self.string_to_action(a) if isinstance(a, str) else a for a in actions]
        for action in actions:
            is_index = isinstance(action, (int, np.integer)) and not isinstance(action, bool)
            if not is_index or not 0 <= action < self.num_actions:
                raise ValueError(f"{GAME}: {action!r} is not an action index")
            if not self._action_mask[action]:
                raise ValueError(f"{GAME}: action {self.action_names[action]!r} is not legal now")
        if isinstance(playouts, bool) or not isinstance(playouts, (int, np.integer)) or playouts < 1:
            raise ValueError(f"{GAME}: playouts must be a positive integer, got {playouts!r}")
        out = np.zeros((len(actions), self.num_seats), dtype=np.float64)
        DRIVERS.playout_values(self._state, np.array(actions, dtype=np.int64), int(playouts), make_rng(seed), out)
        return out

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
        for agent in self.possible_agents:
            marker = "*" if agent == st["current_player"] else " "
            team = st["teams"][agent]
            lines.append(f"{marker} {agent} [team {'-' if team is None else team}]: {' '.join(st['hands'][agent])}")
        for i, trick in enumerate(st["tricks"]):
            cards = "  ".join(f"{a[-1]}:{c:<3}" for a, c in trick["cards"])
            down = " (face down, accepted)" if trick["face_down_accepted"] else ""
            lines.append(f"trick {i + 1}: {cards} -> {trick['winner']}{down}")
        if st["trick"]:
            hidden = st["trick_face_down"]
            shown = [f"{a[-1]}:{'??' if k == 0 and hidden else c}" for k, (a, c) in enumerate(st["trick"])]
            lines.append("trick in progress: " + "  ".join(shown))
        lines.append(f"tricks won: team 0 {st['tricks_won'][0]}, team 1 {st['tricks_won'][1]}"
                     + ("; Jann choice pending" if st["jann_pending"] else "")
                     + (f"; team {st['committed_team']} committed to the march" if st["committed_team"] is not None
                        else ""))
        if st["talk"]:
            lines.append("talk: " + "; ".join(f"{a} {self._utterance_text(u)}" for a, u in st["talk"]))
        if st["result"] is not None:
            result = st["result"]
            paid = zip(self.possible_agents, result["settlement"], strict=True)
            lines.append(f"result: {result['kind']}, team {result['winning_team']} wins {result['units']} units: "
                         + "  ".join(f"{a} {u:+g}" for a, u in paid))
        if self._match:
            lines.append(f"match: rungs left team 0 {self._ladder[0]}, team 1 {self._ladder[1]}, "
                         f"hands played {self._hands_played}")
        return "\n".join(lines)


def _history_entries(entries: np.ndarray) -> list[tuple[int, int]]:
    """Kernel history entries (``seat * HIST_SEAT_FACTOR + action``) as the env's (seat, action) pairs."""
    seats = (entries // kernel.HIST_SEAT_FACTOR).tolist()
    return list(zip(seats, (entries % kernel.HIST_SEAT_FACTOR).tolist(), strict=True))


def _kernel_rng(rng) -> np.ndarray:
    if isinstance(rng, np.random.Generator):
        return make_rng(int(rng.integers(0, 2**63)))
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return make_rng(int(rng))
    raise ValueError(f"{GAME}: rng must be a numpy.random.Generator or an int seed, got {type(rng).__name__}")
