"""Notifications (issue 38): players are told by e-mail when a game needs them.

Fed after commit by the services that changed a game (``corr.games.notices`` queues ``corr.notify_event`` by
name, ids only); the task reads the game itself, words a notice in the recipient's language and time zone
with the game page's own wording functions, and sends it through the outbox (``corr.outbox``), paced per
player (``pace``: one e-mail at once, the rest of a quiet period gathered into one). Warnings before a flag
under an instant count come from a periodic sweep (``warnings``). Above the services and the pages: nothing
below imports this package.
"""
