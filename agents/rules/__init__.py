"""The rule-based players, one module per game (``RulesAgent``; the registry names each): they read only
their own observation, decode it into a table of named facts, and decide by a club player's rules of
thumb. ``schafkopf_common`` (the agent frame), ``schafkopf_cards``, ``schafkopf_strength`` and
``schafkopf_card_play`` hold what the three Schafkopf players share; the Knüffeln player's decisions are in
``knuffeln``, its parts in ``knuffeln_table``, ``knuffeln_situation``, ``knuffeln_cards`` and
``knuffeln_phrases``."""
