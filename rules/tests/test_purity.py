"""rules.engine is pure Python: no Django, no apps (an import-linter contract, as a test)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"
FORBIDDEN = {"django", "teams", "matches", "bbweb", "celery"}


def imported_roots(tree: ast.AST) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            roots.add("__import__")
    return roots


def test_the_engine_imports_nothing_from_django_or_the_apps() -> None:
    modules = sorted(ENGINE.rglob("*.py"))
    assert len(modules) >= 10
    for path in modules:
        roots = imported_roots(ast.parse(path.read_text(encoding="utf-8")))
        assert not roots & (FORBIDDEN | {"__import__"}), f"{path.name} imports {roots & FORBIDDEN}"
