"""The Polish, Czech and Russian catalogues are complete (issue 14, "Tests that must exist").

Every message of every `.po` is translated and none is fuzzy; the placeholders of each
translation are the message's own; `msgfmt --check` accepts the files; and running
`makemessages` over the code finds no message the catalogues do not translate, so a new
English string without a translation fails CI.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.core.management import call_command

from armybuilder.po_references import LANGUAGES, catalogue_path, copy_sources

ROOT = Path(__file__).resolve().parents[2]
#: Django's plural forms for these languages have four: one, few, many, and fractions.
PLURAL_FORMS = {"pl": 4, "cs": 4, "ru": 4}
_PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sdr]|\{[a-z_]+\}|</?(?:a|strong|em|code|small|span)\b[^>]*>")


def untranslated(po: polib.POFile) -> list[str]:
    """Messages of `po` that are empty, partly empty (a plural form) or fuzzy."""
    problems = []
    for entry in po:
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.msgid!r}")
        elif entry.msgid_plural:
            forms = entry.msgstr_plural
            if len(forms) != PLURAL_FORMS[po.metadata["Language"]] or not all(forms.values()):
                problems.append(f"plural forms missing: {entry.msgid!r}")
        elif not entry.msgstr:
            problems.append(f"untranslated: {entry.msgid!r}")
    return problems


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(language):
    po = polib.pofile(str(catalogue_path(language)))
    assert po.metadata["Language"] == language
    assert len([e for e in po if not e.obsolete]) > 700
    assert untranslated(po) == []
    assert po.percent_translated() == 100


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders_of_their_message(language):
    """A translation that drops `%(name)s` or renames `{unit}` would fail at runtime."""
    wrong = []
    for entry in polib.pofile(str(catalogue_path(language))):
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            wanted = placeholders(entry.msgid_plural)
            for index, form in entry.msgstr_plural.items():
                # The "one" form may say the number in words ("jeden") instead of %(n)d.
                if placeholders(form) != wanted and not (index == 0 and placeholders(form) <= wanted):
                    wrong.append((entry.msgid, form))
        elif placeholders(entry.msgstr) != placeholders(entry.msgid):
            wrong.append((entry.msgid, entry.msgstr))
    assert wrong == []


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs GNU gettext (bin/setup installs it)")
@pytest.mark.parametrize("language", LANGUAGES)
def test_msgfmt_accepts_the_catalogue(language, tmp_path):
    command = ["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "django.mo"),
               str(catalogue_path(language))]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "untranslated" not in result.stderr and "fuzzy" not in result.stderr


def test_makemessages_finds_no_untranslated_string(tmp_path, settings, monkeypatch):
    """makemessages over the code, merged into copies of the catalogues, leaves nothing to
    translate: every marked string of the code has its Polish, Czech and Russian text."""
    if shutil.which("xgettext") is None:
        pytest.fail("makemessages needs GNU gettext's xgettext: run bin/setup test (it installs gettext)")
    copy_sources(tmp_path)
    for language in LANGUAGES:
        target = catalogue_path(language, tmp_path / "locale")
        target.parent.mkdir(parents=True)
        shutil.copy(catalogue_path(language), target)
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", locale=list(LANGUAGES), no_location=True, no_obsolete=True, verbosity=0)
    problems = {language: untranslated(polib.pofile(str(catalogue_path(language, tmp_path / "locale"))))
                for language in LANGUAGES}
    assert problems == {language: [] for language in LANGUAGES}
