"""A federation-sized data set for the benchmarks: running games with real histories and real stored clocks.

Every game is a postal game with a history of tens of dated events: 20 to 60
moves sent after thinking 0-3 days, most presumed received after the transit
days, some with a recorded receipt, and in some games a penalty (50.4.9.4).
The player to move waits for their reply. "Near" games have that player's
deadline within 3 to 7 days of ``on`` (3 to 5: in time trouble); all the
others have both players unflagged and the deadline beyond the nightly window.

Histories come from a small pool of variants per tournament age (seeded, so a
run is reproducible); each variant's stored ``PlayerClock`` rows are computed
once by the calculator, through the very functions the service stores clocks
with, and every game of that variant gets them: the nightly re-check agrees.

The games and their ids are written in bulk (COPY on PostgreSQL); the events
and clocks are expanded by the database itself, ``INSERT ... SELECT`` from the
variants joined to the games, which is what keeps 40 million events to minutes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, time as dt_time, timedelta, timezone as dt_timezone
from typing import Callable

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import connection, transaction

from accounts.models import User
from corr.games.services import clock_fields, time_for_storage
from corr.models import Game, GameEvent, PlayerClock, Tournament

TRANSIT_DAYS = 3
GAMES_PER_TOURNAMENT = 1000
DAYS = 30
TIME_TROUBLE_DAYS = 5
VARIANTS = 16
"""Histories per tournament age and kind (near or far): games of a tournament take them in turn."""
AGES = {"near": tuple(range(140, 341, 20)), "far": tuple(range(100, 261, 10))}
"""Days from a tournament's official start to ``on``: 20 to 60 moves, thinking as the kind of game does."""
THINKING_DAYS = {"near": (1, 2, 3, 3, 4), "far": (0, 1, 1, 1, 2, 2, 3)}
"""Days a player thinks before sending: near a deadline, players have used their time nearly to the full."""
PENALTY_SHARE = 0.25
RECEIPT_SHARE = 0.15

EVENT_COLUMNS = ("seq", "kind", "player", "number", "received_on", "sent_on", "reason", "entered_at")
CLOCK_COLUMNS = ("player", "on_move", "made", "control_number", "total_days", "remaining_days", "deadline",
                 "time_trouble", "overstepped_control", "flagged", "computed_on", "events_version")


@dataclass(frozen=True)
class Variant:
    """One history: its event rows (``EVENT_COLUMNS``) and each colour's stored clock (``CLOCK_COLUMNS``)."""

    events: tuple[tuple, ...]
    clocks: tuple[tuple, ...]


def bench_data_load(*, games: int, near: int, on: date, progress: Callable[[str], None] = print) -> dict:
    """Load ``games`` running games, ``near`` of them with a deadline in the next 7 days of ``on``."""
    if Game.objects.exists():
        raise RuntimeError("bench_data needs an empty database (it chooses the ids itself)")
    now = datetime.now(dt_timezone.utc)
    users = max(100, min(games // 20, 50_000)) // 2 * 2
    near_tournaments = max(1, -(-near // GAMES_PER_TOURNAMENT)) if near else 0
    far_tournaments = max(1, -(-(games - near) // GAMES_PER_TOURNAMENT)) if games > near else 0
    kinds = ["near"] * near_tournaments + ["far"] * far_tournaments
    ages = [AGES[kind][t % len(AGES[kind])] for t, kind in enumerate(kinds)]
    pool = VariantPool(on)
    password = make_password("bench-password")
    tournament_rows = [(t + 1, f"Bench tournament {t + 1}", on - timedelta(days=age), "postal", "UTC", TRANSIT_DAYS,
                        10, DAYS, 3, 5, 10, TIME_TROUBLE_DAYS, 3, 1, now) for t, age in enumerate(ages)]
    user_rows = [(u + 1, password, False, f"bench{u + 1}", "", "", f"bench{u + 1}@example.org", False, True, now, "")
                 for u in range(users)]

    progress("  histories")
    variant_ids: dict[tuple[int, str, int], int] = {}
    event_rows, clock_rows = [], []
    for age, kind in sorted(set(zip(ages, kinds, strict=True))):
        for v in range(VARIANTS):
            vid = len(variant_ids) + 1
            variant_ids[(age, kind, v)] = vid
            variant = pool.get(age, kind, v)
            event_rows += [(vid, *row) for row in variant.events]
            clock_rows += [(vid, *row) for row in variant.clocks]

    def game_rows():
        for g in range(games):
            if g < near:
                t = g % near_tournaments
            else:
                t = near_tournaments + (g - near) % far_tournaments
            white, black = 2 * g % users + 1, (2 * g + 1) % users + 1
            yield g + 1, t + 1, white, black, variant_ids[(ages[t], kinds[t], (g // len(kinds)) % VARIANTS)]

    copy = _copy if connection.vendor == "postgresql" else _bulk
    with transaction.atomic():
        copy("accounts_user", ["id", "password", "is_superuser", "username", "first_name", "last_name", "email",
                               "is_staff", "is_active", "date_joined", "language"], user_rows)
        copy("corr_tournament", ["id", "name", "official_start", "mode", "time_zone", "presumed_transit_days",
                                 "moves_per_control", "days_per_control", "grace_days", "first_penalty_days",
                                 "repeat_penalty_days", "time_trouble_days", "late_notice_start_days",
                                 "created_by_id", "created_at"], tournament_rows)
        with connection.cursor() as cursor:
            cursor.execute("CREATE TEMP TABLE bench_game_variant (game_id bigint PRIMARY KEY, variant int)")
            cursor.execute("CREATE TEMP TABLE bench_variant_event (variant int, seq int, kind varchar(16),"
                           " player varchar(5), number int, received_on date, sent_on date, reason varchar(40),"
                           " entered_at timestamp with time zone)")
            cursor.execute("CREATE TEMP TABLE bench_variant_clock (variant int, player varchar(5), on_move boolean,"
                           " made int, control_number int, total_days int, remaining_days int, deadline date,"
                           " time_trouble boolean, overstepped_control int, flagged boolean, computed_on date,"
                           " events_version int)")
        copy("bench_variant_event", ["variant", *EVENT_COLUMNS], event_rows)
        copy("bench_variant_clock", ["variant", *CLOCK_COLUMNS], clock_rows)
        step = max(1, games // 10)

        def games_out():
            for i, (gid, tid, white, black, _) in enumerate(game_rows()):
                if i and i % step == 0:
                    progress(f"  games: {i:,} of {games:,}")
                yield gid, tid, white, black, "white", "postal", "ongoing", "", "", 1, now

        copy("corr_game", ["id", "tournament_id", "white_id", "black_id", "first", "mode", "status", "result",
                           "termination", "events_version", "created_at"], games_out())
        copy("bench_game_variant", ["game_id", "variant"], ((gid, vid) for gid, *_, vid in game_rows()))
        progress("  events")
        with _bulk_loading("corr_gameevent"), connection.cursor() as cursor:
            # Ordered by game and seq: the events of a game sit together on disk, as a real table's
            # mostly do (a game's events are entered over months, but read by game through the index).
            cursor.execute(
                "INSERT INTO corr_gameevent (game_id, seq, kind, player, number, notation, received_on, sent_on,"
                " void, variant, mail, reason, note, entered_by_id, entered_at)"
                " SELECT g.id, e.seq, e.kind, e.player, e.number, '', e.received_on, e.sent_on, FALSE, '',"
                " CASE WHEN e.kind = 'move' THEN 'ordinary' ELSE '' END, e.reason, '',"
                " CASE WHEN e.player = 'white' THEN g.white_id ELSE g.black_id END, e.entered_at"
                " FROM corr_game g JOIN bench_game_variant gv ON gv.game_id = g.id"
                " JOIN bench_variant_event e ON e.variant = gv.variant ORDER BY g.id, e.seq")
        progress("  clocks")
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO corr_playerclock (game_id, {', '.join(CLOCK_COLUMNS)}, updated_at)"
                f" SELECT gv.game_id, {', '.join('c.' + c for c in CLOCK_COLUMNS)}, %s"
                " FROM bench_game_variant gv JOIN bench_variant_clock c ON c.variant = gv.variant"
                " ORDER BY gv.game_id, c.player DESC", [now])
            for table in ("bench_game_variant", "bench_variant_event", "bench_variant_clock"):
                cursor.execute(f"DROP TABLE {table}")
        _reset_sequences()
    events = sum(len(pool.get(ages[t], kinds[t], 0).events) for t in range(len(kinds)))  # a sample, for the line
    return {"games": games, "near": near, "users": users, "tournaments": len(kinds),
            "events_per_game": round(events / max(1, len(kinds)), 1)}


class VariantPool:
    """The histories of one date ``on``, made on demand and kept: (age, kind, index) -> ``Variant``."""

    def __init__(self, on: date) -> None:
        self.on = on
        self.window = max(settings.WARNING_WINDOW_DAYS, TIME_TROUBLE_DAYS, *settings.REMINDER_DAYS)
        self._made: dict[tuple[int, str, int], Variant] = {}

    def get(self, age: int, kind: str, index: int) -> Variant:
        key = (age, kind, index)
        if key not in self._made:
            rng = random.Random(f"{age}:{kind}:{index}")
            for _ in range(500):  # rejection sampling: most draws fit
                variant = self._draw(rng, age, kind)
                if variant is not None:
                    self._made[key] = variant
                    break
            else:
                raise RuntimeError(f"no {kind} history fits a tournament {age} days old")
        return self._made[key]

    def _draw(self, rng: random.Random, age: int, kind: str) -> Variant | None:
        """A random history of a tournament ``age`` days old, if its clocks are of ``kind``."""
        start = self.on - timedelta(days=age)
        # Far games: the last move arrived 0-6 days ago. Near games are played on until 3 days ago,
        # then cut where the player to move has just enough days left (below).
        last_receipt = self.on - timedelta(days=3 if kind == "near" else rng.randint(0, 6))
        rows: list[tuple] = []
        cuts: list[tuple[int, date]] = []  # (rows so far, the day the player to move received the move)
        made = {"white": 0, "black": 0}
        player, ready = "white", start  # white's move 1 counts from the official start (50.4.5)
        penalty_at = rng.randrange(4, 20) if rng.random() < PENALTY_SHARE else None
        while True:
            sent = ready + timedelta(days=rng.choice(THINKING_DAYS[kind]))
            recorded = rng.random() < RECEIPT_SHARE
            received = sent + timedelta(days=rng.randint(2, 5) if recorded else TRANSIT_DAYS)
            if received > last_receipt:
                break
            made[player] += 1
            # A move carries the day its player received the partner's move (none for white's first).
            rows.append((len(rows) + 1, "move", player, made[player], None if ready == start else ready, sent, "",
                         _noon(sent)))
            partner = "black" if player == "white" else "white"
            if recorded:
                rows.append((len(rows) + 1, "receipt", partner, None, received, None, "", _noon(received)))
            if penalty_at is not None and sum(made.values()) == penalty_at:
                rows.append((len(rows) + 1, "penalty", player, made[player], None, None, "address_error",
                             _noon(received)))
            player, ready = partner, received
            cuts.append((len(rows), ready))
        if kind == "near":
            rows = self._near_cut(rng, rows, cuts, start)
            if rows is None:
                return None
        if len([r for r in rows if r[1] == "move"]) < 20:
            return None
        clocks = _clocks(rows, start, self.on)
        if clocks is None:
            return None
        to_move = next(c for c in clocks.values() if c["on_move"])
        if any(c["overstepped_control"] is not None for c in clocks.values()):
            return None
        left = (to_move["deadline"] - self.on).days
        if kind == "near":
            fits = 3 <= left <= 7 and not any(c["flagged"] for c in clocks.values() if not c["on_move"])
        else:
            fits = left > self.window and not any(c["flagged"] for c in clocks.values())
        if not fits:
            return None
        return Variant(events=tuple(rows), clocks=tuple(
            (colour, *(clocks[colour][c] for c in CLOCK_COLUMNS[1:])) for colour in ("white", "black")))

    def _near_cut(self, rng: random.Random, rows: list[tuple], cuts: list, start: date) -> list[tuple] | None:
        """The history cut after a move that leaves the player to move 3-7 days as of ``on``.

        Walking back from the last move: the player to move had ``left`` days on receiving it; they
        need ``left - target`` days of waiting, and the days from that receipt to ``on`` beyond
        these are a slow post, recorded as a late receipt (0-8 days late), which no one is charged.
        """
        for size, received in reversed(cuts[-15:]):
            head = rows[:size]
            clocks = _clocks(head, start, received)
            if clocks is None:
                continue
            left = next(c for c in clocks.values() if c["on_move"])["remaining_days"]
            late = (self.on - received).days - (left - rng.randint(3, 7))
            if not 0 <= late <= 8 or received + timedelta(days=late) > self.on:  # nothing dated after ``on``
                continue
            if late:
                if head[-1][1] == "receipt":
                    head = head[:-1]
                player = next(c for c, v in clocks.items() if v["on_move"])
                day = received + timedelta(days=late)
                head = [*head, (len(head) + 1, "receipt", player, None, day, None, "", _noon(day))]
            return head
        return None


def _noon(day: date) -> datetime:
    return datetime.combine(day, dt_time(12), tzinfo=dt_timezone.utc)


class _Row:
    """An event row as the selectors read it (``corr.games.selectors.EVENT_FIELDS``)."""

    __slots__ = ("id", "game_id", "seq", "kind", "player", "number", "notation", "received_on", "sent_on",
                 "received_at", "sent_at", "void", "variant", "mail", "reason", "days", "note", "supersedes_id",
                 "entered_by_id", "entered_at")

    def __init__(self, seq, kind, player, number, received_on, sent_on, reason, entered_at):
        self.id, self.game_id, self.seq, self.kind, self.player, self.number = seq, None, seq, kind, player, number
        self.notation, self.received_on, self.sent_on, self.void, self.variant = "", received_on, sent_on, False, ""
        self.received_at = self.sent_at = None
        self.mail = "ordinary" if kind == "move" else ""
        self.reason, self.days, self.note, self.supersedes_id = reason, None, "", None
        self.entered_by_id, self.entered_at = None, entered_at


def _clocks(rows: list[tuple], start: date, on: date) -> dict[str, dict] | None:
    """Each colour's stored clock fields as the service computes them (None: the calculator refuses the game)."""
    from corr.clock import ClockError

    tournament = Tournament(official_start=start, mode="postal", time_zone="UTC", presumed_transit_days=TRANSIT_DAYS,
                            moves_per_control=10, days_per_control=DAYS, grace_days=3, first_penalty_days=5,
                            repeat_penalty_days=10, time_trouble_days=TIME_TROUBLE_DAYS, late_notice_start_days=3)
    game = Game(tournament=tournament, first="white", mode="postal", status="ongoing", events_version=1)
    game._leave_ranges = {"white": (), "black": ()}  # no leave (corr.games.leaves keeps it there)
    try:
        return clock_fields(game, time_for_storage(game, [_Row(*row) for row in rows], on))
    except ClockError:
        return None


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


class _bulk_loading:
    """On PostgreSQL, load ``table`` without its secondary indexes and foreign-key triggers, then rebuild them.

    Maintaining four indexes row by row and checking two foreign keys per row
    is most of the cost of inserting tens of millions of events; building the
    indexes once afterwards is several times cheaper. The rows are generated
    consistent (the games and users exist), which the tests check.
    """

    def __init__(self, table: str) -> None:
        self.table = table
        self.indexes: list[str] = []
        self.constraints: list[tuple[str, str]] = []

    def __enter__(self):
        if connection.vendor != "postgresql":
            return self
        with connection.cursor() as cursor:
            cursor.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
                           " WHERE conrelid = %s::regclass AND contype = 'u'", [self.table])
            self.constraints = list(cursor.fetchall())
            for name, _ in self.constraints:
                cursor.execute(f'ALTER TABLE {self.table} DROP CONSTRAINT "{name}"')
            cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s"
                           " AND indexname NOT IN (SELECT conname FROM pg_constraint"
                           " WHERE conrelid = %s::regclass)", [self.table, self.table])
            found = list(cursor.fetchall())
            self.indexes = [definition for _, definition in found]
            for name, _ in found:
                cursor.execute(f'DROP INDEX "{name}"')
            cursor.execute("SET LOCAL session_replication_role = replica")  # no FK triggers while loading
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if connection.vendor != "postgresql" or kind is not None:
            return
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = DEFAULT")
            cursor.execute("SET LOCAL maintenance_work_mem = '512MB'")
            for name, definition in self.constraints:
                cursor.execute(f'ALTER TABLE {self.table} ADD CONSTRAINT "{name}" {definition}')
            for definition in self.indexes:
                cursor.execute(definition)


def _reset_sequences() -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in (User, Tournament, Game, GameEvent, PlayerClock):
            table = model._meta.db_table
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"(SELECT COALESCE(MAX(id), 1) FROM {table}))")
        cursor.execute("ANALYZE")
