"""Signalling research toolkit: truth-labelled table talk, communication metrics, partner identification.

Knüffeln lets partners talk (``talk="lexicon"``: 24 stock phrases, half-showing a card, silence;
``talk="tokens:N"``: abstract tokens); the Schafkopf ace-call games hide the partner until the play
reveals it. This package measures both from ordinary game records (``env.unwrapped.game_record()``,
or the arena's ``--records`` file), so it needs no change to the envs, the agents or the arena.

- ``signalling.lexicon``: the 24 phrases with a truth predicate each (true / false / uncheckable), the
  speaker's private features, the classes of cards (what a half-shown card was);
- ``signalling.log``: message logs, one JSON line per utterance (hand, trick, speaker, listeners, message,
  features, truth label, next actions); ``python -m signalling.log``;
- ``signalling.metrics``: message entropy, mutual information, speaker consistency, instantaneous
  coordination, causal influence of communication, bluff rate and success, turn (drehen) statistics;
- ``signalling.influence``: the listener's policy under message interventions, replayed from records;
- ``signalling.views``: a seat view that rewrites the talk a listener observes;
- ``signalling.scramble``: the message-scramble plug-in agent, the scramble test and the value of talk
  (duplicate matches through ``agents.arena``);
- ``signalling.crossplay``: partner pairs, token-permuted talkers (the Other-Play control) and the
  self-play / cross-play matrix of any list of agent specs;
- ``signalling.population``: the trained token-talking population (five ``tokens:8`` networks, one per
  training seed, in ``signalling/population/``) as arena plug-ins, and the script that ships a run into it;
- ``signalling.partners``: hidden partners in Bavarian Rufer and Asserufen, the exact Bayesian posterior
  over the holder of the called card, from the public play and from each seat (the exact deal count is
  ``signalling.deal_counting``; self-play studies across hands, ``signalling.partners_study``).

``experiments/signalling_study.py`` runs the whole study and writes ``docs/signalling.md``. Nothing
below this package imports it.
"""

import trick_core.extras  # noqa: F401  (a command whose extra is missing fails with one line naming it)
