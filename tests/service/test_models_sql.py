"""The models as the database sees them: each default order reads the model's own table alone, and the migrations
describe every model as it stands (no change left for ``makemigrations``)."""

from __future__ import annotations

import io

import pytest
from django.apps import apps
from django.core.management import call_command

PROJECT_APPS = ("corr", "notify", "accounts")


def project_models():
    return [model for model in apps.get_models() if model._meta.app_label in PROJECT_APPS]


def test_the_project_apps_have_models():
    assert {model._meta.app_label for model in project_models()} >= {"corr", "accounts"}


@pytest.mark.parametrize("model", project_models(), ids=lambda model: model._meta.label)
def test_a_default_order_reads_the_model_s_own_table_alone(model):
    """``ordering = ["game", ...]`` orders by the game's own ordering: an INNER JOIN of corr_game in every read of
    the events, clocks and calendars, the live press's read of the events after its snapshot included. By the
    column (``game_id``) the order is the same (the game's ordering is its id) without the join."""
    sql = str(model.objects.all().query)
    assert "JOIN" not in sql, (model._meta.ordering, sql)


@pytest.mark.django_db
def test_the_migrations_describe_every_model():
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)  # SystemExit(1) when a change is missing
    assert "No changes detected" in out.getvalue()
