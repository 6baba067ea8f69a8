"""A generated catalogue of several thousand entries imported whole, every unit priced exactly
at its minimum size. How fast is `bench/bench_battlescribe.py`'s (`--units 400` for this size):
the unit suite says what was imported, not how quickly, so a loaded machine cannot fail it."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules.battlescribe.xml_reader import SourceFile
from rules.battlescribe_import import import_files, parse_import
from rules.models import UnitTemplate
from tests.rules.battlescribe.generated import catalogue, expected_points, game_system

UNITS = 400  # 3600 selection entries, 400 groups, 4 MB


@pytest.fixture(scope="module")
def files() -> list[SourceFile]:
    return [SourceFile("gen.gst", game_system()), SourceFile("gen.cat", catalogue(UNITS))]


def test_dry_run_of_thousands_of_entries(files):
    assert files[1].data.count(b"<selectionEntry ") == 9 * UNITS
    result = parse_import(system_key="wh40k9", files=files)
    units = result.summary()["factions"][0]["units"]
    assert [u["points"] for u in units] == [expected_points(int(u["name"].split()[1])) for u in units]
    assert {u["models"] for u in units} == {5}
    assert result.warnings == []
    assert len(units) == UNITS


def test_into_postgres_every_unit_at_its_price(db, files):
    call_command("load_catalogue", verbosity=0)
    import_files(system_key="wh40k9", files=files)
    assert UnitTemplate.objects.filter(faction__slug="bs-gen-cat").count() == UNITS
    assert UnitTemplate.objects.get(faction__slug="bs-gen-cat", slug="bs-u7").points == expected_points(7)


def _import_queries(units: int) -> int:
    files = [SourceFile("gen.gst", game_system()), SourceFile("gen.cat", catalogue(units))]
    with CaptureQueriesContext(connection) as queries:
        import_files(system_key="wh40k9", files=files)
    return len(queries.captured_queries)


def test_import_queries_do_not_grow_with_the_catalogue(db):
    """The write is a fixed number of statements (bulk inserts, one source row per faction), so
    a large catalogue costs no more round trips than a small one: a per-unit query (or a per-unit
    rebuild of the engine's data) would show here as a count that grows with the units."""
    call_command("load_catalogue", verbosity=0)
    small, large = _import_queries(10), _import_queries(40)
    assert UnitTemplate.objects.filter(faction__slug="bs-gen-cat").count() == 40
    # The second import updates the first one's rows in place; it reads them first, so allow
    # the few statements of that path but nothing per unit.
    assert large <= small + 5, (small, large)
    assert large < 40
