"""The benchmarks' floor table leaves the product (issue 13): it lives in ``bench/floorapp`` now.

0002 created it; deployed databases applied 0002, so 0002 stays as history and
this migration drops the table.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('corr', '0009_live'),
    ]

    operations = [
        migrations.DeleteModel(
            name='FloorRow',
        ),
    ]
