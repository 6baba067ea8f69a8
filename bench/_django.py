"""The Django set-up the benches share, so that each states only what it needs: the repository
on the import path and the project's settings (`setup`), production-like settings for a bench
that serves requests (`server`: as gunicorn runs them, without DEBUG, which would keep every
query), rates no bench reaches (`unthrottled`: the throttles still count every request in
Redis), and a database of the bench's own for its run (`database`), named after the bench and
its process so that two benches never share one.

Each bench stays one command (`python bench/bench_pdf.py`, say): its folder is on the import
path as the script's, so it imports this module first and calls `setup` before any Django import.
"""

from __future__ import annotations

import io
import os
import secrets
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: A server's settings: no DEBUG, plain HTTP (the test client's and a loopback's), static files
#: without the collected manifest, and only errors in the log.
SERVER = {"DEBUG": "false", "HTTPS": "false", "STATIC_MANIFEST": "false", "LOG_LEVEL": "ERROR"}
#: Rates no bench reaches: one bench's player makes more requests than a person clicking.
UNTHROTTLED = {"API_THROTTLE_USER": "100000000/hour", "API_THROTTLE_IP": "100000000/hour",
               "PAGE_RATE": "100000000/min"}


def environment(name: str = "", *, server: bool = False, unthrottled: bool = False, root: Path = ROOT,
                **extra: str) -> None:
    """The settings of a bench, before Django reads them: the repository on the import path
    (`root`: another checkout's, for a bench that measures the code at another revision), the
    project's settings module, a test database named after the bench (`name`, else the
    script's) and its process, a secret key of its own unless one is set, `SERVER` and
    `UNTHROTTLED` when asked, and any `extra` setting by name. For a bench whose other process
    needs the settings but not Django (a load driver), or that sets Django up itself later."""
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    os.environ["TEST_DATABASE_NAME"] = f"{name or Path(sys.argv[0]).stem}_{os.getpid()}"
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_urlsafe(30))
    if server:
        os.environ.update(SERVER)
    if unthrottled:
        os.environ.update(UNTHROTTLED)
    os.environ.update(extra)


def setup(name: str = "", *, server: bool = False, unthrottled: bool = False, root: Path = ROOT,
          **extra: str) -> None:
    """`environment`, then Django set up."""
    environment(name, server=server, unthrottled=unthrottled, root=root, **extra)
    import django

    # whitenoise warns once per process that STATIC_ROOT was never collected; the finders serve.
    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()


@contextmanager
def database(*, catalogue: bool = True, instrumented: bool = False) -> Iterator[None]:
    """A database of the bench's own for the block, destroyed after it, with the bundled
    catalogue loaded (`catalogue`). `instrumented` sets up Django's test environment too (the
    outbox, a template render that keeps its context): a bench timing rendered pages leaves it
    off, as a server runs."""
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    if instrumented:
        setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        if catalogue:
            call_command("load_catalogue", verbosity=0, stdout=io.StringIO())
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        if instrumented:
            teardown_test_environment()
