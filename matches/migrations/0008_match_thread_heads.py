from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce

GENESIS_HASH = "0" * 64


def backfill_heads(apps, schema_editor):
    """Each match's heads from its rows: the last post number, the last event's number and
    hash (the genesis hash for a match with no event)."""
    Match = apps.get_model("matches", "Match")
    Post = apps.get_model("matches", "Post")
    MatchEvent = apps.get_model("matches", "MatchEvent")
    last_post = Post.objects.filter(match=OuterRef("pk")).order_by("-number")
    last_event = MatchEvent.objects.filter(match=OuterRef("pk")).order_by("-number")
    Match.objects.update(
        last_post_number=Coalesce(Subquery(last_post.values("number")[:1]), 0),
        last_event_number=Coalesce(Subquery(last_event.values("number")[:1]), 0),
        last_event_hash=Coalesce(
            Subquery(last_event.values("hash")[:1]), models.Value(GENESIS_HASH)
        ),
    )


class Migration(migrations.Migration):
    dependencies = [("matches", "0007_post_undone_by")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="last_post_number",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="match",
            name="last_event_number",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="match",
            name="last_event_hash",
            field=models.CharField(default=GENESIS_HASH, max_length=64),
        ),
        migrations.AddField(
            model_name="match",
            name="thread_version",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(backfill_heads, migrations.RunPython.noop),
    ]
