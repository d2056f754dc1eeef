"""Knüffeln as data: the cards and their roles, the variants and their rule tables, the options (``params``),
the actions and their strings, phases and results.

Rules: ``docs/rules/knuffeln.md``. Cards follow ``trick_core.cards.KNUFFELN_48``: card ``suit * 12 + rank``,
suits ``C S H D``, ranks ``A K Q J 10 9 8 7 6 4 3 2``. Bernhard 1924 uses ``KNUFFELN_48_FIVES``, the same
layout with the 5 in the ten's place (rank 4), so one kernel serves both packs: rank 4 is "the exchange
card". Hands and every other set of cards are bit masks (bit ``i`` = card ``i``) kept in ``int64`` (48 bits).

**Card roles are data** (``docs/rules/knuffeln.md#4-play-of-the-tricks``). ``ATTACK[chosen, card]`` and
``DEFENCE[chosen, card]`` hold the attack and defence values of every card for every set of chosen suits
(``chosen`` = 4-bit suit mask), and ``SUIT_RANK[ranking, chosen, card]`` the within-suit rank of an
unchosen card (Bohmstedt: only the ace ranks; Hattstedt / 1938: ``A K Q J 10 9 8 7 6 4 3 2``; 1924:
``A K Q J 9 8 7 6 5 4 3 2``, decision K16). A later card beats the provisional winner when its attack
exceeds the winner's defence, or when both are unchosen cards (Oles excluded) of one suit and it ranks
higher there (``play.beats``).

**Actions** (one ``Discrete`` space; ``action_names(params, deck)`` gives the strings):

| index | action |
|---|---|
| 0..47 | play card C face up (``"H2"``) |
| 48..95 | ``turn:C`` lead C face down (drehen) |
| 96..143 | ``exchange:C`` take turned card C for one's chosen ten |
| 144..191 | ``show:C`` half-show C to the partner (talk, lexicon mode) |
| 192..198 | ``take_ole decline stop accept flee play_alone sit_out`` |
| 199 | ``silent`` |
| 200..223 | ``say:1`` .. ``say:24`` |
| 224..224+N-1 | ``token:1`` .. ``token:N`` (talk ``tokens:N``) |
"""

from __future__ import annotations

import numpy as np

GAME = "knuffeln"

# ----------------------------------------------------------------------------- cards

NUM_CARDS = 48
NUM_SUITS = 4
NUM_RANKS = 12
CLUBS, SPADES, HEARTS, DIAMONDS = range(4)
RANK_A, RANK_K, RANK_Q, RANK_J, RANK_10, RANK_9, RANK_8, RANK_7, RANK_6, RANK_4, RANK_3, RANK_2 = range(12)
RANK_EXCHANGE = RANK_10
"""Rank index of the exchange card: the ten (the five in the Bernhard 1924 pack)."""

CARDS_PER_HAND = 9
STOCK_SIZE = 12
MAX_SEATS = 5
MAX_TRICKS = 9
MAX_TURNED = 4
"""Stock cards turned to choose the suits at most (the fourth of one suit means a new deal)."""


def card_index(suit: int, rank: int) -> int:
    return suit * NUM_RANKS + rank


H2 = card_index(HEARTS, RANK_2)
C4 = card_index(CLUBS, RANK_4)
S8 = card_index(SPADES, RANK_8)
H9 = card_index(HEARTS, RANK_9)
D9 = card_index(DIAMONDS, RANK_9)
OLES = (H2, C4, S8, H9, D9)
"""The five Oles, highest first: de Beste, de Wage, de Dulle, Harten Ol, Ruten Ol."""
OLE_ATTACK = {H2: 11, C4: 10, S8: 9, H9: 8, D9: 7}
OLE_MASK = sum(1 << c for c in OLES)
FULL_MASK = (1 << NUM_CARDS) - 1
CHOSEN_BEATER_ATTACK = {RANK_A: 6, RANK_J: 5, RANK_6: 4, RANK_2: 3, RANK_3: 2, RANK_4: 1}
UNBEATABLE = 100
"""Defence of a led chosen 7: no attack value reaches it."""

RANKING_BOHMSTEDT, RANKING_HATTSTEDT, RANKING_FIVES = range(3)
NUM_RANKINGS = 3
_UNCHOSEN_ORDER = {
    RANKING_HATTSTEDT: (RANK_A, RANK_K, RANK_Q, RANK_J, RANK_10, RANK_9, RANK_8, RANK_7, RANK_6, RANK_4, RANK_3,
                        RANK_2),
    # Bernhard's pack: the 5 (rank index 4) ranks where a 5 naturally stands, between the 6 and the 4.
    RANKING_FIVES: (RANK_A, RANK_K, RANK_Q, RANK_J, RANK_9, RANK_8, RANK_7, RANK_6, RANK_10, RANK_4, RANK_3,
                    RANK_2),
}
NUM_CHOSEN_SETS = 16
"""Chosen suits are a 4-bit suit mask: the first index of the card role tables."""


def _build_card_tables():
    """ATTACK / DEFENCE per chosen-suit mask and SUIT_RANK per unchosen ranking (the module docstring)."""
    attack = np.zeros((NUM_CHOSEN_SETS, NUM_CARDS), dtype=np.int64)
    defence = np.zeros((NUM_CHOSEN_SETS, NUM_CARDS), dtype=np.int64)
    suit_rank = np.zeros((NUM_RANKINGS, NUM_CHOSEN_SETS, NUM_CARDS), dtype=np.int64)
    for chosen in range(NUM_CHOSEN_SETS):
        for card in range(NUM_CARDS):
            suit, rank = divmod(card, NUM_RANKS)
            if card in OLE_ATTACK:
                attack[chosen, card] = defence[chosen, card] = OLE_ATTACK[card]
            elif chosen >> suit & 1:
                beater = CHOSEN_BEATER_ATTACK.get(rank, 0)
                attack[chosen, card] = beater
                if beater:
                    defence[chosen, card] = beater
                elif rank == RANK_7:
                    defence[chosen, card] = UNBEATABLE
                elif rank in (RANK_9, RANK_8):
                    defence[chosen, card] = 4
                else:
                    defence[chosen, card] = {RANK_K: 2, RANK_Q: 1}.get(rank, 0)
            else:
                defence[chosen, card] = {RANK_A: 3, RANK_K: 2, RANK_Q: 1}.get(rank, 0)
                suit_rank[RANKING_BOHMSTEDT, chosen, card] = 2 if rank == RANK_A else 1
                for ranking, order in _UNCHOSEN_ORDER.items():
                    suit_rank[ranking, chosen, card] = NUM_RANKS - order.index(rank)
    return attack, defence, suit_rank


ATTACK, DEFENCE, SUIT_RANK = _build_card_tables()

# ----------------------------------------------------------------------------- variants

VARIANTS = ("bohmstedt", "hattstedt", "bernhard1924", "gruenberg1938")
VARIANT_BOHMSTEDT, VARIANT_HATTSTEDT, VARIANT_BERNHARD1924, VARIANT_GRUENBERG1938 = range(4)
DREHEN_NONE, DREHEN_ANY_LEAD, DREHEN_BERNHARD = range(3)
BOTTOM_CHECK, BOTTOM_THREE_FACE_UP = range(2)

RANKING_OF_VARIANT = np.array([RANKING_BOHMSTEDT, RANKING_HATTSTEDT, RANKING_FIVES, RANKING_HATTSTEDT], np.int64)
DREHEN_OF_VARIANT = np.array([DREHEN_ANY_LEAD, DREHEN_NONE, DREHEN_BERNHARD, DREHEN_ANY_LEAD], np.int64)
BOTTOM_RULE_OF_VARIANT = np.array(
    [BOTTOM_CHECK, BOTTOM_CHECK, BOTTOM_THREE_FACE_UP, BOTTOM_THREE_FACE_UP], np.int64
)
PAY_BASE = np.array([1, 1, 1, 5], np.int64)
PAY_JANN = np.array([10, 2, 10, 10], np.int64)
PAY_MARCH = np.array([30, 4, 30, 20], np.int64)
PAY_PER_TURN = 1
"""Units of a plain game, a Jann and a march per variant, and per accepted turn
(``docs/rules/knuffeln.md#8-stakes-and-payment``)."""

# ----------------------------------------------------------------------------- options (params)

TALK_OFF, TALK_LEXICON, TALK_TOKENS = range(3)
MAX_TOKENS = 64
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
"""The lexicon of ``say:k`` (``PHRASES[k - 1]``): the stock phrases of ``docs/rules/knuffeln.md#7-table-talk``
(English gist). The engine never checks the truth of a phrase."""
NUM_PHRASES = len(PHRASES)

PARAM_VARIANT, PARAM_PLAYERS, PARAM_TALK, PARAM_TOKENS = range(4)
PARAMS_SIZE = 4


def parse_talk(talk) -> tuple[int, int]:
    """``"off"`` | ``"lexicon"`` | ``"tokens:N"`` -> (talk mode, N); ``ValueError`` naming a bad value."""
    if not isinstance(talk, str):
        raise ValueError(f"knuffeln: talk must be a string ('off', 'lexicon' or 'tokens:N'), not {talk!r}")
    if talk == "off":
        return TALK_OFF, 0
    if talk == "lexicon":
        return TALK_LEXICON, 0
    if talk.startswith("tokens:"):
        count = talk.split(":", 1)[1]
        if count.isdigit() and 1 <= int(count) <= MAX_TOKENS:
            return TALK_TOKENS, int(count)
    raise ValueError(f"knuffeln: unknown talk option {talk!r}; use 'off', 'lexicon' or 'tokens:N' (1 <= N <= "
                     f"{MAX_TOKENS})")


def make_params(variant: str = "bohmstedt", players: int = 4, talk="off", match: bool = False) -> np.ndarray:
    """Validate the rules options and return the kernel's ``int64`` params array.

    ``match`` (ladder scoring over several hands) is played around this one-hand kernel by the env
    ``knuffeln_v0`` and the batch env (both with the ladder of ``knuffeln_env.knuffeln.match``); the kernel
    itself plays single hands, so ``match=True`` here raises ``ValueError`` rather than silently playing
    single hands."""
    if not isinstance(match, bool):
        raise ValueError(f"knuffeln: match must be True or False, got {match!r}")
    if match:
        raise ValueError("knuffeln: match=True (ladder scoring) is played by knuffeln_v0 only; the compiled "
                         "kernel and the batch env play single hands")
    if variant not in VARIANTS:
        raise ValueError(f"knuffeln: unknown variant {variant!r}; choose from {VARIANTS}")
    if isinstance(players, bool) or players not in (4, 5):
        raise ValueError(f"knuffeln: players must be 4 or 5, got {players!r}")
    if players == 5 and variant != "bohmstedt":
        raise ValueError(f"knuffeln: the five-player game is a Bohmstedt variant; variant {variant!r} has 4 players")
    talk_mode, tokens = parse_talk(talk)
    params = np.zeros(PARAMS_SIZE, dtype=np.int64)
    params[PARAM_VARIANT] = VARIANTS.index(variant)
    params[PARAM_PLAYERS] = players
    params[PARAM_TALK] = talk_mode
    params[PARAM_TOKENS] = tokens
    return params


# ----------------------------------------------------------------------------- actions

ACTION_PLAY = 0
ACTION_TURN = 48
ACTION_EXCHANGE = 96
ACTION_SHOW = 144
ACTION_TAKE_OLE = 192
ACTION_DECLINE = 193
ACTION_STOP = 194
ACTION_ACCEPT = 195
ACTION_FLEE = 196
ACTION_PLAY_ALONE = 197
ACTION_SIT_OUT = 198
ACTION_SILENT = 199
ACTION_SAY = 200
"""``say:k`` is ``ACTION_SAY + k - 1``."""
ACTION_TOKEN = 224
"""``token:k`` is ``ACTION_TOKEN + k - 1``."""
ACTION_MISC = 192
"""Actions 192..223 travel as the bits of one 32-bit "misc" mask inside the kernel (``rules.legal_sets``)."""
NUM_BASE_ACTIONS = 224
MAX_ACTIONS = NUM_BASE_ACTIONS + MAX_TOKENS
"""The largest action space (talk ``tokens:64``): the size of a mask that fits every variant."""
CONTROL_NAMES = ("take_ole", "decline", "stop", "accept", "flee", "play_alone", "sit_out", "silent")


def num_actions(params) -> int:
    return NUM_BASE_ACTIONS + int(params[PARAM_TOKENS])


def action_names(params, deck) -> tuple[str, ...]:
    """The fixed action strings, index = action (``deck`` names the cards of the variant's pack)."""
    cards = [deck.name_of(c) for c in range(NUM_CARDS)]
    names = list(cards)
    names += [f"turn:{c}" for c in cards]
    names += [f"exchange:{c}" for c in cards]
    names += [f"show:{c}" for c in cards]
    names += list(CONTROL_NAMES)
    names += [f"say:{k}" for k in range(1, NUM_PHRASES + 1)]
    names += [f"token:{k}" for k in range(1, int(params[PARAM_TOKENS]) + 1)]
    return tuple(names)


# ----------------------------------------------------------------------------- phases and results

PHASE_DEALER_CHOICE, PHASE_TEN_EXCHANGE, PHASE_OLE_EXCHANGE, PHASE_TALK, PHASE_PLAY, PHASE_ANSWER, PHASE_OVER = (
    range(7)
)
PHASE_NAMES = ("dealer_choice", "ten_exchange", "ole_exchange", "talk", "play", "turn_answer", "over")
NUM_PHASES = 7

RESULT_NONE, RESULT_PLAIN, RESULT_JANN, RESULT_MARCH, RESULT_FAILED_MARCH, RESULT_FLED = range(6)
RESULT_NAMES = ("none", "plain", "jann", "march", "failed_march", "fled")

DEALER_NOT_APPLICABLE, DEALER_PLAYS_ALONE, DEALER_SITS_OUT = range(3)
"""The five-player dealer's choice (four players: not applicable)."""
