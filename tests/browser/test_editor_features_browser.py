"""The editor features players expect, in Chromium (issue 15), each with screenshots.

Every new control is also used from the keyboard only (Tab, Enter, typing).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import PHONE, editor_page, htmx_idle, open_unit_options, total, unit_points

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tab_to(page: Page, locator, limit: int = 200) -> None:
    """Press Tab until `locator` has the focus (keyboard-only use), failing after `limit` presses."""
    handle = locator.element_handle()
    for _ in range(limit):
        if page.evaluate("e => document.activeElement === e", handle):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"could not reach {locator} with Tab")


def shot_name(base: str, viewport: dict | None) -> str:
    """The desktop screenshot keeps its name; the phone's gets "-phone"."""
    return f"{base}-phone" if viewport else base


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_a_unit_gets_a_name_notes_and_a_group_by_keyboard_shown_on_roster_and_exports(
    live_server, browser, viewport
):
    page, army_list = editor_page(
        live_server, browser, viewport=viewport, units=("concord-wardens", "warden-captain")
    )
    row = page.locator("#unit-rows .unit-row").first
    tab_to(page, row.locator(".unit-options summary"))
    page.keyboard.press("Enter")
    tab_to(page, row.get_by_label("Your name for it"))
    page.keyboard.type("Red Squad")
    page.keyboard.press("Tab")  # change → saved
    expect(page.locator("#unit-rows .unit-row").first.locator(".unit-name")).to_contain_text("Red Squad")
    row = page.locator("#unit-rows .unit-row").first
    expect(row.get_by_label("Notes")).to_be_focused()
    page.keyboard.type("Holds the ridge")
    page.keyboard.press("Tab")
    expect(page.locator("#unit-rows .unit-row").first.locator(".unit-notes")).to_have_text("Holds the ridge")
    expect(page.locator("#unit-rows .unit-row").first.get_by_label("Group")).to_be_focused()
    page.keyboard.type("Left flank")
    page.keyboard.press("Tab")
    expect(page.locator("#unit-rows .unit-row").first.locator(".unit-group")).to_have_text("Left flank")
    screenshot(page, shot_name("feature1-name-notes-group", viewport))

    # A name that is too long is refused beside its field; the page stays.
    row = page.locator("#unit-rows .unit-row").first
    row.get_by_label("Your name for it").evaluate("e => e.removeAttribute('maxlength')")  # a bad client
    row.get_by_label("Your name for it").fill("x" * 121)
    row.get_by_label("Your name for it").press("Tab")
    expect(page.locator("#unit-rows .unit-row").first.locator(".field-error")).to_contain_text("At most 120")
    expect(page.locator("#unit-rows .unit-row").first.locator(".unit-name")).to_contain_text("Red Squad")

    base = live_server.url
    page.goto(f"{base}/lists/{army_list.pk}/roster/")
    card = page.locator(".unit-card").first
    expect(card.locator("h2")).to_contain_text("Red Squad (Concord Wardens)")
    expect(card.locator(".card-notes")).to_contain_text("Holds the ridge")
    screenshot(page, shot_name("feature1-roster", viewport))
    text = page.request.get(f"{base}/lists/{army_list.pk}/roster.txt").text()
    assert "Red Squad [139 pts], 10 models: Concord Wardens," in text and "  Notes: Holds the ridge" in text
    exported = page.request.get(f"{base}/lists/{army_list.pk}/list.json").json()
    first = exported["units"][0]
    words = (first["custom_name"], first["notes"], first["group"])
    assert words == ("Red Squad", "Holds the ridge", "Left flank")
    assert "custom_name" not in exported["units"][1]


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_undo_brings_back_a_removed_unit_and_cleared_upgrades(live_server, browser, viewport):
    page, _ = editor_page(
        live_server, browser, viewport=viewport, units=("concord-wardens", "warden-captain", "signal-corps")
    )
    before = total(page)
    names = page.locator("#unit-rows .unit-name").all_inner_texts()
    captain = page.locator("#unit-rows .unit-row").nth(1)
    tab_to(page, captain.get_by_role("button", name=re.compile("Remove")))
    page.keyboard.press("Enter")
    expect(page.locator("#unit-rows .unit-row")).to_have_count(2)
    undo = page.get_by_role("button", name="Undo")
    expect(page.locator("#editor-undo")).to_contain_text("“Warden-Captain” removed.")
    expect(undo).to_be_focused()  # the removed unit had the focus: Undo takes it
    expect(undo).to_be_in_viewport()
    screenshot(page, f"feature2-removed-{'phone' if viewport else 'desktop'}", full_page=False)
    page.keyboard.press("Enter")
    expect(page.locator("#unit-rows .unit-row")).to_have_count(3)
    assert page.locator("#unit-rows .unit-name").all_inner_texts() == names  # back in its place
    expect(page.locator("#list-total")).to_have_text(str(before))
    expect(page.locator("#editor-undo")).to_be_empty()
    expect(page.locator("#unit-rows .unit-row").nth(1)).to_have_class(re.compile("is-highlighted"))

    # Clearing upgrades can be undone too.
    row = page.locator("#unit-rows .unit-row").first
    open_unit_options(page, row)
    row.get_by_label(re.compile("Add five Wardens")).check()
    expect(page.locator("#unit-rows .unit-row").first.locator(".unit-upgrades")).to_contain_text("Add five")
    upgraded = total(page)
    first = page.locator("#unit-rows .unit-row").first
    tab_to(page, first.get_by_role("button", name=re.compile("Clear upgrades")))
    page.keyboard.press("Enter")
    expect(page.locator("#unit-rows .unit-row").first.locator(".unit-upgrades")).to_have_count(0)
    expect(page.locator("#list-total")).to_have_text(str(before))
    expect(page.locator("#editor-undo")).to_contain_text("Upgrades of “Concord Wardens” cleared.")
    undo_options = page.get_by_role("button", name="Undo")
    expect(undo_options).to_be_visible()
    tab_to(page, undo_options)
    page.keyboard.press("Enter")
    expect(page.locator("#unit-rows .unit-row").first.locator(".unit-upgrades")).to_contain_text("Add five")
    expect(page.locator("#list-total")).to_have_text(str(upgraded))
    assert sum(unit_points(page)) == upgraded
    screenshot(page, f"feature2-undone-{'phone' if viewport else 'desktop'}", full_page=False)


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_text_exports_in_four_formats_copied_to_the_clipboard_by_keyboard(live_server, browser, viewport):
    page, army_list = editor_page(
        live_server, browser, viewport=viewport, units=("concord-wardens", "warden-captain")
    )
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    text = page.locator("#export-text")
    expect(text).to_have_value(re.compile(r"^Ridge Patrol — Ashen Concord \(OPR-style"))
    expect(text).to_have_value(
        re.compile(r"\nWarden-Captain \[58 pts\], 1 model: Cinder Pistol, Obsidian Blade\n  Q3\+ D4\+ T3\n")
    )
    select = page.get_by_label("Format")
    tab_to(page, select)
    page.keyboard.press("ArrowDown")  # a keyboard user changes a <select> with the arrow keys: compact
    expect(text).to_have_value(re.compile(r"\nConcord Wardens 139 · Warden-Captain 58\nTotal: 197/1000 pts"))
    page.keyboard.press("ArrowDown")  # markdown
    expect(text).to_have_value(re.compile(r"^\*\*Ridge Patrol — Ashen Concord \(OPR-style"))
    line = (r"\n- \*\*Warden-Captain\*\* \[58 pts\], 1 model: Cinder Pistol, Obsidian Blade"
            r"\n  - `Q3\+ D4\+ T3`\n")
    expect(text).to_have_value(re.compile(line))
    page.keyboard.press("ArrowDown")  # secret
    expect(select).to_have_value("secret")
    hidden = r"\n\|\|Warden-Captain \[58 pts\], 1 model: Cinder Pistol, Obsidian Blade — Q3\+ D4\+ T3\|\|\n"
    expect(text).to_have_value(re.compile(hidden))
    expect(text).to_have_value(re.compile(r"\nTotal: 197/1000 pts, 2 units\n$"))
    tab_to(page, page.get_by_role("button", name="Copy to clipboard"))
    page.keyboard.press("Enter")
    expect(page.locator("#copy-status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == text.input_value()
    text.scroll_into_view_if_needed()
    screenshot(page, shot_name("feature4-text-export", viewport), full_page=False)
    download = page.request.get(f"{live_server.url}/lists/{army_list.pk}/roster.txt?format=secret&download=1")
    assert download.headers["content-disposition"] == 'attachment; filename="ridge-patrol.txt"'
    bad = page.request.get(f"{live_server.url}/lists/{army_list.pk}/roster.txt?format=html")
    assert bad.status == 400 and bad.text().startswith("format:")


BACKGROUND = "getComputedStyle(document.body).backgroundColor"


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_the_dark_theme_follows_the_system_and_the_switch_overrides_it(live_server, browser, viewport):
    page, _ = editor_page(live_server, browser, viewport=viewport, units=("concord-wardens",))
    page.emulate_media(color_scheme="dark")
    assert page.evaluate(BACKGROUND) == "rgb(16, 21, 28)"
    name = "phone" if viewport else "desktop"
    screenshot(page, f"feature6-dark-{name}", full_page=False)
    page.emulate_media(color_scheme="light")
    assert page.evaluate(BACKGROUND) == "rgb(255, 255, 255)"
    switch = page.get_by_label("Colour theme")
    tab_to(page, switch)
    page.keyboard.press("ArrowDown")  # keyboard only: system → light → dark
    page.keyboard.press("ArrowDown")
    expect(switch).to_have_value("dark")
    assert page.evaluate(BACKGROUND) == "rgb(16, 21, 28)"
    page.reload()  # the choice is remembered
    assert page.evaluate(BACKGROUND) == "rgb(16, 21, 28)"
    expect(page.get_by_label("Colour theme")).to_have_value("dark")
    page.emulate_media(color_scheme="dark")
    page.get_by_label("Colour theme").select_option("light")
    assert page.evaluate(BACKGROUND) == "rgb(255, 255, 255)"
    page.get_by_label("Colour theme").select_option("system")
    assert page.evaluate(BACKGROUND) == "rgb(16, 21, 28)"


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_print_options_by_keyboard(live_server, browser, viewport):
    units = ("concord-wardens", "warden-captain", "magma-mortar-team", "pyre-walker")
    page, army_list = editor_page(live_server, browser, viewport=viewport, units=units)
    page.goto(f"{live_server.url}/lists/{army_list.pk}/roster/")
    name = "phone" if viewport else "desktop"
    expect(page.locator(".rules-reference")).to_be_visible()
    expect(page.locator(".unit-card")).to_have_count(4)
    tab_to(page, page.get_by_label("Layout"))
    page.get_by_label("Layout").select_option("table")
    tab_to(page, page.get_by_role("button", name="Apply"))
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"layout=table"))
    expect(page.locator(".unit-card")).to_have_count(0)
    expect(page.locator(".roster-summary tbody tr")).to_have_count(4)
    expect(page.get_by_role("link", name="PDF")).to_have_attribute("href", re.compile(r"layout=table"))
    screenshot(page, f"feature5-print-table-{name}")
    assert page.evaluate("document.documentElement.scrollWidth") <= (viewport or {"width": 1280})["width"]
    page.get_by_label("Layout").select_option("cards")
    page.get_by_label("Columns").select_option("2")
    page.get_by_label("Rule texts").select_option("reference")
    page.get_by_role("button", name="Apply").click()
    page.emulate_media(media="print")
    expect(page.locator(".print-options")).to_be_hidden()
    columns = page.evaluate("getComputedStyle(document.querySelector('.roster-cards')).columnCount")
    assert columns == "2"
    screenshot(page, f"feature5-print-two-columns-{name}")


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_units_reorder_by_drag_and_drop_or_keyboard_and_group_on_the_roster(live_server, browser, viewport):
    from armybuilder.models import ListUnit

    units = ("concord-wardens", "warden-captain", "signal-corps")
    page, army_list = editor_page(live_server, browser, viewport=viewport, units=units)
    names = lambda: page.locator("#unit-rows .unit-row").evaluate_all(  # noqa: E731
        "rows => rows.map(r => r.dataset.unitName)"
    )
    rows = page.locator("#unit-rows .unit-row")
    # Two drags onto the top edge of the row above, each with both rows on the screen (on a
    # phone the first and the last row are not, and the sticky bar hides the bottom edge): the
    # last unit goes first.
    for source, target in ((2, 1), (1, 0)):
        rows.nth(target).evaluate("row => window.scrollBy(0, row.getBoundingClientRect().top - 120)")
        with page.expect_response(lambda r: "/move/" in r.url) as moved:
            handle = rows.nth(source).locator(".drag-handle")
            handle.drag_to(rows.nth(target), target_position={"x": 12, "y": 6})
        assert moved.value.status == 200
        expect(rows.nth(target)).to_have_attribute("data-unit-name", "Signal Corps")
    expect(rows.first).to_have_attribute("data-unit-name", "Signal Corps")
    assert names() == ["Signal Corps", "Concord Wardens", "Warden-Captain"]
    stored = ListUnit.objects.filter(army_list=army_list).order_by("position").values_list("name", flat=True)
    assert list(stored) == ["Signal Corps", "Concord Wardens", "Warden-Captain"]
    screenshot(page, shot_name("feature3-dragged", viewport), full_page=False)

    # The keyboard way: Tab to "Up" of the last unit, Enter; the focus stays on it.
    up = rows.nth(2).get_by_role("button", name=re.compile("^Up"))
    up_id = up.get_attribute("id")
    tab_to(page, up)
    page.keyboard.press("Enter")
    expect(rows.nth(1)).to_have_attribute("data-unit-name", "Warden-Captain")
    expect(page.locator(f"#{up_id}")).to_be_focused()

    # Groups: two units in "Vanguard" are printed together under its heading.
    for index in (0, 2):
        row = page.locator("#unit-rows .unit-row").nth(index)
        open_unit_options(page, row)
        row.get_by_label("Group").fill("Vanguard")
        with page.expect_response(lambda r: "/details/" in r.url):
            row.get_by_label("Group").press("Tab")
        htmx_idle(page)
    page.goto(f"{live_server.url}/lists/{army_list.pk}/roster/")
    expect(page.locator(".roster-group")).to_have_text(["Vanguard", "Other units"])
    headings = page.locator(".roster-group, .unit-card h2").all_inner_texts()
    assert headings[0] == "Vanguard" and "Signal Corps" in headings[1] and "Concord Wardens" in headings[2]
    screenshot(page, shot_name("feature3-roster-groups", viewport))


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_lists_compared_side_by_side_and_the_gallery_filtered(live_server, browser, viewport):
    from armybuilder.lists import services
    from rules.models import Faction, UnitTemplate

    page, army_list = editor_page(
        live_server, browser, viewport=viewport, units=("concord-wardens", "warden-captain")
    )
    brood = Faction.objects.get(system__key="opr", slug="thornwake-brood", owner__isnull=True)
    other = services.army_list_create(
        owner=army_list.owner,
        system=brood.system,
        faction=brood,
        name="Brood",
        points_limit=500,
        is_public=True,
    )
    template = UnitTemplate.objects.prefetch_related("options").filter(faction=brood).order_by("position")[0]
    services.army_list_add_unit(army_list=other, unit=template, expected_version=other.version)
    services.army_list_update(
        army_list=army_list, expected_version=army_list.version, name="Ridge Patrol", is_public=True
    )
    name = "phone" if viewport else "desktop"

    page.get_by_role("link", name="Compare with another list").click()
    second = page.get_by_label("Second list")
    tab_to(page, second)
    page.keyboard.type("Brood")  # keyboard only: type-ahead picks the option
    expect(second).to_have_value(str(other.pk))
    tab_to(page, page.get_by_role("button", name="Compare"))
    page.keyboard.press("Enter")
    table = page.locator(".compare-table")
    expect(table.locator("thead th")).to_have_count(3)
    expect(table.locator("tbody tr", has_text="Infantry").locator("td").first).to_have_text("139 pts (71%)")
    expect(table.locator("tbody tr", has_text="Hero").locator("td").first).to_have_text("58 pts (29%)")
    other.refresh_from_db()
    expect(table.locator("tfoot tr").first.locator("td")).to_have_text(
        ["197 / 1000", f"{other.total_points} / 500"]
    )
    expect(page.locator(".compare-units section").nth(1)).to_contain_text(template.name)
    screenshot(page, f"feature7-compare-{name}")

    page.goto(f"{live_server.url}/lists/gallery/")
    expect(page.locator(".list-table tbody tr")).to_have_count(2)
    faction = page.get_by_label("Faction")
    tab_to(page, faction)
    page.keyboard.type("Thornwake")  # keyboard only
    expect(faction.locator("option:checked")).to_have_text("Thornwake Brood")
    tab_to(page, page.get_by_role("button", name="Filter"))
    page.keyboard.press("Enter")
    expect(page.locator(".list-table tbody tr")).to_have_count(1)
    expect(page.locator(".list-table tbody")).to_contain_text("Brood")
    page.get_by_label("Faction").select_option("")
    assert other.total_points < 197  # the range below keeps Ridge Patrol (197) and drops Brood
    page.get_by_label("Points from").fill(str(other.total_points + 1))
    page.get_by_label("to").fill("250")
    page.get_by_label("Points from").press("Enter")
    expect(page.locator(".list-table tbody tr")).to_have_count(1)
    expect(page.locator(".list-table tbody")).to_contain_text("Ridge Patrol")
    screenshot(page, f"feature7-gallery-filtered-{name}")
    bad = page.request.get(f"{live_server.url}/lists/gallery/?points_min=lots")
    assert bad.status == 400 and "points_min" in bad.text()


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_40k_units_form_a_detachment_by_keyboard_checked_and_printed(live_server, browser, viewport):
    """Feature 3, "detachments where the system has them": 40k declares its group kinds
    (`GameSystem.group_kinds`); a group gets one from a menu beside the group's name, the
    detachment's slots show in the rules panel and are validated, the roster heads it."""
    page, army_list = editor_page(
        live_server, browser, viewport=viewport, system="wh40k9", faction="ironbound-covenant",
        name="Covenant muster", units=("forge-castellan", "covenant-riflemen", "pathrunner-bikes"),
    )
    suffix = "phone" if viewport else "desktop"
    row = page.locator("#unit-rows .unit-row").first
    tab_to(page, row.locator(".unit-options summary"))
    page.keyboard.press("Enter")
    tab_to(page, row.get_by_label("The army's Warlord"))
    page.keyboard.press("Space")
    expect(page.locator("#unit-rows .unit-row").first.locator(".unit-upgrades")).to_contain_text("Warlord")
    expect(page.locator("#list-valid")).to_be_visible()  # no detachment yet: groups are free
    row = page.locator("#unit-rows .unit-row").first
    tab_to(page, row.get_by_label("Group"))
    page.keyboard.type("Alpha")
    page.keyboard.press("Tab")  # change → saved; the focus comes back on the next field
    # The row the answer brings (a "networkidle" load state, reached long before, did not wait
    # for it: the arrow key below could change the old row's menu, about to be replaced).
    htmx_idle(page)
    kind = page.locator("#unit-rows .unit-row").first.get_by_label("Detachment")
    expect(kind).to_be_focused()
    expect(kind.locator("option")).to_have_text(
        ["None: a free group", "Patrol Detachment", "Battalion Detachment", "Brigade Detachment"]
    )
    with page.expect_response(lambda r: "/details/" in r.url):
        page.keyboard.press("ArrowDown")  # → Patrol Detachment
    expect(page.locator("#unit-rows .unit-row").first.locator(".unit-group")).to_have_text(
        "Alpha · Patrol Detachment"
    )
    # One HQ and no Troops yet, two units outside: the rules say so.
    expect(page.locator('#violations [data-rule="detachments"]')).to_have_count(3)
    expect(page.locator('[data-summary="detachment:Alpha"]')).to_contain_text("HQ 1/1–2 · Troops 0/1–3")
    for index in (1, 2):
        row = page.locator("#unit-rows .unit-row").nth(index)
        tab_to(page, row.locator(".unit-options summary"))
        page.keyboard.press("Enter")
        tab_to(page, row.get_by_label("Group"))
        page.keyboard.type("Alpha")
        with page.expect_response(lambda r: "/details/" in r.url):
            page.keyboard.press("Tab")
        htmx_idle(page)
        joined = page.locator("#unit-rows .unit-row").nth(index)
        expect(joined.get_by_label("Detachment")).to_have_value("patrol")
    expect(page.locator("#list-valid")).to_be_visible()
    expect(page.locator('[data-summary="detachment:Alpha"]')).to_have_text(
        "Alpha (Patrol Detachment): HQ 1/1–2 · Troops 1/1–3 · Fast Attack 1/0–2"
    )
    screenshot(page, f"feature3-detachment-{suffix}")
    page.goto(f"{live_server.url}/lists/{army_list.pk}/roster/")
    expect(page.locator(".roster-group")).to_have_text(["Alpha (Patrol Detachment)"])
    screenshot(page, f"feature3-detachment-roster-{suffix}")
    text = page.request.get(f"{live_server.url}/lists/{army_list.pk}/roster.txt").text()
    assert "== Alpha (Patrol Detachment) ==" in text
    exported = page.request.get(f"{live_server.url}/lists/{army_list.pk}/list.json").json()
    assert exported["groups"] == {"Alpha": "patrol"}
