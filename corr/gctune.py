"""The cyclic garbage collector of a serving process, set for the live clock's latency (issue 27) and the HTTP
move's tail (issue 42): daphne's (``corr.asgi``) and each gunicorn worker's (``corr.wsgi``).

CPython's collector stops every thread of the process while it runs, and a collection of the oldest generation
walks every object the process holds. Measured in daphne under the 500-game bench (``make bench-live``): its
full collections took 120-280 ms over about 250,000 objects, two or three a minute in each process, and
each stalled every socket's press and push of that process; the youngest generation's 12-20 ms. Two settings,
both standard CPython:

- ``gc.freeze()`` once the application is loaded: what start-up made (modules, settings, URL patterns,
  translations; about 150,000 objects) lives as long as the process, so it goes to the permanent generation
  and is never walked again;
- the youngest generation collected every ``GC_GEN0_THRESHOLD`` allocations net of deallocations (7,000: ten
  times CPython's 700, whose 3.13 default is 2,000), so every generation is collected a tenth as often; a
  reference cycle lives that much longer before it is freed (memory, not correctness: objects without cycles
  are freed at once by their reference counts).

In a gunicorn worker (issue 42), over 3,000 clock reads in one process on a quiet machine: untuned, two full
collections of 113 and 96 ms (139,000 objects of start-up walked each time) and 620 younger ones of at most
1.7 ms; tuned, no full collection and 57 younger ones of at most 14.8 ms, 179 ms of collection in all against 401.
"""

from __future__ import annotations

import gc


def tune_for_serving(gen0_threshold: int) -> None:
    """Collect once, freeze what start-up made, and collect the youngest generation every ``gen0_threshold``
    net allocations (the older generations' thresholds as they are). Call once the application is loaded."""
    gc.collect()  # garbage of start-up is freed, not frozen with the rest
    gc.freeze()
    _gen0, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(gen0_threshold, gen1, gen2)
