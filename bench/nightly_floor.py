"""The nightly job's floor: the same writes as the job, in bare set-based SQL (PostgreSQL).

For a date D it selects the players the job selects (stored deadline within
the window, or flagged), and, trusting the stored clocks (no re-check), writes
what the job writes: the time-trouble notices and deadline reminders, each
once (ON CONFLICT DO NOTHING), the overstep cases' announcement marks, one
e-mail per new notice and reminder in the outbox, each active tournament's
report, and the e-mails' claim and sent marks. It neither computes a clock nor
sends an e-mail: the job's ratio to it is the price of the re-check and of the
e-mails' text in the recipient's language. The sent marks are what the
outbox's guarantee needs (docs/reliability.md): one committed UPDATE per
batch of ``corr.outbox.MARK_BATCH`` e-mails, after the rest is committed, as a
batch must be marked before the next is sent (issue 42; one per e-mail before).
"""

from __future__ import annotations

import time
import uuid
from datetime import date, timedelta

SELECTED = """
CREATE TEMP TABLE floor_selected ON COMMIT DROP AS
SELECT c.game_id, c.player, c.control_number, c.remaining_days, c.deadline, c.time_trouble,
       c.overstepped_control, g.tournament_id,
       CASE WHEN c.player = 'white' THEN g.white_id ELSE g.black_id END AS user_id
FROM corr_playerclock c JOIN corr_game g ON g.id = c.game_id
WHERE g.status = 'ongoing' AND (c.deadline <= %(horizon)s OR c.flagged)
"""

NOTICES = """
WITH new AS (
  INSERT INTO corr_timetroublenotice (game_id, player, control_number, remaining_days, deadline, noticed_on,
                                      claim, created_at)
  SELECT game_id, player, control_number, remaining_days, deadline, %(on)s, %(claim)s, now()
  FROM floor_selected WHERE time_trouble AND overstepped_control IS NULL
  ON CONFLICT DO NOTHING RETURNING id, game_id, player, control_number, remaining_days, deadline)
INSERT INTO corr_outboundemail (key, tournament_id, recipients, subject, body, status, attempts, last_error,
                                created_at, headers)
SELECT 'time_trouble:' || n.id, s.tournament_id, jsonb_build_array(u.email),
       format('Time trouble in game #%%s: %%s days left — use registered mail', n.game_id, n.remaining_days),
       format(E'%%s, as of %%s in game #%%s (%%s) you have %%s days left in control %%s; your deadline is %%s.\\n'
              '%%s\\nGame page: %%s/games/%%s/\\n', u.username, %(on)s, n.game_id, t.name, n.remaining_days,
              n.control_number, n.deadline, %(article)s, %(site)s, n.game_id),
       'pending', 0, '', now(), '{}'::jsonb
FROM new n JOIN floor_selected s ON s.game_id = n.game_id AND s.player = n.player
JOIN accounts_user u ON u.id = s.user_id JOIN corr_tournament t ON t.id = s.tournament_id
"""

REMINDERS = """
WITH due AS (
  SELECT *, CASE WHEN deadline - %(on)s <= 2 THEN 2 ELSE 7 END AS days_before FROM floor_selected
  WHERE deadline IS NOT NULL AND overstepped_control IS NULL AND deadline - %(on)s BETWEEN 0 AND 7),
new AS (
  INSERT INTO corr_deadlinereminder (game_id, player, deadline, days_before, reminded_on, claim, created_at)
  SELECT game_id, player, deadline, days_before, %(on)s, %(claim)s, now() FROM due
  ON CONFLICT DO NOTHING RETURNING id, game_id, player, deadline)
INSERT INTO corr_outboundemail (key, tournament_id, recipients, subject, body, status, attempts, last_error,
                                created_at, headers)
SELECT 'reminder:' || n.id, s.tournament_id, jsonb_build_array(u.email),
       format('Game #%%s: your move is due by %%s (%%s days)', n.game_id, n.deadline, n.deadline - %(on)s),
       format(E'%%s, your move in game #%%s (%%s) must be sent by %%s, in %%s days.\\nGame page: %%s/games/%%s/\\n',
              u.username, n.game_id, t.name, n.deadline, n.deadline - %(on)s, %(site)s, n.game_id),
       'pending', 0, '', now(), '{}'::jsonb
FROM new n JOIN floor_selected s ON s.game_id = n.game_id AND s.player = n.player
JOIN accounts_user u ON u.id = s.user_id JOIN corr_tournament t ON t.id = s.tournament_id
"""

CASES = """
UPDATE corr_overstepcase SET announced_on = %(on)s
WHERE status = 'open' AND announced_on IS NULL AND game_id IN (SELECT game_id FROM floor_selected)
"""

REPORTS = """
WITH active AS (
  SELECT t.id, t.name FROM corr_tournament t
  WHERE EXISTS (SELECT 1 FROM corr_game g WHERE g.tournament_id = t.id AND g.status = 'ongoing')),
item AS (
  SELECT g.tournament_id, c.on_move, c.deadline, c.flagged, c.time_trouble, c.overstepped_control,
         jsonb_build_object('game', c.game_id, 'player', c.player, 'username', u.username,
                            'deadline', c.deadline, 'remaining_days', c.remaining_days) AS body,
         c.remaining_days, c.game_id, c.player
  FROM corr_playerclock c JOIN corr_game g ON g.id = c.game_id
  JOIN accounts_user u ON u.id = CASE WHEN c.player = 'white' THEN g.white_id ELSE g.black_id END
  WHERE g.status = 'ongoing' AND ((c.on_move AND c.deadline BETWEEN %(on)s AND %(soon)s) OR c.flagged))
INSERT INTO corr_nightlyreport (tournament_id, date, data, claim, created_at)
SELECT a.id, %(on)s, jsonb_build_object(
  'date', %(on)s, 'id', a.id, 'name', a.name,
  'deadlines_soon', COALESCE((SELECT jsonb_agg(body ORDER BY deadline, game_id, player) FROM item
                              WHERE tournament_id = a.id AND on_move AND deadline BETWEEN %(on)s AND %(soon)s), '[]'),
  'time_trouble', COALESCE((SELECT jsonb_agg(body ORDER BY remaining_days, game_id, player) FROM item
                            WHERE tournament_id = a.id AND flagged AND time_trouble
                            AND overstepped_control IS NULL), '[]'),
  'overstep_cases', '[]'::jsonb, 'email_failures', '[]'::jsonb), %(claim)s, now()
FROM active a
ON CONFLICT DO NOTHING
"""

CLAIM = """
UPDATE corr_outboundemail SET status = 'sending', claimed_at = now(), claim = %(claim)s
WHERE status IN ('pending', 'failed') AND recipients <> '[]'::jsonb
RETURNING id
"""

SENT = """
UPDATE corr_outboundemail SET status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = ''
WHERE id = ANY(%(ids)s) AND claim = %(claim)s AND status = 'sending'
"""


def floor_run(*, on: date, window: int, site: str, article: str) -> tuple[float, dict]:
    """Run the floor once for ``on`` and commit; its wall time and the rows it wrote."""
    from django.db import connection, transaction

    params = {"on": on, "horizon": on + timedelta(days=window), "soon": on + timedelta(days=7),
              "claim": uuid.uuid4(), "site": site.rstrip("/"), "article": article}
    written = {}
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        for name, sql in (("selected", SELECTED), ("notices", NOTICES), ("reminders", REMINDERS),
                          ("cases", CASES), ("reports", REPORTS), ("claimed", CLAIM)):
            cursor.execute(sql, params)
            written[name] = cursor.rowcount
        claimed = [pk for (pk,) in cursor.fetchall()]
    from corr.outbox import MARK_BATCH

    written["sent"] = 0
    with connection.cursor() as cursor:  # autocommit: each batch's mark its own commit, as the outbox's
        for start in range(0, len(claimed), MARK_BATCH):
            cursor.execute(SENT, {**params, "ids": claimed[start:start + MARK_BATCH]})
            written["sent"] += cursor.rowcount
    return time.perf_counter() - started, written
