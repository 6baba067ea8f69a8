"""The layers point one way (DESIGN.md, "Layers"): every import of every module, read with `ast`.

    points/        the pure points core: itself, the standard library (fractions included)
                   and numpy — no Django, no JSON Schema (reading untrusted documents is
                   the rules layer's job), nothing of `rules` or `armybuilder`
    rules/         catalogue, dice engine and game systems: never `armybuilder`
    armybuilder/   the product: asks the registry for a system, never imports a system's
                   package (`rules.systems.<key>`, `points.<key>`) itself

Imports inside functions and under `TYPE_CHECKING` count: a lazy import is still a dependency.

And no two modules import each other, directly or lazily: the piece both need lives in a module
both import (`armybuilder/estimates/request_errors.py`, `armybuilder/broker_tasks.py`). Here
an import under `if TYPE_CHECKING:` does not count, as it never runs (an annotation).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("points", "rules", "armybuilder")

#: The one third-party package the points core may use: arrays for the dice and cost tables.
POINTS_THIRD_PARTY = {"numpy"}
#: Packages of `points/` and `rules/systems/` that are shared by every system, not one system's.
SHARED_PACKAGES = {"catalogue", "shared_format", "registry", "package_data", "profile_fields",
                   "catalogue_system", "fantasy_profile", "messages"}


def modules(layer: str) -> list[Path]:
    return sorted(p for p in (ROOT / layer).rglob("*.py") if "__pycache__" not in p.parts)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute dotted name) of every import in the file; relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            yield node.lineno, name
            for alias in node.names:  # `from points import opr` imports points.opr
                yield node.lineno, f"{name}.{alias.name}"


def _type_checking_only(tree: ast.AST) -> set[int]:
    """Ids of the import nodes under `if TYPE_CHECKING:` (never run)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found |= {id(n) for stmt in node.body for n in ast.walk(stmt)
                      if isinstance(n, (ast.Import, ast.ImportFrom))}
    return found


def module_graph(root: Path | None = None) -> dict[str, set[str]]:
    """Module -> the modules of the three layers it imports when it runs (at the top, inside a
    function or a branch; not under `TYPE_CHECKING`). `from package import name` imports the
    module `package.name` when there is one, else the package."""
    root = root or ROOT
    paths = {}
    for layer in LAYERS:
        for path in sorted(p for p in (root / layer).rglob("*.py") if "__pycache__" not in p.parts):
            parts = list(path.relative_to(root).with_suffix("").parts)
            paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path

    def known(name: str) -> str | None:
        parts = name.split(".")
        while parts and ".".join(parts) not in paths:
            parts.pop()
        return ".".join(parts) or None

    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skipped = _type_checking_only(tree)
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                found |= {m for alias in node.names if (m := known(alias.name))}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    up = package[: len(package) - (node.level - 1)]
                    base = ".".join([*up, *filter(None, [node.module])])
                else:
                    base = node.module or ""
                for alias in node.names:
                    target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else known(base)
                    if target:
                        found.add(target)
        graph[name] = found - {name}
    return graph


def mutual_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every pair of modules each of which imports the other."""
    return sorted({tuple(sorted((a, b))) for a, targets in graph.items() for b in targets
                   if a in graph.get(b, ())})


def test_no_two_modules_import_each_other():
    assert mutual_imports(module_graph()) == []


def test_the_pair_check_sees_a_lazy_import_back_and_ignores_type_checking(tmp_path):
    """The check must be able to fail: `a` imports `b` at the top and `b` imports `a` inside a
    function (found); `c` names `a` only under `TYPE_CHECKING` (not found)."""
    package = tmp_path / "rules"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from rules import b\nfrom .c import thing\n")
    (package / "b.py").write_text("def f():\n    from .a import x\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rules.a import y\n"
    )
    for layer in ("points", "armybuilder"):
        (tmp_path / layer).mkdir()
    graph = module_graph(tmp_path)
    assert graph["rules.a"] == {"rules.b", "rules.c"} and graph["rules.c"] == set()
    assert mutual_imports(graph) == [("rules.a", "rules.b")]


def system_packages() -> set[str]:
    """Dotted names of every system's own packages: `rules.systems.<key>` and `points.<key>`."""
    found = set()
    for parent in ("rules/systems", "points"):
        for folder in (ROOT / parent).iterdir() if (ROOT / parent).is_dir() else ():
            if (folder / "__init__.py").exists() and folder.name not in SHARED_PACKAGES:
                found.add(f"{parent.replace('/', '.')}.{folder.name}")
    return found


def violation(layer: str, name: str, systems: set[str]) -> str | None:
    top = name.split(".")[0]
    if layer == "points":
        if top in sys.stdlib_module_names or top == "__future__" or top == "points":
            return None
        if top in POINTS_THIRD_PARTY:
            return None
        return "the points core imports only itself, the standard library and numpy"
    if layer == "rules" and top == "armybuilder":
        return "rules never imports the product (armybuilder)"
    if layer == "armybuilder" and any(name == s or name.startswith(s + ".") for s in systems):
        return "the product asks the registry for a system; it never imports a system's package"
    return None


def violations(layer: str) -> list[str]:
    systems = system_packages()
    found = []
    for path in modules(layer):
        for line, name in imported_names(path):
            why = violation(layer, name, systems)
            if why:
                found.append(f"{path.relative_to(ROOT)}:{line}: imports {name}: {why}")
    return found


@pytest.mark.parametrize("layer", LAYERS)
def test_no_module_of_a_layer_imports_against_the_direction_of_the_layers(layer):
    assert violations(layer) == []


def test_the_checker_sees_lazy_relative_and_from_imports(tmp_path, monkeypatch):
    """The check must be able to fail: a copy of each forbidden shape is reported."""
    fake = tmp_path / "points" / "opr"
    fake.mkdir(parents=True)
    (tmp_path / "points" / "__init__.py").write_text("")
    (fake / "__init__.py").write_text("")
    (fake / "bad.py").write_text(
        "import json\n"
        "from . import tables\n"
        "def f():\n"
        "    from django.conf import settings\n"
        "    from rules.systems import registry\n"
        "    import jsonschema_rs\n"
        "import numpy\n"
        "from fractions import Fraction\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert sorted(imported_names(fake / "bad.py")) == [
        (1, "json"), (2, "points.opr"), (2, "points.opr.tables"),
        (4, "django.conf"), (4, "django.conf.settings"), (5, "rules.systems"), (5, "rules.systems.registry"),
        (6, "jsonschema_rs"), (7, "numpy"), (8, "fractions"), (8, "fractions.Fraction"),
    ]
    assert [v.split(": imports ")[1].split(":")[0] for v in violations("points")] == [
        "django.conf", "django.conf.settings", "rules.systems", "rules.systems.registry", "jsonschema_rs",
    ]
    assert violation("rules", "armybuilder.estimates.bounds", set()) is not None
    assert violation("armybuilder", "rules.systems.wh40k9.power", {"rules.systems.wh40k9"}) is not None
    assert violation("armybuilder", "rules.systems.registry", {"rules.systems.wh40k9"}) is None


def test_every_system_package_is_found_and_shared_packages_are_not():
    systems = system_packages()
    assert {"rules.systems.opr", "points.opr", "rules.systems.wh40k9", "points.wh40k9"} <= systems
    assert "points.catalogue" not in systems and "rules.systems.fantasy_combat" in systems
