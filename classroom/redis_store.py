"""The classes in Redis (``make serve``): every replica sees the same class, and a replica that
dies loses nothing (the answers were in Redis when its reply left).

Keys of class CODE (each expires ``ttl`` seconds after the class's last write)::

    lab:class:CODE:meta        hash  key_hash, secret, view, minted, seq (and paused, "1"
                                     once the instructor stops publishing, "0" again after)
    lab:class:CODE:poll        hash  id, status, revealed, question (JSON)
    lab:class:CODE:answers:ID  hash  token id -> option index, for poll ID
    lab:class:CODE:rate:TOKEN  count of a token's answers in the current window
    lab:class:CODE:rate:view   count of the views the instructor's pages published in it

An answer is one Lua script (checked and stored at once, so a poll that closes meanwhile
never takes a late answer).
"""

from __future__ import annotations

import json

import redis

from classroom.store import CLASS_TTL_SECONDS, ClassError, ClassStore

_ANSWER = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'nopoll' end
if redis.call('HGET', KEYS[2], 'id') ~= ARGV[1] then return 'nopoll' end
if redis.call('HGET', KEYS[2], 'status') ~= 'open' then return 'closed' end
local option = tonumber(ARGV[3])
if option < 0 or option >= tonumber(redis.call('HGET', KEYS[2], 'options')) then
  return 'option'
end
local count = redis.call('INCR', KEYS[4])
if count == 1 then redis.call('EXPIRE', KEYS[4], ARGV[6]) end
if count > tonumber(ARGV[5]) then return 'rate' end
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[4]) end
return 'ok'
"""
_MINT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if tonumber(redis.call('HGET', KEYS[1], 'minted') or '0') >= tonumber(ARGV[1]) then return 0 end
redis.call('HINCRBY', KEYS[1], 'minted', 1)
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
return 1
"""
_UPDATE = """
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[3]) end
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


class RedisStore(ClassStore):
    """Classes in the Redis server behind ``client`` (``decode_responses=True``)."""

    def __init__(self, client: redis.Redis, ttl: float = CLASS_TTL_SECONDS):
        self.client, self.ttl = client, ttl
        self._answer_script = client.register_script(_ANSWER)
        self._mint_script = client.register_script(_MINT)
        self._update_script = client.register_script(_UPDATE)
        self._follow_script = client.register_script(_FOLLOW)

    @classmethod
    def from_url(cls, url: str, ttl: float = CLASS_TTL_SECONDS) -> RedisStore:
        return cls(redis.Redis.from_url(url, decode_responses=True, socket_timeout=5,
                                        health_check_interval=30, retry_on_timeout=True), ttl)

    def _keys(self, code: str, poll_id=None) -> list[str]:
        base = f"lab:class:{code}"
        poll_id = self.client.hget(f"{base}:poll", "id") if poll_id is None else poll_id
        return [f"{base}:meta", f"{base}:poll", f"{base}:answers:{poll_id or 0}"]

    def _call(self, function, *args, **kwargs):
        try:
            return function(*args, **kwargs)
        except redis.RedisError as error:
            raise ClassError("The class store is not answering: try again in a moment.",
                             503) from error

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

    def _mint(self, code, cap):
        meta, poll, _ = self._keys(code, poll_id=0)
        return bool(self._call(self._mint_script, keys=[meta, poll], args=[cap, int(self.ttl)]))

    def _open_poll(self, code, question):
        meta, poll, _ = self._keys(code, poll_id=0)
        poll_id = self._call(self.client.hincrby, meta, "seq", 1)
        pipe = self.client.pipeline()
        pipe.delete(poll)
        pipe.hset(poll, mapping={"id": poll_id, "status": "open", "revealed": 0,
                                 "options": len(question["options"]),
                                 "question": json.dumps(question)})
        for key in (meta, poll):
            pipe.expire(key, int(self.ttl))
        self._call(pipe.execute)
        return poll_id

    def _update_poll(self, code, **fields):
        keys = self._call(self._keys, code)
        done = True
        for name, value in fields.items():
            value = int(value) if isinstance(value, bool) else value
            done &= bool(self._call(self._update_script, keys=keys,
                                    args=[name, value, int(self.ttl)]))
        return done

    def _set_view(self, code, view):
        meta = f"lab:class:{code}:meta"
        pipe = self.client.pipeline()
        pipe.hset(meta, "view", view)
        pipe.expire(meta, int(self.ttl))
        self._call(pipe.execute)

    def _follow_view(self, code, view, rate_max, rate_window):
        meta, poll, _ = self._keys(code, poll_id=0)
        return self._call(self._follow_script, keys=[meta, poll, f"lab:class:{code}:rate:view"],
                          args=[view, rate_max, rate_window, int(self.ttl)])

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
        return {**json.loads(raw["question"]), "id": int(raw["id"]), "status": raw["status"],
                "revealed": raw["revealed"] == "1"}

    def _answer(self, code, poll_id, token_id, option, rate_max, rate_window):
        keys = self._keys(code, poll_id=poll_id)
        rate = f"lab:class:{code}:rate:{token_id}"
        return self._call(self._answer_script, keys=[*keys, rate],
                          args=[poll_id, token_id, option, int(self.ttl), rate_max,
                                rate_window])

    def _answers(self, code, poll_id):
        raw = self._call(self.client.hgetall, self._keys(code, poll_id=poll_id)[2])
        return {token: int(option) for token, option in raw.items()}
