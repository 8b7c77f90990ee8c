"""Celery tasks of the notifications: thin wrappers that read the clock once and call one service (STYLE 6)."""

from __future__ import annotations

from celery import shared_task

from corr.timeouts.tasks import server_now

RETRY_SECONDS = 1
RETRIES = 10


@shared_task(name="corr.notify_event", bind=True, max_retries=RETRIES, ignore_result=True)
def notify_event(self, change: str, game_id: int, version: int, colour: str, seq: int | None = None) -> list[str]:
    """A change to a game (``corr.games.notices``), after its commit; retried while the commit is not visible."""
    from .events import NotYetVisible, change_notify

    try:
        return change_notify(change=change, game_id=game_id, version=version, colour=colour, now=server_now(),
                             seq=seq)
    except NotYetVisible as late:
        if self.request.is_eager:
            return []
        raise self.retry(exc=late, countdown=RETRY_SECONDS) from None


@shared_task(name="corr.notify_digest", ignore_result=True)
def notify_digest(user_id: int) -> int:
    """A player's gathered e-mail, at the end of their quiet period (queued with ``eta``)."""
    from accounts.models import User

    from .pace import digest_send

    user = User.objects.filter(pk=user_id).first()
    return 0 if user is None else digest_send(user=user, now=server_now())


@shared_task(name="corr.notify_sweep", ignore_result=True)
def notify_sweep() -> dict:
    """The beat's sweep (every ``NOTIFY_SWEEP_SECONDS``): flag warnings and silence reminders due, digests whose
    message was lost."""
    from accounts.models import User

    from .pace import digest_send, digests_due
    from .silence import silence_reminders_due
    from .warnings import warnings_due

    now = server_now()
    warned = warnings_due(now=now)
    reminded = silence_reminders_due(now=now)
    digests = 0
    for user in User.objects.filter(pk__in=digests_due(now=now)):
        digests += bool(digest_send(user=user, now=now))
    return {"warnings": len(warned), "silence": len(reminded), "digests": digests}
