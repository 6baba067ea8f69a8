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
