"""Flags when they fall: server games under an instant count (issue 22), recorded at ``flag_at``.

``corr.games.flagclock`` queues a check at each stored ``PlayerClock.flag_at``;
``sweep`` finds the ones lost; ``services.flag_record`` records the flag under
the game's row lock: an overstep case announced at once (``timeouts: arbiter``)
or the result (``timeouts: automatic``, ``outcome``). The nightly run still
re-checks every game.
"""
