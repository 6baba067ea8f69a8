"""The benchmark measures what issue 3 asks: a 10-model, 3-weapon unit and a 25-unit, 2000-point list.

(Only the inputs are checked here; the timings are printed by `bench/bench_points.py`, not asserted.)
"""

import importlib.util
from pathlib import Path

from points.opr import price

BENCH = Path(__file__).resolve().parents[3] / "bench" / "bench_points.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_points", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_unit_has_ten_models_with_three_weapons():
    unit = load_bench().bench_unit()
    assert unit.model_count == 10
    assert all(len(m.weapons) == 3 for m in unit.models)


def test_bench_list_has_25_units_near_2000_points():
    bench = load_bench()
    army = bench.bench_army()
    assert len(army.units) == 25 and army.points_limit == 2000
    total = sum(price(e.unit).points for e in army.units)
    assert 1800 <= total <= 2000
    renamed = bench.renamed(army.units[0].unit, 1)
    assert price(renamed).exact == price(army.units[0].unit).exact


def test_random_and_rule_rich_units_are_valid_new_and_priced_alike_by_the_reference():
    """The cold figure's units: each a valid document of its own (the fast reader takes it), rule-rich
    ones with six or more rules on every model and three or more on every weapon, and the engine
    and the independent reference agree on every one, exactly."""
    import json
    import random

    from rules.systems.opr.unit_format.reader import fast_parse_unit
    from rules.systems.opr.unit_format.writer import unit_to_dict
    from tests.points.opr import opr_reference

    bench = load_bench()
    rng = random.Random(3)
    for rich in (False, True):
        texts = [json.dumps(unit_to_dict(bench.random_unit(rng, tag, rich=rich))) for tag in range(40)]
        assert len(set(texts)) == len(texts)
        for text in texts:
            unit = fast_parse_unit(json.loads(text))
            assert unit is not None
            assert price(unit).exact == opr_reference.unit_cost(json.loads(text))
            if rich:
                for model in unit.models:
                    assert len(model.rules) >= 6 and all(len(w.rules) >= 3 for w in model.weapons)
