"""The shape of the codebase, checked: no source file over ~600 lines, no import cycles between the
project's modules, nothing that points outside the repository, no game named in the generic layers."""

from __future__ import annotations

import ast
from pathlib import Path

from trick_core.registry import DEAL_KEYS, FAMILY_PACKAGES, GAME_NAMES, GAME_SPECS

from .outside import paths_leaving_the_repository, tracked

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("trick_core", *FAMILY_PACKAGES, "agents", "signalling", "trick_gym", "play", "experiments", "benchmarks",
            "tests")
MAX_LINES = 600


def _python_files() -> list[Path]:
    return [p for p in tracked("*.py") if p.relative_to(ROOT).parts[0] in PACKAGES]


def test_no_source_file_is_over_600_lines():
    long = {str(p.relative_to(ROOT)): n for p in _python_files() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, module: str) -> set[str]:
    """Project modules imported anywhere in ``path`` (module level or inside functions)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] in PACKAGES}


def test_no_import_cycles():
    files = {_module_name(p): p for p in _python_files() if not p.relative_to(ROOT).parts[0] == "tests"}
    graph = {m: {t for t in _imports(path, m) if t in files and t != m} for m, path in files.items()}
    # a package's __init__ importing its own submodules is how packages expose them, not a cycle
    for module in graph:
        graph[module] = {m for m in graph[module] if not (files[module].name == "__init__.py" and m.startswith(module))}
    cycles, state = [], {}

    def visit(module: str, trail: list[str]) -> None:
        state[module] = "active"
        for target in sorted(graph[module]):
            if state.get(target) == "active":
                cycles.append(trail[trail.index(target):] + [target])
            elif target not in state:
                visit(target, trail + [target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_nothing_points_outside_the_repository():
    hits = []
    for path in tracked("*.py", "*.md", "Makefile", "*.toml", ".ci/run", "*.js", "*.html"):
        text = path.read_text(errors="replace")
        hits += [f"{path.relative_to(ROOT)}: {p}" for p in paths_leaving_the_repository(path, text)]
    assert hits == []


def test_the_outside_check_catches_a_climbing_path(tmp_path):
    inside = ROOT / "docs" / "architecture.md"
    assert paths_leaving_the_repository(inside, "see ../rules/README.md") == []
    assert paths_leaving_the_repository(inside, "see ../../elsewhere/rules.md") == ["../../elsewhere/rules.md"]


def _command_line_classes(path: Path) -> list[str]:
    """Names of the dataclasses that ``path`` hands to ``tyro.cli`` (``tyro.cli(Args)``, ``tyro.cli(module.Args)``)."""
    tree = ast.parse(path.read_text())
    return [call.args[0].attr if isinstance(call.args[0], ast.Attribute) else call.args[0].id
            for call in ast.walk(tree)
            if isinstance(call, ast.Call) and ast.unparse(call.func) == "tyro.cli" and call.args]


def test_every_command_line_describes_itself_in_its_help():
    """tyro prints the options class's docstring as the ``--help`` description; without one a script's help
    says only its options."""
    undocumented, entry_points = [], 0
    for path in _python_files():
        names = set(_command_line_classes(path))
        classes = {node.name: node for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.ClassDef)}
        for name in names & classes.keys():
            entry_points += 1
            if not ast.get_docstring(classes[name]):
                undocumented.append(f"{path.relative_to(ROOT)}: {name}")
    assert entry_points >= 20
    assert undocumented == []


GENERIC_SOURCES = ("trick_core", "agents/base.py", "agents/search", "agents/arena.py", "benchmarks/ours.py",
                   "benchmarks/solver.py", "play")
"""Where no game is named: these layers ask a game's ``GameSpec`` or its kernel (``docs/architecture.md``)."""
NAMING_ALLOWED = ("trick_core/registry.py", "trick_core/game_spec.py", "trick_core/cards.py", "trick_core/deal.py",
                  "play/views/schafkopf.py", "play/views/knuffeln.py")
"""The registry; the decks (the packs a game is played with are named after the game); the browser's view
modules, which declare their games' entries (``GameInfo``, named by the games' specs)."""
GAME_WORDS = frozenset(GAME_NAMES) | frozenset(DEAL_KEYS) | {p for spec in GAME_SPECS for p in spec.face_down_actions}
"""Game names, the games' own deal keys (``"skat"``) and face-down action prefixes (``"turn:"``)."""


def _documentation(tree: ast.AST) -> set[int]:
    """Ids of the string constants that are documentation: a bare string statement (docstrings, attribute
    docstrings), not code."""
    return {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}


def game_words_in_code(source: str, words=GAME_WORDS) -> list[str]:
    """The string literals of ``source``'s code (documentation aside) that are one of ``words``."""
    tree = ast.parse(source)
    documentation = _documentation(tree)
    return [f"line {node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documentation
            and node.value in words]


def _generic_files() -> list[Path]:
    return [path for path in _python_files() if path.relative_to(ROOT).as_posix().startswith(GENERIC_SOURCES)
            and not path.relative_to(ROOT).as_posix().startswith(NAMING_ALLOWED)]


def test_the_generic_layers_name_no_game():
    """A game's name, deal keys and face-down actions are its spec's: the toolkit, the agents' base, the search
    agents, the arena, the benchmarks' own side and the browser's table ask the spec (or the kernel), so a new
    game needs no branch there."""
    files = _generic_files()
    assert len(files) > 30 and {ROOT / "agents/search/pimc.py", ROOT / "benchmarks/ours.py"} <= set(files)
    hits = {str(path.relative_to(ROOT)): found for path in files if (found := game_words_in_code(path.read_text()))}
    assert hits == {}


def written_out_packages(source: str) -> list[str]:
    """String literals of ``source``'s code that name a game family package (a hand list of packages)."""
    tree = ast.parse(source)
    documentation = _documentation(tree)
    return [f"line {node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documentation
            and any(family in node.value for family in FAMILY_PACKAGES)]


def test_the_compile_cache_fingerprints_take_the_packages_from_the_registry():
    """``trick_core/jit.py`` and ``trick_core/specialise.py`` write out no game package: a family missing from a
    hand list would run stale machine code; the registry's ``FAMILY_PACKAGES`` covers every registered one."""
    from trick_core import jit, specialise

    for path in ("trick_core/jit.py", "trick_core/specialise.py"):
        assert written_out_packages((ROOT / path).read_text()) == [], path
    for family in FAMILY_PACKAGES:
        assert f"{family}/**/*.py" in jit.COMPILED_SOURCES and family in specialise._PROJECT_PACKAGES


def test_the_name_checks_catch_a_planted_violation():
    """The checks can fail: a game's name tested in code, a deal key and a hand-written package are found;
    the same words in documentation are not."""
    game, family = GAME_NAMES[0], FAMILY_PACKAGES[0]
    planted = (f'"""Plays {game!r}."""\nX = 1\n"""{game!r} here is documentation."""\n'
               f'def f(g, options):\n    return g == {game!r} or {DEAL_KEYS[0]!r} in options\n')
    assert [hit.split(": ")[1] for hit in game_words_in_code(planted)] == [repr(game), repr(DEAL_KEYS[0])]
    assert written_out_packages(f'SOURCES = ("trick_core/**/*.py", "{family}/**/*.py")\n') != []
