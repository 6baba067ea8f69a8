"""A list's violations are read in the reader's language, whoever saved the list (issue 14).

The list stores its violations when it changes, in the language of whoever changed it; each
keeps its English original and arguments, so the editor, the roster, the forum text and the
API write it again in the language of the request that shows it.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.test import Client
from django.utils import translation

from armybuilder.lists.services import army_list_add_unit, army_list_create
from tests.factories.army_lists import make_faction, make_user
from tests.factories.estimate_lists import catalogue_unit
from tests.factories.opr_documents import opr_unit

pytestmark = pytest.mark.django_db

OVER_LIMIT = {
    "en": "Patrol totals 142 pts, over its points limit of 50",
    "pl": "Patrol: 142 pkt, ponad limit punktów 50",
    "cs": "Patrol: 142 b., nad limit bodů 50",
    "ru": "Patrol: 142 очк., больше лимита очков 50",
}


@pytest.fixture
def over_limit_list():
    """A 50-point list holding a 142-point unit, saved by a Polish-speaking owner."""
    owner = make_user("wlasciciel")
    faction = make_faction()
    with translation.override("pl"):
        army_list = army_list_create(owner=owner, system=faction.system, faction=faction, name="Patrol",
                                     points_limit=50, is_public=True)
        army_list_add_unit(army_list=army_list, unit=catalogue_unit(faction, opr_unit("Squad")), options={},
                           expected_version=None)
    army_list.refresh_from_db()
    assert army_list.units.get().points == 142
    return army_list


def test_the_stored_violation_keeps_its_english_original(over_limit_list):
    violation = next(v for v in over_limit_list.violations if v["rule"] == "points_limit")
    assert violation["message"] == OVER_LIMIT["pl"]  # stored in the owner's language
    assert violation["message_id"] == "{army} totals {total} pts, over its points limit of {limit}"
    assert violation["message_args"] == {"army": "Patrol", "total": 142, "limit": 50}


@pytest.mark.parametrize("language", ["en", "pl", "cs", "ru"])
def test_the_editor_roster_and_forum_text_show_it_in_the_readers_language(over_limit_list, language):
    client = Client()
    client.force_login(over_limit_list.owner)
    for url in (f"/lists/{over_limit_list.pk}/", f"/lists/{over_limit_list.pk}/roster/",
                f"/lists/{over_limit_list.pk}/roster.txt"):
        body = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert OVER_LIMIT[language] in body, url
        for other in set(OVER_LIMIT) - {language}:
            assert OVER_LIMIT[other] not in body
        # "over 35% of 50 (17.5)": the decimal in the message takes the reader's separator too.
        assert ("(17.5)" in body) is (language == "en") and ("(17,5)" in body) is (language != "en")


@pytest.mark.parametrize("language", ["cs", "ru"])
def test_the_api_shows_it_in_the_language_of_accept_language(over_limit_list, language):
    client = Client()
    client.force_login(over_limit_list.owner)
    body = client.get(f"/api/v1/lists/{over_limit_list.pk}", HTTP_ACCEPT_LANGUAGE=language).json()
    assert OVER_LIMIT[language] in [v["message"] for v in body["violations"]]
    assert not any(key.startswith("message_") for v in body["violations"] for key in v)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is installed by bin/setup test")
@pytest.mark.parametrize(("language", "words"), [
    ("ru", ["Сводка", "Итого", "Нарушенные правила", OVER_LIMIT["ru"]]),
    ("cs", ["Shrnutí", "Celkem", "Porušená pravidla", OVER_LIMIT["cs"]]),
    ("pl", ["Podsumowanie", "Razem", "Złamane zasady", OVER_LIMIT["pl"]]),
])
def test_the_pdf_roster_is_in_the_readers_language(
    over_limit_list, language, words, tmp_path, inline_pdf_renders
):
    """The PDF is the print view rendered by WeasyPrint: its fonts carry Polish, Czech and
    Cyrillic letters, and its words are the reader's."""
    client = Client()
    client.force_login(over_limit_list.owner)
    response = client.get(f"/lists/{over_limit_list.pk}/roster.pdf", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    pdf = tmp_path / "roster.pdf"
    pdf.write_bytes(response.content)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    text = " ".join(text.split())
    for word in words:
        assert word in text


def test_a_translated_argument_is_translated_again_with_its_message():
    """The slot name inside a percentage violation follows the reader, not whoever saved the
    list (issue 30, item 7: "Основные choices cost 309 pts…" shown to an English reader)."""
    from points.catalogue.fantasy_army import percentage_violations
    from points.catalogue.i18n import message_record, translated_again

    army = {"points_limit": 1000, "units": [{"unit": {"name": "Knights", "slot": "core", "models": []}}]}
    with translation.override("ru"):
        [violation] = percentage_violations(
            army, lambda unit: {"exact": 309}, maxima={"core": 25}, minima={}
        )
        stored = {**violation, **message_record(violation["message"])}
    # Issue 43, item 10: it reads naturally ("Выбор Основные стоит" did not).
    assert stored["message"] == "Отряды категории «Основные» стоят 309 очк. — больше 25% лимита (250 очк.)."
    with translation.override("en"):
        assert translated_again(stored) == "Core choices cost 309 pts, over 25% of the limit (250 pts)."
    with translation.override("pl"):
        assert translated_again(stored) == "Wybory Podstawowe kosztują 309 pkt, ponad 25% limitu (250 pkt)."
