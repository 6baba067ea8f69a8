"""The import report a player reads: the importer's warnings grouped, counted and said in plain
words, translated (`points.catalogue.i18n`: the request's language on a page or in the API).

The importer's warnings name the file and the XML path of every entry (for whoever maintains
the data); a player wants to know what is missing and why: "3 units left out: Archaon, ...
(the catalogue gives them no profile)", "12 options offered always: BattleScribe shows or
hides them depending on the rest of the list". `group_warnings` sorts each warning into one
group by what the importer said (`KINDS`, the first pattern that matches wins) and names the
entries concerned (the last `[@name='...']` of its path, or the unit named before "left out").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from points.catalogue.i18n import _, ngettext

#: Most entry names listed in one line of the report (the count is always complete).
MAX_NAMES = 12

#: (kind, pattern of the importer's message). Order matters: the first match wins.
KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("not_unit", re.compile(r"is not a unit; not imported")),
    ("no_profile", re.compile(r"no complete profile in the data; imported")),
    # what the importer did that the player need not be told again: a model of a unit reported
    # above as having no profile, an ability read into the fields the estimates use
    ("quiet", re.compile(r"imported without characteristics$|imported without a complete profile$|"
                         r"read for the estimates")),
    ("unit_left_out", re.compile(r"left out|; not imported$|; skipped$|no importable units")),
    (
        "price_differs",
        re.compile(r"by BattleScribe at minimum size|only the minimum size is exact|are exact$"),
    ),
    ("offered_always", re.compile(r"offered always")),
    ("not_offered", re.compile(r"not offered")),
    ("rule_text", re.compile(r"is not a rule of this system")),
    ("modifier_text", re.compile(r"modifier of .* is not applied|modifier of a number is not supported")),
    ("limit_text", re.compile(r"limit .* kept as text|is not enforced|raise it|per model")),
    ("cost_type", re.compile(r"cost type .* is not imported")),
    ("guessed", re.compile(r"names no default|took '|the first is used|rounded to|models per selection")),
)

_NAME = re.compile(r"\[@name=(['\"])(.*?)\1\]")


def _texts(kind: str, n: int, names: str) -> str:
    """The line for `n` warnings of `kind` about `names` (one place, so translators see all)."""
    if kind == "unit_left_out":
        return ngettext(
            "%(n)d unit left out (BattleScribe data this site cannot read for it; the rest imported): "
            "%(names)s",
            "%(n)d units left out (BattleScribe data this site cannot read for them; the rest imported): "
            "%(names)s",
            n,
        ) % {"n": n, "names": names}
    if kind == "no_profile":
        return ngettext(
            "%(n)d unit has no profile in its catalogue: imported with its points, options and rules, "
            "but it cannot be estimated: %(names)s",
            "%(n)d units have no profile in their catalogue: imported with their points, options and "
            "rules, but they cannot be estimated: %(names)s",
            n,
        ) % {"n": n, "names": names}
    if kind == "not_unit":
        return ngettext(
            "%(n)d entry of the unit list is not a unit and was not imported: %(names)s",
            "%(n)d entries of the unit list are not units and were not imported: %(names)s",
            n,
        ) % {"n": n, "names": names}
    if kind == "price_differs":
        return ngettext(
            "%(n)d unit is priced exactly only at its smallest size: %(names)s",
            "%(n)d units are priced exactly only at their smallest size: %(names)s",
            n,
        ) % {"n": n, "names": names}
    if kind == "offered_always":
        return ngettext(
            "%(n)d option is offered always, because BattleScribe shows or hides it depending on the "
            "rest of the list: %(names)s",
            "%(n)d options are offered always, because BattleScribe shows or hides them depending on "
            "the rest of the list: %(names)s",
            n,
        ) % {"n": n, "names": names}
    if kind == "not_offered":
        return ngettext(
            "%(n)d option is not offered, because BattleScribe hides it for this unit: %(names)s",
            "%(n)d options are not offered, because BattleScribe hides them for this unit: %(names)s",
            n,
        ) % {"n": n, "names": names}
    if kind == "rule_text":
        return ngettext(
            "%(n)d special rule is not a rule of this system; its text is kept: %(names)s",
            "%(n)d special rules are not rules of this system; their text is kept: %(names)s",
            n,
        ) % {"n": n, "names": names}
    if kind == "modifier_text":
        return ngettext(
            "%(n)d change BattleScribe makes to names, categories or visibility is kept as text: %(names)s",
            "%(n)d changes BattleScribe makes to names, categories or visibility are kept as text: %(names)s",
            n,
        ) % {"n": n, "names": names}
    if kind == "limit_text":
        return ngettext(
            "%(n)d limit is kept as a note, or applies only approximately: %(names)s",
            "%(n)d limits are kept as notes, or apply only approximately: %(names)s",
            n,
        ) % {"n": n, "names": names}
    if kind == "cost_type":
        return ngettext(
            "%(n)d cost type is not a cost of this system and was left out: %(names)s",
            "%(n)d cost types are not costs of this system and were left out: %(names)s",
            n,
        ) % {"n": n, "names": names}
    if kind == "guessed":
        return ngettext(
            "%(n)d choice the data leaves open was made for you (a default, a first profile): %(names)s",
            "%(n)d choices the data leaves open were made for you (a default, a first profile): %(names)s",
            n,
        ) % {"n": n, "names": names}
    return ngettext(
        "%(n)d other detail is kept as text: %(names)s",
        "%(n)d other details are kept as text: %(names)s",
        n,
    ) % {"n": n, "names": names}


def kind_of(warning: str) -> str:
    return next((kind for kind, pattern in KINDS if pattern.search(warning)), "other")


def entry_name(warning: str) -> str:
    """The entry a warning is about: the unit named before "left out", a quoted cost type or
    rule, else the last `[@name=...]` of its path, else its file."""
    left = re.match(r"[^:]+: ([^:\[\]]+): left out", warning)
    if left:
        return left.group(1)
    quoted = re.search(r"(?:cost type|rule) '([^']+)'", warning)
    if quoted:
        return quoted.group(1).strip()
    before = warning.split("]: ", 1)[0] + "]" if "]: " in warning else warning
    names = _NAME.findall(before)
    return names[-1][1] if names else warning.split(":", 1)[0]


def group_warnings(warnings: Iterable[str]) -> list[dict[str, Any]]:
    """`[{"kind", "count", "names", "text"}]`: the warnings grouped, each group counted by the
    distinct entries it concerns, in the order of `KINDS` ("other" last)."""
    groups: dict[str, list[str]] = {}
    for warning in warnings:
        names = groups.setdefault(kind_of(warning), [])
        name = entry_name(warning)
        if name not in names:
            names.append(name)
    order = [kind for kind, _pattern in KINDS] + ["other"]
    report = []
    for kind in order:
        names = groups.get(kind)
        if not names or kind == "quiet":
            continue
        shown = ", ".join(names[:MAX_NAMES])
        if len(names) > MAX_NAMES:
            shown += ", " + _("and %(n)d more") % {"n": len(names) - MAX_NAMES}
        report.append(
            {"kind": kind, "count": len(names), "names": names, "text": _texts(kind, len(names), shown)}
        )
    return report
