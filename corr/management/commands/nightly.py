"""``manage.py nightly [--date YYYY-MM-DD] [--json]``: the nightly job, synchronously, without a broker."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from corr.clock import ClockError, parse_date
from corr.limits import date_window_error
from corr.nightly.job import nightly_job


class Command(BaseCommand):
    help = "Run the nightly deadline job for a date (default today) in this process and print what it did."

    def add_arguments(self, parser):
        parser.add_argument("--date", help="the date to run for, YYYY-MM-DD within 1900-01-01..2199-12-31 "
                            "(default: today)")
        parser.add_argument("--json", action="store_true", help="print the counts as JSON")

    def handle(self, *args, **options):
        try:
            on = parse_date(options["date"], "--date") if options["date"] else timezone.localdate()
        except ClockError as error:
            raise CommandError(str(error), returncode=2) from None
        if (error := date_window_error(on, "--date")) is not None:
            raise CommandError(error, returncode=2)
        totals = nightly_job(on=on)
        if options["json"]:
            self.stdout.write(json.dumps(totals))
        else:
            self.stdout.write(f"nightly job for {totals['date']}: {totals['time_trouble_notices']} time-trouble"
                              f" notice(s), {totals['reminders']} reminder(s), {totals['overstep_cases']} overstep"
                              f" case(s), {totals['reports']} report(s) created")
