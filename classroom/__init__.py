"""The live class: classes, polls and answers, kept out of Streamlit.

One interface, :class:`~classroom.store.ClassStore`, two stores behind it:

- :class:`~classroom.memory.MemoryStore`: the classes live in this process (``make run``,
  one server);
- :class:`~classroom.redis_store.RedisStore`: the classes live in Redis (``make serve``,
  replicas behind HAProxy), so every replica sees the same class and a replica that dies
  loses no answer.

:func:`class_store` picks one, once per process, from the environment variable
``PERCEPTRON_LAB_REDIS_URL`` (``scripts/serve.py`` sets it). The JSON routes the phones use
are in :mod:`classroom.routes`; who is asking (a client's address, the limits per address) in
:mod:`classroom.clients`; the address students join at in :mod:`classroom.join_link`. The pages
import nothing of Streamlit from here.
"""

from __future__ import annotations

import os
import threading

from classroom.store import (
    CLASS_TTL_SECONDS,
    ClassError,
    ClassStore,
    NewClass,
    normalise_code,
    poll_question,
)

#: set to a Redis URL (redis://127.0.0.1:PORT/0) to keep the classes in Redis
REDIS_URL_VARIABLE = "PERCEPTRON_LAB_REDIS_URL"

_STORE: ClassStore | None = None
_LOCK = threading.Lock()


def class_store() -> ClassStore:
    """The store of this process: Redis if ``PERCEPTRON_LAB_REDIS_URL`` is set, else memory.

    The store holds classes shared by design (a poll is answered by a whole room); a student's
    own state is only their anonymous token, which lives in their browser."""
    global _STORE
    with _LOCK:
        if _STORE is None:
            url = os.environ.get(REDIS_URL_VARIABLE, "").strip()
            if url:
                from classroom.redis_store import RedisStore

                _STORE = RedisStore.from_url(url)
            else:
                from classroom.memory import MemoryStore

                _STORE = MemoryStore()
        return _STORE


__all__ = [
    "CLASS_TTL_SECONDS",
    "REDIS_URL_VARIABLE",
    "ClassError",
    "ClassStore",
    "NewClass",
    "class_store",
    "normalise_code",
    "poll_question",
]
