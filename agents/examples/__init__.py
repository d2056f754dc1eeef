"""Example outside agents, entering the arena by ``"package.module:attr"`` like any third-party agent."""
