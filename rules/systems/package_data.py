"""Where a game system keeps its bundled data: inside its own package.

A system is one package under `rules/systems/<key>/` (the registry imports it by its key);
that package holds its code and its data side by side:

    rules/systems/<key>/catalogue/        rules.yaml, rules.source-language.yaml,
                                          equipment.yaml, factions/*.yaml
    rules/systems/<key>/example_lists/    *.yaml: lists for the public gallery

Loaders ask here for a system's folders rather than keep a list of paths, so a new system
package brings its data with it and nothing else needs to learn its name.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

#: The sub-folders of a system package, by what they hold.
CATALOGUE_DIR = "catalogue"
EXAMPLE_LISTS_DIR = "example_lists"


def system_package_dir(key: str) -> Path | None:
    """The folder of the package `rules.systems.<key>`, or None (a system registered in code,
    such as a test's toy system, has no package and so no bundled data)."""
    try:
        spec = importlib.util.find_spec(f"rules.systems.{key}")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def catalogue_dir(key: str) -> Path | None:
    """`rules/systems/<key>/catalogue/` when the system bundles catalogue data, else None."""
    package = system_package_dir(key)
    folder = package / CATALOGUE_DIR if package is not None else None
    return folder if folder is not None and folder.is_dir() else None


def example_list_files(key: str) -> list[Path]:
    """The system's example list files, sorted by name (the gallery's order within a system)."""
    package = system_package_dir(key)
    folder = package / EXAMPLE_LISTS_DIR if package is not None else None
    return sorted(folder.glob("*.yaml")) if folder is not None and folder.is_dir() else []
