"""Serve Perceptron Lab with several Streamlit replicas behind HAProxy (`make serve`).

Runs in the foreground until Ctrl-C (SIGINT) or SIGTERM, then stops the proxy and
every replica::

    PORT=8500 REPLICAS=2 python scripts/serve.py

- ``PORT`` (default 8500): where HAProxy listens, on ``ADDRESS`` (default 0.0.0.0,
  so the students' machines reach it).
- ``REPLICAS`` (default: the number of cores): how many ``streamlit run app.py``
  servers to start, each on a free loopback port.
- ``STATS_PORT`` (optional): HAProxy's statistics page on 127.0.0.1.
- ``STREAMLIT_SERVER_COOKIE_SECRET`` (optional): the secret every replica shares
  (generated once per start otherwise), so a session's XSRF cookie stays valid when
  its page moves to another replica.
- ``REDIS_DIR`` (optional): where Redis keeps the live classes on disk (append-only file;
  default ``<temp>/perceptron-lab-redis``). Debian's ``redis-server`` is started beside the
  replicas on a free loopback port and stopped with them; its address reaches every replica
  as ``PERCEPTRON_LAB_REDIS_URL``, so all of them share one store of classes (classroom/).

The proxy configuration is ``deploy/haproxy.cfg``; this script appends one ``server``
line per replica and sets ``PROXY_BIND`` / ``STATS_BIND``. A replica that exits is
taken out of rotation by HAProxy's health check, and this script starts it again
(at most ``MAX_RESTARTS`` times each).

The same machinery is a context manager for the tests and the load benchmark::

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
from collections.abc import Iterator
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
MAX_RESTARTS = 3
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


@contextlib.contextmanager
def redis_server(port: int | None = None, data_dir: Path | str | None = None,
                 timeout: float = 20.0) -> Iterator[tuple[str, subprocess.Popen]]:
    """Debian's redis-server on 127.0.0.1:``port`` (a free one by default), persistence on
    (append-only file, fsync every second, in ``data_dir``); yields its URL and process and
    stops it on exit."""
    binary = find_redis_server()
    if binary is None:
        raise FileNotFoundError("redis-server not found (Debian: apt-get install -y redis-server)")
    port = port or free_port()
    data_dir = Path(data_dir or Path(tempfile.gettempdir()) / "perceptron-lab-redis")
    data_dir.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--protected-mode", "yes",
         "--dir", str(data_dir), "--appendonly", "yes", "--appendfsync", "everysec",
         "--save", "", "--daemonize", "no", "--logfile", ""],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, preexec_fn=_die_with_parent)
    try:
        deadline = time.monotonic() + timeout
        while not redis_ping(port):
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited with code {process.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server not answering on port {port} after {timeout} s")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", process
    finally:
        stop_process_group(process)


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
    """HAProxy on ``address:port`` and its replicas; use through :func:`deployment`."""

    port: int
    address: str = "127.0.0.1"
    app_dir: Path = REPO_ROOT
    stats_port: int | None = None
    replicas: list[Replica] = field(default_factory=list)
    haproxy: subprocess.Popen | None = None
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="serve-")))
    cookie_secret: str = field(
        default_factory=lambda: os.environ.get("STREAMLIT_SERVER_COOKIE_SECRET")
        or secrets.token_hex(32))
    extra_streamlit_args: list[str] = field(default_factory=list)
    #: the live classes' store, shared by every replica (None: each replica keeps its own)
    redis_url: str | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.address in ("0.0.0.0", "") else self.address
        return f"http://{host}:{self.port}"

    @property
    def replica_urls(self) -> list[str]:
        return [r.url for r in self.replicas]

    def pids(self) -> list[int]:
        """Process ids of the proxy and of every running replica."""
        procs = [self.haproxy, *(r.process for r in self.replicas)]
        return [p.pid for p in procs if p is not None and p.poll() is None]

    def start_replica(self, replica: Replica) -> None:
        replica.log_path = self.workdir / f"{replica.name}.log"
        # one BLAS thread, as `make run` does: on a busy 2-core server OpenBLAS's second
        # thread spins waiting for a core, and that spinning counts against a request's
        # CPU budget (README, robustness)
        env = dict(os.environ, PYTHONUNBUFFERED="1",
                   STREAMLIT_BROWSER_GATHER_USAGE_STATS="false",
                   STREAMLIT_SERVER_COOKIE_SECRET=self.cookie_secret, **ONE_BLAS_THREAD)
        if self.redis_url:
            env[REDIS_URL_VARIABLE] = self.redis_url
        command = [sys.executable, "-m", "streamlit", "run", "app.py",
                   "--server.port", str(replica.port), "--server.address", "127.0.0.1",
                   "--server.headless", "true", "--browser.gatherUsageStats", "false",
                   "--server.runOnSave", "false", "--server.fileWatcherType", "none",
                   *self.extra_streamlit_args]
        with open(replica.log_path, "ab") as log:
            replica.process = subprocess.Popen(
                command, cwd=self.app_dir, env=env, stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)

    def wait_healthy(self, replica: Replica, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while not health_ok(replica.url):
            if replica.process is None or replica.process.poll() is not None:
                raise RuntimeError(f"replica {replica.name} exited:\n{self.log_tail(replica)}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"replica {replica.name} not healthy after {timeout:.0f} s:"
                                   f"\n{self.log_tail(replica)}")
            time.sleep(0.25)

    @staticmethod
    def log_tail(replica: Replica, lines: int = 30) -> str:
        try:
            return "\n".join(replica.log_path.read_text(errors="replace").splitlines()[-lines:])
        except (OSError, AttributeError):
            return "<no log>"

    def start_haproxy(self, binary: str) -> None:
        config = self.workdir / "haproxy.cfg"
        config.write_text(render_config([(r.name, f"127.0.0.1:{r.port}") for r in self.replicas]))
        env = dict(os.environ, PROXY_BIND=f"{self.address}:{self.port}")
        if self.stats_port:
            env["STATS_BIND"] = f"127.0.0.1:{self.stats_port}"
        else:
            env.pop("STATS_BIND", None)
        check = subprocess.run([binary, "-c", "-q", "-f", str(config)], env=env,
                               capture_output=True, text=True, timeout=30)
        if check.returncode != 0:
            raise RuntimeError(f"haproxy rejected {config}:\n{check.stdout}{check.stderr}")
        self.haproxy = subprocess.Popen([binary, "-db", "-f", str(config)], env=env,
                                        stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent)
        deadline = time.monotonic() + 30
        while not health_ok(self.url):
            if self.haproxy.poll() is not None:
                raise RuntimeError(f"haproxy exited with code {self.haproxy.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"haproxy not answering on {self.url} after 30 s")
            time.sleep(0.2)

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
        with _NO_PROXY.open(f"http://127.0.0.1:{self.stats_port}/;csv", timeout=5) as response:
            text = response.read().decode().lstrip("# ")
        return {row["svname"]: row for row in csv.DictReader(io.StringIO(text))
                if row["pxname"] == "replicas" and row["svname"] not in ("BACKEND", "FRONTEND")}

    def stop(self) -> None:
        stop_process_group(self.haproxy)
        for replica in self.replicas:
            stop_process_group(replica.process)
        shutil.rmtree(self.workdir, ignore_errors=True)


@contextlib.contextmanager
def deployment(replicas: int = 2, port: int | None = None, *, address: str = "127.0.0.1",
               stats_port: int | None = None, app_dir: Path | str = REPO_ROOT,
               extra_streamlit_args: list[str] | None = None, redis: bool = True,
               redis_dir: Path | str | None = None) -> Iterator[Deployment]:
    """Start Redis (unless ``redis=False``), ``replicas`` Streamlit servers and HAProxy; stop
    everything on exit."""
    binary = find_haproxy()
    if binary is None:
        raise FileNotFoundError("haproxy not found (Debian: apt-get install -y haproxy)")
    with contextlib.ExitStack() as stack:
        redis_url = None
        if redis:
            redis_dir = redis_dir or stack.enter_context(tempfile.TemporaryDirectory(
                prefix="serve-redis-"))
            redis_url, _ = stack.enter_context(redis_server(data_dir=redis_dir))
        yield from _deployment(binary, replicas, port, address, stats_port, app_dir,
                               extra_streamlit_args, redis_url)


def _deployment(binary, replicas, port, address, stats_port, app_dir, extra_streamlit_args,
                redis_url):
    dep = Deployment(port=port or free_port(), address=address, app_dir=Path(app_dir),
                     stats_port=stats_port, extra_streamlit_args=list(extra_streamlit_args or []),
                     redis_url=redis_url)
    try:
        dep.replicas = [Replica(f"r{i + 1}", free_port()) for i in range(replicas)]
        for replica in dep.replicas:
            dep.start_replica(replica)
        for replica in dep.replicas:
            dep.wait_healthy(replica)
        dep.start_haproxy(binary)
        yield dep
    finally:
        dep.stop()


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    try:
        return int(raw) if raw.strip() else default
    except ValueError:
        sys.exit(f"{name}={raw!r} is not a whole number")


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

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    print(f"[serve] starting {count} replica(s) behind HAProxy ...", flush=True)
    try:
        redis_dir = os.environ.get("REDIS_DIR") or Path(tempfile.gettempdir()) / \
            "perceptron-lab-redis"
        with deployment(count, port, address=address, stats_port=stats_port,
                        redis_dir=redis_dir) as dep:
            print(f"[serve] Perceptron Lab on {dep.url}  (listening on {address}:{port}; "
                  f"replicas {', '.join(dep.replica_urls)}; live classes in {dep.redis_url}, "
                  f"saved in {redis_dir}"
                  + (f"; statistics http://127.0.0.1:{stats_port}/" if stats_port else "")
                  + "). Ctrl-C stops everything.", flush=True)
            while not stopping:
                if dep.haproxy.poll() is not None:
                    print(f"[serve] haproxy exited ({dep.haproxy.returncode}); stopping",
                          flush=True)
                    return 1
                for replica in dep.replicas:
                    if replica.process.poll() is None or stopping:
                        continue
                    if replica.restarts >= MAX_RESTARTS:
                        continue  # stays out of rotation
                    replica.restarts += 1
                    print(f"[serve] replica {replica.name} exited "
                          f"({replica.process.returncode}); restart {replica.restarts}/"
                          f"{MAX_RESTARTS}", flush=True)
                    dep.start_replica(replica)  # HAProxy puts it back after two good checks
                time.sleep(0.5)
            print("[serve] stopping ...", flush=True)
    except (RuntimeError, FileNotFoundError) as error:
        print(f"[serve] {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
