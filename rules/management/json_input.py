"""Reading a JSON file for a management command, and failing the way the contract says.

docs/unit-format.md: every command prints JSON on stdout; invalid input (a missing file, bad
JSON, schema errors) exits with status 2 and the error list as JSON on stderr, never a
traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

#: Exit status for invalid input (docs/unit-format.md, "Command line").
INVALID_INPUT_STATUS = 2
#: Files larger than this are refused before parsing (no real unit or list comes close).
MAX_INPUT_BYTES = 10 * 1024 * 1024


class InputError(Exception):
    """Invalid input; `errors` are `{"path", "message"}` dicts for the JSON error list."""

    def __init__(self, errors: list[dict[str, str]]):
        self.errors = errors
        super().__init__("; ".join(e["message"] for e in errors))


def read_json(filename: str) -> Any:
    """The parsed JSON of `filename` ("-" reads stdin), or InputError saying what is wrong."""
    try:
        if filename == "-":
            text = sys.stdin.read(MAX_INPUT_BYTES + 1)
        else:
            path = Path(filename)
            if path.stat().st_size > MAX_INPUT_BYTES:
                raise InputError(
                    [{"path": "", "message": f"{filename}: larger than {MAX_INPUT_BYTES} bytes"}]
                )
            text = path.read_text(encoding="utf-8")
    except InputError:
        raise
    except FileNotFoundError:
        raise InputError([{"path": "", "message": f"{filename}: no such file"}]) from None
    except IsADirectoryError:
        raise InputError([{"path": "", "message": f"{filename}: is a directory, not a JSON file"}]) from None
    except UnicodeDecodeError as exc:
        raise InputError([{"path": "", "message": f"{filename}: not UTF-8 text ({exc.reason})"}]) from None
    except OSError as exc:
        raise InputError(
            [{"path": "", "message": f"{filename}: cannot be read ({exc.strerror or exc})"}]
        ) from None
    if len(text) > MAX_INPUT_BYTES:
        raise InputError([{"path": "", "message": f"{filename}: larger than {MAX_INPUT_BYTES} bytes"}])
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        message = f"{filename}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        raise InputError([{"path": "", "message": message}]) from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of thousands of digits, absurd nesting
        raise InputError([{"path": "", "message": f"{filename}: invalid JSON: {exc}"}]) from None


def fail(stderr: Any, errors: list[dict[str, str]]) -> NoReturn:
    """Write `{"errors": [...]}` to the command's stderr and exit with status 2."""
    stderr.write(json.dumps({"errors": errors}, ensure_ascii=False, indent=2), style_func=lambda text: text)
    raise SystemExit(INVALID_INPUT_STATUS)


def print_json(stdout: Any, data: Any) -> None:
    """The command's result as JSON on stdout."""
    stdout.write(json.dumps(data, ensure_ascii=False, indent=2), style_func=lambda text: text)
