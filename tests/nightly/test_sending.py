"""The synchronous nightly job sends each chunk's e-mails once the chunk commits, while it checks the next ones
(``corr.nightly.sending``, issue 42), on PostgreSQL outside an outer transaction; elsewhere after its chunks.

Either way every e-mail is sent once, by the outbox's claim and marks, and an e-mail that failed in a run is tried
once in that run, not again by the run's last sweep.
"""

from __future__ import annotations

import time_machine
import pytest
from django.db import DatabaseError, connection

from corr.models import EmailStatus, NightlyRun, OutboundEmail
from corr.nightly.job import nightly_job
from corr.outbox import message_id

from ..support.smtp import subject

from .conftest import at, day


@pytest.fixture
def three_games(make_game, anna, boris, eve, settings):
    """Three games whose white players (anna, eve, boris) all have an address, one game a chunk."""
    settings.NIGHTLY_CHUNK_SIZE = 1
    for user in (anna, boris, eve):
        user.email = f"{user.username}@example.org"
        user.save()
    return [make_game(white=anna, black=boris), make_game(white=eve, black=anna), make_game(white=boris, black=eve)]


def run_on(n: int) -> list[str]:
    """The job for day ``n``; the SQL the job's own session sent."""
    statements: list[str] = []

    def record(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with time_machine.travel(at(day(n)), tick=False), connection.execute_wrapper(record):
        nightly_job(on=day(n))
    return statements


def writes_to_outbox(statements: list[str]) -> list[str]:
    return [s for s in statements if s.lstrip().startswith(("UPDATE corr_outboundemail", "WITH marked AS"))]


@pytest.mark.django_db(transaction=True)
def test_on_postgresql_each_chunk_s_emails_are_claimed_and_sent_by_a_session_of_their_own_once_it_commits(
        three_games, smtp):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite takes one writer at a time: its job sends after its chunks (the test below)")
    job_sql = run_on(25)  # each white has 5 days left: a time-trouble notice and a reminder each
    emails = list(OutboundEmail.objects.order_by("pk"))
    assert len(emails) == 6 and {e.status for e in emails} == {EmailStatus.SENT}
    assert {e.attempts for e in emails} == {1}
    # One claim per chunk, made after the chunk committed (the sender's), not one claim of all after the chunks.
    assert len({e.claim for e in emails}) == 3
    assert all(len({e.claim for e in emails if e.recipients == [r]}) == 1 for r in {e.recipients[0] for e in emails})
    # The job's own session neither claimed nor marked any of them: the sender's session did.
    assert writes_to_outbox(job_sql) == []
    # As a mail server received them: each once, to its player, under its row's Message-ID.
    received = smtp.wait(6)
    assert sorted(m.envelope_to[0] for m in received) == sorted(e.recipients[0] for e in emails)
    assert sorted(m["Message-ID"] for m in received) == sorted(message_id(e.pk) for e in emails)
    assert {subject(m).split(" ")[0] for m in received} == {"Time", "Game"}  # "Time trouble ...", "Game #n: ..."


@pytest.mark.django_db(transaction=True)
def test_an_email_that_fails_in_a_run_is_tried_once_in_that_run(three_games, settings):
    settings.EMAIL_BACKEND = "tests.nightly.failing_backend.EmailBackend"
    run_on(25)
    emails = list(OutboundEmail.objects.all())
    assert len(emails) == 6
    assert {(e.status, e.attempts) for e in emails} == {(EmailStatus.FAILED, 1)}
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    run_on(26)  # the next night sends them (and tonight's own)
    assert {e.status for e in OutboundEmail.objects.all()} == {EmailStatus.SENT}
    assert {e.attempts for e in OutboundEmail.objects.filter(pk__in=[e.pk for e in emails])} == {2}


@pytest.mark.django_db
def test_inside_an_outer_transaction_the_job_sends_its_emails_after_its_chunks_on_its_own_session(three_games):
    # The chunks' e-mails are not committed when each chunk ends: no other session may claim them.
    job_sql = run_on(25)
    emails = list(OutboundEmail.objects.all())
    assert len(emails) == 6 and {e.status for e in emails} == {EmailStatus.SENT}
    assert len({e.claim for e in emails}) == 1  # one claim of everything due, after the chunks
    assert writes_to_outbox(job_sql) != []


@pytest.fixture
def claims_refused_for_eve():
    """A PostgreSQL trigger that refuses every claim of an e-mail to eve: the sender's own statement fails, a real
    database error on the sender's session (nothing of Python's is patched). Dropped after the test."""
    with connection.cursor() as cursor:
        cursor.execute("CREATE FUNCTION corr_test_refuse_claim() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                       " IF NEW.claim IS DISTINCT FROM OLD.claim AND NEW.recipients::text LIKE '%eve@%'"
                       " THEN RAISE EXCEPTION 'claim refused by the test'; END IF; RETURN NEW; END $$")
        cursor.execute("CREATE TRIGGER corr_test_refuse_claim BEFORE UPDATE ON corr_outboundemail FOR EACH ROW"
                       " EXECUTE FUNCTION corr_test_refuse_claim()")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TRIGGER IF EXISTS corr_test_refuse_claim ON corr_outboundemail")
            cursor.execute("DROP FUNCTION IF EXISTS corr_test_refuse_claim()")


@pytest.mark.django_db(transaction=True)
def test_a_batch_that_fails_on_the_sender_s_session_stops_no_other_and_loses_nothing(three_games, smtp, request):
    if connection.vendor != "postgresql":
        pytest.skip("the sender runs on PostgreSQL only")
    request.getfixturevalue("claims_refused_for_eve")
    with pytest.raises(DatabaseError, match="claim refused by the test"):
        run_on(25)  # the job ends with the failed batch's error, every chunk and the run's record done first
    assert NightlyRun.objects.get(date=day(25)).finished_at is not None
    emails = list(OutboundEmail.objects.all())
    to_eve = [e for e in emails if e.recipients == ["eve@example.org"]]
    others = [e for e in emails if e not in to_eve]
    assert len(to_eve) == 2 and len(others) == 4
    assert {(e.status, e.claim) for e in to_eve} == {(EmailStatus.PENDING, None)}  # never claimed, still due
    assert {e.status for e in others} == {EmailStatus.SENT}  # the batches after the failed one were sent too
    assert sorted(m.envelope_to[0] for m in smtp.wait(4)) == sorted(e.recipients[0] for e in others)
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER corr_test_refuse_claim ON corr_outboundemail")
    run_on(26)  # the next night sends eve's two (and its own)
    assert {e.status for e in OutboundEmail.objects.filter(pk__in=[e.pk for e in to_eve])} == {EmailStatus.SENT}
    sent = OutboundEmail.objects.filter(status=EmailStatus.SENT).count()
    assert sent == OutboundEmail.objects.count()
    ids = sorted(m["Message-ID"] for m in smtp.wait(sent))
    assert len(smtp.messages) == sent and len(set(ids)) == sent  # every e-mail received once, none twice
    assert {message_id(e.pk) for e in to_eve} <= set(ids)
