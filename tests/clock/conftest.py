"""Hypothesis profiles of the calculator's property tests.

``corr`` (the default) runs every property on 150 random games and no deadline: the whole suite stays
within a few minutes on two cores. The system properties fold move times without dates and are cheap,
so they take ``SYSTEM_EXAMPLES`` (1500) each (``tests/clock/test_system_properties.py``): enough to meet the
rare shapes that broke them before (a Canadian block overrun by its first move, a flag fallen before
the pending move's days began). ``HYPOTHESIS_PROFILE=thorough`` multiplies both by ten.
"""

import os

from hypothesis import settings

settings.register_profile("corr", deadline=None, max_examples=150)
settings.register_profile("thorough", deadline=None, max_examples=1500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "corr"))
