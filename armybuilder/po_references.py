"""Refreshing the `#:` references of the translation catalogues, and nothing else.

    python -m armybuilder.po_references [--all] [--line-numbers]     (bin/refresh-po-references)

Running `makemessages` on the committed catalogues rewrites them wholesale (wrapping, order,
obsolete entries), which turns every branch that adds translations into a merge conflict. So
`makemessages` runs on a temporary copy of the sources and catalogues (`copy_sources`,
which `tests/armybuilder/test_translation_catalogues.py` checks them with too), and only the references it
finds are written back into the real files with polib, at `wrapwidth=0` like every other
tool that writes them: msgids, msgstrs, flags, comments and order stay as they are.

References are paths without line numbers unless `--line-numbers` asks for them: a line
number goes stale with any edit above it, a path only when the file moves. By default only
the entries that carry references get fresh ones (an entry's references vanish when the
code no longer has its message); `--all` gives every entry its references.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("pl", "cs", "ru")
#: What makemessages must not read: installed packages, data, build output, tests.
IGNORED_DIRECTORIES = {".venv", ".data", "artifacts", "node_modules", "staticfiles", "tests", "bench", ".git",
                       "locale", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis"}
SOURCE_SUFFIXES = {".py", ".html", ".txt", ".js"}
#: Entries are matched on their context and msgid (a msgid may exist once per context).
Key = tuple[str, str]


def catalogue_path(language: str, root: Path = ROOT / "locale") -> Path:
    return root / language / "LC_MESSAGES" / "django.po"


def copy_sources(target: Path) -> None:
    """The code and templates makemessages reads, copied under `target` (makemessages writes
    next to what it reads, and the committed catalogues must stay untouched)."""
    def ignore(directory: str, names: list[str]) -> set[str]:
        return {name for name in names
                if name in IGNORED_DIRECTORIES
                or ((Path(directory) / name).is_file() and Path(name).suffix not in SOURCE_SUFFIXES)}

    for child in ROOT.iterdir():
        if child.name in IGNORED_DIRECTORIES or child.name.startswith(".") or child.is_symlink():
            continue
        if child.is_dir():
            shutil.copytree(child, target / child.name, ignore=ignore)
        elif child.suffix in SOURCE_SUFFIXES:
            shutil.copy(child, target / child.name)


def current_references(*, line_numbers: bool) -> dict[str, dict[Key, list[tuple[str, str]]]]:
    """Per language, where makemessages finds each message in the code now."""
    import polib
    from django.conf import settings
    from django.core.management import call_command

    found: dict[str, dict[Key, list[tuple[str, str]]]] = {}
    previous = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="po-references-") as temporary:
        tree = Path(temporary)
        copy_sources(tree)
        for language in LANGUAGES:
            target = catalogue_path(language, tree / "locale")
            target.parent.mkdir(parents=True)
            shutil.copy(catalogue_path(language, ROOT / "locale"), target)
        old_paths = settings.LOCALE_PATHS
        settings.LOCALE_PATHS = [tree / "locale"]
        os.chdir(tree)
        try:
            call_command("makemessages", locale=list(LANGUAGES), no_obsolete=True, verbosity=0,
                         add_location="full" if line_numbers else "file")
        finally:
            os.chdir(previous)
            settings.LOCALE_PATHS = old_paths
        for language in LANGUAGES:
            found[language] = {(entry.msgctxt or "", entry.msgid): list(entry.occurrences)
                               for entry in polib.pofile(str(catalogue_path(language, tree / "locale")))
                               if not entry.obsolete}
    return found


def refresh(path: Path, references: Mapping[Key, list[tuple[str, str]]], *, every_entry: bool) -> int:
    """Write `references` into the catalogue at `path`; how many entries changed."""
    import polib

    po = polib.pofile(str(path), wrapwidth=0)
    changed = 0
    for entry in po:
        if entry.obsolete or not (every_entry or entry.occurrences):
            continue
        fresh = references.get((entry.msgctxt or "", entry.msgid), [])
        if fresh != list(entry.occurrences):
            entry.occurrences = fresh
            changed += 1
    if changed:
        po.save(str(path))
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="give every entry its references")
    parser.add_argument("--line-numbers", action="store_true", help="path:line instead of paths")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    os.environ.setdefault("SECRET_KEY", "po-references")
    import django

    django.setup()
    found = current_references(line_numbers=args.line_numbers)
    for language in LANGUAGES:
        path = catalogue_path(language, ROOT / "locale")
        changed = refresh(path, found[language], every_entry=args.all)
        print(f"{path.relative_to(ROOT)}: {changed} entr{'y' if changed == 1 else 'ies'} with new references")
    return 0


if __name__ == "__main__":
    sys.exit(main())
