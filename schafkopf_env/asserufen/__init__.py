"""Asserufen's rules (Palatinate Schafkopf for four players with a called ace): the compiled kernel
(``kernel``, the contract of ``docs/architecture.md``), split by concern into the modules it lists, and
the plain-Python ``reference`` it is tested against. The PettingZoo env is ``schafkopf_env.asserufen_v0``."""
