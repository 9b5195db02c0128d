"""Clean house: no import circles anywhere in the package (a function-level import counts:
it only hides the circle), and the core never imports a game."""

from __future__ import annotations

import ast
from pathlib import Path

import cove

SRC = Path(cove.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, module: str, is_pkg: bool) -> set[str]:
    """Modules of cove imported at run time (anything not under ``if TYPE_CHECKING``)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names if a.name.startswith("cove"))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    pkg = module if is_pkg else module.rpartition(".")[0]
                    for _ in range(child.level - 1):
                        pkg = pkg.rpartition(".")[0]
                    base = f"{pkg}.{base}" if base else pkg
                if base.startswith("cove"):
                    found.add(base)
                    found.update(f"{base}.{a.name}" for a in child.names)
            visit(child)

    visit(tree)
    return found


def _graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        deps = _imports(tree, name, path.name == "__init__.py")
        # a package __init__ re-exporting its own modules is not a circle
        graph[name] = {d for d in deps if d in files and d != name
                       and not (path.name == "__init__.py" and d.startswith(name + "."))}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(v: str) -> list[str]:
        state[v] = 1
        stack.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return [*stack[stack.index(w):], w]
            if w not in state:
                found = dfs(w)
                if found:
                    return found
        stack.pop()
        state[v] = 2
        return []

    for v in sorted(graph):
        if v not in state:
            found = dfs(v)
            if found:
                return found
    return []


def test_no_import_circles() -> None:
    cycle = _cycle(_graph())
    assert not cycle, "import circle: " + " -> ".join(cycle)


def test_the_core_never_imports_a_game() -> None:
    graph = _graph()
    for name, deps in graph.items():
        if name.startswith("cove.core"):
            assert not any(d.startswith("cove.games") for d in deps), (name, deps)


def test_the_circle_finder_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []
