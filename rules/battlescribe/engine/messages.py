"""The engine's errors in a player's words: message templates and the function that fills them.

The engine stays free of Django, so it does not translate. Each roster error carries a `code`
and `params` (`errors.ValidationError`), each data error a `code` and a value
(`gamedata_checks.DataError`); the templates here are English, marked with `gettext_noop`
so that makemessages collects them, and `render` fills one in after the caller's `translate`
(Django's `gettext` in the layer that shows the message) has put it in the reader's language.
They name the unit, option or army and the rule — never an XPath or an id of the data's own
making, except in data errors, which are for whoever edits the data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .errors import ValidationError
from .gamedata_checks import DataError


def gettext_noop(message: str) -> str:
    """`message` unchanged, marked for makemessages (the caller translates it when shown)."""
    return message


#: Roster errors by (code, who breaks the rule: an "owner", the whole "army", or the counted
#: entry itself ("self": a limit on its own copies)).
ROSTER_TEMPLATES: dict[tuple[str, str], str] = {
    ("selections-min", "owner"): gettext_noop(
        "%(owner)s needs at least %(limit)s × %(entry)s (has %(count)s)."
    ),
    ("selections-max", "owner"): gettext_noop(
        "%(owner)s may take at most %(limit)s × %(entry)s (has %(count)s)."
    ),
    ("selections-exactly", "owner"): gettext_noop(
        "%(owner)s needs exactly %(limit)s × %(entry)s (has %(count)s)."
    ),
    ("selections-min", "army"): gettext_noop(
        "The army needs at least %(limit)s × %(entry)s (has %(count)s)."
    ),
    ("selections-max", "army"): gettext_noop(
        "The army may take at most %(limit)s × %(entry)s (has %(count)s)."
    ),
    ("selections-exactly", "army"): gettext_noop(
        "The army needs exactly %(limit)s × %(entry)s (has %(count)s)."
    ),
    ("selections-min", "self"): gettext_noop("At least %(limit)s × %(entry)s needed (has %(count)s)."),
    ("selections-max", "self"): gettext_noop("At most %(limit)s × %(entry)s allowed (has %(count)s)."),
    ("selections-exactly", "self"): gettext_noop("Exactly %(limit)s × %(entry)s needed (has %(count)s)."),
    ("cost-min", "owner"): gettext_noop(
        "%(owner)s must spend at least %(limit)s %(cost)s on %(entry)s (spends %(count)s)."
    ),
    ("cost-max", "owner"): gettext_noop(
        "%(owner)s may spend at most %(limit)s %(cost)s on %(entry)s (spends %(count)s)."
    ),
    ("cost-exactly", "owner"): gettext_noop(
        "%(owner)s must spend exactly %(limit)s %(cost)s on %(entry)s (spends %(count)s)."
    ),
    ("cost-min", "army"): gettext_noop(
        "The army must spend at least %(limit)s %(cost)s on %(entry)s (spends %(count)s)."
    ),
    ("cost-max", "army"): gettext_noop(
        "The army may spend at most %(limit)s %(cost)s on %(entry)s (spends %(count)s)."
    ),
    ("cost-exactly", "army"): gettext_noop(
        "The army must spend exactly %(limit)s %(cost)s on %(entry)s (spends %(count)s)."
    ),
    ("cost-limit", "army"): gettext_noop("The army costs %(count)s %(entry)s, over its limit of %(limit)s."),
    ("hidden", "owner"): gettext_noop("%(entry)s is not available here."),
}
#: Data errors by code (for whoever edits a catalogue).
DATA_TEMPLATES: dict[str, str] = {
    "duplicate-id": gettext_noop("The id “%(value)s” is used by more than one element of the data."),
    "broken-link": gettext_noop("A link points at “%(value)s”, which is not in the data."),
    "bad-scope": gettext_noop(
        "A limit or condition counts in “%(value)s”, which is neither a scope nor an entry."
    ),
    "bad-field": gettext_noop(
        "A limit, condition or modifier names the field “%(value)s”, which does not exist."
    ),
    "bad-child": gettext_noop("A condition counts “%(value)s”, which is not an entry of the data."),
    "bad-type": gettext_noop("A modifier of type “%(value)s” cannot change its field."),
}


def _identity(message: str) -> str:
    return message


def template_for(error: ValidationError) -> str:
    """The English template of a roster error (forces count like selections do)."""
    code = error.code.replace("forces-", "selections-")
    if code == "hidden":
        return ROSTER_TEMPLATES[("hidden", "owner")]
    who = "army" if error.owner_type == "roster" or code == "cost-limit" else "owner"
    if who == "owner" and code.startswith("selections-") and error.owner_name in ("", error.entry_name):
        # A limit on the entry's own copies (or a category counting itself): no owner to name.
        who = "self"
    return ROSTER_TEMPLATES.get((code, who)) or ROSTER_TEMPLATES[("selections-max", who)]


def render(
    error: ValidationError,
    translate: Callable[[str], str] = _identity,
    cost_names: Mapping[str, str] | None = None,
) -> str:
    """A roster error as a sentence in the language `translate` gives (English by default);
    `cost_names` names cost types by id ("pts", "Power")."""
    params = dict(error.params)
    params["cost"] = (cost_names or {}).get(params["cost"], params["cost"])
    if not params["owner"]:
        params["owner"] = params["entry"]
    return translate(template_for(error)) % params


def data_code(error: DataError) -> str:
    """The template key of a data error (`constraint-bad-scope` -> `bad-scope`)."""
    if error.code.startswith("broken-"):
        return "broken-link"
    for suffix in ("bad-scope", "bad-field", "bad-child", "bad-type"):
        if error.code.endswith(suffix):
            return suffix
    return error.code


def render_data_error(error: DataError, translate: Callable[[str], str] = _identity) -> str:
    """A data error as a sentence in the language `translate` gives."""
    template = DATA_TEMPLATES.get(data_code(error), DATA_TEMPLATES["bad-field"])
    return translate(template) % {"value": error.value}
