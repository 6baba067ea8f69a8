"""Per-force indexes of selections by every id a query can name, kept up to date by the roster's
operations (a selection is added to or removed from its force's index with its subtree), so a
force- or roster-wide count is a lookup, not a walk over thousands of selections."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .conditions import ENTRY_TYPES, selection_matches

if TYPE_CHECKING:
    from .roster import Selection


def static_ids(sel: Selection, shared: bool) -> frozenset[str]:
    """The ids a query counts `sel` under, apart from categories changed by modifiers.

    They depend on the option alone, and every change of a roster asks for them for each
    selection of the changed subtree, so they are kept on the option once found."""
    option = sel.option
    known = option._static_ids
    if known is None:
        known = option._static_ids = (_option_ids(option, False), _option_ids(option, True))
    return known[1] if shared else known[0]


def _option_ids(option, shared: bool) -> frozenset[str]:
    ids = {option.key, *(link.target_id for link in option.category_links)}
    if option.type in ENTRY_TYPES:
        ids.add(option.type)
    if shared:
        ids.add(option.defn.id)
    if option.link is not None:
        ids.add(option.link.id)
    group = option.group
    while group is not None:
        ids.add(group.key)
        if shared:
            ids.add(group.defn.id)
        group = group.group
    return frozenset(ids)


def change_buckets(force_id: int, sel: Selection) -> set:
    """Fine-grained buckets an operation on `sel` (and its subtree) changes in its force's index:
    one per id the subtree's selections are counted under, and "any"."""
    out = {("fid", force_id, "any")}
    stack = [sel]
    while stack:
        node = stack.pop()
        for shared in (False, True):
            for child_id in static_ids(node, shared):
                out.add(("fid", force_id, child_id))
        for child_id in node.category_ids():
            out.add(("fid", force_id, child_id))
        if volatile(node):
            out.add(("fid", force_id, "volatile"))
        stack.extend(node.children)
    return out


def volatile(sel: Selection) -> bool:
    """Whether the selection's categories can change (a category modifier): it is matched by
    a scan at query time instead of by the index."""
    return any(m.field == "category" for m in sel.option.modifiers)


class SelectionIndex:
    """Selections of one force: all of them (`deep`) or only its root selections."""

    def __init__(self) -> None:
        self.all: dict = {}
        self.by_id: dict = {False: {}, True: {}}
        self.volatile: dict = {}

    def add(self, sel: Selection) -> None:
        self.all[sel] = None
        if volatile(sel):
            self.volatile[sel] = None
        for shared in (False, True):
            table = self.by_id[shared]
            for child_id in static_ids(sel, shared):
                table.setdefault(child_id, {})[sel] = None

    def remove(self, sel: Selection) -> None:
        self.all.pop(sel, None)
        self.volatile.pop(sel, None)
        for shared in (False, True):
            table = self.by_id[shared]
            for child_id in static_ids(sel, shared):
                bucket = table.get(child_id)
                if bucket is not None:
                    bucket.pop(sel, None)
                    if not bucket:
                        del table[child_id]

    def lookup(self, child_id: str | None, shared: bool, is_category) -> list[Selection]:
        """Selections counted under `child_id`. Selections whose categories a modifier can change
        are indexed by their other ids and matched by a scan for category ids."""
        if child_id is None:
            return []
        if child_id == "any":
            return list(self.all)
        found = self.by_id[bool(shared)].get(child_id, {})
        if self.volatile and is_category(child_id):
            volatile = self.volatile
            out = [s for s in found if s not in volatile]
            # Only a volatile selection that holds the category by its own ids (a modifier may
            # remove it) or that a modifier may give it can match: evaluating the category
            # modifiers of every other one read their conditions' counts, each of which scanned
            # the volatile selections again, one stack frame deeper per selection of the force
            # (a RecursionError for a 185-unit wh40k list).
            out.extend(
                s
                for s in volatile
                if (s in found or child_id in s.option.category_adds)
                and selection_matches(s, child_id, shared)
            )
            return out
        return list(found)


_NO = object()


class ForceIndex:
    def __init__(self) -> None:
        self.deep = SelectionIndex()
        self.roots = SelectionIndex()

    def add_subtree(self, sel: Selection) -> None:
        if sel.parent.is_force:
            self.roots.add(sel)
        self.deep.add(sel)
        for child in sel.children:
            self.add_subtree(child)

    def remove_subtree(self, sel: Selection) -> None:
        if sel.parent.is_force:
            self.roots.remove(sel)
        self.deep.remove(sel)
        for child in sel.children:
            self.remove_subtree(child)
