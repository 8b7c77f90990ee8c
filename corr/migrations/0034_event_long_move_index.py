from django.db import migrations, models
from django.db.models import Q


class Migration(migrations.Migration):
    """The "Use 40+ days" notices get a partial index: the nightly report reads them from it, so its cost follows
    the notices, not the federation's games (issue 42: the job took 1.9x as long at 4x the games)."""

    dependencies = [("corr", "0033_idempotency_request_digest")]

    operations = [
        migrations.AddIndex(
            model_name="gameevent",
            index=models.Index(fields=["game"], condition=Q(kind="long_move"), name="event_long_move"),
        ),
    ]
