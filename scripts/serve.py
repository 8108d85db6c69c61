"""Serve Perceptron Lab with several Streamlit replicas behind HAProxy (`make serve`).

Runs in the foreground until Ctrl-C (SIGINT) or SIGTERM, then stops the proxy, every
replica and Redis::

    PORT=8500 REPLICAS=2 python scripts/serve.py

- ``PORT`` (default 8500): where HAProxy listens, on ``ADDRESS`` (default 0.0.0.0,
  so the students' machines reach it).
- ``REPLICAS`` (default: the number of cores): how many ``streamlit run app.py``
  servers to start, each on a free loopback port.
- ``STATS_PORT`` (optional): HAProxy's statistics page on 127.0.0.1.
- ``STREAMLIT_SERVER_COOKIE_SECRET`` (optional): the secret every replica shares
  (generated once per start otherwise), so a session's XSRF cookie stays valid when
  its page moves to another replica.
- ``REDIS_DIR`` (optional): where Redis keeps the live classes on disk (append-only file).
  Without it every start uses a folder of its own, removed when it stops, so two
  ``make serve`` on one machine never share (and overwrite) one file; give the same
  ``REDIS_DIR`` to keep the classes across stops. Debian's ``redis-server`` is started
  beside the replicas on a free loopback port; its address reaches every replica as
  ``PERCEPTRON_LAB_REDIS_URL``, so all of them share one store of classes (classroom/).

The proxy configuration is ``deploy/haproxy.cfg``; this script appends one ``server``
line per replica and sets ``PROXY_BIND`` / ``STATS_BIND``.

Nothing needs a person when something dies. :class:`Supervisor` watches the three kinds of
process, writes one line per event, and starts again whatever exits: Redis on the same port
with the same folder (the append-only file gives the classes back), HAProxy with the same
configuration, a replica on the same port once HAProxy's health check has taken it out of
rotation (``REPLICA_RESTART_SECONDS``; the check puts it back when it serves). A process that
keeps exiting is started again after 1, 2, 4, ... and then every ``MAX_BACKOFF_SECONDS``
seconds, for as long as this script runs, each attempt logged with the end of its log.

The same machinery is a context manager for the tests and the load benchmark (no
supervisor: a test kills what it wants to stay dead)::

    with deployment(replicas=2, port=free_port()) as dep:
        dep.url, dep.replica_urls, dep.stop_replica(0), dep.stats()
"""

from __future__ import annotations

import contextlib
import csv
import ctypes
import io
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
#: a replica's BLAS libraries get one thread: a request's computations are then all in its
#: own thread's CPU time, which its budget counts (pages/common/request_budget.py)
ONE_BLAS_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
HAPROXY_TEMPLATE = REPO_ROOT / "deploy" / "haproxy.cfg"
HAPROXY_CANDIDATES = ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy")
REDIS_CANDIDATES = ("/usr/bin/redis-server", "/usr/local/bin/redis-server")
#: the variable the replicas read the Redis address from (classroom.REDIS_URL_VARIABLE)
REDIS_URL_VARIABLE = "PERCEPTRON_LAB_REDIS_URL"
_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def find_haproxy() -> str | None:
    """Path of the haproxy binary (Debian: ``apt-get install haproxy``), or None."""
    for path in (os.environ.get("HAPROXY"), *HAPROXY_CANDIDATES, shutil.which("haproxy")):
        if path and os.access(path, os.X_OK):
            return path
    return None


def find_redis_server() -> str | None:
    """Path of Debian's redis-server (``apt-get install redis-server``), or None."""
    for path in (os.environ.get("REDIS_SERVER"), *REDIS_CANDIDATES, shutil.which("redis-server")):
        if path and os.access(path, os.X_OK):
            return path
    return None


def redis_ping(port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def listening(port: int, host: str = "127.0.0.1", timeout: float = 1.0) -> bool:
    """Whether something accepts TCP connections on ``host:port``."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


@dataclass
class RedisServer:
    """Debian's redis-server on 127.0.0.1:``port``, persistence on (append-only file, fsync
    every second, in ``data_dir``; its log beside it). Started again on the same port and
    folder, it reads the file back: the classes are as they were."""

    binary: str
    port: int
    data_dir: Path
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def log_path(self) -> Path:
        return self.data_dir / "redis-server.log"

    def spawn(self) -> subprocess.Popen:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--protected-mode",
                    "yes",
                    "--dir",
                    str(self.data_dir),
                    "--appendonly",
                    "yes",
                    "--appendfsync",
                    "everysec",
                    "--save",
                    "",
                    "--daemonize",
                    "no",
                    "--logfile",
                    "",
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent,
            )
        return self.process

    def ready(self) -> bool:
        return redis_ping(self.port, timeout=0.5)

    def wait_ready(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not self.ready():
            if self.process is None or self.process.poll() is not None:
                code = None if self.process is None else self.process.returncode
                raise RuntimeError(f"redis-server exited with code {code}:\n{self.log_tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"redis-server not answering on port {self.port} after {timeout} s"
                )
            time.sleep(0.05)

    def log_tail(self, lines: int = 10) -> str:
        return _tail(self.log_path, lines)

    def stop(self) -> None:
        stop_process_group(self.process)


@contextlib.contextmanager
def redis_server(
    port: int | None = None, data_dir: Path | str | None = None, timeout: float = 20.0
) -> Iterator[tuple[str, subprocess.Popen]]:
    """Debian's redis-server on 127.0.0.1:``port`` (a free one by default), persistence in
    ``data_dir`` (a folder of its own, removed afterwards, by default); yields its URL and
    process and stops it on exit."""
    binary = find_redis_server()
    if binary is None:
        raise FileNotFoundError("redis-server not found (Debian: apt-get install -y redis-server)")
    with contextlib.ExitStack() as stack:
        if data_dir is None:
            data_dir = stack.enter_context(
                tempfile.TemporaryDirectory(prefix="perceptron-lab-redis-")
            )
        server = RedisServer(binary, port or free_port(), Path(data_dir))
        server.spawn()
        stack.callback(server.stop)
        server.wait_ready(timeout)
        yield server.url, server.process


def _tail(path: Path | None, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except (OSError, AttributeError):
        return "<no log>"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:
    """In the child: own process group, and SIGTERM if this script dies (Linux)."""
    os.setsid()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def render_config(servers: list[tuple[str, str]], template: Path = HAPROXY_TEMPLATE) -> str:
    """The template with one ``server NAME ADDRESS cookie NAME`` line per replica."""
    lines = [f"    server {name} {address} cookie {name}" for name, address in servers]
    return template.read_text() + "\n".join(lines) + "\n"


def health_ok(url: str, timeout: float = 2.0) -> bool:
    try:
        with _NO_PROXY.open(f"{url}/_stcore/health", timeout=timeout) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def haproxy_stats(stats_port: int) -> dict[str, dict[str, str]]:
    """The statistics (STATS_PORT) per server of the backend: status, scur, stot, ..."""
    with _NO_PROXY.open(f"http://127.0.0.1:{stats_port}/;csv", timeout=5) as response:
        text = response.read().decode().lstrip("# ")
    return {
        row["svname"]: row
        for row in csv.DictReader(io.StringIO(text))
        if row["pxname"] == "replicas" and row["svname"] not in ("BACKEND", "FRONTEND")
    }


@dataclass
class Replica:
    name: str
    port: int
    process: subprocess.Popen | None = None
    log_path: Path | None = None
    restarts: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def stop_process_group(process: subprocess.Popen | None, timeout: float = 10.0) -> None:
    """SIGTERM the child's process group, SIGKILL after ``timeout`` seconds (also what
    tests/browser_helpers.py stops its Streamlit server with)."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=timeout)


@dataclass
class Deployment:
    """HAProxy on ``address:port``, its replicas and Redis; use through :func:`deployment`."""

    port: int
    address: str = "127.0.0.1"
    app_dir: Path = REPO_ROOT
    stats_port: int | None = None
    replicas: list[Replica] = field(default_factory=list)
    haproxy: subprocess.Popen | None = None
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="serve-")))
    cookie_secret: str = field(
        default_factory=lambda: (
            os.environ.get("STREAMLIT_SERVER_COOKIE_SECRET") or secrets.token_hex(32)
        )
    )
    extra_streamlit_args: list[str] = field(default_factory=list)
    #: the live classes' store, shared by every replica (None: each replica keeps its own)
    redis: RedisServer | None = None
    haproxy_binary: str | None = None

    @property
    def host(self) -> str:
        """The proxy's address as this machine reaches it."""
        return "127.0.0.1" if self.address in ("0.0.0.0", "") else self.address

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def replica_urls(self) -> list[str]:
        return [r.url for r in self.replicas]

    @property
    def redis_url(self) -> str | None:
        return self.redis.url if self.redis else None

    def pids(self) -> list[int]:
        """Process ids of the proxy, of every running replica and of Redis."""
        procs = [
            self.haproxy,
            *(r.process for r in self.replicas),
            self.redis.process if self.redis else None,
        ]
        return [p.pid for p in procs if p is not None and p.poll() is None]

    def start_replica(self, replica: Replica) -> None:
        replica.log_path = self.workdir / f"{replica.name}.log"
        # one BLAS thread, as `make run` does: on a busy 2-core server OpenBLAS's second
        # thread spins waiting for a core, and that spinning counts against a request's
        # CPU budget (docs/benchmarks-history.md, the core)
        env = dict(
            os.environ,
            PYTHONUNBUFFERED="1",
            STREAMLIT_BROWSER_GATHER_USAGE_STATS="false",
            STREAMLIT_SERVER_COOKIE_SECRET=self.cookie_secret,
            **ONE_BLAS_THREAD,
        )
        if self.redis_url:
            env[REDIS_URL_VARIABLE] = self.redis_url
        command = [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.port",
            str(replica.port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
            "--server.runOnSave",
            "false",
            "--server.fileWatcherType",
            "none",
            *self.extra_streamlit_args,
        ]
        with open(replica.log_path, "ab") as log:
            replica.process = subprocess.Popen(
                command,
                cwd=self.app_dir,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent,
            )

    def wait_healthy(self, replica: Replica, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while not health_ok(replica.url):
            if replica.process is None or replica.process.poll() is not None:
                raise RuntimeError(f"replica {replica.name} exited:\n{self.log_tail(replica)}")
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"replica {replica.name} not healthy after {timeout:.0f} s:"
                    f"\n{self.log_tail(replica)}"
                )
            time.sleep(0.25)

    @staticmethod
    def log_tail(replica: Replica, lines: int = 30) -> str:
        return _tail(replica.log_path, lines)

    def start_haproxy(self, binary: str) -> None:
        """Write the configuration, check it, start HAProxy and wait until it answers."""
        config = self.workdir / "haproxy.cfg"
        config.write_text(render_config([(r.name, f"127.0.0.1:{r.port}") for r in self.replicas]))
        self.haproxy_binary = binary
        check = subprocess.run(
            [binary, "-c", "-q", "-f", str(config)],
            env=self._haproxy_env(),
            capture_output=True,
            text=True,
            timeout=30,
        )
        if check.returncode != 0:
            raise RuntimeError(f"haproxy rejected {config}:\n{check.stdout}{check.stderr}")
        self.spawn_haproxy()
        deadline = time.monotonic() + 30
        while not health_ok(self.url):
            if self.haproxy.poll() is not None:
                raise RuntimeError(f"haproxy exited with code {self.haproxy.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"haproxy not answering on {self.url} after 30 s")
            time.sleep(0.2)

    def _haproxy_env(self) -> dict[str, str]:
        env = dict(os.environ, PROXY_BIND=f"{self.address}:{self.port}")
        if self.stats_port:
            env["STATS_BIND"] = f"127.0.0.1:{self.stats_port}"
        else:
            env.pop("STATS_BIND", None)
        return env

    def spawn_haproxy(self) -> subprocess.Popen:
        """Start HAProxy with the configuration :meth:`start_haproxy` wrote (no wait)."""
        self.haproxy = subprocess.Popen(
            [self.haproxy_binary, "-db", "-f", str(self.workdir / "haproxy.cfg")],
            env=self._haproxy_env(),
            stdin=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )
        return self.haproxy

    def stop_replica(self, index: int, sig: int = signal.SIGKILL) -> None:
        """Kill replica ``index`` (SIGKILL by default: a crash, not a clean stop)."""
        process = self.replicas[index].process
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, sig)
            process.wait(timeout=15)

    def stats(self) -> dict[str, dict[str, str]]:
        """HAProxy's statistics per server of the backend (status, scur, stot, ...)."""
        if not self.stats_port:
            raise RuntimeError("start the deployment with stats_port to read statistics")
        return haproxy_stats(self.stats_port)

    def stop(self) -> None:
        stop_process_group(self.haproxy)
        for replica in self.replicas:
            stop_process_group(replica.process)
        shutil.rmtree(self.workdir, ignore_errors=True)


@contextlib.contextmanager
def deployment(
    replicas: int = 2,
    port: int | None = None,
    *,
    address: str = "127.0.0.1",
    stats_port: int | None = None,
    app_dir: Path | str = REPO_ROOT,
    extra_streamlit_args: list[str] | None = None,
    redis: bool = True,
    redis_dir: Path | str | None = None,
) -> Iterator[Deployment]:
    """Start Redis (unless ``redis=False``; its data in ``redis_dir``, or in a folder of its
    own removed afterwards), ``replicas`` Streamlit servers and HAProxy; stop everything on
    exit."""
    binary = find_haproxy()
    if binary is None:
        raise FileNotFoundError("haproxy not found (Debian: apt-get install -y haproxy)")
    redis_binary = find_redis_server() if redis else None
    if redis and redis_binary is None:
        raise FileNotFoundError("redis-server not found (Debian: apt-get install -y redis-server)")
    dep = Deployment(
        port=port or free_port(),
        address=address,
        app_dir=Path(app_dir),
        stats_port=stats_port,
        extra_streamlit_args=list(extra_streamlit_args or []),
    )
    with contextlib.ExitStack() as stack:
        stack.callback(dep.stop)  # the proxy and the replicas, and the work folder
        if redis:
            redis_dir = redis_dir or stack.enter_context(
                tempfile.TemporaryDirectory(prefix="perceptron-lab-redis-")
            )
            dep.redis = RedisServer(redis_binary, free_port(), Path(redis_dir))
            stack.callback(dep.redis.stop)
            dep.redis.spawn()
            dep.redis.wait_ready()
        dep.replicas = [Replica(f"r{i + 1}", free_port()) for i in range(replicas)]
        for replica in dep.replicas:
            dep.start_replica(replica)
        for replica in dep.replicas:
            dep.wait_healthy(replica)
        dep.start_haproxy(binary)
        yield dep


#: a process that keeps exiting is started again after 0, 1, 2, 4, ... seconds, at most this
MAX_BACKOFF_SECONDS = 30.0
#: a replica is started again no sooner than this after it exits: by then HAProxy's health
#: check has taken it out of rotation (two failed checks, at most inter 2 s + fastinter 0.5 s
#: in deploy/haproxy.cfg). A replica started sooner listens on its port while it imports the
#: pages, and requests HAProxy still sent it waited there until the check cut them (502).
REPLICA_RESTART_SECONDS = 3.0
#: a process up this long since its last start counts as recovered: its next exit is
#: started again at once
STABLE_SECONDS = 60.0


@dataclass
class Watched:
    """One supervised process: how to start it again, whether it serves, where its log is."""

    name: str
    current: Callable[[], subprocess.Popen | None]
    spawn: Callable[[], subprocess.Popen]
    ready: Callable[[], bool]
    log_tail: Callable[[], str] = lambda: ""
    first_delay: float = 0.0  # the least wait before starting it again
    failures: int = 0  # exits since it last ran STABLE_SECONDS
    down_since: float | None = None  # the start of the current outage
    restart_at: float | None = None
    started_at: float = 0.0
    up: bool = True


def _exit_text(code: int | None) -> str:
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


class Supervisor:
    """Starts again whatever process of a :class:`Deployment` exits, with back-off, and says
    so: call :meth:`check` every fraction of a second. ``log`` gets one line per event."""

    def __init__(
        self,
        dep: Deployment,
        log: Callable[[str], None] = print,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.log, self.clock = log, clock
        self.watched: list[Watched] = []
        if dep.redis is not None:
            redis = dep.redis
            self.watched.append(
                Watched(
                    "redis-server", lambda: redis.process, redis.spawn, redis.ready, redis.log_tail
                )
            )
        self.watched.append(
            Watched(
                "haproxy",
                lambda: dep.haproxy,
                dep.spawn_haproxy,
                lambda: listening(dep.port, dep.host, timeout=0.5),
            )
        )
        for replica in dep.replicas:
            self.watched.append(
                Watched(
                    f"replica {replica.name}",
                    lambda r=replica: r.process,
                    lambda r=replica: (dep.start_replica(r), r.process)[1],
                    lambda r=replica: health_ok(r.url, timeout=1.0),
                    lambda r=replica: dep.log_tail(r, 10),
                    first_delay=REPLICA_RESTART_SECONDS,
                )
            )
        now = clock()
        for watched in self.watched:
            watched.started_at = now

    def check(self) -> None:
        for watched in self.watched:
            self._check(watched, self.clock())

    def _check(self, w: Watched, now: float) -> None:
        process = w.current()
        if w.restart_at is None and process is not None and process.poll() is None:
            if not w.up and w.ready():
                w.up = True
                self.log(
                    f"{w.name} (pid {process.pid}) serves again, "
                    f"{now - (w.down_since or now):.1f} s after it went down"
                )
            if w.failures and now - w.started_at >= STABLE_SECONDS:
                w.failures = 0
            return
        if w.restart_at is None:  # it has just exited
            w.failures += 1
            if w.up:
                w.up, w.down_since = False, now
            backoff = 0.0 if w.failures == 1 else 2.0 ** (w.failures - 2)
            delay = min(MAX_BACKOFF_SECONDS, max(w.first_delay, backoff))
            w.restart_at = now + delay
            code = None if process is None else process.returncode
            self.log(
                f"{w.name} exited ({_exit_text(code)}); starting it again "
                + ("now" if delay == 0 else f"in {delay:.0f} s")
                + (
                    f" (exit {w.failures} in a row; its log ends:\n{w.log_tail()})"
                    if w.failures > 1
                    else ""
                )
            )
        if now >= w.restart_at:
            try:
                started = w.spawn()
            except OSError as error:
                w.restart_at = now + MAX_BACKOFF_SECONDS
                self.log(
                    f"{w.name} could not be started ({error}); trying again in "
                    f"{MAX_BACKOFF_SECONDS:.0f} s"
                )
                return
            w.restart_at, w.started_at = None, now
            self.log(f"{w.name} started again (pid {started.pid})")


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    try:
        return int(raw) if raw.strip() else default
    except ValueError:
        sys.exit(f"{name}={raw!r} is not a whole number")


def students_address(address: str, port: int) -> str:
    """Where the students' phones reach this deployment, said in a sentence (the origin the
    class page puts in its join link and QR code: classroom/join_link.py)."""
    if address.startswith("127.") or address in ("localhost", "::1"):
        return (
            f"Students cannot reach it: it listens on {address} only (ADDRESS=0.0.0.0 "
            "listens on every network)."
        )
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    from classroom.join_link import join_origin

    seen = "127.0.0.1" if address in ("0.0.0.0", "", "::") else address
    origin = join_origin(f"http://{seen}:{port}/")
    where = {
        "public": "PERCEPTRON_LAB_PUBLIC_URL",
        "network": f"this machine's address on {origin.interface or 'its network'}",
        "seen": "the address it listens on",
    }.get(origin.how)
    if where is None:
        return (
            "Students cannot reach it: this machine has no network address (set "
            "PERCEPTRON_LAB_PUBLIC_URL to the address phones reach)."
            + (f" {origin.problem}" if origin.problem else "")
        )
    return f"Students join at {origin.origin}/class ({where})." + (
        f" {origin.problem}" if origin.problem else ""
    )


def main() -> int:
    port = _env_int("PORT", 8500)
    count = _env_int("REPLICAS", os.cpu_count() or 1)
    if count < 1:
        sys.exit("REPLICAS must be at least 1")
    stats_port = _env_int("STATS_PORT", 0) or None
    address = os.environ.get("ADDRESS", "0.0.0.0")
    stopping = False

    def request_stop(signum, frame):  # noqa: ARG001 - signal handler signature
        nonlocal stopping
        stopping = True

    def log(message: str) -> None:
        print(f"[serve] {time.strftime('%H:%M:%S')} {message}", flush=True)

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    log(f"starting Redis, {count} replica(s) and HAProxy ...")
    try:
        redis_dir = os.environ.get("REDIS_DIR", "").strip() or None
        with deployment(
            count, port, address=address, stats_port=stats_port, redis_dir=redis_dir
        ) as dep:
            log(
                f"redis-server (pid {dep.redis.process.pid}) on {dep.redis_url}, append-only "
                f"file in {dep.redis.data_dir}"
                + (
                    ""
                    if redis_dir
                    else " (this start's own folder, removed at Ctrl-C; "
                    "REDIS_DIR=... keeps the classes across starts)"
                )
            )
            for replica in dep.replicas:
                log(
                    f"replica {replica.name} (pid {replica.process.pid}) on {replica.url}, "
                    f"log {replica.log_path}"
                )
            log(
                f"haproxy (pid {dep.haproxy.pid}) listening on {address}:{port}"
                + (f"; statistics http://127.0.0.1:{stats_port}/" if stats_port else "")
            )
            log(
                f"Perceptron Lab on {dep.url} (this machine). {students_address(address, port)} "
                "Ctrl-C stops everything."
            )
            supervisor = Supervisor(dep, log)
            while not stopping:
                supervisor.check()
                time.sleep(0.25)
            log("stopping ...")
    except (RuntimeError, FileNotFoundError) as error:
        print(f"[serve] {error}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
