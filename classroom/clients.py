"""Who is asking, as far as an anonymous class can tell: the client's network address, and the
token buckets that limit what one address may do.

The address is the TCP peer's, unless the peer is a trusted proxy on this machine (a loopback
address: HAProxy under ``make serve``), in which case it is the last entry of the
``X-Forwarded-For`` header that proxy adds (the entries before it were written by the client and
prove nothing). The stores never keep an address: a limit's counter is filed under a keyed hash
of it, and expires once its bucket would be full again.

A **token bucket** of ``burst`` tokens refilled at ``per_second``: each request takes one token;
a request that finds less than one is refused and told how long until the next token. A
burst up to ``burst`` passes at once, and ``per_second`` is the rate kept up after it.
"""

from __future__ import annotations

import base64
import hmac
import ipaddress
import math
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    """A token bucket: at most ``burst`` requests at once, then ``per_second`` on average."""

    burst: int
    per_second: float

    @property
    def refill_seconds(self) -> int:
        """Seconds until an empty bucket is full again (how long its counter must live)."""
        return math.ceil(self.burst / self.per_second) + 1


def take(tokens: float | None, at: float | None, now: float, limit: Limit) -> tuple[float, float]:
    """One request against a bucket that held ``tokens`` at time ``at`` (None: a full bucket).

    Returns ``(tokens left, wait)``: ``wait`` is 0 if the request passes, else the seconds until
    a token is back (the bucket is then left as it was, refilled to ``now``)."""
    held = (
        float(limit.burst)
        if tokens is None or at is None
        else min(float(limit.burst), tokens + max(0.0, now - at) * limit.per_second)
    )
    if held >= 1.0:
        return held - 1.0, 0.0
    return held, (1.0 - held) / limit.per_second


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` (an address, or "localhost") names this machine's loopback."""
    if not host:
        return False
    host = host.strip().strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(
        address.is_loopback or address.is_unspecified or (mapped is not None and mapped.is_loopback)
    )


def client_address(peer: str | None, forwarded_for: Iterable[str] = ()) -> str:
    """The client's address: the peer, or, when the peer is a loopback proxy, the last
    address of its ``X-Forwarded-For`` (every header line of it, in order)."""
    peer = (peer or "").strip() or "127.0.0.1"
    if not is_loopback(peer):
        return peer
    entries = [entry.strip() for line in forwarded_for for entry in str(line).split(",")]
    entries = [entry for entry in entries if entry]
    if not entries:
        return peer
    try:  # an address, possibly with a port; anything else is not believed
        return _address(entries[-1])
    except ValueError:
        return peer


def _address(text: str) -> str:
    """The address of ``1.2.3.4``, ``1.2.3.4:80``, ``2001:db8::5`` or ``[2001:db8::5]:80``."""
    if text.startswith("["):
        host = text[1 : text.index("]")] if "]" in text else ""
    elif text.count(":") == 1:
        host = text.split(":")[0]
    else:
        host = text
    return str(ipaddress.ip_address(host))


def address_key(secret: str, address: str) -> str:
    """The name a limit's counter is filed under: a keyed hash of the address (16 characters),
    so a store's contents do not say who asked."""
    digest = hmac.new(secret.encode(), str(address).encode(), "sha256").digest()[:12]
    return base64.urlsafe_b64encode(digest).decode()
