"""The address students join at: one that their phones can reach.

An instructor who opens the app on this machine as ``http://127.0.0.1:8500`` (what ``make
serve`` prints) or ``localhost`` would hand the room a link to each student's own phone. So the
join link is built from, in order:

1. ``PERCEPTRON_LAB_PUBLIC_URL`` when set (a DNS name, a proxy, a tunnel): used as it is;
2. the address the instructor's browser reached the app by, when that is not a loopback one;
3. else this machine's network address, read from its interfaces (nothing is sent: the
   addresses are asked of the kernel), with the port the instructor used;
4. else the loopback address, said to be unreachable from phones.

:func:`join_origin` returns the origin and why it was chosen, so the page can say so.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import struct
from dataclasses import dataclass
from urllib.parse import urlsplit

from classroom.clients import is_loopback

#: set to the address students reach the app by (``https://lab.example.edu``) to use it as is
PUBLIC_URL_VARIABLE = "PERCEPTRON_LAB_PUBLIC_URL"
#: interface names of containers, virtual machines and VPNs: phones in the room rarely reach
#: them, so they come last
_VIRTUAL = (
    "docker",
    "br-",
    "virbr",
    "veth",
    "vmnet",
    "vboxnet",
    "tun",
    "tap",
    "wg",
    "tailscale",
    "zt",
    "lxc",
    "lxd",
    "cni",
    "flannel",
    "podman",
)


@dataclass(frozen=True)
class Interface:
    """One address of this machine: its interface's name, the address, and whether the
    interface is up."""

    name: str
    address: str
    up: bool = True


@dataclass(frozen=True)
class JoinOrigin:
    """Where students join: ``origin`` (``http://192.0.2.2:8500``) and how it was found:
    ``"public"`` (the variable), ``"seen"`` (the instructor's address), ``"network"`` (this
    machine's interface ``interface``, in place of the loopback ``seen_host``) or
    ``"loopback"`` (no network address found)."""

    origin: str
    how: str
    seen_host: str = ""
    interface: str = ""
    problem: str = ""  # a public URL that could not be used, said on the page


def _ipv4_interfaces() -> list[Interface]:
    """IPv4 addresses of this machine's interfaces (Linux: SIOCGIFADDR on a socket that never
    sends anything); [] where that is not available."""
    try:
        import fcntl
    except ImportError:  # not a Unix
        return []
    found = []
    siocgifflags, siocgifaddr, iff_up, iff_running = 0x8913, 0x8915, 0x1, 0x40
    try:
        names = [name for _index, name in socket.if_nameindex()]
    except OSError:
        return []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for name in names:
            request = struct.pack("256s", name.encode()[:15])
            try:
                address = socket.inet_ntoa(fcntl.ioctl(sock.fileno(), siocgifaddr, request)[20:24])
                flags = struct.unpack(
                    "H", fcntl.ioctl(sock.fileno(), siocgifflags, request)[16:18]
                )[0]
            except OSError:  # no IPv4 address on this interface
                continue
            found.append(Interface(name, address, bool(flags & iff_up and flags & iff_running)))
    return found


def _ipv6_interfaces(path: str = "/proc/net/if_inet6") -> list[Interface]:
    """Global IPv6 addresses (Linux's /proc/net/if_inet6: address, index, prefix, scope, flags,
    name); [] where the file is missing."""
    found = []
    try:
        with open(path, encoding="ascii") as lines:
            for line in lines:
                fields = line.split()
                if len(fields) != 6 or fields[3] != "00" or int(fields[4], 16) & 0x20:
                    continue  # not global scope, or tentative
                raw = fields[0]
                address = str(
                    ipaddress.IPv6Address(":".join(raw[i : i + 4] for i in range(0, 32, 4)))
                )
                found.append(Interface(fields[5], address))
    except (OSError, ValueError):
        return []
    return found


def interfaces() -> list[Interface]:
    """This machine's addresses (IPv4 first), as the kernel lists them; on a system without
    those interfaces, the addresses its host name resolves to (no packet leaves either way)."""
    found = _ipv4_interfaces() + _ipv6_interfaces()
    if found:
        return found
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
    except OSError:
        return []
    return [Interface("", str(info[4][0])) for info in infos]


def network_address(found: list[Interface] | None = None) -> Interface | None:
    """The address phones in the room most likely reach: not loopback nor link-local, on an
    interface that is up; IPv4 before IPv6, a private network (a campus or home Wi-Fi) before
    a public one, and containers, virtual machines and VPNs last. None if there is none."""
    candidates = []
    for position, item in enumerate(interfaces() if found is None else found):
        try:
            address = ipaddress.ip_address(item.address.split("%")[0])
        except ValueError:
            continue
        if (
            not item.up
            or address.is_loopback
            or address.is_link_local
            or address.is_unspecified
            or address.is_multicast
        ):
            continue
        virtual = item.name.lower().startswith(_VIRTUAL)
        candidates.append(((virtual, address.version != 4, not address.is_private, position), item))
    return min(candidates, key=lambda pair: pair[0])[1] if candidates else None


def _host_for_url(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def join_origin(seen_url: str, environ=None, found: list[Interface] | None = None) -> JoinOrigin:
    """The origin of the students' link, given the URL the instructor's browser shows
    (``seen_url``), the environment and this machine's addresses (read if not given)."""
    environ = os.environ if environ is None else environ
    public = str(environ.get(PUBLIC_URL_VARIABLE, "") or "").strip()
    problem = ""
    if public:
        parts = urlsplit(public)
        if parts.scheme in ("http", "https") and parts.netloc and not parts.query:
            return JoinOrigin(f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}", "public")
        problem = (
            f"{PUBLIC_URL_VARIABLE} is not an http(s) address such as "
            "https://lab.example.edu, so it is not used."
        )
    parts = urlsplit(seen_url or "")
    scheme = parts.scheme if parts.scheme in ("http", "https") else "http"
    host = parts.hostname or "127.0.0.1"
    try:
        port = parts.port
    except ValueError:
        port = None
    port_part = f":{port}" if port else ""
    if not is_loopback(host):
        return JoinOrigin(f"{scheme}://{_host_for_url(host)}{port_part}", "seen", problem=problem)
    chosen = network_address(found)
    if chosen is None:
        return JoinOrigin(
            f"{scheme}://{_host_for_url(host)}{port_part}",
            "loopback",
            seen_host=host,
            problem=problem,
        )
    return JoinOrigin(
        f"{scheme}://{_host_for_url(chosen.address)}{port_part}",
        "network",
        seen_host=host,
        interface=chosen.name,
        problem=problem,
    )
