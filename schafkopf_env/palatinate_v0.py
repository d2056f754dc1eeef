"""Palatinate Schafkopf (three active players and a skat) — ``schafkopf_env.palatinate_v0``.

| | |
|---|---|
| import | ``from schafkopf_env import palatinate_v0`` |
| agents | ``player_0`` ``player_1`` ``player_2`` (``players=4``: and ``player_3``) |
| action space | ``Discrete(81)`` for every agent |
| observation space | ``Dict("observation": Box(0, 1, (N,), float32), "action_mask": Box(0, 1, (81,), int8))`` |
| N (players=3, max_doublings=4) | observation 378, information_state 1368, perfect 1496 |
| N (players=4, max_doublings=4) | observation 461, information_state 1781, perfect 1941 |
| rewards | the settlement in game-value units, at the end of the hand (zero-sum) |
| rules | ``shared/rules/palatinate_schafkopf.md`` sections 1 and 2 (Gerhard Zwick's group, Erfweiler) |

Palatinate Schafkopf as played around Dahn: 32 French cards (``C S H D``; ``A 10 K Q J 9 8 7``), three
active players with ten cards each and two cards in the skat. One episode is one hand.

## Rules in brief

- **Deal** clockwise from forehand (left of the dealer): 3 each, 2 to the skat, 4 each, 3 each.
- **Trumps.** All Queens and Jacks are permanent top trumps, ``CQ SQ HQ DQ CJ SJ HJ DJ``, then the trump
  suit's ``A 10 K 9 8 7``; plain suits rank ``A 10 K 9 8 7``. Follow the led effective suit if you can
  (Queens and Jacks count as trumps), otherwise play anything; no duty to beat or to trump. The highest
  trump wins, else the highest card of the led suit; the winner leads.
- **Bidding, round one** (pinned): one pass in seat order from forehand; each says ``pass`` or names a
  solo kind higher than any named before: ``solo`` < ``heart_solo`` < ``solo_du`` < ``heart_solo_du``.
  The highest wins; for ``solo`` and ``solo_du`` the declarer then names ``trump:C``, ``trump:S`` or
  ``trump:D`` (pinned); the heart kinds have hearts trump. Nobody sees the skat until the end, but its
  points count for the declarer and its cards count as the declarer's for hoch.
- **Round two** (all passed): in seat order from forehand, the first to say ``simple`` is declarer, takes
  the skat into the hand, lays away two cards (``discard:C``, twice; they count for the declarer) and
  names any trump (``trump:C|S|H|D``). If all pass again the hand is thrown in: all rewards are zero.
- **Schenken** (not in a Du): after trump is named, the opponents are asked in turn from the declarer's
  left (``schenken`` / ``no_schenken``; the second is not asked once the first declines). If both offer,
  the declarer says ``accept`` (wins at once, without schneider or schwarz) or ``refuse`` (plays on and
  must make the opponents schneider: loses if they take 30 or more; valued with the schneider point,
  won or lost, plus schwarz if a side took no trick).
- **Contra** (pinned): an opponent about to play their own first card is asked first (``contra`` /
  ``no_double``). After a double every other active player is asked in turn from the doubler's left;
  only a member of the doubled side may double again (``re``; a player who may not gets only
  ``no_double``); the first yes doubles and the asking restarts left of that player; a full round
  without a double (or reaching ``max_doublings``) ends the doubling and the waiting card is played.
- **Winning.** The declarer needs 61 card points (tricks plus skat or discards). Schneider: a side with
  fewer than 30; schwarz: a side without a trick. A Du must take all ten tricks and ends, lost, as soon
  as an opponent wins a trick.
- **Value.** Game 1; hearts trump +1; schneider +1; schwarz +1; solo (every solo kind) +1; hoch (top
  trumps in sequence from ``CQ``, with or without, counted from three; the declarer's cards are the dealt
  hand plus the skat, in every contract) +count; Du x2 (schneider and schwarz always count in a Du);
  each double x2. Example from the source: Heart Solo Du with all four Queens and both black Jacks, all
  tricks taken: 1 + hearts 1 + schneider 1 + schwarz 1 + solo 1 + with 6 = 11, x2 = 22.
- **Score.** Each other seat pays the value to the declarer (declarer won) or receives it from them.
  Three players: declarer +-2 x value. **Four players** (``players=4``): the dealer takes no part, never
  acts, and scores as an opponent, so the declarer receives or pays the value from each of the three
  others (+-3 x value) and the table stays zero-sum.

## Actions

| index | string | when |
|---|---|---|
| 0..31 | ``"CA"`` ``"C10"`` ... ``"D7"`` (card index of ``trick_core.cards.FRENCH_32``) | play a card |
| 32..63 | ``"discard:CA"`` ... ``"discard:D7"`` | simple-game declarer lays a card away (twice) |
| 64 | ``"pass"`` | both bidding rounds |
| 65..68 | ``"solo"`` ``"heart_solo"`` ``"solo_du"`` ``"heart_solo_du"`` | round one |
| 69 | ``"simple"`` | round two |
| 70..73 | ``"trump:C"`` ``"trump:S"`` ``"trump:H"`` ``"trump:D"`` | the declarer names trump |
| 74 | ``"contra"`` | the first double (an opponent at their first card) |
| 75 | ``"re"`` | any further double |
| 76 | ``"no_double"`` | declining to double |
| 77, 78 | ``"schenken"`` ``"no_schenken"`` | an opponent offers to give up, or not |
| 79, 80 | ``"accept"`` ``"refuse"`` | the declarer's answer to the offer |

``env.unwrapped.action_to_string(a)`` / ``string_to_action(s)`` convert; the action mask marks the legal
ones. Illegal actions raise ``ValueError`` naming the move and the legal ones; with
``illegal_action="terminate"`` the hand ends instead, the offender gets -1 and everyone else 0
(PettingZoo's ``TerminateIllegalWrapper`` convention).

## Observation

All values lie in [0, 1]. Positions are relative to the observing seat: position 0 is the seat itself,
1 the next seat clockwise, and so on (``n = players`` positions; with four, the sitting-out dealer has
one too). The vector holds all and only what the seat may know: its own hand, the bids, contract and
trump, schenken and doublings, every card played and by whom, the trick points and tricks taken; the skat
a simple-game declarer picked up and their discards appear only in the declarer's own observation; the
skat of a solo is shown to nobody (not even at the end). ``information_state`` adds the full trick
history (perfect recall); ``perfect`` adds every hand and the skat, and shows the skat taken and the
discards to every seat. With ``D = max_doublings`` the sizes are ``79n + 117 + D(n + 3)`` (observation),
``409n + 117 + D(n + 3)`` (information_state) and ``441n + 149 + D(n + 3)`` (perfect). The blocks, with
indices for ``players=3, max_doublings=4``:

| block | indices | size | meaning |
|---|---|---|---|
| dealer | 0..2 | n | one-hot position of the dealer |
| to_act | 3..5 | n | one-hot position of the player to act (zeros once over) |
| phase | 6..15 | 10 | one-hot phase (order of ``palatinate_kernel.PHASE_NAMES``: bid_one ... over) |
| hand | 16..47 | 32 | own cards held now (with the skat while a simple-game declarer discards) |
| bid_one | 48..62 | 5n | per position: pass, solo, heart_solo, solo_du, heart_solo_du |
| bid_two | 63..68 | 2n | per position: pass, simple |
| declarer | 69..71 | n | one-hot position of the declarer |
| contract | 72..76 | 5 | one-hot: simple, solo, heart_solo, solo_du, heart_solo_du |
| trump | 77..80 | 4 | one-hot trump suit C, S, H, D |
| skat_taken | 81..112 | 32 | the skat picked up in a simple game (the declarer only) |
| discards | 113..144 | 32 | the discards of a simple game (the declarer only) |
| schenken | 145..150 | 2n | per position: schenken, no_schenken |
| schenken_answer | 151..152 | 2 | the declarer's accept, refuse |
| doublings | 153..176 | D(n+3) | per double k: one-hot doubler position, one-hot cards in trick 1 then |
| played | 177..272 | 32n | per position: the cards it has played |
| trick | 273..368 | 32n | per position: its card in the trick in progress |
| leader | 369..371 | n | one-hot position of the leader of the trick in progress (during play) |
| points | 372..374 | n | per position: card points in its tricks / 120 |
| tricks_won | 375..377 | n | per position: tricks won / 10 |
| trick_history | 378..1367 | 10(n+32n) | not in ``observation``: per trick, leader position, each one's card |
| hands | 1368..1463 | 32n | ``perfect`` only: per position, the cards it holds now |
| skat | 1464..1495 | 32 | ``perfect`` only: the two skat cards as dealt |

``schafkopf_env.palatinate_kernel.observation_blocks(players, max_doublings, obs_type)`` lists the blocks
for any configuration (the kernel writes them in that order).

## Rewards

At the end of the hand every agent receives its settlement in game-value units (see Score): zero-sum,
zero for a thrown-in hand. Nothing is paid before the end.

## Configuration

``env(players=3, max_doublings=4, render_mode=None, observation_type="observation", illegal_action="raise")``

- ``players``: 3, or 4 (the dealer sits out).
- ``max_doublings``: cap on contra, re, ... (0..10; 0 switches doubling off).
- ``observation_type``: ``"observation"``, ``"information_state"`` or ``"perfect"``.
- ``illegal_action``: ``"raise"`` or ``"terminate"``. Unknown options raise ``ValueError``.

``reset(seed=s)`` deals at random (dealer drawn too). ``reset(options={"dealer": d, "hands": {agent: [ten
cards], ...}, "skat": [c1, c2]})`` sets the deal; with ``players=4`` ``hands`` names exactly the three
players other than the dealer. ``reset(options={"dealer": d})`` deals random cards with that dealer.
``reset(options={"record": rec})`` restores a game record's deal.

## Pins and decisions (where the rules are silent)

The rules' **(pinned)** statements are followed as written. In addition:

1. Round one asks every active player exactly once, even when only ``pass`` is left (after
   ``heart_solo_du``). Round two ends at the first ``simple``.
2. The simple-game declarer discards before naming trump (the source's order) and may lay away any two
   of the twelve cards. A simple game with hearts trump earns the hearts point.
3. Schenken is asked right after trump is named, before the first card, and never in a Du.
4. An opponent is offered a double at their first card only while their side may double (no double yet:
   ``contra``; the declarer doubled last: ``re``) and the cap is not reached; otherwise they just play.
   The player who may not double in a round of asking is still asked (``no_double`` only), as pinned.
   Once the cap is reached nobody is asked again. With ``players=4`` the dealer is never asked.
5. Doubling is available in every contract, also after a refused schenken.
6. An accepted schenken ends the hand before any card, so it is never doubled; its value is game +
   hearts + solo + hoch.
7. A refused schenken counts schwarz when either side took no trick. In other games schneider and
   schwarz can only concern the losing side (a winner always has more than 30 points and a trick).
8. A lost Du is valued like a won one (schneider and schwarz included, x2); the remaining cards are not
   played.
9. The skat of a solo and of a thrown-in hand is never shown in observations; the final settlement
   reflects its points.
10. ``reset(seed=...)`` draws the dealer uniformly (the deal passes to the left between hands, but an
    episode is one hand).

## Beyond PettingZoo (on ``env.unwrapped``)

``state()`` (JSON-serialisable full state), ``game_record()`` / ``replay(record)``, ``clone()``,
``resample_from_infostate(agent, rng)`` (a clone whose hidden cards are redealt consistently with what
``agent`` knows), ``playout_values(actions, playouts, seed)`` (compiled random playouts per candidate
action, the ``pimc`` agent's workhorse), ``kernel_state()`` (the kernel's int64 state array).

## Version history

- v0: first release (three players, optional sitting-out dealer, schenken, contra with a cap).
"""

from __future__ import annotations

import numpy as np

from trick_core import drivers
from trick_core.aec import (
    ADVANCE_SIGNATURE,
    OBSERVE_SIGNATURE,
    CompiledKernel,
    TrickTakingEnv,
    check_no_unknown_kwargs,
)
from trick_core.bits import make_rng
from trick_core.cards import FRENCH_32
from trick_core.deal import DealBuilder, parse_dealer, parse_hands

from . import palatinate_kernel as kernel

GAME = "palatinate"

DRIVERS = drivers.compiled(kernel)
"""The game's compiled drivers (``trick_core.drivers``)."""


def env(**config) -> PalatinateEnv:
    """The environment; the safety PettingZoo's wrappers would add is built in."""
    return PalatinateEnv(**config)


def raw_env(**config) -> PalatinateEnv:
    return PalatinateEnv(**config)


class PalatinateEnv(TrickTakingEnv):
    """Palatinate Schafkopf for three active players (see the module docstring)."""

    metadata = {**TrickTakingEnv.metadata, "name": "palatinate_v0"}
    game_name = GAME
    deck = FRENCH_32
    action_names = kernel.ACTION_NAMES
    _kernel_advance = CompiledKernel(DRIVERS.advance, ADVANCE_SIGNATURE)
    _kernel_observe = CompiledKernel(kernel.observe, OBSERVE_SIGNATURE)

    def __init__(
        self,
        players: int = 3,
        max_doublings: int = 4,
        render_mode: str | None = None,
        observation_type: str = "observation",
        illegal_action: str = "raise",
        **unknown,
    ) -> None:
        check_no_unknown_kwargs(f"{GAME}_v0", unknown)
        self._params = kernel.make_params(players=players, max_doublings=max_doublings)
        super().__init__(
            num_seats=int(players),
            config={"players": int(players), "max_doublings": int(max_doublings)},
            render_mode=render_mode,
            observation_type=observation_type,
            illegal_action=illegal_action,
        )
        self._obs_type_code = kernel.OBSERVATION_TYPES.index(observation_type)
        self._state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        self._settlement_out = np.zeros(self.num_seats, dtype=np.float64)
        self._setup_spaces(kernel.observation_size(self.num_seats, int(max_doublings), self._obs_type_code), 1.0)

    # ----------------------------------------------------------------- deals

    def _active_seats(self, dealer: int) -> list[int]:
        """Seats dealt to, in increasing seat number (the deal-cards order of the kernel)."""
        return [s for s in range(self.num_seats) if not (self.num_seats == 4 and s == dealer)]

    def _random_deal(self, rng: np.random.Generator, dealer: int | None = None):
        if dealer is None:
            dealer = int(rng.integers(self.num_seats))
        return dealer, rng.permutation(kernel.NUM_CARDS).astype(np.int64)

    def _parse_deal(self, options: dict):
        dealer = parse_dealer(options, self.num_seats, GAME, default=0)
        if "stock" in options:
            raise ValueError(f"{GAME}: reset option 'stock' belongs to Knüffeln; this game has a 'skat'")
        if "hands" not in options and "skat" not in options:
            return self._random_deal(self._np_random, dealer)
        builder = DealBuilder(FRENCH_32, GAME)
        agents = [self.possible_agents[s] for s in self._active_seats(dealer)]
        hands = parse_hands(builder, options, agents, kernel.HAND_SIZE)
        if "skat" not in options:
            raise ValueError(f"{GAME}: reset option 'skat' must list the two skat cards")
        skat = builder.take(options["skat"], "skat", kernel.SKAT_SIZE)
        builder.require_complete()
        cards = [card for agent in agents for card in hands[agent]] + skat
        return dealer, np.array(cards, dtype=np.int64)

    def _deal_options(self, deal) -> dict:
        dealer, cards = deal
        names = [FRENCH_32.name_of(int(c)) for c in cards]
        hands = {}
        for i, seat in enumerate(self._active_seats(dealer)):
            hands[self.possible_agents[seat]] = names[i * kernel.HAND_SIZE : (i + 1) * kernel.HAND_SIZE]
        return {"dealer": int(dealer), "hands": hands, "skat": names[-kernel.SKAT_SIZE :]}

    # ----------------------------------------------------------------- kernel hooks

    def _start(self, deal) -> None:
        dealer, cards = deal
        kernel.init_state(self._state, self._params, dealer, cards)

    def _current_seat(self) -> int:
        return int(self._state[kernel.S_TO_ACT])

    def _fill_action_mask(self, out: np.ndarray) -> None:
        kernel.legal_action_mask(self._state, out)

    def _apply(self, action: int) -> None:
        kernel.apply_action(self._state, action)

    def _advance(self, action: int) -> int:
        return self._kernel_advance(self._state, action, self._action_mask)

    def _settlement(self) -> np.ndarray:
        kernel.settlement(self._state, self._settlement_out)
        return self._settlement_out.copy()

    def _fill_observation(self, seat: int, out: np.ndarray) -> None:
        self._kernel_observe(self._state, seat, self._obs_type_code, out)

    # ----------------------------------------------------------------- public extras

    def kernel_state(self) -> np.ndarray:
        """A copy of the kernel's int64 state array."""
        return self._state.copy()

    def resample_from_infostate(self, agent: str, rng) -> PalatinateEnv:
        """A clone whose cards hidden from ``agent`` are redealt consistently with everything it knows
        (``rng``: ``numpy.random.Generator`` or int seed)."""
        if agent not in self.agent_name_mapping:
            raise ValueError(f"{GAME}: unknown agent {agent!r}; the table seats {self.possible_agents}")
        if not self._started:
            raise RuntimeError(f"{GAME}: reset() must be called before resample_from_infostate()")
        seed = int(rng.integers(2**63)) if isinstance(rng, np.random.Generator) else int(rng)
        out_state = np.zeros_like(self._state)
        if not DRIVERS.resample_hidden(self._state, self.agent_name_mapping[agent], make_rng(seed), out_state):
            raise RuntimeError(f"{GAME}: no deal consistent with {agent}'s information was found")
        clone = self.clone()
        clone._state = out_state
        clone._deal = (int(out_state[kernel.S_DEALER]), self._dealt_cards(out_state))
        history = out_state[kernel.S_HISTORY : kernel.S_HISTORY + out_state[kernel.S_HISTORY_LEN]]
        clone._action_history = [(seat, int(a)) for (seat, _), a in zip(self._action_history, history, strict=True)]
        return clone

    def _dealt_cards(self, state: np.ndarray) -> np.ndarray:
        """The kernel deal-cards array (active hands in seat order, then the skat) of a state."""
        cards = []
        for seat in self._active_seats(int(state[kernel.S_DEALER])):
            cards += FRENCH_32.cards_of(int(state[kernel.S_DEALT + seat]))
        cards += FRENCH_32.cards_of(int(state[kernel.S_SKAT]))
        return np.array(cards, dtype=np.int64)

    def playout_values(self, actions, playouts: int, seed: int) -> np.ndarray:
        """``(len(actions), players)`` float64: per candidate action of the seat to act, the summed
        settlement of ``playouts`` uniformly random playouts after it (compiled)."""
        actions = [self.string_to_action(a) if isinstance(a, str) else a for a in actions]
        actions = np.asarray(actions, dtype=np.int64).reshape(-1)
        if self._current_seat() < 0:
            raise ValueError(f"{GAME}: the hand is over; no action can be evaluated")
        for a in actions:
            if not kernel.is_legal(self._state, int(a)):
                raise ValueError(f"{GAME}: action {int(a)} is not legal now; legal: {self.legal_action_strings()}")
        if isinstance(playouts, bool) or not isinstance(playouts, (int, np.integer)) or playouts < 1:
            raise ValueError(f"{GAME}: playouts must be a positive integer, got {playouts!r}")
        out = np.zeros((actions.size, self.num_seats), dtype=np.float64)
        DRIVERS.playout_values(self._state, actions, int(playouts), make_rng(int(seed)), out)
        return out

    def state(self) -> dict:
        """The full state as plain Python (JSON-serialisable)."""
        s = self._state
        names = self.possible_agents

        def agent_or_none(seat: int):
            return names[int(seat)] if seat >= 0 else None

        def cards(mask) -> list[str]:
            return FRENCH_32.names_of(int(mask))

        seat = self._current_seat() if self._started else -1
        contract = int(s[kernel.S_CONTRACT])
        trump = int(s[kernel.S_TRUMP])
        tricks = []
        for t in range(int(s[kernel.S_TRICKS_DONE])):
            log = kernel.S_TRICK_LOG + t * kernel.TRICK_LOG_ENTRY
            player = int(s[log])
            played = []
            for i in range(kernel.NUM_ACTIVE):
                played.append([names[player], FRENCH_32.name_of(int(s[log + 1 + i]))])
                player = int(s[kernel.S_NEXT + player])
            tricks.append({"leader": names[int(s[log])], "cards": played, "winner": names[int(s[log + 4])]})
        trick, player = [], int(s[kernel.S_LEADER])
        for i in range(int(s[kernel.S_TRICK_SIZE])):
            trick.append([names[player], FRENCH_32.name_of(int(s[kernel.S_TRICK_CARDS + i]))])
            player = int(s[kernel.S_NEXT + player])
        over = int(s[kernel.S_PHASE]) == kernel.PHASE_OVER
        thrown_in = bool(s[kernel.S_THROWN_IN])
        result = None
        if over and self._illegal_seat < 0:
            result = {
                "thrown_in": thrown_in,
                "declarer_won": None if thrown_in else bool(s[kernel.S_WON]),
                "value": None if thrown_in else int(s[kernel.S_VALUE]),
                "hoch": None if thrown_in else int(s[kernel.S_HOCH]),
                "declarer_card_points": None if thrown_in else int(s[kernel.S_DECLARER_POINTS]),
                "settlement": [float(x) for x in self._settlement()],
            }
        return {
            "game": GAME,
            "config": dict(self.config),
            "phase": kernel.PHASE_NAMES[int(s[kernel.S_PHASE])],
            "dealer": names[int(s[kernel.S_DEALER])],
            "current_player": agent_or_none(seat),
            "hands": {names[i]: cards(s[kernel.S_HAND + i]) for i in range(self.num_seats)},
            "dealt": {names[i]: cards(s[kernel.S_DEALT + i]) for i in range(self.num_seats)},
            "skat": cards(s[kernel.S_SKAT]),
            "history": [[names[p], self.action_names[a]] for p, a in self._action_history],
            "bids_round_one": {
                names[i]: (["pass", *kernel.CONTRACT_NAMES[1:]][int(s[kernel.S_BID_ONE + i])])
                for i in range(self.num_seats)
                if s[kernel.S_BID_ONE + i] >= 0
            },
            "bids_round_two": {
                names[i]: ("simple" if s[kernel.S_BID_TWO + i] == 1 else "pass")
                for i in range(self.num_seats)
                if s[kernel.S_BID_TWO + i] >= 0
            },
            "declarer": agent_or_none(int(s[kernel.S_DECLARER])),
            "contract": kernel.CONTRACT_NAMES[contract] if contract >= 0 else None,
            "trump": FRENCH_32.suits[trump] if trump >= 0 else None,
            "discards": cards(s[kernel.S_DISCARDS]),
            "schenken": {
                names[i]: ("schenken" if s[kernel.S_SCHENKEN + i] == 1 else "no_schenken")
                for i in range(self.num_seats)
                if s[kernel.S_SCHENKEN + i] >= 0
            },
            "schenken_answer": [None, "accept", "refuse"][int(s[kernel.S_SCHENKEN_ANSWER])],
            "doublings": int(s[kernel.S_DOUBLINGS]),
            "doublers": [names[int(s[kernel.S_DOUBLER + k])] for k in range(int(s[kernel.S_DOUBLINGS]))],
            "trick": trick,
            "tricks": tricks,
            "points": {names[i]: int(s[kernel.S_POINTS + i]) for i in range(self.num_seats)},
            "tricks_won": {names[i]: int(s[kernel.S_TRICKS_WON + i]) for i in range(self.num_seats)},
            "result": result,
        }

    # ----------------------------------------------------------------- render

    def _render_text(self) -> str:
        st = self.state()
        lines = [
            f"Palatinate Schafkopf ({self.num_seats} players)  dealer {st['dealer']}  phase {st['phase']}"
            f"  to act {st['current_player']}",
        ]
        if st["contract"] is not None:
            lines.append(
                f"contract {st['contract']} by {st['declarer']}, trump {st['trump']}, doublings {st['doublings']}"
            )
        for agent in self.possible_agents:
            tag = " (declarer)" if agent == st["declarer"] else ""
            lines.append(
                f"  {agent}{tag}: {' '.join(st['hands'][agent]) or '-'}"
                f"   points {st['points'][agent]}  tricks {st['tricks_won'][agent]}"
            )
        lines.append(f"  skat: {' '.join(st['skat'])}   discards: {' '.join(st['discards']) or '-'}")
        if st["trick"]:
            lines.append("  trick: " + "  ".join(f"{a}:{c}" for a, c in st["trick"]))
        if st["result"] is not None:
            r = st["result"]
            if r["thrown_in"]:
                lines.append("  thrown in: no score")
            else:
                outcome = "won" if r["declarer_won"] else "lost"
                lines.append(
                    f"  declarer {outcome} with {r['declarer_card_points']} points, value {r['value']}, "
                    f"settlement {r['settlement']}"
                )
        return "\n".join(lines)
