"""A roster: one card per unit (profiles, weapons, rules text, points) and a summary table.

The print page and the PDF render the same `Roster`. Cards are built from the shared unit
envelope (`models[]` with `count`, profile fields, `weapons[]`, `rules[]`, and `auras`,
`items`, `upgrades` when a system or an option adds them); the columns, their headings and
every cell come from the one card renderer (`rules.unit_cards`), which reads the system's
profile schema, so the roster prints a unit exactly as its catalogue card does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from armybuilder.lists.backends import rows as list_rows
from armybuilder.lists.evaluation import group_heading, unit_summary
from armybuilder.models import ArmyList, ListUnit
from armybuilder.roster.describe import chosen_upgrades, configuration_line, model_count
from rules.points_audit import unpriced_rules
from rules.selectors import rule_base_name, special_rule_for, special_rules_by_name
from rules.source_language import rule_display_name, rule_text, rule_text_language
from rules.systems.registry import get_system
from rules.unit_cards import Column, all_weapons, cell, profile_columns, weapon_columns, weapon_lines


@dataclass(frozen=True)
class Row:
    """A line of a profile or weapon table: name, how many, the cells, its rules."""

    name: str
    count: int
    cells: list[str]
    rules: list[str]
    #: An alternative profile of the weapon above (a 40k weapon's "– Frag" line).
    sub: bool = False


#: A cell longer than this holds text ("Rapid Fire 1", an ability's sentence), not a figure.
TEXT_LENGTH = 6


@dataclass(frozen=True)
class StackedRow:
    """A table row as the roster's card prints it: each cell with its class (`cells`: "num" or
    "text", and "rules-col" for a column of text), the rules on one line, and, for a phone, the
    line stacked under it: the row's text cells with their column's name, then its rules
    (`Card.profile_stacked`, `Card.weapon_stacked`).

    The cells and the phone line are also kept as markup (`cells_html`, `line_html`): a card
    is mostly cells, and a template prints a row's worth of them as one string far cheaper
    than a loop of tags per cell (the roster page is half cells)."""

    row: Row
    line: list[tuple[str, str]]
    cells: list[tuple[str, str]] = field(default_factory=list)
    rules: str = ""
    #: The columns the row's phone line spans.
    span: int = 0

    @property
    def cells_html(self) -> SafeString:
        """`<td class="...">value</td>` for each cell."""
        return format_html_join("", '<td class="{}">{}</td>', ((css, value) for value, css in self.cells))

    @property
    def line_html(self) -> SafeString:
        """The phone line as a table row spanning `span` columns (hidden where the table has
        room for its text and Rules columns); empty when the row has none."""
        if not self.line:
            return mark_safe("")
        field_html = '<span class="stacked-field"><span class="rules-row-label">{}:</span> {}</span>'
        fields = format_html_join(" · ", field_html, self.line)
        return format_html('<tr class="rules-row"><td colspan="{}">{}</td></tr>', self.span, fields)


def text_columns(columns: Sequence[Column], rows: Sequence[Row]) -> frozenset[int]:
    """The indices of `columns` whose cells hold text in some row: on a phone they leave the
    table for the row's stacked line, where a sentence reads across the card."""
    return frozenset(
        index for index in range(len(columns))
        if any(index < len(row.cells) and len(row.cells[index]) > TEXT_LENGTH for row in rows)
    )


def cell_class(value: str, text_column: bool) -> str:
    """A roster cell's class: "text" for text, "num" for a figure, and "rules-col" in a column
    of text (hidden on a phone, where the stacked line prints it)."""
    kind = "text" if len(value) > TEXT_LENGTH else "num"
    return f"{kind} rules-col" if text_column else kind


def column_heads(columns: Sequence[Column], texts: frozenset[int]) -> SafeString:
    """The roster card's column headings (`<th>`), each with its class and, when the schema
    gives a full name, the short heading in an `<abbr>` of it."""
    heads = []
    for index, column in enumerate(columns):
        css = "num rules-col" if index in texts else "num"
        short, title = str(column.short), str(column.title)
        heading = format_html('<abbr title="{}">{}</abbr>', title, short) if short != title else short
        heads.append(format_html('<th scope="col" class="{}">{}</th>', css, heading))
    return mark_safe("".join(heads))


def stacked_rows(columns: Sequence[Column], rows: Sequence[Row],
                 texts: frozenset[int] | None = None) -> list[StackedRow]:
    """Each row of a table with its cells' classes and its phone line (see `StackedRow`); an
    empty line for a row with no text and no rules."""
    texts = text_columns(columns, rows) if texts is None else texts
    span = 2 + len(columns) - len(texts)
    stacked = []
    for row in rows:
        line = [(columns[index].title, value) for index, value in enumerate(row.cells)
                if index in texts and value not in ("", "-")]
        rules = ", ".join(row.rules)
        if row.rules:
            line.append((str(_("Rules")), rules))
        cells = [(value, cell_class(value, index in texts)) for index, value in enumerate(row.cells)]
        stacked.append(StackedRow(row, line, cells, rules, span))
    return stacked


@dataclass(frozen=True)
class RuleText:
    name: str
    text: str
    #: The language of `text`: the system's source language for its own players, else "en".
    lang: str = "en"


@dataclass(frozen=True)
class Card:
    number: int
    name: str
    points: int
    models: int
    profile_columns: list[Column]
    profiles: list[Row]
    weapon_columns: list[Column]
    weapons: list[Row]
    rules: list[RuleText]
    extras: list[str] = field(default_factory=list)
    upgrades: list[str] = field(default_factory=list)
    catalogue_name: str = ""
    notes: str = ""
    group: str = ""
    #: The system's own figures of the unit (`GameSystem.unit_summary`: magic items used / allowed).
    figures: list[dict[str, Any]] = field(default_factory=list)

    @property
    def profile_rows(self) -> list[Row]:
        """The profile table's rows, by the name every variant of the card template reads."""
        return self.profiles

    # What the roster's card prints is worked out once per card (cached: the template reads
    # these per cell); they are derived, so not fields: a card's content is its fields.
    @cached_property
    def profile_text_columns(self) -> frozenset[int]:
        return text_columns(self.profile_columns, self.profiles)

    @cached_property
    def profile_heads(self) -> SafeString:
        return column_heads(self.profile_columns, self.profile_text_columns)

    @cached_property
    def profile_stacked(self) -> list[StackedRow]:
        return stacked_rows(self.profile_columns, self.profiles, self.profile_text_columns)

    @cached_property
    def profile_phone_span(self) -> int:
        """The columns the profile table keeps on a phone: name, count and the figures."""
        return 2 + len(self.profile_columns) - len(self.profile_text_columns)

    @cached_property
    def weapon_phone_span(self) -> int:
        return 2 + len(self.weapon_columns) - len(self.weapon_text_columns)

    @cached_property
    def weapon_text_columns(self) -> frozenset[int]:
        return text_columns(self.weapon_columns, self.weapons)

    @cached_property
    def weapon_heads(self) -> SafeString:
        return column_heads(self.weapon_columns, self.weapon_text_columns)

    @cached_property
    def weapon_stacked(self) -> list[StackedRow]:
        return stacked_rows(self.weapon_columns, self.weapons, self.weapon_text_columns)

    @property
    def pdf_narrow(self) -> list[PdfTable]:
        """The card's tables laid out for a card half the page wide (two columns)."""
        return self.pdf_tables(NARROW_CARD_EM)

    @property
    def pdf_wide(self) -> list[PdfTable]:
        """The card's tables laid out for a card the page's width (one column)."""
        return self.pdf_tables(WIDE_CARD_EM)

    def pdf_tables(self, width_em: float) -> list[PdfTable]:
        """The profile table and the weapon table of the PDF's card, each with its column
        widths (`PdfTable`): the PDF's tables have a fixed layout (fast to lay out), so the
        widths are decided here, from what each column prints."""
        profiles = PdfSection(str(_("Model")), self.profile_columns, self.profiles)
        if not self.weapons:
            return [pdf_layout([profiles], width_em)]
        weapons = PdfSection(str(_("Weapon")), self.weapon_columns, self.weapons)
        # One table lays out much faster than two (a 200-unit roster); two when sharing the
        # columns would leave the rules no room (a WHFB profile above its weapons).
        shared = pdf_layout([profiles, weapons], width_em)
        if shared.rules_column:
            return [shared]
        return [pdf_layout([profiles], width_em), pdf_layout([weapons], width_em)]


def _column_content(column: Column) -> tuple[Any, ...]:
    return (column.key, str(column.short), str(column.title), column.roll_target)


def _row_content(row: Row) -> tuple[Any, ...]:
    return (row.name, row.count, row.cells, row.rules, row.sub)


def card_content(card: Card, *, numbered: bool = True) -> tuple[Any, ...]:
    """Every field of `card` as plain data, nested dataclasses included (the key of its
    rendered fragment, `page_fragments.roster_card`): written out by hand because the generic
    walk over dataclass fields cost a tenth of a cold roster page. `CARD_FIELDS` names what
    it covers; a test checks that is every field. Not `numbered`: all but the number (the
    fragment's key, which leaves the number to a slot filled per card)."""
    return ((card.number if numbered else None), card.name, card.points, card.models,
            [_column_content(c) for c in card.profile_columns], [_row_content(r) for r in card.profiles],
            [_column_content(c) for c in card.weapon_columns], [_row_content(r) for r in card.weapons],
            [(r.name, r.text, r.lang) for r in card.rules], card.extras, [str(u) for u in card.upgrades],
            card.catalogue_name, card.notes, card.group, card.figures)


#: The fields `card_content` covers, in its order.
CARD_FIELDS = ("number", "name", "points", "models", "profile_columns", "profiles", "weapon_columns",
               "weapons", "rules", "extras", "upgrades", "catalogue_name", "notes", "group", "figures")


#: The width of a PDF card's content in em of its 7.5pt text: half an A4 page (two columns,
#: 49% of 190 mm less the card's padding) and the whole page (one column). 1em = 2.646 mm.
NARROW_CARD_EM = 33.5
WIDE_CARD_EM = 69.0
#: A cell's horizontal padding (2 × 1 mm, `roster_pdf.css`) in em, and some slack.
_PADDING_EM = 0.9
#: A number cell's padding (2 × 0.5 mm, `roster_pdf.css`) in em, and some slack.
_NUMBER_PADDING_EM = 0.6
#: The font the PDF prints with (`roster_pdf.css`), bold: headings and names are bold.
PDF_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
#: The narrowest a name column and a rules column may be before the rules go under the row.
_NAME_MIN_EM = 8.0
_RULES_MIN_EM = 11.0


#: A cell of more words than this, or wider than `_PROSE_EM`, is prose (a 40k weapon's
#: ability, "When the bearer fights, it makes 1 additional attack"), not a figure or a label.
_PROSE_WORDS = 3
_PROSE_EM = 12.0


@dataclass(frozen=True)
class PdfRow:
    """A row of a PDF card's table: the cells its table has columns for, and the line printed
    under it (`below`): its prose cells with their column's name, and its rules when the table
    has no rules column."""

    name: str
    count: int
    cells: list[str]
    rules: list[str]
    sub: bool = False
    below: str = ""


@dataclass(frozen=True)
class PdfSection:
    """A heading row and its rows in a PDF card's table (the models, or the weapons)."""

    head: str
    columns: Sequence[Column]
    rows: Sequence[Row | PdfRow]
    #: Empty cells after the columns, when the table has more (a section sharing a table).
    pad: int = 0

    @property
    def pads(self) -> range:
        return range(self.pad)


@dataclass(frozen=True)
class PdfTable:
    """One table of a PDF card: its sections and each column's width in em (name, `#`, the
    columns; the rules column takes the rest). When the rules have no room for a column of
    their own, `rules_column` is false and each row's rules print on a line of their own
    below it."""

    sections: list[PdfSection]
    widths: list[str]
    rules_column: bool

    @property
    def span(self) -> int:
        """Columns a full-width line of the table spans (a row's rules under it)."""
        return len(self.widths)


@cache
def _advance_widths() -> dict[int, float]:
    """Each character's advance in em in the PDF's bold font; empty when it is not installed
    (then every character counts as the font's widest Latin letter)."""
    try:
        from fontTools.ttLib import TTFont

        font = TTFont(str(PDF_FONT), lazy=True)
    except (ImportError, OSError):
        return {}
    metrics, per_em = font["hmtx"], font["head"].unitsPerEm
    return {code: metrics[glyph][0] / per_em for code, glyph in font.getBestCmap().items()}


def text_em(word: str) -> float:
    """How wide `word` prints in em (the bold font's advances; 1.1 for a character it lacks)."""
    widths = _advance_widths()
    return sum(widths.get(ord(char), 1.1) for char in word)


def _width(texts: Sequence[str], padding: float = _PADDING_EM) -> float:
    """The em a column needs for its longest word (cells wrap only between words)."""
    longest = max((text_em(word) for text in texts for word in str(text).split()), default=1.0)
    return round(longest + padding, 1)


def _full_width(texts: Sequence[str], padding: float = _PADDING_EM) -> float:
    """The em a column needs for its longest cell on one line ("Assault 2" unbroken)."""
    return round(max((text_em(str(text)) for text in texts), default=1.0) + padding, 1)


def _is_prose(value: str) -> bool:
    return len(value.split()) > _PROSE_WORDS or text_em(value) > _PROSE_EM


def _prose_columns(sections: Sequence[PdfSection]) -> frozenset[int]:
    """The column indices holding prose in some row of any section: printed under the row,
    across the card, instead of squeezed into a column as wide as its longest word (a 40k
    ability was a column one word wide and fourteen lines tall)."""
    return frozenset(
        i for section in sections for row in section.rows
        for i, value in enumerate(row.cells) if _is_prose(str(value))
    )


def _widen(numbers: list[float], full: list[float], spare: float) -> None:
    """Give columns their unbroken width (`_full_width`), the cheapest first, while `spare`
    em lasts."""
    for i in sorted(range(len(numbers)), key=lambda i: full[i] - numbers[i]):
        gain = full[i] - numbers[i]
        if 0 < gain <= spare:
            numbers[i], spare = full[i], spare - gain


def pdf_table(head: str, columns: Sequence[Column], rows: Sequence[Row], width_em: float) -> PdfTable:
    """`pdf_layout` of one section."""
    return pdf_layout([PdfSection(head, columns, rows)], width_em)


def _pdf_rows(section: PdfSection, prose: frozenset[int], rules_column: bool) -> list[PdfRow]:
    """The section's rows without their prose cells, which go to the line below each row
    (with the column's name), followed by the row's rules when there is no rules column."""
    rows = []
    for row in section.rows:
        cells = [value for i, value in enumerate(row.cells) if i not in prose]
        below = [f"{section.columns[i].title}: {value}" for i, value in enumerate(row.cells)
                 if i in prose and i < len(section.columns) and str(value) not in ("", "-")]
        if not rules_column and row.rules:
            below.append(", ".join(row.rules))
        rows.append(PdfRow(row.name, row.count, cells, list(row.rules), row.sub, " · ".join(below)))
    return rows


def pdf_layout(sections: Sequence[PdfSection], width_em: float) -> PdfTable:
    """`PdfTable` of `sections` for a card `width_em` wide: each number column as wide as its
    widest word in any section (as its widest cell when there is room to spare), the name
    column the longest name if there is room (at least `_NAME_MIN_EM` and the longest word of
    a name), the rules the rest, or a line of their own when less than `_RULES_MIN_EM` is left.
    A column of prose (`_prose_columns`) prints under each row instead."""
    prose = _prose_columns(sections)
    kept = [
        PdfSection(s.head, [c for i, c in enumerate(s.columns) if i not in prose],
                   [PdfRow(r.name, r.count, [v for i, v in enumerate(r.cells) if i not in prose],
                           list(r.rules), r.sub) for r in s.rows])
        for s in sections
    ]
    count = max(len(section.columns) for section in kept)
    counts = [str(r.count) for section in kept for r in section.rows]
    numbers = [_width(["#", *counts], _NUMBER_PADDING_EM)]
    full = [numbers[0]]
    for i in range(count):
        texts = [
            text
            for section in kept if i < len(section.columns)
            for text in [section.columns[i].short, *(r.cells[i] for r in section.rows if i < len(r.cells))]
        ]
        numbers.append(_width(texts, _NUMBER_PADDING_EM))
        full.append(_full_width(texts, _NUMBER_PADDING_EM))
    left = width_em - sum(numbers)
    names = [text for section in kept for text in [section.head, *(r.name for r in section.rows)]]
    # Never narrower than the longest word of a name: a name wraps between its words, and a
    # word wider than its column would print over the next one.
    longest_word = _width(names)
    natural = max(text_em(text) for text in names) + _PADDING_EM
    name = min(natural, max(_NAME_MIN_EM, left - _RULES_MIN_EM))
    # A word wider than all the card can give (a profile of many columns) is broken by the
    # stylesheet (`overflow-wrap: break-word`) rather than print over the next column.
    name = max(name, min(longest_word, left))
    # A rules column whenever it has room, rules or not: every card of a roster looks alike.
    rules_column = left - name >= _RULES_MIN_EM
    if rules_column:
        _widen(numbers, full, left - name - _RULES_MIN_EM)
    else:
        _widen(numbers, full, left - max(natural, _NAME_MIN_EM))
        name = max(_NAME_MIN_EM, width_em - sum(numbers))
    return PdfTable(
        sections=[PdfSection(s.head, k.columns, _pdf_rows(s, prose, rules_column), count - len(k.columns))
                  for s, k in zip(sections, kept, strict=True)],
        widths=[f"{name:.1f}em", *(f"{w:.1f}em" for w in numbers)],
        rules_column=rules_column,
    )


@dataclass(frozen=True)
class Roster:
    army_list: ArmyList
    cards: list[Card]
    system_name: str
    #: The roster's configuration rows on one line (`describe.configuration_line`), never cards.
    configuration: str = ""
    #: The fielded units as (name, unit dict), for the optional glossary page.
    units: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    #: Their points, which count in the total as in the list's.
    configuration_points: int = 0

    @property
    def total_points(self) -> int:
        return sum(card.points for card in self.cards) + self.configuration_points

    @property
    def total_models(self) -> int:
        return sum(card.models for card in self.cards)

    @cached_property
    def points_sized(self) -> bool:
        """Whether the roster shows points (`GameSystem.points_sized`; AoS lists have none)."""
        return get_system(self.army_list.system.key).points_sized

    @cached_property
    def rules_reference(self) -> list[RuleText]:
        """Every rule of the list once, by name: printed at the end instead of on each card."""
        seen: dict[str, RuleText] = {}
        for card in self.cards:
            for rule in card.rules:
                seen.setdefault(rule.name, rule)
        return sorted(seen.values(), key=lambda rule: rule_base_name(rule.name).casefold())

    def glossary(self) -> list[dict[str, Any]]:
        """The glossary page: every special rule, ability and item the list uses, with its
        text, by the phase it matters in — the play mode's rules reference of this one list
        (`armybuilder.games.rules_reference`). Three queries; asked only when it is printed."""
        from armybuilder.games.rules_reference import rules_reference

        return rules_reference(system_key=self.army_list.system.key, units=self.units)

    @cached_property
    def groups(self) -> list[tuple[str, list[Card]]]:
        """Cards by the units' groups, in list order; one unnamed group when no unit has one."""
        groups: dict[str, list[Card]] = {}
        for card in self.cards:
            groups.setdefault(card.group, []).append(card)
        return [(group_heading(self.army_list, name), cards) for name, cards in groups.items()]


def _rule_names(unit: Mapping[str, Any]) -> list[str]:
    names: dict[str, None] = {}
    for model in unit.get("models") or []:
        for rule in model.get("rules") or []:
            names.setdefault(str(rule), None)
        for weapon in model.get("weapons") or []:
            for rule in weapon.get("rules") or []:
                names.setdefault(str(rule), None)
    return list(names)


def _abilities(unit: Mapping[str, Any], known: set[str]) -> list[RuleText]:
    """The unit's and its models' abilities kept with their own text (`abilities: [{name,
    text}]`: an imported datasheet's or warscroll's), as rules of the card: a printed 40k or
    AoS roster left out every ability of an imported unit (Reanimation Protocols, Living
    Metal), though the play mode's reference had them. A name the unit's rules already give
    is not repeated. The text is the source's (its language is not known: "en")."""
    found = []
    sources = [unit, *(m for m in unit.get("models") or [] if isinstance(m, Mapping))]
    for ability in (a for source in sources for a in source.get("abilities") or ()):
        if isinstance(ability, Mapping) and ability.get("name") and str(ability["name"]) not in known:
            known.add(str(ability["name"]))
            found.append(RuleText(name=str(ability["name"]), text=str(ability.get("text") or "")))
    return found


def _extras(unit: Mapping[str, Any], shown: Callable[[str], str] = str) -> list[str]:
    """Auras, orders and items, one line each ("Sergeant: aura Fast to friends, 6\""), and the
    rules kept on the unit as text (an import's rules the formula does not price); model and
    item names as `shown` gives them (the reader's language)."""
    lines = []
    for model in unit.get("models") or []:
        name = shown(str(model.get("name") or ""))
        for kind, label in (("auras", _("aura")), ("orders", _("order"))):
            for aura in model.get(kind) or []:
                lines.append(
                    f"{name}: {label} {aura.get('grants')} → {aura.get('to', '')}, "
                    f'{aura.get("range", "")}"'
                )
        for item in model.get("items") or []:
            lines.append(f"{name}: {shown(str(item.get('name') or ''))}")
    kept = unpriced_rules(unit)
    if kept:
        lines.append(gettext("Not priced by the formula: %(rules)s") % {"rules": ", ".join(kept)})
    return lines


def build_roster(*, army_list: ArmyList, units: Sequence[ListUnit]) -> Roster:
    """The roster of a list: one card per unit in list order. Two queries, whatever the size."""
    system = get_system(army_list.system.key)
    schema = system.profile_schema or {}
    rules_by_name = special_rules_by_name(system=army_list.system)
    cards = []
    rows = list_rows.configuration(units)  # a battle size, an allegiance: the roster's, not cards
    fielded = list(list_rows.fielded(units))
    for number, list_unit in enumerate(fielded, start=1):
        unit = list_unit.data
        named = list_unit.option_text  # a bundled army's names in the reader's language
        models = [m for m in unit.get("models") or [] if isinstance(m, Mapping)]
        columns = profile_columns(schema, models)
        w_columns = weapon_columns(schema, all_weapons(models))
        rules = []
        for written in _rule_names(unit):
            rule = special_rule_for(written, rules_by_name)
            shown = rule_display_name(written, rule, source_language=army_list.system.source_language)
            rules.append(RuleText(name=shown, text=rule_text(rule) if rule else "",
                                  lang=rule_text_language(rule) if rule else "en"))
        rules += _abilities(unit, {rule.name for rule in rules})
        cards.append(
            Card(
                number=number,
                name=list_unit.display_name,
                catalogue_name=list_unit.catalogue_name if list_unit.custom_name else "",
                notes=list_unit.notes,
                group=list_unit.group,
                points=list_unit.points,
                models=model_count(unit),
                profile_columns=columns,
                profiles=[
                    Row(
                        name=named(str(m.get("name") or "")),
                        count=int(m.get("count") or 0),
                        cells=[cell(m.get(c.key), c) for c in columns],
                        rules=[_shown(r, rules_by_name, army_list) for r in m.get("rules") or []],
                    )
                    for m in models
                ],
                weapon_columns=w_columns,
                weapons=[
                    Row(
                        name=("– " if sub else "") + named(str(w.get("name") or "")),
                        count=count,
                        cells=[cell(w.get(c.key), c) for c in w_columns],
                        rules=[_shown(r, rules_by_name, army_list) for r in w.get("rules") or []],
                        sub=sub,
                    )
                    for w, count, sub in weapon_lines(models)
                ],
                rules=sorted(rules, key=lambda r: rule_base_name(r.name).casefold()),
                extras=_extras(unit, named),
                upgrades=chosen_upgrades(list_unit),
                figures=unit_summary(army_list=army_list, unit=list_unit),
            )
        )
    return Roster(army_list=army_list, cards=cards, system_name=gettext(army_list.system.name),
                  configuration=configuration_line(rows, points=False),
                  configuration_points=sum(u.points for u in rows),
                  units=tuple((u.display_name, u.data) for u in fielded))


def _shown(written: Any, rules_by_name: dict[str, Any], army_list: ArmyList) -> str:
    """A rule as written on the unit, in the source language when the player reads it."""
    return rule_display_name(str(written), special_rule_for(str(written), rules_by_name),
                             source_language=army_list.system.source_language)
