"""The production configuration, started for a test: static files collected with the manifest
storage and gunicorn (with the project's `gunicorn.conf.py`) serving with `DEBUG=false`.

The rest of the suite runs with `DEBUG` on and `STATIC_MANIFEST=false`, so a page or view that
works only without the manifest (`/sw.js` answered 500 in every deployment, issue 38) was
never seen failing. Here the web process is a real gunicorn with the settings a deployment
has, on a free port, against this test process's database and Redis.

One difference from a deployment, on purpose: `collect_static` skips whitenoise's gzip and
Brotli copies of the collected files (47 s of the 48 s `collectstatic` took on the CI machine;
0.8 s without). Every file is still hashed and named in `staticfiles.json` by the same storage
class, and the server serves the uncompressed file whichever encoding a client accepts.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from whitenoise.storage import CompressedManifestStaticFilesStorage

ROOT = Path(__file__).resolve().parent.parent


class ManifestStorageWithoutCompression(CompressedManifestStaticFilesStorage):
    """The deployment's storage (`whitenoise.storage.CompressedManifestStaticFilesStorage`)
    minus the compressed copies, which only cost time here."""

    def compress_files(self, paths: Iterable[str]) -> Iterator[tuple[str, str]]:
        return iter(())


def collect_static(static_root: Path) -> float:
    """`collectstatic` with the manifest storage into `static_root`; returns the seconds it took."""
    from django.core.management import call_command
    from django.test import override_settings

    storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "staticfiles": {"BACKEND": f"{__name__}.ManifestStorageWithoutCompression"}}
    started = time.monotonic()
    with override_settings(STORAGES=storages, STATIC_ROOT=str(static_root)):
        call_command("collectstatic", interactive=False, verbosity=0)
    return time.monotonic() - started


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def production_environment(static_root: Path, database_name: str) -> dict[str, str]:
    """The environment of a deployment serving plain HTTP on 127.0.0.1 (as `bin/run` with DEBUG
    off), on this process's test database and Redis, with its secret key (so a session the test
    signs in is valid there)."""
    from django.conf import settings

    env = {**os.environ, "DEBUG": "false", "HTTPS": "false", "SECRET_KEY": settings.SECRET_KEY,
           "ALLOWED_HOSTS": "127.0.0.1,localhost", "STATIC_ROOT": str(static_root),
           "DATABASE_NAME": database_name, "DJANGO_SETTINGS_MODULE": "armybuilder.settings"}
    for name in ("STATIC_MANIFEST", "WHITENOISE_USE_FINDERS", "SERVICE_WORKER_ENABLED", "RELEASE"):
        env.pop(name, None)  # the deployment's defaults, not the test run's
    return env


@contextmanager
def gunicorn_server(static_root: Path, database_name: str, *, timeout: float = 60.0) -> Iterator[str]:
    """gunicorn as `docker-compose.yml` runs it (one worker instead of three); yields its base URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "armybuilder.wsgi:application", "--config", "gunicorn.conf.py",
         "--bind", f"127.0.0.1:{port}", "--workers", "1", "--worker-class", "gthread", "--threads", "4",
         "--timeout", "30"],
        cwd=ROOT, env=production_environment(static_root, database_name), start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {process.stderr.read().decode()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{base}/favicon.ico", timeout=5):
                    break
            except urllib.error.HTTPError:
                break  # it answers
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
