"""The shape of the codebase, checked: no source file over ~600 lines, no import cycles between the
project's modules, nothing that points outside the repository."""

from __future__ import annotations

import ast
from pathlib import Path

from .outside import paths_leaving_the_repository, tracked

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("trick_core", "schafkopf_env", "knuffeln_env", "agents", "signalling", "trick_gym", "play", "experiments",
            "benchmarks", "tests")
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
