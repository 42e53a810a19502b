from django.db import migrations

GM_GROUP = "Game masters"


def create_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.get_or_create(name=GM_GROUP)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GM_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(create_group, remove_group)]
