"""Rule names in any language the catalogue accepts, as the English names the engine reads.

A unit may name a rule by its English name, the seed's own name (Czech for WHFB 6th,
Russian for the house rules) or an alias (`rules/systems/<system>/catalogue/rules.yaml`), so the
engine maps every accepted name to the English one before it looks for "hatred" or
"killing blow". The files are read once; they are plain data, no Django involved.
"""

from __future__ import annotations

from functools import cache

import yaml

from rules.systems.package_data import catalogue_dir

#: The fantasy systems whose rules this engine reads (their packages hold the rules files).
SYSTEMS = ("whfb6", "ru_whfb")


@cache
def english_names() -> dict[str, str]:
    """{lower-case accepted name: lower-case English name} for both fantasy systems."""
    names: dict[str, str] = {}
    for system in SYSTEMS:
        folder = catalogue_dir(system)
        path = folder / "rules.yaml" if folder is not None else None
        if path is None or not path.exists():
            continue
        for rule in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("rules", []):
            english = str(rule["name"]).lower()
            for name in (rule.get("source_name"), *rule.get("aliases", [])):
                if name:
                    names.setdefault(str(name).lower(), english)
    return names


def english(name: str) -> str:
    """The English (lower-case) name of a rule named in any accepted language."""
    lowered = name.strip().lower()
    return english_names().get(lowered, lowered)
