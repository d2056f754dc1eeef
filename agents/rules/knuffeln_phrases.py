"""The talk vocabulary of the rule-based Knüffeln player (``agents.rules.knuffeln``): the lexicon phrases
it says or understands, and the fixed token code it uses with ``talk="tokens:N"``."""

# Lexicon phrases the agent says or understands (``say:k``, ``knuffeln_v0.PHRASES[k - 1]``).
ARE_YOU_OLD = 1
CAN_YOU = 3
I_HAVE_AN_OLE = 6
FEEL_BAD = 9
LET_IT_COME = 10
LET_IT_RUN = 11
CERTAINLY = 12
CANT_YOU_BEAT = 14
TWO_SURE_TRICKS = 17
WE_MARCH = 22

TOKEN_CODE = {CERTAINLY: 1, CANT_YOU_BEAT: 2, I_HAVE_AN_OLE: 3, FEEL_BAD: 4, TWO_SURE_TRICKS: 5, WE_MARCH: 6}
"""The fixed honest code used with ``talk="tokens:N"`` (phrase -> token number)."""
PHRASE_OF_TOKEN = {token: phrase for phrase, token in TOKEN_CODE.items()}

PARTNER_WINS = (CERTAINLY, LET_IT_COME, LET_IT_RUN)
PARTNER_ASKS_TO_BEAT = (CANT_YOU_BEAT, CAN_YOU)
PARTNER_STRONG_LATER = (I_HAVE_AN_OLE, TWO_SURE_TRICKS)
