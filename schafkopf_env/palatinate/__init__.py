"""Palatinate Schafkopf's rules: the compiled kernel (``kernel``, the contract of ``docs/architecture.md``),
split by concern into the modules it lists, and the plain-Python ``reference`` it is tested against.
The PettingZoo env is ``schafkopf_env.palatinate_v0``."""
