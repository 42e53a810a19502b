from django.db import migrations


def _checks_become_addresses(apps, schema_editor):
    """Each address given at sign-up before allauth, confirmed or waiting, becomes allauth's
    primary address of its account: confirmed ones log in, waiting ones are asked again."""
    email_check = apps.get_model("bbweb", "EmailCheck")
    email_address = apps.get_model("account", "EmailAddress")
    for check in email_check.objects.all():
        email_address.objects.get_or_create(
            user_id=check.user_id,
            email=check.email.lower(),
            defaults={"verified": check.verified_at is not None, "primary": True},
        )


class Migration(migrations.Migration):
    dependencies = [
        ("bbweb", "0005_outbox_done"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [
        migrations.RunPython(_checks_become_addresses, migrations.RunPython.noop),
        migrations.DeleteModel(name="EmailCheck"),
    ]
