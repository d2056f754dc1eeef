"""Bavarian Schafkopf as data: contracts and their values, actions and their strings, phases, card masks.

Rules: ``docs/rules/bavarian_schafkopf.md``. Cards follow ``trick_core.cards.GERMAN_32``: card
``suit * 8 + rank``, suits ``E G H S``, ranks ``A 10 K O U 9 8 7``.

**Actions** (one ``Discrete(46)`` space):

| actions | meaning |
|---|---|
| 0..31 | play card ``i`` (the action is the card index) |
| 32..38 | bid: ``pass rufer wenz solo wenz_tout solo_tout sie`` (action ``32 + contract``) |
| 39..41 | ``call:E call:G call:S``: the called ace of a Rufer |
| 42..45 | ``trump:E trump:G trump:H trump:S``: the trump suit of a Solo or Solo Tout |
| 46..48 | ``contra re no_double``: the doublings of ``doubling=True`` (the action space of the env ends at 45
without it and without ``klopfen``: ``action_names(params)``) |
| 49..50 | ``knock no_knock``: Klopfen (``klopfen=True``) |
| 51..55 | ``geier farbwenz geier_tout farbwenz_tout bettel``: the bids of ``geier``, ``farbwenz``, ``bettel``
(action ``43 + contract``; a Farbwenz names its suit with ``trump:X``) |

**Trump kinds** are those of ``schafkopf_env.trumps``: suit ``0..3`` (Obers, Unters, then that suit:
hearts for a Rufer, the chosen suit for a Solo), ``TRUMP_WENZ`` (the Unters only), ``TRUMP_FARBWENZ + suit``,
``TRUMP_GEIER`` (the Obers only) and ``TRUMP_BETTEL`` (no trumps).

**Contracts** are numbered in the order they were added (``CONTRACT_NAMES``); the bidding ladder orders them by
``LADDER_RANK`` (decision B18).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import NUM_CARDS, NUM_RANKS, NUM_SUITS, RANK_A, RANK_O, RANK_U

GAME = "bavarian"
NUM_SEATS = 4
MAX_SEATS = NUM_SEATS
HAND_SIZE = 8
NUM_TRICKS = 8

# --------------------------------------------------------------------------- contracts (bidding ladder)
PASS, RUFER, WENZ, SOLO, WENZ_TOUT, SOLO_TOUT, SIE = range(7)
NUM_BIDS = 7
CONTRACT_NAMES = ("pass", "rufer", "wenz", "solo", "wenz_tout", "solo_tout", "sie", "ramsch")
RAMSCH = 7
"""(``ramsch=True``) The contract when all four pass: no declarer, everyone for itself, Rufer trumps."""
GEIER, FARBWENZ, GEIER_TOUT, FARBWENZ_TOUT, BETTEL = range(8, 13)
"""(``geier``, ``farbwenz``, ``bettel``) The contracts of those options."""
NUM_CONTRACTS = 13
CONTRACT_NAMES = CONTRACT_NAMES + ("geier", "farbwenz", "geier_tout", "farbwenz_tout", "bettel")
LADDER_RANK = np.array([0, 1, 5, 6, 9, 10, 11, -1, 3, 4, 7, 8, 2], dtype=np.int64)
"""(decision B18) The bidding ladder by contract: pass < Rufer < Bettel < Geier < Farbwenz < Wenz < Solo <
Geier Tout < Farbwenz Tout < Wenz Tout < Solo Tout < Sie (openschafkopf's priorities; the default game's
contracts keep their order). Ramsch is never bid."""
LADDER = np.array([0, 1, 12, 8, 9, 2, 3, 10, 11, 4, 5, 6], dtype=np.int64)
"""The biddable contracts, lowest first (``LADDER[LADDER_RANK[c]] == c``)."""
CONTRACT_OPTION_BIT = np.array([0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 1, 2, 4], dtype=np.int64)
"""The bit of ``PARAM_CONTRACTS`` a contract needs (0: always offered): 1 ``geier``, 2 ``farbwenz``, 4 ``bettel``."""
BASE_VALUE = np.array([0, 1, 5, 5, 10, 10, 20], dtype=np.int64)
"""Units of each contract before Schneider, Schwarz and Laufende."""
LAUFENDE_FROM = np.array([99, 3, 2, 3, 2, 3, 0], dtype=np.int64)
"""Fewest Laufende that count: three in a Rufer, Solo, Solo Tout; two in a Wenz and Wenz Tout."""
LAUFENDE_UNIT = np.array([0, 1, 1, 1, 2, 2, 4], dtype=np.int64)
"""Units per Laufender: one, two in a Tout, four in a Sie."""
SIE_LAUFENDE = 8
"""(pinned) A Sie counts exactly its eight Obers and Unters: 20 + 8 x 4 = 52."""

# --------------------------------------------------------------------------- actions
CARD_ACTION_BASE = 0
BID_ACTION_BASE = 32
CALL_ACTION_BASE = 39
TRUMP_ACTION_BASE = 42
DOUBLING_ACTION_BASE = 46
ACTION_CONTRA, ACTION_RE, ACTION_NO_DOUBLE = 46, 47, 48
ACTION_KNOCK, ACTION_NO_KNOCK = 49, 50
EXTRA_BID_ACTION_BASE = 51
"""The bids of ``geier``, ``farbwenz``, ``bettel``: action ``EXTRA_BID_ACTION_BASE + contract - GEIER``."""
KLOPFEN_NUM_ACTIONS = 51
"""With ``klopfen`` (and none of the contract options)."""
BASE_NUM_ACTIONS = 46
"""The actions of the default game (``Discrete(46)``)."""
DOUBLING_NUM_ACTIONS = 49
"""With ``doubling`` (and without ``klopfen``)."""
NUM_ACTIONS = 56
"""Every action of any option: the kernel's masks and history hold this many."""
MAX_ACTIONS = NUM_ACTIONS
CALLABLE_SUITS = np.array([0, 1, 3], dtype=np.int64)
"""Suits whose ace a Rufer may call (hearts are trumps): Eichel, Gras, Schellen."""
_SUIT_LETTERS = "EGHS"
_RANK_NAMES = ("A", "10", "K", "O", "U", "9", "8", "7")
ACTION_NAMES = (
    tuple(s + r for s in _SUIT_LETTERS for r in _RANK_NAMES)
    + CONTRACT_NAMES[:NUM_BIDS]
    + tuple(f"call:{_SUIT_LETTERS[s]}" for s in CALLABLE_SUITS)
    + tuple(f"trump:{s}" for s in _SUIT_LETTERS)
    + ("contra", "re", "no_double")
    + ("knock", "no_knock")
    + CONTRACT_NAMES[GEIER:]
)
assert len(ACTION_NAMES) == NUM_ACTIONS

# --------------------------------------------------------------------------- phases
PHASE_BIDDING, PHASE_CALLING, PHASE_TRUMP, PHASE_PLAYING, PHASE_OVER = range(5)
PHASE_CONTRA_OFFER, PHASE_DOUBLING_ROUND, PHASE_KLOPFEN = 5, 6, 7
NUM_PHASES = 8
OBSERVED_PHASES = 5
"""The phase block of the observation: the two doubling phases (``doubling=True``) are part of the card play
there, and have a block of their own; so has Klopfen, shown as the bidding."""
PHASE_NAMES = ("bidding", "calling", "choosing_trump", "playing", "over", "contra_offer", "doubling_round", "klopfen")
MAX_DOUBLINGS = 4
"""``doubling=True``: Kontra, Re and two more at most (openschafkopf's ``n_stoss_max``)."""

# --------------------------------------------------------------------------- card masks
FULL_MASK = np.uint64((1 << NUM_CARDS) - 1)
OBER_UNTER_MASK = np.uint64(sum(1 << (s * NUM_RANKS + r) for s in range(NUM_SUITS) for r in (RANK_O, RANK_U)))
PLAIN_SUIT_MASK = np.array(
    [sum(1 << (s * NUM_RANKS + r) for r in range(NUM_RANKS) if r not in (RANK_O, RANK_U)) for s in range(NUM_SUITS)],
    dtype=np.uint64,
)
"""Cards of each suit other than its Ober and Unter: what counts as 'a plain card of the suit'."""
ACE_OF_SUIT = np.array([s * NUM_RANKS + RANK_A for s in range(NUM_SUITS)], dtype=np.int64)

# --------------------------------------------------------------------------- packs
PACKS = ("long", "short")
"""``pack="long"``: the 32 cards, eight each; ``"short"``: the 24 cards without the 8s and 7s, six each."""
PACK_HAND_SIZE = {"long": 8, "short": 6}
RANKS_OF_PACK = {"long": NUM_RANKS, "short": 6}
"""The ranks dealt (``A 10 K O U 9 8 7`` in rank order: the short pack stops after the 9)."""
PACK_MASK = {
    name: np.uint64(sum(1 << (s * NUM_RANKS + r) for s in range(NUM_SUITS) for r in range(ranks)))
    for name, ranks in RANKS_OF_PACK.items()
}
SHORT_PACK_MASK = PACK_MASK["short"]
SHORT_HAND_SIZE = PACK_HAND_SIZE["short"]
SHORT_SIE_MASK = np.uint64(
    sum(1 << (s * NUM_RANKS + RANK_O) for s in range(NUM_SUITS)) | (1 << RANK_U) | (1 << (NUM_RANKS + RANK_U))
)
"""(decision B13) A Sie in the short pack: the six highest trumps, the four Obers and the Unters of Eichel and
Gras (openschafkopf: the declarer's cards are the highest trumps, as many as a hand holds)."""

# --------------------------------------------------------------------------- tariffs
TARIFF_FAMILIES = ("rufer", "solo", "wenz")
"""The contract families a tariff prices (openschafkopf's ``SPayoutDeciderParams`` per family); a Tout is
priced as its family doubled, a Sie as a Solo with every card a Laufender, quadrupled."""
TARIFF_KEYS = ("base", "schneider_schwarz", "laufende", "laufende_from")
"""Per family: the base value, Schneider (Schwarz counts it twice), the value of each Laufender, and the
fewest Laufende that count."""
TARIFF_FAMILY_RUFER, TARIFF_FAMILY_SOLO, TARIFF_FAMILY_WENZ = range(3)
CONTRACT_TARIFF_FAMILIES = ("geier", "farbwenz", "bettel")
"""The families of the contract options (their params after the others': ``PARAM_CONTRACT_TARIFF``); a Bettel is
priced by ``base`` alone (decision B21)."""
TARIFF_FAMILY_GEIER, TARIFF_FAMILY_FARBWENZ, TARIFF_FAMILY_BETTEL = range(3, 6)
TARIFF_BASE, TARIFF_SCHNEIDER_SCHWARZ, TARIFF_LAUFENDE, TARIFF_LAUFENDE_FROM = range(4)
FAMILY_OF_CONTRACT = np.array(
    [TARIFF_FAMILY_RUFER, TARIFF_FAMILY_RUFER, TARIFF_FAMILY_WENZ, TARIFF_FAMILY_SOLO, TARIFF_FAMILY_WENZ,
     TARIFF_FAMILY_SOLO, TARIFF_FAMILY_SOLO, TARIFF_FAMILY_RUFER, TARIFF_FAMILY_GEIER, TARIFF_FAMILY_FARBWENZ,
     TARIFF_FAMILY_GEIER, TARIFF_FAMILY_FARBWENZ, TARIFF_FAMILY_BETTEL],
    dtype=np.int64,
)
"""The family whose tariff prices each contract (pass: unused)."""
TOUT_FACTOR = 2
SIE_FACTOR = 4
TARIFFS = {
    "card": {
        "rufer": {"base": 1, "schneider_schwarz": 1, "laufende": 1, "laufende_from": 3},
        "solo": {"base": 5, "schneider_schwarz": 1, "laufende": 1, "laufende_from": 3},
        "wenz": {"base": 5, "schneider_schwarz": 1, "laufende": 1, "laufende_from": 2},
        "ramsch": {"base": 1, "durchmarsch": "all", "jungfrau": "double_all"},
        "geier": {"base": 5, "schneider_schwarz": 1, "laufende": 1, "laufende_from": 2},
        "farbwenz": {"base": 5, "schneider_schwarz": 1, "laufende": 1, "laufende_from": 3},
        "bettel": {"base": 1},
    },
    "sauspiel": {
        "rufer": {"base": 20, "schneider_schwarz": 10, "laufende": 10, "laufende_from": 3},
        "solo": {"base": 50, "schneider_schwarz": 10, "laufende": 10, "laufende_from": 3},
        "wenz": {"base": 50, "schneider_schwarz": 10, "laufende": 10, "laufende_from": 2},
        "ramsch": {"base": 10, "durchmarsch": "all", "jungfrau": "double_all"},
        "geier": {"base": 50, "schneider_schwarz": 10, "laufende": 10, "laufende_from": 2},
        "farbwenz": {"base": 50, "schneider_schwarz": 10, "laufende": 10, "laufende_from": 3},
        "bettel": {"base": 20},
    },
}
"""The named tariffs: ``"card"`` the units of this project's rule card (the default), ``"sauspiel"`` the
cents of sauspiel.de, as openschafkopf's tests of its real games use them."""
CUSTOM_TARIFF_PRESET = "sauspiel"
"""(decision B12) A custom tariff's missing keys take the values of this preset."""
TARIFF_SIZE = len(TARIFF_FAMILIES) * len(TARIFF_KEYS)
RAMSCH_KEYS = ("base", "durchmarsch", "jungfrau")
"""The Ramsch's tariff (openschafkopf's ``SRulesRamsch``): the price each player pays or is paid; Durchmarsch
``"all"`` (one player takes every trick), a number of card points from 61 to 120 (one player takes that
many), or ``None``; Jungfrau ``None``, ``"double_all"`` (each player without a trick doubles the loser's
payment to everyone), ``"double_individually_once"`` (the players without a trick are paid double),
``"double_individually_multiple"`` (they are paid 2 ^ (players without a trick) times)."""
JUNGFRAU_RULES = (None, "double_all", "double_individually_once", "double_individually_multiple")
DURCHMARSCH_NONE, DURCHMARSCH_ALL = -1, 0
"""``PARAM_RAMSCH_DURCHMARSCH``: -1 none, 0 every trick, else the fewest card points."""

# --------------------------------------------------------------------------- params
PARAM_RULES_VERSION = 0
PARAM_HAND_SIZE = 1
PARAM_TARIFF = 2
"""The tariff: ``TARIFF_SIZE`` entries, family by family (``TARIFF_FAMILIES``), key by key (``TARIFF_KEYS``)."""
PARAM_MAX_DOUBLINGS = PARAM_TARIFF + TARIFF_SIZE
"""0 without ``doubling``, else ``MAX_DOUBLINGS``."""
PARAM_KLOPFEN = PARAM_MAX_DOUBLINGS + 1
"""1 with ``klopfen``."""
PARAM_RAMSCH = PARAM_KLOPFEN + 1
"""1 with ``ramsch``."""
PARAM_RAMSCH_PRICE = PARAM_RAMSCH + 1
PARAM_RAMSCH_DURCHMARSCH = PARAM_RAMSCH + 2
PARAM_RAMSCH_JUNGFRAU = PARAM_RAMSCH + 3
"""The Ramsch's tariff: the price, ``DURCHMARSCH_*`` or the points, the index in ``JUNGFRAU_RULES``."""
PARAM_CONTRACTS = PARAM_RAMSCH_JUNGFRAU + 1
"""The contract options as bits (``CONTRACT_OPTION_BIT``): 1 ``geier``, 2 ``farbwenz``, 4 ``bettel``."""
PARAM_CONTRACT_TARIFF = PARAM_CONTRACTS + 1
"""The tariff of ``CONTRACT_TARIFF_FAMILIES``, laid out as ``PARAM_TARIFF``'s."""
PARAMS_SIZE = PARAM_CONTRACT_TARIFF + len(CONTRACT_TARIFF_FAMILIES) * len(TARIFF_KEYS)
FAMILY_PARAM_START = np.array(
    [PARAM_TARIFF + f * len(TARIFF_KEYS) for f in range(len(TARIFF_FAMILIES))]
    + [PARAM_CONTRACT_TARIFF + f * len(TARIFF_KEYS) for f in range(len(CONTRACT_TARIFF_FAMILIES))],
    dtype=np.int64,
)
"""Where each tariff family's keys start in the params."""
RULES_VERSION = 0
CONTRACT_OPTIONS = ("geier", "farbwenz", "bettel")
RULE_OPTIONS = ("tariff", "pack", "doubling", "klopfen", "ramsch", *CONTRACT_OPTIONS)
DEFAULT_OPTIONS = {"tariff": "card", "pack": "long", "doubling": False, "klopfen": False, "ramsch": False,
                   "geier": False, "farbwenz": False, "bettel": False}


def resolved_tariff(tariff) -> dict:
    """The tariff ``tariff`` names or gives, as a full mapping family -> key -> int; ``ValueError`` naming
    an unknown preset, family, key or a value that is not a whole number >= 0 (``laufende_from`` >= 1)."""
    if isinstance(tariff, str):
        if tariff not in TARIFFS:
            raise ValueError(f"bavarian: unknown tariff {tariff!r}; choose {sorted(TARIFFS)} or a mapping")
        return {family: dict(values) for family, values in TARIFFS[tariff].items()}
    if not isinstance(tariff, dict):
        raise ValueError(f"bavarian: tariff must be a preset name {sorted(TARIFFS)} or a mapping, got {tariff!r}")
    families = (*TARIFF_FAMILIES, "ramsch", *CONTRACT_TARIFF_FAMILIES)
    unknown = sorted(set(tariff) - set(families), key=str)
    if unknown:
        raise ValueError(f"bavarian: unknown tariff famil(ies) {unknown}; choose from {list(families)}")
    resolved = resolved_tariff(CUSTOM_TARIFF_PRESET)
    for family, values in tariff.items():
        keys = RAMSCH_KEYS if family == "ramsch" else ("base",) if family == "bettel" else TARIFF_KEYS
        if not isinstance(values, dict):
            raise ValueError(f"bavarian: tariff[{family!r}] must be a mapping of {list(keys)}, got {values!r}")
        unknown = sorted(set(values) - set(keys), key=str)
        if unknown:
            raise ValueError(f"bavarian: unknown tariff key(s) {unknown} of {family!r}; choose from {list(keys)}")
        if family == "ramsch":
            resolved[family].update(checked_ramsch_tariff(values))
            continue
        for key, value in values.items():
            lowest = 1 if key == "laufende_from" else 0
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lowest:
                raise ValueError(f"bavarian: tariff[{family!r}][{key!r}] must be a whole number >= {lowest}, "
                                 f"got {value!r}")
            resolved[family][key] = int(value)
    return resolved


def checked_ramsch_tariff(values: dict) -> dict:
    """The Ramsch entries of a custom tariff, checked (``RAMSCH_KEYS``); ``ValueError`` naming a bad one."""
    base = values.get("base", 0)
    if isinstance(base, bool) or not isinstance(base, (int, np.integer)) or base < 0:
        raise ValueError(f"bavarian: tariff['ramsch']['base'] must be a whole number >= 0, got {base!r}")
    durchmarsch = values.get("durchmarsch", "all")
    numeric = isinstance(durchmarsch, (int, np.integer)) and not isinstance(durchmarsch, bool)
    if durchmarsch not in ("all", None) and not (numeric and 61 <= durchmarsch <= 120):
        raise ValueError(f"bavarian: tariff['ramsch']['durchmarsch'] must be 'all', None or card points 61..120, "
                         f"got {durchmarsch!r}")
    jungfrau = values.get("jungfrau")
    if jungfrau not in JUNGFRAU_RULES:
        raise ValueError(f"bavarian: tariff['ramsch']['jungfrau'] must be one of {list(JUNGFRAU_RULES)}, "
                         f"got {jungfrau!r}")
    return {key: (int(value) if isinstance(value, (int, np.integer)) and not isinstance(value, bool) else value)
            for key, value in values.items()}


def checked_options(**options) -> dict:
    """The rule options as the env's ``config`` and a record keep them: checked (``ValueError`` naming an
    unknown option or value), the defaults left out (so the default game's records stay as they were), a
    custom tariff written out in full (a record does not depend on the presets)."""
    unknown = sorted(set(options) - set(RULE_OPTIONS))
    if unknown:
        raise ValueError(f"bavarian: unknown rule option(s) {unknown}; choose from {list(RULE_OPTIONS)}")
    config = {}
    tariff = options.get("tariff", "card")
    if isinstance(tariff, str):
        resolved_tariff(tariff)
        if tariff != "card":
            config["tariff"] = tariff
    else:
        config["tariff"] = resolved_tariff(tariff)
    pack = options.get("pack", "long")
    if pack not in PACKS:
        raise ValueError(f"bavarian: unknown pack {pack!r}; choose from {list(PACKS)}")
    if pack != "long":
        config["pack"] = pack
    for flag in ("doubling", "klopfen", "ramsch", *CONTRACT_OPTIONS):
        value = options.get(flag, False)
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"bavarian: {flag} must be True or False, got {value!r}")
        if value:
            config[flag] = True
    return config


def make_params(**options) -> np.ndarray:
    """Validate the rule options (``checked_options``) and return the params array: the rules version, the
    hand size of the pack, the tariff."""
    config = checked_options(**options)
    params = np.zeros(PARAMS_SIZE, dtype=np.int64)
    params[PARAM_RULES_VERSION] = RULES_VERSION
    params[PARAM_HAND_SIZE] = PACK_HAND_SIZE[config.get("pack", "long")]
    tariff = resolved_tariff(config.get("tariff", "card"))
    for f, family in enumerate(TARIFF_FAMILIES):
        for k, key in enumerate(TARIFF_KEYS):
            params[PARAM_TARIFF + f * len(TARIFF_KEYS) + k] = tariff[family][key]
    params[PARAM_MAX_DOUBLINGS] = MAX_DOUBLINGS if config.get("doubling", False) else 0
    params[PARAM_KLOPFEN] = int(config.get("klopfen", False))
    params[PARAM_RAMSCH] = int(config.get("ramsch", False))
    ramsch = tariff["ramsch"]
    params[PARAM_RAMSCH_PRICE] = ramsch["base"]
    durchmarsch = ramsch["durchmarsch"]
    params[PARAM_RAMSCH_DURCHMARSCH] = (DURCHMARSCH_NONE if durchmarsch is None else
                                        DURCHMARSCH_ALL if durchmarsch == "all" else durchmarsch)
    params[PARAM_RAMSCH_JUNGFRAU] = JUNGFRAU_RULES.index(ramsch["jungfrau"])
    params[PARAM_CONTRACTS] = sum(1 << i for i, name in enumerate(CONTRACT_OPTIONS) if config.get(name, False))
    for f, family in enumerate(CONTRACT_TARIFF_FAMILIES):
        for k, key in enumerate(TARIFF_KEYS):
            params[PARAM_CONTRACT_TARIFF + f * len(TARIFF_KEYS) + k] = tariff[family].get(key, 0)
    return params


def action_names(params) -> tuple[str, ...]:
    """The env's action strings under ``params``: the default game's 46, the doublings after them with
    ``doubling`` (49), with ``klopfen`` 51, with ``geier``, ``farbwenz`` or ``bettel`` all 56 (the actions of
    options not chosen never legal: an action's index is the same under every option)."""
    if params[PARAM_CONTRACTS]:
        return ACTION_NAMES
    if params[PARAM_KLOPFEN]:
        return ACTION_NAMES[:KLOPFEN_NUM_ACTIONS]
    return ACTION_NAMES[:DOUBLING_NUM_ACTIONS] if params[PARAM_MAX_DOUBLINGS] > 0 else ACTION_NAMES[:BASE_NUM_ACTIONS]


def num_actions(params) -> int:
    """The size of the env's action space under ``params`` (``action_names``)."""
    return len(action_names(params))


CARD_TARIFF_PARAMS = make_params()
"""The default params (long pack, card tariff): what ``scoring.contract_value`` prices with."""
