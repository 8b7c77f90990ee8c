"""A federation-sized data set for the benchmarks: running games whose stored clocks are real.

Every game is a postal game in which white has sent move 1 k days (0-4) after
the tournament's official start and black's move 1 is pending, presumed
received 3 days later (transit), so black's deadline is start + k + 3 + 30.
"Near" games have their deadline within the next 7 days of ``on`` (3 to 7
days left: three in five are in time trouble); all others have deadlines
beyond the nightly window. The stored ``PlayerClock`` rows are what
the calculator gives as of ``on``, so the nightly job's re-check agrees.

On PostgreSQL the rows go in with COPY; elsewhere with bulk inserts.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone as dt_timezone
from typing import Callable

from django.contrib.auth.hashers import make_password
from django.db import connection, transaction

from accounts.models import User
from corr.models import Game, GameEvent, PlayerClock, Tournament

TRANSIT_DAYS = 3
GAMES_PER_TOURNAMENT = 1000
DAYS = 30


def bench_data_load(*, games: int, near: int, on: date, progress: Callable[[str], None] = print) -> dict:
    """Load ``games`` running games, ``near`` of them with a deadline in the next 7 days of ``on``."""
    if Game.objects.exists():
        raise RuntimeError("bench_data needs an empty database (it chooses the ids itself)")
    now = datetime.now(dt_timezone.utc)
    users = max(100, min(games // 20, 50_000)) // 2 * 2
    near_tournaments = max(1, -(-near // GAMES_PER_TOURNAMENT))
    far_tournaments = max(1, -(-(games - near) // GAMES_PER_TOURNAMENT))
    password = make_password("bench-password")

    def near_start(t: int) -> date:
        # deadline = start + k + 33 with k in 0..4 falls in on+3 .. on+7.
        return on - timedelta(days=30)

    def far_start(t: int) -> date:
        # deadline = start + k + 33 > on + 7 (beyond the window); white's move was sent before ``on``.
        return on - timedelta(days=5 + t % 15)

    starts = [near_start(t) for t in range(near_tournaments)] + [far_start(t) for t in range(far_tournaments)]
    tournament_rows = [(t + 1, f"Bench tournament {t + 1}", s, "postal", "UTC", TRANSIT_DAYS, 10, DAYS, 3, 5, 10, 5,
                        3, 1, now) for t, s in enumerate(starts)]
    user_rows = [(u + 1, password, False, f"bench{u + 1}", "", "", f"bench{u + 1}@example.org", False, True, now, "")
                 for u in range(users)]

    def game_rows():
        for g in range(games):
            is_near = g < near
            t = (g % near_tournaments) if is_near else near_tournaments + (g - near) % far_tournaments
            white, black = 2 * g % users + 1, (2 * g + 1) % users + 1
            yield g + 1, t + 1, white, black, starts[t] + timedelta(days=g % 5)

    copy = _copy if connection.vendor == "postgresql" else _bulk
    with transaction.atomic():
        copy("accounts_user", ["id", "password", "is_superuser", "username", "first_name", "last_name", "email",
                               "is_staff", "is_active", "date_joined", "language"], user_rows)
        copy("corr_tournament", ["id", "name", "official_start", "mode", "time_zone", "presumed_transit_days",
                                 "moves_per_control", "days_per_control", "grace_days", "first_penalty_days",
                                 "repeat_penalty_days", "time_trouble_days", "late_notice_start_days",
                                 "created_by_id", "created_at"], tournament_rows)
        step = max(1, games // 10)

        def games_out():
            for i, (gid, tid, white, black, _) in enumerate(game_rows()):
                if i and i % step == 0:
                    progress(f"  games: {i:,} of {games:,}")
                yield gid, tid, white, black, "white", "postal", "ongoing", "", "", 1, now

        copy("corr_game", ["id", "tournament_id", "white_id", "black_id", "first", "mode", "status", "result",
                           "termination", "events_version", "created_at"], games_out())
        progress("  events")
        copy("corr_gameevent", ["id", "game_id", "seq", "kind", "player", "number", "notation", "sent_on", "void",
                                "variant", "mail", "reason", "note", "entered_by_id", "entered_at"],
             ((gid, gid, 1, "move", "white", 1, "e4", sent, False, "", "ordinary", "", "", white, now)
              for gid, _, white, _, sent in game_rows()))
        progress("  clocks")

        def clocks():
            for gid, tid, _, _, sent in game_rows():
                white_used = (sent - starts[tid - 1]).days
                received = sent + timedelta(days=TRANSIT_DAYS)
                used = max(0, (on - received).days)
                left = DAYS - used
                trouble = left <= 5
                # A move still in transit is stored as of its arrival, as clock_store does.
                as_of = max(on, received)
                yield (2 * gid - 1, gid, "white", False, 1, 1, white_used, DAYS - white_used, None, False, None,
                       False, as_of, 1, now)
                yield (2 * gid, gid, "black", True, 0, 1, used, left, received + timedelta(days=DAYS), trouble,
                       None, trouble, as_of, 1, now)

        copy("corr_playerclock", ["id", "game_id", "player", "on_move", "made", "control_number", "total_days",
                                  "remaining_days", "deadline", "time_trouble", "overstepped_control", "flagged",
                                  "computed_on", "events_version", "updated_at"], clocks())
        _reset_sequences()
    return {"games": games, "near": near, "users": users, "tournaments": len(starts)}


def _copy(table: str, columns: list[str], rows) -> None:
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


def _bulk(table: str, columns: list[str], rows, batch: int = 5000) -> None:
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
    buffer = []
    with connection.cursor() as cursor:
        for row in rows:
            buffer.append(row)
            if len(buffer) >= batch:
                cursor.executemany(sql, buffer)
                buffer.clear()
        if buffer:
            cursor.executemany(sql, buffer)


def _reset_sequences() -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in (User, Tournament, Game, GameEvent, PlayerClock):
            table = model._meta.db_table
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"(SELECT COALESCE(MAX(id), 1) FROM {table}))")
        cursor.execute("ANALYZE")
