"""Rules and profiles a selection shows: its own, its info groups' and its info links' targets,
after their modifiers (description, name, characteristics, hidden); hidden ones are left out."""

from __future__ import annotations

from .conditions import guards_hold, modifier_times
from .model import parse_modifiers
from .roster import Selection


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _apply_text(current: str, kind: str, value: str, times: int) -> str:
    for _ in range(times):
        if kind == "set":
            current = value
        elif kind == "append":
            current = f"{current} {value}" if current else value
        elif kind == "prepend":
            current = f"{value} {current}" if current else value
        elif kind in ("increment", "decrement"):
            a, b = _number(current), _number(value)
            if a is None or b is None:
                return current
            current = _fmt(a + b if kind == "increment" else a - b)
    return current


def _modified(raw: dict, extra_modifier_sources: list[dict], sel: Selection) -> dict:
    """A copy of a rule/profile dict with the modifiers of itself and of its link applied."""
    item = {
        "name": raw.get("name", ""),
        "description": raw.get("description", ""),
        "hidden": str(raw.get("hidden", False)).lower() == "true",
        "page": str(raw.get("page", "") or ""),
        "publicationId": raw.get("publicationId", "") or "",
        "typeId": raw.get("typeId", ""),
        "typeName": raw.get("typeName", ""),
        "characteristics": [dict(c) for c in raw.get("characteristics") or []],
    }
    ctx = sel.context()
    for source in [raw, *extra_modifier_sources]:
        for mod in parse_modifiers(source):
            if not guards_hold(ctx, mod.guards):
                continue
            times = modifier_times(ctx, mod)
            if times <= 0:
                continue
            if mod.field == "hidden":
                item["hidden"] = mod.value.strip().lower() == "true" if mod.type == "set" else True
            elif mod.field in ("name", "description", "page"):
                item[mod.field] = _apply_text(str(item[mod.field]), mod.type, mod.value, times)
            else:
                for ch in item["characteristics"]:
                    if mod.field in (ch.get("typeId"), ch.get("name")):
                        ch["value"] = _apply_text(str(ch.get("value", "")), mod.type, mod.value, times)
    return item


def collect(sel: Selection) -> tuple[list[dict], list[dict]]:
    """(rules, profiles) of a selection, visible ones only, in BattleScribe's order."""
    return sel.roster.cache.get(("info", id(sel)), lambda: _collect(sel), (sel.bucket,))


def _collect(sel: Selection) -> tuple[list[dict], list[dict]]:
    data = sel.roster.data
    rules: list[dict] = []
    profiles: list[dict] = []

    def walk(holder: dict, depth: int = 0) -> None:
        if depth > 16:
            return
        for r in holder.get("rules") or []:
            rules.append(_modified(r, [], sel))
        for p in holder.get("profiles") or []:
            profiles.append(_modified(p, [], sel))
        for group in holder.get("infoGroups") or []:
            if not _hidden(group, sel):
                walk(group, depth + 1)
        for link in holder.get("infoLinks") or []:
            target = data.shared_infos.get(str(link.get("targetId")))
            if target is None:
                continue
            kind = link.get("type", "")
            if kind == "infoGroup" or (not kind and ("profiles" in target or "infoLinks" in target)):
                if not _hidden(target, sel, [link]):
                    walk(target, depth + 1)
            elif kind == "profile" or (not kind and "typeId" in target):
                profiles.append(_modified(target, [link], sel))
            else:
                rules.append(_modified(target, [link], sel))

    for d in [sel.option.defn] if sel.option.link is None else [sel.option.defn, sel.option.link]:
        walk(
            {"rules": d.rules, "profiles": d.profiles, "infoLinks": d.info_links, "infoGroups": d.info_groups}
        )
    return ([r for r in rules if not r["hidden"]], [p for p in profiles if not p["hidden"]])


def _hidden(raw: dict, sel: Selection, links: list[dict] = ()) -> bool:
    return _modified(raw, list(links), sel)["hidden"]
