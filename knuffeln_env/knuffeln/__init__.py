"""Knüffeln's rules: the compiled kernel (``kernel``, the contract of ``docs/architecture.md``), split by
concern into the modules it lists, the ladder of match play (``match``) and the plain-Python
``reference`` they are tested against. The PettingZoo env is ``knuffeln_env.knuffeln_v0``."""
