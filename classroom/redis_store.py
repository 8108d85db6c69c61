"""The classes in Redis (``make serve``): every replica sees the same class, and a replica that
dies loses nothing (the answers were in Redis when its reply left).

Keys of class CODE (each expires ``ttl`` seconds after the class's last write)::

    lab:class:CODE:meta        hash  key_hash, secret, view, minted, seq (and paused, "1"
                                     once the instructor stops publishing, "0" again after;
                                     joining, "closed" once closed; expected, a class size)
    lab:class:CODE:poll        hash  id, status, revealed, hidden, round, first, options,
                                     question (JSON), first_at (tokens minted at its first
                                     answer)
    lab:class:CODE:answers:ID  hash  token id -> option index, for poll ID
    lab:class:CODE:late:ID     set   token ids minted after poll ID's first answer that
                                     answered it
    lab:class:CODE:rate:TOKEN  count of a token's answers in the current window
    lab:class:CODE:rate:view   count of the views the instructor's pages published in it
    lab:class:CODE:limit:KIND:WHO  hash  tokens, at: the token bucket of a client address
                                     (WHO: its keyed hash) for joins or answers
    lab:limit:create:WHO       hash  the same, for starting classes
    lab:salt                   the key the addresses of lab:limit:create:* are hashed with

An answer is one Lua script (checked and stored at once, so a poll that closes meanwhile
never takes a late answer); a bucket is one script too, on Redis's own clock.
"""

from __future__ import annotations

import json
import secrets

import redis

from classroom.clients import Limit
from classroom.store import CLASS_TTL_SECONDS, ClassError, ClassStore

_ANSWER = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'nopoll' end
if redis.call('HGET', KEYS[2], 'id') ~= ARGV[1] then return 'nopoll' end
if redis.call('HGET', KEYS[2], 'status') ~= 'open' then
  if redis.call('HGET', KEYS[2], 'revealed') == '1' then return 'revealed' end
  return 'closed'
end
local option = tonumber(ARGV[3])
if option < 0 or option >= tonumber(redis.call('HGET', KEYS[2], 'options')) then
  return 'option'
end
local count = redis.call('INCR', KEYS[4])
if count == 1 then redis.call('EXPIRE', KEYS[4], ARGV[6]) end
if count > tonumber(ARGV[5]) then return 'rate' end
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
local first_at = redis.call('HGET', KEYS[2], 'first_at')
if not first_at then
  first_at = redis.call('HGET', KEYS[1], 'minted') or '0'
  redis.call('HSET', KEYS[2], 'first_at', first_at)
end
if tonumber(ARGV[7]) > tonumber(first_at) then redis.call('SADD', KEYS[5], ARGV[2]) end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[4]) end
redis.call('EXPIRE', KEYS[5], ARGV[4])
redis.call('EXPIRE', KEYS[6], ARGV[4])
return 'ok'
"""
_MINT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('HINCRBY', KEYS[1], 'minted', 1)
redis.call('EXPIRE', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[1])
return tonumber(redis.call('HGET', KEYS[1], 'minted'))
"""
# fields and values in ARGV[2..]: all set at once, or none if the class has no poll
_UPDATE = """
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], ARGV[1]) end
return 1
"""
_FOLLOW = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
local count = redis.call('INCR', KEYS[3])
if count == 1 then redis.call('EXPIRE', KEYS[3], ARGV[3]) end
if count > tonumber(ARGV[2]) then return 'rate' end
if redis.call('HGET', KEYS[1], 'paused') == '1' then return 'paused' end
redis.call('HSET', KEYS[1], 'view', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 'ok'
"""
# a token bucket on Redis's clock: ARGV burst, refill per second, seconds to keep the key;
# returns the seconds to wait ("0" when a token was taken)
_TAKE = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
local burst, rate = tonumber(ARGV[1]), tonumber(ARGV[2])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if held[1] then
  tokens = math.min(burst, tonumber(held[1]) + math.max(0, t - tonumber(held[2])) * rate)
end
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(t))
redis.call('EXPIRE', KEYS[1], ARGV[3])
return tostring(wait)
"""


class RedisStore(ClassStore):
    """Classes in the Redis server behind ``client`` (``decode_responses=True``)."""

    def __init__(self, client: redis.Redis, ttl: float = CLASS_TTL_SECONDS):
        self.client, self.ttl = client, ttl
        self._answer_script = client.register_script(_ANSWER)
        self._mint_script = client.register_script(_MINT)
        self._update_script = client.register_script(_UPDATE)
        self._follow_script = client.register_script(_FOLLOW)
        self._take_script = client.register_script(_TAKE)
        self._salt_value: str | None = None

    @classmethod
    def from_url(cls, url: str, ttl: float = CLASS_TTL_SECONDS) -> RedisStore:
        return cls(
            redis.Redis.from_url(
                url,
                decode_responses=True,
                socket_timeout=5,
                health_check_interval=30,
                retry_on_timeout=True,
            ),
            ttl,
        )

    def _keys(self, code: str, poll_id=None) -> list[str]:
        base = f"lab:class:{code}"
        poll_id = self.client.hget(f"{base}:poll", "id") if poll_id is None else poll_id
        return [f"{base}:meta", f"{base}:poll", f"{base}:answers:{poll_id or 0}"]

    def _call(self, function, *args, **kwargs):
        try:
            return function(*args, **kwargs)
        except redis.RedisError as error:
            raise ClassError(
                "The class store is not answering: try again in a moment.", 503
            ) from error

    def _create(self, code, hashed_key, secret):
        meta = f"lab:class:{code}:meta"
        created = self._call(self.client.hsetnx, meta, "key_hash", hashed_key)
        if created:
            pipe = self.client.pipeline()
            pipe.hset(meta, mapping={"secret": secret, "view": "", "minted": 0, "seq": 0})
            pipe.expire(meta, int(self.ttl))
            self._call(pipe.execute)
        return bool(created)

    def _meta(self, code):
        meta = self._call(self.client.hgetall, f"lab:class:{code}:meta")
        return meta if meta.get("key_hash") and meta.get("secret") else None

    def _mint(self, code):
        meta, poll, _ = self._keys(code, poll_id=0)
        seq = int(self._call(self._mint_script, keys=[meta, poll], args=[int(self.ttl)]))
        return None if seq < 0 else seq

    def _open_poll(self, code, question, round_=1, first=0):
        meta, poll, _ = self._keys(code, poll_id=0)
        poll_id = self._call(self.client.hincrby, meta, "seq", 1)
        pipe = self.client.pipeline()
        pipe.delete(poll)
        pipe.hset(
            poll,
            mapping={
                "id": poll_id,
                "status": "open",
                "revealed": 0,
                "hidden": 0,
                "round": round_,
                "first": first,
                "options": len(question["options"]),
                "question": json.dumps(question),
            },
        )
        for key in (meta, poll, *([f"lab:class:{code}:answers:{first}"] if first else [])):
            pipe.expire(key, int(self.ttl))
        self._call(pipe.execute)
        return poll_id

    def _poll_keys(self, code: str) -> list[str]:
        """meta, poll, the poll's answers and late set, and the first round's answers."""
        base = f"lab:class:{code}"
        poll_id, first = self._call(self.client.hmget, f"{base}:poll", "id", "first")
        return [
            *self._keys(code, poll_id=poll_id),
            f"{base}:late:{poll_id or 0}",
            f"{base}:answers:{first or 0}",
        ]

    def _update_poll(self, code, **fields):
        pairs = []
        for name, value in fields.items():
            pairs += [name, int(value) if isinstance(value, bool) else value]
        return bool(
            self._call(
                self._update_script, keys=self._poll_keys(code), args=[int(self.ttl), *pairs]
            )
        )

    def _update_meta(self, code, **fields):
        meta = f"lab:class:{code}:meta"
        pipe = self.client.pipeline()
        pipe.hset(meta, mapping={name: str(value) for name, value in fields.items()})
        pipe.expire(meta, int(self.ttl))
        self._call(pipe.execute)

    def _set_view(self, code, view):
        meta = f"lab:class:{code}:meta"
        pipe = self.client.pipeline()
        pipe.hset(meta, "view", view)
        pipe.expire(meta, int(self.ttl))
        self._call(pipe.execute)

    def _follow_view(self, code, view, rate_max, rate_window):
        meta, poll, _ = self._keys(code, poll_id=0)
        return self._call(
            self._follow_script,
            keys=[meta, poll, f"lab:class:{code}:rate:view"],
            args=[view, rate_max, rate_window, int(self.ttl)],
        )

    def _set_publishing(self, code, on):
        meta = f"lab:class:{code}:meta"
        pipe = self.client.pipeline()  # MULTI/EXEC: the flag and the cleared view together
        pipe.hset(meta, mapping={"paused": "0" if on else "1", **({} if on else {"view": ""})})
        pipe.expire(meta, int(self.ttl))
        self._call(pipe.execute)

    def _poll(self, code):
        raw = self._call(self.client.hgetall, f"lab:class:{code}:poll")
        if not raw.get("id"):
            return None
        return {
            **json.loads(raw["question"]),
            "id": int(raw["id"]),
            "status": raw["status"],
            "revealed": raw["revealed"] == "1",
            "hidden": raw.get("hidden") == "1",
            "round": int(raw.get("round") or 1),
            "first": int(raw.get("first") or 0),
        }

    def _answer(self, code, poll_id, token_id, option, rate_max, rate_window, number=0):
        base = f"lab:class:{code}"
        first = self._call(self.client.hget, f"{base}:poll", "first")
        keys = [
            *self._keys(code, poll_id=poll_id),
            f"{base}:rate:{token_id}",
            f"{base}:late:{poll_id}",
            f"{base}:answers:{first or 0}",
        ]
        return self._call(
            self._answer_script,
            keys=keys,
            args=[poll_id, token_id, option, int(self.ttl), rate_max, rate_window, int(number)],
        )

    def _answers(self, code, poll_id):
        raw = self._call(self.client.hgetall, self._keys(code, poll_id=poll_id)[2])
        return {token: int(option) for token, option in raw.items()}

    def _late(self, code, poll_id):
        return int(self._call(self.client.scard, f"lab:class:{code}:late:{poll_id}"))

    def _take(self, code, kind, who, limit: Limit):
        key = f"lab:limit:{kind}:{who}" if code is None else f"lab:class:{code}:limit:{kind}:{who}"
        wait = self._call(
            self._take_script,
            keys=[key],
            args=[limit.burst, repr(float(limit.per_second)), limit.refill_seconds],
        )
        return float(wait)

    def _salt(self):
        if self._salt_value is None:
            self._call(self.client.set, "lab:salt", secrets.token_urlsafe(16), nx=True)
            self._salt_value = self._call(self.client.get, "lab:salt")
        return self._salt_value
