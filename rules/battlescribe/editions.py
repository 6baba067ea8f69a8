"""Which edition of a game a BattleScribe game system is, by its id and revision.

The community data keeps one game system id across editions in places (BSData's Age of Sigmar
`e51d-b1a3-75fc-dc33` from 1st to 3rd edition, 40k `28ec-711c-d87f-3aeb` from 8th to 9th), so an
edition is an id and a range of revisions; the boundaries are the revisions at which BSData's
repositories switched (tags v1.50.9 → v2.0.0 and v2.3.0 → v3.0.0 of warhammer-age-of-sigmar; the
8th → 9th rename in wh40k-9e). Each system's BattleScribe mapping names the editions its rules
are for (`BattleScribeMapping.editions`); data of another known edition is refused by the import
with the reason (a 10th-edition 40k catalogue in the 9th-edition system priced nothing and showed
"Power Level 0 / 100"). A game system of no known edition (community or hand-written data) is
imported as before: nothing says it is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from .catalogue import GAME_SYSTEM, Document


@dataclass(frozen=True)
class Edition:
    key: str
    #: The edition's name as players say it (a proper name: not translated).
    name: str
    system_id: str
    min_revision: int | None = None
    max_revision: int | None = None

    def holds(self, system_id: str, revision: int | None) -> bool:
        if system_id != self.system_id:
            return False
        if revision is None:
            return self.min_revision is None and self.max_revision is None
        low = self.min_revision if self.min_revision is not None else revision
        high = self.max_revision if self.max_revision is not None else revision
        return low <= revision <= high


EDITIONS: tuple[Edition, ...] = (
    Edition("wh40k-8", "Warhammer 40,000 8th edition", "28ec-711c-d87f-3aeb", max_revision=130),
    Edition("wh40k-9", "Warhammer 40,000 9th edition", "28ec-711c-d87f-3aeb", min_revision=131),
    Edition("wh40k-10", "Warhammer 40,000 10th edition", "sys-352e-adc2-7639-d6a9"),
    Edition("aos-1", "Age of Sigmar 1st edition", "e51d-b1a3-75fc-dc33", max_revision=30),
    Edition("aos-2", "Age of Sigmar 2nd edition", "e51d-b1a3-75fc-dc33", min_revision=31, max_revision=74),
    Edition("aos-3", "Age of Sigmar 3rd edition", "e51d-b1a3-75fc-dc33", min_revision=75),
    Edition("aos-4", "Age of Sigmar 4th edition", "e51d-b1a3-75fc-dc3g"),
    Edition("whfb-4", "Warhammer Fantasy Battle 4th edition", "417a-57eb-6f3e-81c9"),
    Edition("whfb-6", "Warhammer Fantasy Battle 6th edition", "6d8e-38d9-3c69-febf"),
    Edition("whfb-7", "Warhammer Fantasy Battle 7th edition", "779f-c127-a94a-bf00"),
    Edition("whfb-8", "Warhammer Fantasy Battle 8th edition", "be4eb679-97dc-4876-b582-19ff87fae0fd"),
)
BY_KEY = {e.key: e for e in EDITIONS}


def _revision(text: str) -> int | None:
    try:
        return int(str(text).strip())
    except ValueError:
        return None


def edition_of(system_id: str, revision: str | int | None) -> Edition | None:
    """The known edition of a game system id at `revision`, else None."""
    number = revision if isinstance(revision, int) else _revision(revision or "")
    return next((e for e in EDITIONS if e.holds(system_id, number)), None)


def uploaded_edition(documents: Sequence[Document]) -> tuple[Document, Edition, str] | None:
    """(the file that says it, its edition, the revision) of the uploaded game system, or of the
    game system the catalogues name when none is uploaded; None when no known edition."""
    system = next((d for d in documents if d.kind == GAME_SYSTEM), None)
    if system is not None:
        edition = edition_of(system.id, system.revision)
        return (system, edition, system.revision) if edition is not None else None
    for doc in documents:
        edition = edition_of(doc.game_system_id, doc.game_system_revision)
        if edition is not None:
            return doc, edition, doc.game_system_revision
    return None


def edition_errors(documents: Sequence[Document], system_key: str) -> list[str]:
    """Why `documents` do not belong in `system_key` ([] when they may): data of a known edition
    the system's rules are not for, with the edition named and, when a registered system takes
    it, which one."""
    from rules.systems.registry import all_systems, get_system

    found = uploaded_edition(documents)
    if found is None:
        return []
    doc, edition, revision = found
    system = get_system(system_key)
    accepted = tuple(system.battlescribe.editions)
    if edition.key in accepted:
        return []
    takes = ", ".join(BY_KEY[key].name for key in accepted if key in BY_KEY)
    args = {
        "file": doc.file,
        "edition": edition.name,
        "revision": revision or "?",
        "system": _(system.name),
        "accepted": takes or _("no BattleScribe game system of a known edition"),
    }
    message = _(
        "%(file)s: this is %(edition)s data (game system revision %(revision)s); %(system)s "
        "takes %(accepted)s data only."
    ) % args
    other = next(
        (s for s in all_systems() if edition.key in s.battlescribe.editions),
        None,
    )
    if other is not None:
        message += " " + _("Import it into %(system)s.") % {"system": _(other.name)}
    else:
        message += " " + _("No system of this site has that edition's rules.")
    return [message]
