"""``manage.py bench_data --games N [--near M] [--date YYYY-MM-DD]``: a federation-sized data set."""

import time

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from corr.benchdata import bench_data_load
from corr.clock import ClockError, parse_date


class Command(BaseCommand):
    help = "Load N running games (about 1% near a deadline) into an empty database, for the benchmarks."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, required=True)
        parser.add_argument("--near", type=int, help="games with a deadline in the next 7 days (default: 1%%)")
        parser.add_argument("--date", help="the nightly date the clocks are stored as of (default: today)")

    def handle(self, *args, **options):
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be at least 1")
        near = options["near"] if options["near"] is not None else max(1, games // 100)
        try:
            on = parse_date(options["date"], "--date") if options["date"] else timezone.localdate()
        except ClockError as error:
            raise CommandError(str(error)) from None
        started = time.perf_counter()
        summary = bench_data_load(games=games, near=min(near, games), on=on, progress=self.stdout.write)
        self.stdout.write(f"loaded {summary['games']:,} games ({summary['near']:,} near a deadline),"
                          f" {summary['users']:,} users, {summary['tournaments']:,} tournaments"
                          f" in {time.perf_counter() - started:.1f} s")
