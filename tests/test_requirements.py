"""The test environment installs only requirements-dev.txt (bin/setup test), so every
runtime pin must appear there with the same version — otherwise CI on a fresh clone
runs without a package the app imports (this happened with django-csp)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)==([^\s;]+)", re.MULTILINE)


def _pins(name: str) -> dict[str, str]:
    text = (ROOT / name).read_text(encoding="utf-8")
    return {m.group(1).lower().split("[")[0]: m.group(2) for m in PIN.finditer(text)}


def test_every_runtime_pin_is_in_the_dev_pins_with_the_same_version():
    runtime, dev = _pins("requirements.txt"), _pins("requirements-dev.txt")
    missing = {name: version for name, version in runtime.items() if name not in dev}
    differing = {
        name: (version, dev[name])
        for name, version in runtime.items()
        if name in dev and dev[name] != version
    }
    assert not missing, f"runtime pins absent from requirements-dev.txt: {missing}"
    assert not differing, f"runtime pins with another version in dev: {differing}"


def test_every_top_level_requirement_is_pinned():
    for source, pinned in (("requirements.in", "requirements.txt"),
                           ("requirements-dev.in", "requirements-dev.txt")):
        pins = _pins(pinned)
        for line in (ROOT / source).read_text(encoding="utf-8").splitlines():
            line = line.split("#")[0].strip()
            if not line or line.startswith("-"):
                continue
            name = re.split(r"[\[<>=~!; ]", line)[0].lower()
            assert name in pins, f"{source} lists {name} but {pinned} does not pin it"
