"""Every file a comment, docstring, string, template or document names is in this repository.

The rules the code implements are written in `docs/` (`docs/seeds.md` says which seed each
comes from), so a reader follows every reference inside the clone: no path outside it (the
seeds and their summaries are third-party texts kept elsewhere), and no path to a file that
was moved or deleted. A cited section of a document (`docs/rules/whfb6.md` §6.3) must be one of
its headings.

What is read: Markdown whole; the comments and docstrings of Python; the comments of templates
and YAML (the rest of them is code and data: a URL pattern, a file a program writes, a template
a library ships). A reference is a path ending in a file extension (`points/opr/tables.py`,
`_unit_row.html`); it resolves when the repository holds a file at that path (from the top,
from the citing file's folder, or as the end of a longer path) or, for a bare name, a file of
that name anywhere.
"""

from __future__ import annotations

import io
import os
import re
import sys
import tokenize
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Folders that are not the repository's own text: tools, caches, data the commands create.
SKIPPED_FOLDERS = {".git", ".venv", ".data", ".ci", "node_modules", "__pycache__", "staticfiles",
                   ".pytest_cache", ".ruff_cache"}
EXTENSIONS = ("md", "txt", "py", "html", "yaml", "yml", "toml", "cfg", "in", "sh", "js", "css")

#: A path ending in a file extension, not the tail of a longer word, path or URL.
EXTENSION = re.compile(r"\.(?:" + "|".join(EXTENSIONS) + r")(?![\w\-/])")
PATH = re.compile(
    r"(?<![\w/.\-~:])([\w.\-](?:[\w.\-/]*[\w\-])?\.(?:" + "|".join(EXTENSIONS) + r"))(?![\w\-/])"
)
#: Places outside the clone, however they are spelled: up from the repository, an absolute
#: path of this machine, the specification folders beside the clone.
OUTSIDE = re.compile(r"(?<![\w.])\.\./|(?<![\w.])/(?:work|tmp|home)/[\w.]|\bshared/(?:spec|seeds)\b")
#: A cited section of a document: `docs/rules/whfb6.md` §6.3 (also "§ 6"); each § that follows
#: the path on the same line, a few words apart, belongs to it.
CITED_SECTION = re.compile(r"(docs/[\w/.\-]+\.md)`?((?:[^§\n`]{0,12}§\s?[0-9]+(?:\.[0-9]+)*)+)")
SECTION_NUMBER = re.compile(r"§\s?([0-9]+(?:\.[0-9]+)*)")
#: A template's comments. The rest of a template is code that names templates and static
#: files Django and the libraries resolve (an `extends` of a template a library ships).
TEMPLATE_COMMENT = re.compile(r"(?s)\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}|<!--.*?-->")


def repository_files() -> list[Path]:
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders if name not in SKIPPED_FOLDERS]
        found += [Path(folder) / name for name in files]
    return found


@cache
def _index() -> frozenset[str]:
    """Every file's path from the top and every tail of it (`rules/_unit_card.html`, a name)."""
    tails = set()
    for path in repository_files():
        parts = path.relative_to(ROOT).parts
        tails.update("/".join(parts[i:]) for i in range(len(parts)))
    return frozenset(tails)


def resolves(reference: str, citing: Path) -> bool:
    """Whether the repository holds the file `reference` names, as read from `citing`."""
    reference = reference.removeprefix("./")
    if reference.startswith("../"):
        return False
    if reference in _index():
        return True
    return (citing.parent / reference).relative_to(ROOT).as_posix() in _index()


#: Tokens after which a string on its own is a statement (a docstring), not a value.
STATEMENT_START = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING}


def python_text(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every comment and docstring of a Python file (a string that is a statement
    of its own). Other string literals are data (a file a program writes, a URL pattern, a
    template a library ships), not citations."""
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)]
    previous = tokenize.ENCODING
    for index, token in enumerate(tokens):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
        elif token.type == tokenize.STRING and previous in STATEMENT_START:
            following = tokens[index + 1].type if index + 1 < len(tokens) else tokenize.ENDMARKER
            if following in (tokenize.NEWLINE, tokenize.ENDMARKER):
                for offset, line in enumerate(token.string.splitlines()):
                    yield token.start[0] + offset, line
        if token.type not in (tokenize.COMMENT, tokenize.NL):
            previous = token.type


def texts(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of the parts of `path` that may cite a file: Python comments and
    docstrings, template comments, every line of a document, a data file's comments."""
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        # Tokenizing is slow: a file none of whose lines has a problem, wherever on the line,
        # has none in its comments and docstrings either.
        if any(line_problems(path, number, line) for number, line in enumerate(source.splitlines(), 1)):
            yield from python_text(source)
        return
    if path.suffix == ".html":
        for match in TEMPLATE_COMMENT.finditer(source):
            first = source.count("\n", 0, match.start()) + 1
            for offset, line in enumerate(match.group(0).splitlines()):
                yield first + offset, line
        return
    for number, line in enumerate(source.splitlines(), 1):
        if path.suffix == ".md":
            yield number, line
        elif "#" in line:  # a data file's comment; its values are data (a container's /tmp)
            yield number, line[line.index("#"):]


def cited_files() -> list[Path]:
    return sorted(p for p in repository_files() if p.suffix in (".py", ".md", ".html", ".yaml", ".yml"))


@cache
def headings(document: str) -> frozenset[str]:
    """The section numbers a document's headings carry (`## 6.` and `### 6.3 …` give 6, 6.3)."""
    path = ROOT / document
    if not path.is_file():
        return frozenset()
    found = re.findall(r"^#+\s+([0-9]+(?:\.[0-9]+)*)\.?\s", path.read_text(encoding="utf-8"), flags=re.M)
    return frozenset(found)


def problems(path: Path) -> list[str]:
    return [problem for line, text in texts(path) for problem in line_problems(path, line, text)]


def line_problems(path: Path, line: int, text: str) -> list[str]:
    """What is wrong with the references on one line of `path`."""
    found = [f"points outside the repository: {m.group(0)!r}" for m in OUTSIDE.finditer(text)]
    for match in PATH.finditer(text) if EXTENSION.search(text) else ():
        if not resolves(match.group(1), path):
            found.append(f"names {match.group(1)!r}, which the repository does not hold")
    for match in CITED_SECTION.finditer(text) if "§" in text else ():
        document, sections = match.group(1), match.group(2)
        for number in SECTION_NUMBER.findall(sections):
            if headings(document) and number not in headings(document):
                found.append(f"cites {document} §{number}, which has no such heading")
    return [f"{path.relative_to(ROOT).as_posix()}:{line}: {problem}" for problem in found] if found else []


def test_every_reference_is_a_file_of_this_repository():
    found = [problem for path in cited_files() for problem in problems(path)]
    assert found == []


def test_the_checker_finds_each_kind_of_bad_reference(tmp_path, monkeypatch):
    """The check must be able to fail: a module citing an outside spec, a moved file, a path
    up from the clone and a section a document lacks is reported four times; good ones are not."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("# Rules\n## 6. Combat\n### 6.3 To hit\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "tables.py").write_text("")
    module = tmp_path / "pkg" / "engine.py"
    module.write_text(
        '"""The tables (`shared/spec/systems/000_whfb6.md` §6.3, `docs/rules.md` §6.3 and §7.1)."""\n'
        "# see ../notes/combat.md and pkg/gone.py; pkg/tables.py and tables.py are here\n"
        'URL = "/lists/<id>/list.json"\n'
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    _index.cache_clear()
    headings.cache_clear()
    try:
        found = problems(module)
    finally:
        _index.cache_clear()
        headings.cache_clear()
    assert len([p for p in found if "outside" in p]) == 2, found  # the spec folder, the parent folder
    assert any("'000_whfb6.md'" in p or "shared/spec/systems/000_whfb6.md" in p for p in found)
    assert any("'pkg/gone.py'" in p for p in found)
    assert any("§7.1" in p for p in found)
    assert not any("tables.py" in p or "§6.3" in p for p in found), found
