"""Screenshots of the browser tests, kept as artifacts under artifacts/screenshots (not in git)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def screenshot(page: Page, name: str, *, full_page: bool = True) -> Path:
    """Save what the page shows now as `<name>.png` and return the file's path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path
