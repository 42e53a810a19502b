"""The house's own rules (docs/rooms.md), read from the source: every module of the product
under 800 lines, and no name that begins with an underscore used outside its module. The
import contracts in pyproject.toml (``make lint``) keep the rooms' layers and the tools apart."""

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bbweb", "rules", "teams", "matches", "tools")
PRODUCT = ("bbweb", "rules", "teams", "matches")
LONGEST = 800


def sources(packages: tuple[str, ...]) -> Iterator[Path]:
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def module_of(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def imported_from(path: Path, node: ast.ImportFrom, root: Path = ROOT) -> str:
    """The absolute name of the module an import reads from, relative imports resolved."""
    if not node.level:
        return node.module or ""
    package = module_of(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def module_aliases(path: Path, tree: ast.Module, root: Path) -> dict[str, str]:
    """The names this file binds to modules of the project (``from matches import services``,
    ``import bbweb.outbox as outbox``)."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            origin = imported_from(path, node, root)
            for alias in node.names:
                target = f"{origin}.{alias.name}"
                if (ROOT / Path(*target.split("."))).with_suffix(".py").exists() or (
                    ROOT / Path(*target.split(".")) / "__init__.py"
                ).exists():
                    aliases[alias.asname or alias.name] = target
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name.split(".")[0] in PACKAGES:
                    aliases[alias.asname] = alias.name
    return aliases


def private_uses(path: Path, root: Path = ROOT) -> Iterator[str]:
    """Where the file at ``path`` (a module of the tree at ``root``) uses another module's
    private name."""
    tree = ast.parse(path.read_text())
    where = path.relative_to(root)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            origin = imported_from(path, node, root)
            if origin.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                if is_private(alias.name):
                    yield f"{where}:{node.lineno} imports {origin}.{alias.name}"
    aliases = module_aliases(path, tree, root)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and is_private(node.attr)
            and node.attr != "_meta"  # Django's documented Options API
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
        ):
            yield f"{where}:{node.lineno} reads {aliases[node.value.id]}.{node.attr}"


def test_no_module_of_the_product_is_over_800_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in sources(PRODUCT)
        if "tests" not in path.parts and (lines := len(path.read_text().splitlines())) > LONGEST
    }
    assert long == {}


def test_no_private_name_is_used_outside_its_module() -> None:
    uses = [use for path in sources(PACKAGES) for use in private_uses(path)]
    assert uses == []


def test_the_check_sees_a_private_import_and_a_private_attribute(tmp_path: Path) -> None:
    """The scan above finds both forms, so that its empty answer means something."""
    probe = tmp_path / "matches" / "play" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        "from matches.services.core import _hidden\n"
        "from matches.services import core\n"
        "from .page import _shown\n"
        "core._other()\n"
    )
    found = list(private_uses(probe, tmp_path))
    assert [use.split(" ", 1)[1] for use in found] == [
        "imports matches.services.core._hidden",
        "imports matches.play.page._shown",
        "reads matches.services.core._other",
    ]
