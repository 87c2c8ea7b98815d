from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        migrations.CreateModel(
            name="Order",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("order_id", models.CharField(max_length=100, unique=True)),
                ("amount", models.CharField(max_length=32)),
                ("currency_code", models.CharField(default="XOF", max_length=8)),
                ("paid", models.BooleanField(default=False)),
                ("paid_at", models.DateTimeField(null=True)),
                ("fulfilments", models.IntegerField(default=0)),
            ],
        ),
        migrations.CreateModel(
            name="HandledNotification",
            fields=[
                ("webhook_id", models.CharField(max_length=200, primary_key=True, serialize=False)),
                ("order_id", models.CharField(max_length=100)),
                ("state", models.CharField(max_length=32)),
                ("handled_at", models.DateTimeField(auto_now_add=True)),
            ],
        ),
    ]
