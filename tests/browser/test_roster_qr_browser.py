"""The QR code on the printed roster page scans (issue 43, item 1).

The PDF's code decoded, the page's did not: its SVG was drawn 123 px wide with no `viewBox`
and the page's CSS squeezed it to 112 px, cutting the quiet zone and two rows of modules.
Here a QR reader (zxing-cpp) decodes the code from a screenshot of the rendered page, as a
phone held over the screen or the sheet would, on a 1366×900 desktop and a 390×844 phone."""

from __future__ import annotations

import io

import pytest
import segno
import zxingcpp
from django.core.management import call_command
from django.urls import reverse
from PIL import Image
from playwright.sync_api import Browser

from armybuilder.lists.examples import EXAMPLES_USERNAME
from armybuilder.models import ArmyList
from rules.systems.registry import all_systems
from tests.browser.artifacts import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The drawn code's box, and the light margin inside the SVG's box on each side, in modules:
#: with the old fixed-size drawing squeezed by CSS the dark modules ran past the right and
#: bottom edges (negative margins), which a tolerant reader still decoded but phones did not.
QUIET_ZONE = """(svg, modules) => {
    const outer = svg.getBoundingClientRect();
    const dark = svg.querySelector('path.qrline').getBoundingClientRect();
    const module = dark.width / modules;
    const margins = [dark.left - outer.left, dark.top - outer.top, outer.right - dark.right,
                     outer.bottom - dark.bottom];
    return {size: [Math.round(outer.width), Math.round(outer.height)],
            margins: margins.map(m => Math.floor(m / module + 0.01))};
}"""

VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_the_printed_rosters_qr_code_decodes_from_a_screenshot(
    live_server, browser: Browser, device: str
) -> None:
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=io.StringIO())
    lists = {a.system.key: a for a in ArmyList.objects.filter(owner__username=EXAMPLES_USERNAME)}
    assert set(lists) == {s.key for s in all_systems()}
    page = browser.new_context(viewport=VIEWPORTS[device]).new_page()
    decoded, expected = {}, {}
    for key, army_list in sorted(lists.items()):
        page.goto(f"{live_server.url}{reverse('lists:roster', args=[army_list.pk])}")
        code = page.locator(".roster-qr svg")
        code.scroll_into_view_if_needed()
        expected[key] = [live_server.url + reverse("lists:detail", args=[army_list.pk])]
        modules = segno.make(expected[key][0], error="m", micro=False).symbol_size(scale=1, border=0)[0]
        # The quiet zone drawn (4 modules a side) and nothing squeezed out of the SVG's box.
        assert code.evaluate(QUIET_ZONE, modules) == {"size": [144, 144], "margins": [4, 4, 4, 4]}, key
        shot = screenshot(page, f"roster-qr-{device}-{key}", full_page=False)
        decoded[key] = [result.text for result in zxingcpp.read_barcodes(Image.open(shot))]
    assert decoded == expected
