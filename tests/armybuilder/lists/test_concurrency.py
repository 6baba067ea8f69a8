"""Every kind of list change from many clients at once, on real Postgres (issue 18.2).

Before the row-lock fix (`services.lock_list` locks the list row before any unit row is
written), two changes of one list from the same version could each insert a unit (which
locks the list row for its foreign key) and then wait for the other's update of the list:
Postgres broke the deadlock by killing one with `DeadlockDetected`, which this test reports
as an error. It also fails on a lost update (two changes producing the same version), on
unit positions with gaps and on cached totals that disagree with the units.
"""

import pytest

from tests.armybuilder.lists.concurrent_edits import KINDS, consistency_problems, run_clients
from tests.factories.army_lists import make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_eight_clients_making_every_kind_of_change_leave_a_consistent_list():
    owner = make_user()
    faction = make_faction()
    template = make_unit(faction=faction)
    army_list = make_list(owner=owner, faction=faction, points_limit=100_000, units=[template, template])
    initial_version = army_list.version

    outcome = run_clients(army_list=army_list, template=template, clients=8, changes=12, seed=1)

    assert consistency_problems(army_list=army_list, initial_version=initial_version, initial_units=2,
                                outcome=outcome) == []
    assert len(outcome.successes) == 8 * 12
    assert {kind for kind, _ in outcome.successes} == set(KINDS)
    assert outcome.stale > 0  # the clients really did collide
