"""Pausing Python's cyclic garbage collector over a batch that allocates much and keeps little.

A batch (the calculator over a file of games, a nightly chunk, a long game's
clock computed on a read) builds many short-lived tuples and dicts; the
collector, triggered by allocations, walks every object of the process each
full pass, the batch's and all that Django keeps for the process's life
alike. Reference counting frees the batch's objects as it goes; cycles (rare
here) wait for the collector's next pass after the batch.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def no_cyclic_gc():
    """The cyclic collector off for the block, then back as it was (it may have been off already)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
