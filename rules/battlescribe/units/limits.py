"""The bounds of one unit's mapping: how many models an option adds, how many sizes are priced."""

#: Largest model count an add-models option offers (a unit without a max gets none).
MAX_OPTION_COUNT = 1000
#: Most unit sizes examined when deriving Power steps and checking per-model points.
MAX_SIZE_SWEEP = 100
#: The most sizes of a unit sized by a numbered selection priced one by one (BattleScribe's
#: price at each count); beyond them a unit is priced at its first step.
MAX_SIZE_PRICES = 40
#: Models an add-models option offers beyond the minimum when BattleScribe sets no maximum
#: (community WHFB data writes `max -1` on rank-and-file models).
UNBOUNDED_GROWTH = 100
#: Unit sizes above the minimum at which an option's price is compared to find per-model costs
#: (one step and a later, odd one, so "+1 per 5 models" steps are not taken for per-model).
PER_MODEL_PROBES = (1, 7)
STATIC_CONDITIONS = ("instanceOf", "notInstanceOf")


def limits_nothing(constraint_type: str, value: float) -> bool:
    """Whether a limit as written bounds nothing: a maximum below 0 (BattleScribe's -1, "no
    limit") or a minimum of 0 or less, which the engine never reports broken
    (`engine.constraints._violated`). BattleScribe 2 writes such limits when it converts a 1.x
    file, on every shared entry group and where a modifier changes one; a note of "max -1 per
    roster" would only puzzle a player."""
    return (constraint_type == "max" and value < 0) or (constraint_type == "min" and value <= 0)
