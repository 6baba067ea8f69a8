"""Runs the WarHub/battlescribe-spec conformance suite (YAML specs) through the engine.

Each spec sets up a game system and catalogues, performs actions (`addForce`, `selectEntry`,
…) and asserts the roster's expected state after some of them. This module maps the actions
onto `Roster` operations and compares the asserted fields exactly, as the suite's adapter
guide requires (lists are exact sets; errors match on owner and source). The engine emulated
is BattleScribe's: per-engine overrides for "battlescribe" are applied.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..xml_reader import BattleScribeError
from . import info
from .conformance_gamedata import GamedataRunner
from .constraints import validate
from .errors import EngineError, ValidationError
from .model import GameData
from .modifiers import force_hidden
from .roster import Force, Roster, Selection
from .roster_xml import load_roster, write_roster

ENGINE = "battlescribe"
#: The entry id BattleScribe gives a force's bucket of selections without a category.
UNCATEGORISED = "(No Category)"
#: Largest spec file read (the suite's largest is far below this).
MAX_SPEC_BYTES = 4 * 1024 * 1024
_TEMPLATE = re.compile(r"\$\{\{\s*steps\.([^.}\s]+)\.([^}\s]+)\s*\}\}")
#: A placeholder of a saved-file snapshot: a pattern, or a step's output.
_FILE_TEMPLATE = re.compile(r"\$\{\{\s*match\('([^']*)'\)\s*\}\}|\$\{\{\s*steps\.[^}]+\}\}")


class SpecFailure(Exception):
    """The engine's state differs from the spec's expectation (message says where)."""


class Unsupported(SpecFailure):
    """The spec uses an action or setup this engine does not implement."""


@dataclass
class SpecResult:
    id: str
    category: str
    path: str
    passed: bool
    message: str = ""
    skipped_steps: int = 0


@dataclass
class SuiteResult:
    results: list[SpecResult] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def passed(self) -> int:
        return sum(1 for r in self.results if r.passed)

    def by_category(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for r in self.results:
            bucket = out.setdefault(r.category, {"total": 0, "passed": 0})
            bucket["total"] += 1
            bucket["passed"] += int(r.passed)
        return dict(sorted(out.items()))

    def as_json(self) -> dict:
        return {
            "total": self.total,
            "passed": self.passed,
            "failed": [r.id for r in self.results if not r.passed],
            "by_category": self.by_category(),
        }


def spec_files(specs_dir: Path) -> list[Path]:
    return sorted(p for p in Path(specs_dir).rglob("*.yaml") if p.is_file())


def run_suite(specs_dir: Path) -> SuiteResult:
    root = Path(specs_dir)
    suite = SuiteResult()
    for path in spec_files(root):
        suite.results.append(run_spec_file(path, root))
    return suite


def _category(path: Path, root: Path, spec: dict) -> str:
    rel = path.relative_to(root).parts
    if len(rel) >= 3:
        return f"{rel[-3]}/{rel[-2]}"
    if len(rel) == 2:
        return f"{rel[0]}/{spec.get('category', '')}" if rel[0] in ("roster", "gamedata") else rel[0]
    return str(spec.get("category", "uncategorised"))


def run_spec_file(path: Path, root: Path) -> SpecResult:
    try:
        if path.stat().st_size > MAX_SPEC_BYTES:
            raise SpecFailure("spec file too large")
        spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError, SpecFailure) as exc:
        return SpecResult(path.stem, "unreadable", str(path), False, f"cannot read: {exc}")
    if not isinstance(spec, dict):
        return SpecResult(path.stem, "unreadable", str(path), False, "not a mapping")
    spec_id = str(spec.get("id", path.stem))
    category = _category(path, root, spec)
    try:
        setup = spec.get("setup") or {}
        if isinstance(setup, dict) and "edit" in setup:
            runner = GamedataRunner(spec, path, compare, SpecFailure, Unsupported)
            skipped = runner.run(substitute)
        else:
            skipped = SpecRunner(spec, path).run()
    except SpecFailure as exc:
        return SpecResult(spec_id, category, str(path), False, str(exc))
    except (
        EngineError,
        BattleScribeError,
        KeyError,
        ValueError,
        TypeError,
        AttributeError,
        IndexError,
        RecursionError,
        ZeroDivisionError,
    ) as exc:
        return SpecResult(spec_id, category, str(path), False, f"{type(exc).__name__}: {exc}")
    return SpecResult(spec_id, category, str(path), True, skipped_steps=skipped)


def substitute(value, outputs: dict[str, dict]):
    """`value` with each `${{ steps.<id>.<output> }}` replaced by that step's output."""
    if isinstance(value, dict):
        return {k: substitute(v, outputs) for k, v in value.items()}
    if not isinstance(value, str):
        return value

    def repl(match):
        step_id, path = match.group(1), match.group(2)
        out = outputs.get(step_id)
        if out is None:
            raise SpecFailure(f"no output from step {step_id!r}")
        node = out
        for part in path.split("."):
            if not isinstance(node, dict) or part not in node:
                raise SpecFailure(f"step {step_id!r} has no output {path!r}")
            node = node[part]
        return str(node)

    return _TEMPLATE.sub(repl, value)


class SpecRunner:
    def __init__(self, spec: dict, path: Path | None = None):
        self.spec = spec
        self.path = path
        setup = spec.get("setup") or {}
        if "dataSource" in setup:
            raise Unsupported("dataSource specs need files fetched from the network")
        self.data = GameData(setup.get("gameSystem") or {}, setup.get("catalogues") or [])
        self.roster = Roster(self.data, name=str(spec.get("id", "")))
        self.outputs: dict[str, dict] = {}

    # -- steps ---------------------------------------------------------------------------
    def run(self) -> int:
        skipped = 0
        for index, step in enumerate(self.spec.get("steps") or []):
            if ENGINE in (step.get("skipEngines") or []):
                skipped += 1
                continue
            where = f"step {index + 1}"
            if "action" in step:
                self.act(step, where)
            elif "expectedState" in step:
                self.check(step["expectedState"], where)
            elif "expectedFile" in step:
                self.check_file(step, where)
        return skipped

    def check_file(self, step: dict, where: str) -> None:
        """The saved roster against the spec's snapshot, whose `${{ match('re') }}` parts match
        a pattern and `${{ steps.x.y }}` parts a step's output."""
        spec_file = step["expectedFile"] or {}
        expected = ((spec_file.get("engines") or {}).get(ENGINE) or {}).get(
            "content", spec_file.get("content")
        )
        if expected is None and self.path is not None:
            spec_id = str(self.spec.get("id", self.path.stem))
            for name in (f"{spec_id}.{step.get('id')}.{ENGINE}.ros", f"{spec_id}.{step.get('id')}.ros"):
                candidate = self.path.parent / name
                if candidate.is_file():
                    expected = candidate.read_text(encoding="utf-8")
                    break
        if expected is None:
            raise SpecFailure(f"{where}: no expected file for step {step.get('id')!r}")
        actual = write_roster(self.roster).rstrip("\n")
        pattern = []
        rest = expected.replace("\r\n", "\n").rstrip("\n")
        pos = 0
        for match in _FILE_TEMPLATE.finditer(rest):
            pattern.append(re.escape(rest[pos : match.start()]))
            if match.group(1) is not None:
                pattern.append(f"(?:{match.group(1)})")
            else:
                pattern.append(re.escape(self._sub(match.group(0))))
            pos = match.end()
        pattern.append(re.escape(rest[pos:]))
        if re.fullmatch("".join(pattern), actual) is None:
            want = [line.strip() for line in rest.splitlines()]
            have = [line.strip() for line in actual.splitlines()]
            diff = next(
                (f"{a!r} vs expected {e!r}" for a, e in zip(have, want, strict=False) if a != e), "lengths"
            )
            raise SpecFailure(f"{where}: saved roster differs: {diff}")

    def _sub(self, value):
        return substitute(value, self.outputs)

    def act(self, step: dict, where: str) -> None:
        args = {k: self._sub(v) for k, v in step.items()}
        override = (step.get("engines") or {}).get(ENGINE) or {}
        args.update({k: self._sub(v) for k, v in override.items()})
        action = args["action"]
        roster = self.roster
        out: dict = {}
        if action in ("addForce", "addChildForce"):
            parent = roster.find_force(args["forceId"]) if action == "addChildForce" else None
            force = roster.add_force(args["forceEntryId"], args.get("catalogueId"), parent)
            out = {"forceId": force.id, "selections": {s.option.defn.id: s.id for s in force.descendants()}}
            for s in force.descendants():
                out["selections"].setdefault(s.option.key, s.id)
        elif action == "removeForce":
            roster.remove_force(roster.find_force(args["forceId"]))
        elif action == "duplicateForce":
            out = {"forceId": roster.duplicate_force(roster.find_force(args["forceId"])).id}
        elif action == "selectEntry":
            force = roster.find_force(args["forceId"])
            sel = roster.select_entry(force, args["entryId"])
            out = self._selection_output(sel, force)
        elif action == "selectChildEntry":
            parent = roster.find_selection(args["selectionId"])
            sel = roster.select_child(parent, args["entryId"])
            out = self._selection_output(sel, parent.force)
        elif action == "deselectSelection":
            roster.deselect(roster.find_selection(args["selectionId"]))
        elif action == "setSelectionCount":
            roster.set_count(roster.find_selection(args["selectionId"]), int(args["count"]))
        elif action == "duplicateSelection":
            sel = roster.duplicate(roster.find_selection(args["selectionId"]))
            out = self._selection_output(sel, sel.force)
        elif action == "setCostLimit":
            roster.set_cost_limit(args["costTypeId"], float(args["value"]))
        elif action == "setCustomization":
            self._customize(args)
        elif action in ("reload", "dump"):
            pass
        elif action == "loadRoster":
            self.roster = load_roster(self.data, str(args.get("content") or args.get("xml") or ""))
        else:
            raise Unsupported(f"{where}: action {action!r} is not supported")
        if step.get("id"):
            self.outputs[step["id"]] = out

    @staticmethod
    def _selection_output(sel: Selection, force: Force) -> dict:
        return {
            "selectionId": sel.id,
            "forceId": force.id,
            "selections": {s.option.defn.id: s.id for s in [sel, *sel.descendants()]},
        }

    def _customize(self, args: dict) -> None:
        roster = self.roster
        if args.get("selectionId"):
            target = roster.find_selection(args["selectionId"])
        elif args.get("categoryEntryId"):
            force = roster.find_force(args["forceId"])
            key = ("category-custom", force.id, args["categoryEntryId"])
            target = roster.custom.setdefault(key, _Custom()) if hasattr(roster, "custom") else None
            if target is None:
                roster.custom = {}
                target = roster.custom.setdefault(key, _Custom())
        elif args.get("forceId"):
            target = roster.find_force(args["forceId"])
        else:
            target = roster
        if "customName" in args:
            target.custom_name = args["customName"]
        if "customNotes" in args:
            target.custom_notes = args["customNotes"]
        roster.touch()

    # -- expectations --------------------------------------------------------------------
    def check(self, expected: dict, where: str) -> None:
        incremental = snapshot(self.roster)
        self.roster.full_reevaluation()
        if snapshot(self.roster) != incremental:
            raise SpecFailure(f"{where}: the incremental evaluation differs from a full re-evaluation")
        expected = dict(expected)
        override = (expected.pop("engines", None) or {}).get(ENGINE)
        if override:
            expected.update(override)
        state = RosterState(self.roster)
        for key, value in expected.items():
            if key in ("errors", "errorsContain", "errorCount"):
                continue
            actual = state.get(key)
            compare(actual, value, f"{where}: {key}")
        errors = validate(self.roster)
        if "errorCount" in expected:
            if len(errors) != expected["errorCount"]:
                raise SpecFailure(
                    f"{where}: {len(errors)} errors, expected {expected['errorCount']}: {_describe(errors)}"
                )
        elif "errorsContain" in expected:
            for assertion in expected["errorsContain"] or []:
                if not any(_error_matches(e, assertion) for e in errors):
                    raise SpecFailure(f"{where}: missing error {assertion}; have {_describe(errors)}")
        else:
            wanted = list(expected.get("errors") or [])
            remaining = list(errors)
            for assertion in wanted:
                hit = next((e for e in remaining if _error_matches(e, assertion)), None)
                if hit is None:
                    raise SpecFailure(f"{where}: missing error {assertion}; have {_describe(errors)}")
                remaining.remove(hit)
            if remaining:
                raise SpecFailure(f"{where}: unexpected errors {_describe(remaining)}")


def snapshot(roster: Roster) -> tuple:
    """Everything evaluated about a roster, as plain values (to compare two evaluations)."""

    def sel_state(sel: Selection) -> tuple:
        eff = sel.effective()
        return (
            sel.id,
            eff.name,
            eff.hidden,
            sel.number,
            tuple(sorted(eff.costs.items())),
            tuple(eff.categories),
            tuple(sorted(eff.constraint_values.items())),
            tuple(sel_state(c) for c in sel.children),
        )

    forces = tuple((f.id, tuple(sel_state(s) for s in f.selections)) for f in roster.all_forces())
    errors = tuple(sorted((e.owner_type, e.owner_id, e.source, e.message) for e in validate(roster)))
    return forces, tuple(sorted(roster.costs().items())), errors


class _Custom:
    custom_name = ""
    custom_notes = ""


def _describe(errors: list[ValidationError]) -> str:
    return "[" + ", ".join(f"{e.owner_type} {e.owner_id} <- {e.source}" for e in errors) + "]"


def _error_matches(error: ValidationError, assertion: dict) -> bool:
    # YAML 1.1 reads the bare key `on` as the boolean True.
    on = str(assertion.get("on", assertion.get(True, ""))).split(None, 1)
    if not on or on[0] != error.owner_type:
        return False
    if len(on) == 2 and on[1] != error.owner_id and on[1] not in error.owner_ids:
        return False
    if str(assertion.get("from", "")) != error.source:
        return False
    text = assertion.get("messageContains")
    return not text or str(text).lower() in error.message.lower()


def compare(actual, expected, where: str) -> None:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            raise SpecFailure(f"{where}: expected an object, have {actual!r}")
        for key, value in expected.items():
            if key not in actual:
                raise SpecFailure(f"{where}.{key}: not reported by the engine")
            compare(actual[key], value, f"{where}.{key}")
        return
    if isinstance(expected, list):
        if not isinstance(actual, list):
            raise SpecFailure(f"{where}: expected a list, have {actual!r}")
        if len(actual) != len(expected):
            raise SpecFailure(
                f"{where}: {len(actual)} items, expected {len(expected)}: {[_label(a) for a in actual]}"
            )
        try:
            for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
                compare(a, e, f"{where}[{i}]")
            return
        except SpecFailure as ordered_failure:
            # As a set: every expected item matched by a different actual item (a matching
            # found by backtracking, since a loose expectation may fit several items).
            fits = [[i for i, a in enumerate(actual) if _fits(a, e, where)] for e in expected]
            if _assign(fits, 0, set()):
                return
            raise ordered_failure from None
    if isinstance(expected, bool) or isinstance(actual, bool):
        if bool(actual) != bool(expected) or not isinstance(actual, bool):
            raise SpecFailure(f"{where}: {actual!r}, expected {expected!r}")
        return
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        if abs(float(actual) - float(expected)) > 1e-9:
            raise SpecFailure(f"{where}: {actual!r}, expected {expected!r}")
        return
    if str(actual) != str(expected):
        raise SpecFailure(f"{where}: {actual!r}, expected {expected!r}")


def _fits(actual, expected, where: str) -> bool:
    try:
        compare(actual, expected, where)
    except SpecFailure:
        return False
    return True


def _assign(fits: list[list[int]], index: int, used: set[int]) -> bool:
    """Whether expected items from `index` on can each take a distinct fitting actual item."""
    if index == len(fits):
        return True
    for candidate in fits[index]:
        if candidate not in used:
            used.add(candidate)
            if _assign(fits, index + 1, used):
                return True
            used.discard(candidate)
    return False


def _label(item) -> str:
    if isinstance(item, dict):
        return str(item.get("name", item.get("typeId", "?")))
    return repr(item)


class LazyDict(dict):
    """A dict whose values are computed on first read (the engine state is large)."""

    def __init__(self, getters: dict):
        super().__init__()
        self._getters = getters

    def __contains__(self, key) -> bool:
        return key in self._getters

    def __getitem__(self, key):
        if not dict.__contains__(self, key):
            dict.__setitem__(self, key, self._getters[key]())
        return dict.__getitem__(self, key)


def _fmt_cost(value: float):
    return int(value) if float(value).is_integer() else value


class RosterState:
    """The roster in the suite's expected-state vocabulary."""

    def __init__(self, roster: Roster):
        self.roster = roster
        data = roster.data
        self.fields = LazyDict(
            {
                "name": lambda: roster.name,
                "forceCount": lambda: len(roster.forces),
                "selectionCount": lambda: len(roster.all_selections()),
                "forces": lambda: [self.force(f) for f in roster.forces],
                "costs": self._costs,
                "costCount": lambda: len(data.cost_types),
                "costLimits": lambda: [
                    {"name": self._cost_name(k), "typeId": k, "value": v}
                    for k, v in roster.cost_limits.items()
                ],
                "costLimitCount": lambda: len(roster.cost_limits),
                "gameSystemName": lambda: data.name,
                "gameSystemId": lambda: data.id,
            }
        )

    def _costs(self) -> list[dict]:
        """Totals of the cost types the data prices (BattleScribe lists only those)."""
        roster = self.roster
        used = set(roster.data.priced_cost_types)
        for sel in roster.all_selections():
            used.update(sel.effective().costs)
        totals = roster.costs()
        return [
            {"name": c.name, "typeId": c.id, "value": totals[c.id], "hidden": c.hidden}
            for c in roster.data.cost_types
            if c.id in used
        ]

    def get(self, key):
        return self.fields[key] if key in self.fields else None  # noqa: SIM401 (LazyDict computes on read)

    def _cost_name(self, type_id: str) -> str:
        return next((c.name for c in self.roster.data.cost_types if c.id == type_id), type_id)

    def force(self, force: Force) -> LazyDict:
        roster = self.roster
        data = roster.data
        cat = data.catalogues.get(force.catalogue_id)
        custom = getattr(roster, "custom", {})

        def categories():
            # BattleScribe lists a force's "Uncategorised" bucket first, always.
            out = [{"name": "Uncategorised", "entryId": UNCATEGORISED, "primary": False}]
            for cid, name in force.category_entries():
                c = custom.get(("category-custom", force.id, cid))
                item = {"name": name, "entryId": cid, "primary": False}
                if c is not None:
                    item.update(customName=c.custom_name, customNotes=c.custom_notes)
                out.append(item)
            return out

        def available():
            from .modifiers import effective
            from .roster import _flatten

            ctx = force.context()
            return sum(1 for o in _flatten(force.root_options()) if not effective(o, ctx).hidden)

        return LazyDict(
            {
                "name": lambda: force.entry.name,
                "entryId": lambda: force.entry.id,
                "selectionCount": lambda: len(force.selections),
                "selections": lambda: [self.selection(s) for s in force.selections],
                "childForceCount": lambda: len(force.child_forces),
                "childForces": lambda: [self.force(f) for f in force.child_forces],
                "hidden": lambda: force_hidden(force),
                "categories": categories,
                "categoryCount": lambda: len(force.category_entries()) + 1,
                "catalogueId": lambda: force.catalogue_id,
                "catalogueName": lambda: cat.name if cat else "",
                "customName": lambda: force.custom_name,
                "customNotes": lambda: force.custom_notes,
                "availableEntryCount": available,
                "publicationId": lambda: force.entry.publication_id,
                "publications": lambda: [
                    {"id": str(p.get("id", "")), "name": str(p.get("name", ""))}
                    for p in data.publications_for(force.catalogue_id)
                ],
                "page": lambda: force.entry.page,
                "rules": lambda: [_rule(r) for r in force.entry.rules],
                "profiles": lambda: [_profile(p) for p in force.entry.profiles],
            }
        )

    def selection(self, sel: Selection) -> LazyDict:
        data = self.roster.data

        def costs():
            eff = sel.effective()
            return [
                {"name": c.name, "typeId": c.id, "value": eff.costs.get(c.id, 0.0) * sel.number}
                for c in data.cost_types
            ]

        def categories():
            return [
                {"name": data.category_name(cid) or _link_name(sel, cid), "entryId": cid, "primary": primary}
                for cid, primary in sel.effective().categories
            ]

        defn = sel.option.defn
        return LazyDict(
            {
                "name": lambda: sel.effective().name,
                "type": lambda: sel.option.type,
                "number": lambda: sel.number,
                "hidden": lambda: sel.effective().hidden,
                "costs": costs,
                "children": lambda: [self.selection(c) for c in sel.children],
                "childCount": lambda: len(sel.children),
                "categories": categories,
                "entryId": lambda: sel.option.key,
                "entryGroupId": lambda: sel.entry_group_id,
                "customName": lambda: sel.custom_name,
                "customNotes": lambda: sel.custom_notes,
                "page": lambda: (
                    sel.effective().page
                    if sel.effective().page is not None
                    else sel.option.link.page
                    if sel.option.link and sel.option.link.page
                    else defn.page
                ),
                "publicationId": lambda: defn.publication_id,
                "publicationName": lambda: data.publication_name(defn.publication_id),
                "rules": lambda: [_rule(r) for r in info.collect(sel)[0]],
                "profiles": lambda: [_profile(p) for p in info.collect(sel)[1]],
            }
        )


def _link_name(sel: Selection, cid: str) -> str:
    return next((link.name for link in sel.option.category_links if link.target_id == cid), "")


def _rule(raw: dict) -> dict:
    return {
        "name": raw.get("name", ""),
        "description": raw.get("description", ""),
        "hidden": bool(raw.get("hidden", False)),
        "page": str(raw.get("page", "") or ""),
        "publicationId": raw.get("publicationId", ""),
    }


def _profile(raw: dict) -> dict:
    return {
        "name": raw.get("name", ""),
        "typeId": raw.get("typeId", ""),
        "typeName": raw.get("typeName", ""),
        "hidden": bool(raw.get("hidden", False)),
        "page": str(raw.get("page", "") or ""),
        "publicationId": raw.get("publicationId", ""),
        "characteristics": [
            {"name": c.get("name"), "typeId": c.get("typeId"), "value": str(c.get("value", ""))}
            for c in raw.get("characteristics") or []
        ],
    }
