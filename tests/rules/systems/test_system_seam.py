"""THE SEAM (`DESIGN.md`, "One seam for game systems"): the product layer — every module
under `armybuilder/`, every template, the catalogue's pages, designer and unit cards in
`rules/`, and every management command (`price`, `validate`, `import_battlescribe`, …) — names no
game system and no system's own field; it reads them from the registry
(`rules/systems/registry.py`). Nor does the BattleScribe import (`rules/battlescribe/`, the roster
engine and `rules/battlescribe_import.py`): what a system's data means is its mapping's
(`rules/systems/<key>/battlescribe.py`).

The words looked for are each registered system's key and the properties of its profile schema
(models, weapons, unit fields), its list-settings schema, its situation schema and the figures
its price reports. A word counts as named when code writes it as a string literal (docstrings
and comments aside), an attribute or a template lookup. What every system shares is not a
system's word: the unit envelope (`rules.systems.profile_fields`), the estimate contract's
expected figures, and the words below with the reason they are allowed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rules.battlescribe.engine.conditions import ENTRY_TYPES
from rules.battlescribe.engine.modifiers import POWER_MODIFIERS
from rules.systems.profile_fields import ENVELOPE_FIELDS, UNIT_FORMAT_WEAPON_FIELDS
from rules.systems.registry import all_systems, get_system

ROOT = Path(__file__).resolve().parents[3]

#: Field names of the shared unit format and contracts, used by every system.
SHARED_WORDS = {
    *ENVELOPE_FIELDS,
    *UNIT_FORMAT_WEAPON_FIELDS,
    "models", "mode", "type", "kind", "profile", "profiles", "keywords", "abilities",
    # The estimate contract's expected figures (`docs/estimates.md`): every `attack` reports them.
    "attacks", "hits", "wounds", "damage", "kills",
}
#: Words of the BattleScribe format itself, which its reader writes whatever the system: entry
#: types ("mount") and modifier types ("power", raising a value to a power).
BATTLESCRIBE_WORDS = {*ENTRY_TYPES, *POWER_MODIFIERS}
#: (file, word): why the file may write the word although a system's field has that name. None
#: today (issue 39: the seam holds with no exception); an entry needs its reason.
ALLOWED: dict[tuple[str, str], str] = {}
#: The product modules of the `rules` app (pages, forms, cards, options, selectors, the command
#: line). Not here: the catalogue's data model and loader (equipment kinds such as "armour" are
#: catalogue data), the systems themselves (`rules/systems/`) and the BattleScribe importer,
#: which maps cost types.
RULES_PRODUCT = (
    "views.py", "designer_form.py", "unit_cards.py", "battlescribe_views.py", "selectors.py",
    "services.py", "options.py", "unit_validation.py", "source_language.py", "list_settings.py",
    "matchups.py", "urls.py", "battlescribe_urls.py", "templatetags", "management",
)


def _schema_properties(schema: object) -> set[str]:
    if not isinstance(schema, dict):
        return set()
    found = set((schema.get("properties") or {}).keys()) | set((schema.get("x-unit-fields") or {}).keys())
    for sub in (schema.get("$defs") or {}).values():
        found |= _schema_properties(sub)
    for prop in (schema.get("properties") or {}).values():
        if isinstance(prop, dict) and isinstance(prop.get("items"), dict):
            found |= _schema_properties(prop["items"])
    return found


def system_words() -> dict[str, set[str]]:
    """Word -> the systems it belongs to: keys, profile, list-settings and situation fields."""
    words: dict[str, set[str]] = {}
    for system in all_systems():
        own = {system.key} | set(system.price_figures)
        for schema in (system.profile_schema, system.list_settings_schema, system.situation_schema):
            own |= _schema_properties(schema)
        for word in own - SHARED_WORDS:
            if len(word) > 1:  # one letter ("a", "s") is never a word that names anything
                words.setdefault(word, set()).add(system.key)
    return words


def product_files() -> list[Path]:
    python = [p for p in (ROOT / "armybuilder").rglob("*.py") if "migrations" not in p.parts]
    for name in RULES_PRODUCT:
        path = ROOT / "rules" / name
        python += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    templates = list((ROOT / "templates").rglob("*.html"))
    return sorted(python + templates)


def battlescribe_import_files() -> list[Path]:
    """The BattleScribe import: its package (engine included) and the module saving an import."""
    files = (ROOT / "rules" / "battlescribe").rglob("*.py")
    return sorted([*files, ROOT / "rules" / "battlescribe_import.py"])


def python_names(source: str) -> set[str]:
    """String literals (not docstrings) and attributes read (not methods called: `.save()`)."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            names.add(node.value)
        elif isinstance(node, ast.Attribute) and id(node) not in called:
            names.add(node.attr)
    return names


def template_names(source: str, words: set[str]) -> set[str]:
    """Words a template writes as a lookup (`unit.power`, `x["power"]`) or a quoted value."""
    source = re.sub(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", "", source, flags=re.S)
    found = set()
    for word in words:
        w = re.escape(word)
        if re.search(rf"([\"']){w}\1|\.{w}\b(?![-(])|\[{w}\]", source):
            found.add(word)
    return found


def test_the_words_cover_keys_profile_settings_and_situation_fields():
    words = system_words()
    assert {"opr", "whfb6", "wh40k9", "aos1", "ru_whfb"} <= set(words)  # keys
    assert {"quality", "ws", "power_rating", "to_wound", "armour_piercing"} <= set(words)  # profiles
    assert {"battle_size", "realm"} <= set(words)  # list settings
    assert {"charging", "defender_in_cover"} <= set(words)  # situations
    assert "power" in words  # a price figure
    assert "count" not in words and "mode" not in words  # shared


def test_the_scanner_finds_a_named_field_and_ignores_docstrings():
    source = '"""Reads `unit.power`."""\nx = data["power"]\ny = row.quality\nrow.save()\n'
    assert {"power", "quality"} <= python_names(source) and "save" not in python_names(source)
    assert "Reads `unit.power`." not in python_names(source)
    assert template_names('{{ unit.power }} {# .quality #}', {"power", "quality"}) == {"power"}


def test_the_command_line_is_in_the_product_layer():
    """Every management command is scanned, those of `rules` and of the product alike."""
    scanned = {path.relative_to(ROOT).as_posix() for path in product_files()}
    commands = {path.relative_to(ROOT).as_posix() for layer in ("points", "rules", "armybuilder")
                for path in (ROOT / layer).glob("**/management/commands/*.py")}
    assert "rules/management/commands/price.py" in commands and commands <= scanned


def test_nothing_in_the_product_layer_names_a_system_or_its_fields():
    words = system_words()
    offending = []
    for path in product_files():
        text = path.read_text(encoding="utf-8")
        named = python_names(text) & set(words) if path.suffix == ".py" else template_names(text, set(words))
        rel = path.relative_to(ROOT).as_posix()
        offending += [(rel, word) for word in sorted(named) if (rel, word) not in ALLOWED]
    assert offending == []


def test_a_system_declaring_only_price_and_validate_has_every_behaviour():
    """`GameSystem` defaults instead of None: a system that declares nothing else can still be
    asked everything (no summaries, no estimates, the generic cost bound, nothing to clear), and
    a behaviour given as None is the default one, so no caller tests a field for None."""
    from dataclasses import replace

    from rules.systems.generic_cost import generic_cost
    from rules.systems.registry import GameSystem, no_attack

    unit = {"format": 1, "system": "bare", "name": "U", "models": [{"name": "M", "count": 3, "weapons": []}]}
    bare = GameSystem(key="bare", name="Bare", source_language="en", profile_schema={},
                      price=lambda u: {"points": 7, "exact": "7"}, validate=lambda army: [])
    assert not bare.can_attack and not bare.summarises_army and not bare.counts_wounds
    assert bare.army_summary({}) == [] and bare.unit_summary({}, unit) == []
    assert bare.prepare_unit(unit) is unit and bare.situation_errors({"mode": "melee"}) == {}
    assert bare.estimate_cost(unit, unit, {}) == generic_cost(unit, unit, {})
    assert bare.clear_caches() is None and bare.unit_points(unit) == 7 and bare.check(unit) is None
    opr = get_system("opr")
    assert opr.can_attack and replace(opr, attack=None).attack is no_attack
    assert replace(opr, estimate_cost=None).estimate_cost is generic_cost
    # no BattleScribe data and no play mode are objects too: the empty mapping, no states or phases
    assert not bare.maps_battlescribe and bare.battlescribe.editions == ()
    assert bare.battlescribe.is_points("pts")
    assert not bare.playable and bare.play.phases == () and bare.play.phases_of("Shooting phase") == []
    assert opr.playable and not replace(opr, play=None).playable
    mapped = get_system("wh40k9")
    assert mapped.maps_battlescribe and not replace(mapped, battlescribe=None).maps_battlescribe
    # a list job's row: the system's `matrix_row` where it shares work, else cell by cell
    calls = []
    counting = replace(bare, attack=lambda a, d, s: calls.append(d) or {"defender": d})
    assert not counting.computes_rows and counting.row_attack("a", ["x", "y"], {}) == [
        {"defender": "x"}, {"defender": "y"}]
    assert calls == ["x", "y"]
    assert get_system("whfb6").computes_rows and not opr.computes_rows


def test_the_battlescribe_import_names_no_system_or_its_fields():
    """A system's BattleScribe knowledge (cost types, characteristic names, the sizes its Power
    changes at) is its mapping's; the importer and the engine read it from there."""
    words = set(system_words()) - BATTLESCRIBE_WORDS
    offending = []
    for path in battlescribe_import_files():
        named = python_names(path.read_text(encoding="utf-8")) & words
        offending += [(path.relative_to(ROOT).as_posix(), word) for word in sorted(named)]
    assert offending == []


def test_the_battlescribe_check_reads_the_importer_and_the_engine():
    names = {p.relative_to(ROOT).as_posix() for p in battlescribe_import_files()}
    assert {"rules/battlescribe/units/mapper.py", "rules/battlescribe/engine/conditions.py",
            "rules/battlescribe/engine/roster_xml.py", "rules/battlescribe/unit_roster.py",
            "rules/battlescribe/list_roster.py", "rules/battlescribe_import.py"} <= names
