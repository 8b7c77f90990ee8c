from django.db import migrations, models


class Migration(migrations.Migration):
    """An idempotency record keeps a digest of its first request's fields: a key reused with other fields is
    refused rather than answered with the first request's answer (issue 42's review)."""

    dependencies = [("corr", "0032_conditional_position_go")]

    operations = [
        migrations.AddField(
            model_name="idempotencyrecord",
            name="request_digest",
            field=models.CharField(
                blank=True, default="", max_length=64,
                help_text="SHA-256 of the first request's fields (corr.api.idempotency.fingerprint); a retry with "
                          "other fields is refused (422). Empty for records kept before the digest existed: not "
                          "compared."),
        ),
    ]
