# ruff: noqa: E501  (XML test data is clearer on one line per element)
"""A generated BattleScribe game system and catalogue of any size (for the benchmark and the
large-import test): every unit has two model entries, a weapon group with a default and
alternatives, optional upgrades, rules, a Power modifier and some ability text."""

from __future__ import annotations

from xml.sax.saxutils import escape

NS_SYSTEM = "http://www.battlescribe.net/schema/gameSystemSchema"
NS_CATALOGUE = "http://www.battlescribe.net/schema/catalogueSchema"
UNIT_CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "A", "Ld", "Save")
WEAPON_CHARACTERISTICS = ("Range", "Type", "S", "AP", "D", "Abilities")


def game_system() -> bytes:
    chars = "".join(f'<characteristicType id="c-{c}" name="{c}"/>' for c in UNIT_CHARACTERISTICS)
    weapon = "".join(f'<characteristicType id="w-{c}" name="{c}"/>' for c in WEAPON_CHARACTERISTICS)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><gameSystem id="gen-sys" name="Generated" revision="1" '
        f'battleScribeVersion="2.03" xmlns="{NS_SYSTEM}"><costTypes><costType id="pts" name="pts" '
        f'defaultCostLimit="-1.0"/><costType id="pl" name=" PL" defaultCostLimit="-1.0"/></costTypes>'
        f'<profileTypes><profileType id="pt-unit" name="Unit"><characteristicTypes>{chars}'
        f'</characteristicTypes></profileType><profileType id="pt-weapon" name="Weapon"><characteristicTypes>'
        f'{weapon}</characteristicTypes></profileType><profileType id="pt-ab" name="Abilities">'
        f'<characteristicTypes><characteristicType id="a-d" name="Description"/></characteristicTypes>'
        f'</profileType></profileTypes><categoryEntries><categoryEntry id="cat-tr" name="Troops"/>'
        f'<categoryEntry id="cat-el" name="Elites"/></categoryEntries></gameSystem>'
    ).encode()


def _profile(pid: str, name: str, n: int) -> str:
    values = (6, f"{3 + n % 3}+", f"{3 + n % 3}+", 4, 4, 1 + n % 3, 1 + n % 4, 7, f"{2 + n % 4}+")
    chars = "".join(
        f'<characteristic name="{c}" typeId="c-{c}">{v}</characteristic>'
        for c, v in zip(UNIT_CHARACTERISTICS, values, strict=True)
    )
    return f'<profile id="{pid}" name="{escape(name)}" typeId="pt-unit" typeName="Unit"><characteristics>{chars}</characteristics></profile>'


def _weapon(wid: str, name: str, n: int, text: str) -> str:
    values = (f'{12 + 6 * (n % 4)}"', f"Rapid Fire {1 + n % 2}", 3 + n % 5, -(n % 3), 1 + n % 2, text)
    chars = "".join(
        f'<characteristic name="{c}" typeId="w-{c}">{escape(str(v))}</characteristic>'
        for c, v in zip(WEAPON_CHARACTERISTICS, values, strict=True)
    )
    return (
        f'<selectionEntry id="{wid}" name="{escape(name)}" type="upgrade"><profiles><profile id="{wid}-p" '
        f'name="{escape(name)}" typeId="pt-weapon" typeName="Weapon"><characteristics>{chars}'
        f"</characteristics></profile></profiles>"
    )


def _constraint(cid: str, kind: str, value: int) -> str:
    return f'<constraint id="{cid}" type="{kind}" field="selections" scope="parent" value="{value}.0"/>'


def _cost(points: float, power: int = 0) -> str:
    return f'<costs><cost name="pts" typeId="pts" value="{points}"/><cost name=" PL" typeId="pl" value="{power}"/></costs>'


def unit(i: int, padding: int) -> str:
    u = f"u{i}"
    text = ("Generated ability text for the benchmark. " * padding)[: 41 * padding]
    weapons = "".join(
        _weapon(f"{u}-w{k}", f"Gun {i}-{k}", i + k, f"weapon rule {k}")
        + _constraint(f"{u}-w{k}-x", "max", 1).join(["<constraints>", "</constraints>"])
        + _cost(5 * k)
        + "</selectionEntry>"
        for k in range(4)
    )
    group = (
        f'<selectionEntryGroups><selectionEntryGroup id="{u}-g" name="Weapon" defaultSelectionEntryId="{u}-w0">'
        f"<constraints>{_constraint(u + '-g-min', 'min', 1)}{_constraint(u + '-g-max', 'max', 1)}</constraints>"
        f"<selectionEntries>{weapons}</selectionEntries></selectionEntryGroup></selectionEntryGroups>"
    )
    trooper = (
        f'<selectionEntry id="{u}-m" name="Trooper {i}" type="model"><profiles>{_profile(u + "-mp", f"Trooper {i}", i)}'
        f"</profiles><constraints>{_constraint(u + '-m-min', 'min', 4)}{_constraint(u + '-m-max', 'max', 9)}"
        f"</constraints>{group}{_cost(10 + i % 7)}</selectionEntry>"
    )
    upgrades = "".join(
        _weapon(f"{u}-l{k}", f"Blade {i}-{k}", i + k, "-")
        + f"<constraints>{_constraint(u + f'-l{k}-max', 'max', 1)}"
        f"</constraints>{_cost(3 + k)}</selectionEntry>"
        for k in range(2)
    )
    leader = (
        f'<selectionEntry id="{u}-s" name="Leader {i}" type="model"><profiles>{_profile(u + "-sp", f"Leader {i}", i + 1)}'
        f'<profile id="{u}-ab" name="Ability {i}" typeId="pt-ab" typeName="Abilities"><characteristics>'
        f'<characteristic name="Description" typeId="a-d">{text}</characteristic></characteristics></profile>'
        f"</profiles><constraints>{_constraint(u + '-s-min', 'min', 1)}{_constraint(u + '-s-max', 'max', 1)}"
        f"</constraints><selectionEntries>{upgrades}</selectionEntries>{_cost(20 + i % 5)}</selectionEntry>"
    )
    power = (
        f'<modifiers><modifier type="increment" field="pl" value="3"><conditions><condition type="greaterThan" '
        f'field="selections" scope="self" value="6" childId="{u}-m" includeChildSelections="true"/>'
        f"</conditions></modifier></modifiers>"
    )
    category = "cat-tr" if i % 2 else "cat-el"
    return (
        f'<selectionEntry id="{u}" name="Squad {i}" type="unit"><categoryLinks><categoryLink id="{u}-c" '
        f'targetId="{category}" primary="true"/></categoryLinks>{power}<selectionEntries>{trooper}{leader}'
        f"</selectionEntries>{_cost(0, 4 + i % 3)}</selectionEntry>"
    )


def catalogue(units: int, padding: int = 48) -> bytes:
    """A catalogue of `units` units; `padding` sets the ability text (about 2 kB each at 48: 300 units make 3 MB)."""
    body = "".join(unit(i, padding) for i in range(units))
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><catalogue id="gen-cat" name="Generated Army" revision="1" '
        f'battleScribeVersion="2.03" gameSystemId="gen-sys" gameSystemRevision="1" xmlns="{NS_CATALOGUE}">'
        f"<selectionEntries>{body}</selectionEntries></catalogue>"
    ).encode()


def expected_points(i: int) -> int:
    """Unit i at its minimum: 4 troopers (default gun costs 0) + 1 leader."""
    return 4 * (10 + i % 7) + 20 + i % 5
