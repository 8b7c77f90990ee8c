"""Live games in the service: events stamped by the server, moves, arbiter actions, flags and results.

The clock itself is ``corr.clock.live`` (pure); this package stores its events,
decides what a flag means in the position, and schedules the checks that find
a flag at its instant (``schedule``, ``tasks``).
"""
