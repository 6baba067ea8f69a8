"""Options written into a loaded catalogue for a test, where the bundled data has none of
the kind the test needs (the bundled data is kept valid by its own tests)."""

from __future__ import annotations

from rules.models import UnitTemplate, UpgradeOption

#: The rotary autogun the Ashguard once carried (24", A4, AP1): 87 pts of weapons on a model
#: whose base cost is 17.16 pts, over the 5× that OPR §7.4 allows (85.8 pts).
OVERCHARGED_AUTOGUN = {"name": "Overcharged Autogun", "range": 24, "attacks": 4, "ap": 1}


def add_overweight_heavy_weapon(
    *, faction: str = "ashen-concord", unit: str = "ashguard-veterans"
) -> UpgradeOption:
    """Offer the Ashguard Veterans (of a loaded catalogue) one more heavy weapon, which breaks
    OPR §7.4 (`docs/rules/opr-points.md`): a model's weapons at most 5× its base cost. It
    joins the unit's pick-one "Heavy weapon" group, after the bundled options."""
    template = UnitTemplate.objects.get(faction__slug=faction, faction__owner__isnull=True, slug=unit)
    return UpgradeOption.objects.create(
        unit=template,
        key="overcharged-autogun",
        group="Heavy weapon",
        label="One Ashguard replaces the Arc Carbine with an Overcharged Autogun",
        kind=UpgradeOption.Kind.REPLACE_WEAPON,
        applies_to="Ashguard",
        payload={"replace": "Arc Carbine", "with": OVERCHARGED_AUTOGUN},
        max_count=1,
        position=template.options.count(),
    )
