"""Hypothesis profiles of the calculator's property tests.

``corr`` (the default) runs every property on 150 random games and no deadline: the whole suite stays
within a few minutes on two cores. The system properties fold move times without dates and are cheap,
so they take ``SYSTEM_EXAMPLES`` (1500) each (``tests/clock/test_system_properties.py``): enough to meet the
rare shapes that broke them before (a Canadian block overrun by its first move, a flag fallen before
the pending move's days began). ``HYPOTHESIS_PROFILE=thorough`` multiplies both by ten.

``ci`` (set by ``.ci/run``) draws as many examples as ``corr`` but the same ones every run
(``derandomize``): CI's verdict depends on the code alone, never on the luck of a draw. Every
developer's ``make test`` draws new examples, which is where a new counterexample is found; it is
then kept as an explicit ``@example``.
"""

import os

from hypothesis import settings

settings.register_profile("corr", deadline=None, max_examples=150)
settings.register_profile("thorough", deadline=None, max_examples=1500)
settings.register_profile("ci", deadline=None, max_examples=150, derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "corr"))
