"""The rule-based players, one module per game (``RulesAgent``; the registry names each): they read only
their own observation, decode it into a table of named facts, and decide by a club player's rules of
thumb. ``schafkopf_common`` holds what the three Schafkopf players share."""
