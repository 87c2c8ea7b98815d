from django.db import models


class Order(models.Model):
    order_id = models.CharField(max_length=100, unique=True)
    # A decimal string in the currency's major unit ("5000" XOF), as the companion takes it.
    amount = models.CharField(max_length=32)
    currency_code = models.CharField(max_length=8, default="XOF")
    paid = models.BooleanField(default=False)
    paid_at = models.DateTimeField(null=True)
    # How many times the order was fulfilled: once, whatever notifications arrive twice.
    fulfilments = models.IntegerField(default=0)


class HandledNotification(models.Model):
    """Each notification's webhook-id (its idempotency key), kept once handled: a repeat is skipped."""

    webhook_id = models.CharField(max_length=200, primary_key=True)
    order_id = models.CharField(max_length=100)
    state = models.CharField(max_length=32)
    handled_at = models.DateTimeField(auto_now_add=True)
