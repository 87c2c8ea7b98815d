"""The shop's pages and its notification route.

/                          the product, with a form that places the order
POST /orders               the order, made server side (the amount comes from here, never the browser)
/orders/<id>/checkout      the checkout page: <momo-checkout>, its script pinned by integrity hash
/orders/<id>/              the order as this shop's database has it (where the payer lands after paying)
POST /momo/events          each payment transition from the companion (MOMO_MERCHANT_WEBHOOK_URL)
"""
import base64
import functools
import hashlib
import uuid

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import FileResponse, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

import momo

from .models import HandledNotification, Order

PRICE, CURRENCY = "5000", "XOF"


@require_GET
def product(request):
    return render(request, "orders/product.html", {"price": PRICE, "currency": CURRENCY})


@require_POST
def place_order(request):
    order = Order.objects.create(order_id=f"order-{uuid.uuid4().hex[:16]}", amount=PRICE, currency_code=CURRENCY)
    return redirect("checkout", order_id=order.order_id)


@require_GET
def checkout(request, order_id):
    order = get_object_or_404(Order, order_id=order_id)
    if order.paid:
        return redirect("order", order_id=order_id)
    # Idempotent on the order id: every visit gets the same checkout (its token renewed if expired).
    created = momo.create_checkout(order.order_id, order.amount, order.currency_code, f"{settings.SHOP_URL}/orders/{order_id}/")
    return render(
        request,
        "orders/checkout.html",
        {"order": order, "token": created["token"], "endpoint": settings.MOMO_ENDPOINT, "integrity": script_integrity()},
    )


@require_GET
def order(request, order_id):
    return render(request, "orders/order.html", {"order": get_object_or_404(Order, order_id=order_id)})


@functools.lru_cache(maxsize=1)
def script_integrity():
    """The Subresource Integrity hash of the element's script: the browser runs it only if it matches."""
    with open(settings.MOMO_ELEMENT_FILE, "rb") as script:
        return "sha384-" + base64.b64encode(hashlib.sha384(script.read()).digest()).decode()


@require_GET
def element_script(request):
    response = FileResponse(open(settings.MOMO_ELEMENT_FILE, "rb"), content_type="text/javascript")
    response["Cache-Control"] = "public, max-age=300"
    return response


# Exempt from CSRF: the companion's server posts here, with no cookie or form token; what proves
# the request is the signature over the raw body, checked first.
@csrf_exempt
@require_POST
def momo_events(request):
    try:
        # request.body: the RAW bytes, as signed (never request.POST or a re-encoded JSON).
        event = momo.verify_webhook(request.body, request.headers, settings.MOMO_MERCHANT_WEBHOOK_SECRET)
    except momo.MomoError as error:
        print(f"momo notification refused: {error}", flush=True)
        return HttpResponseBadRequest("refused")
    if event.get("type") != "payment.updated":
        # `test.ping` (`momo-checkout ping`): verified, nothing to change. A shop that refunds also
        # gets `refund.updated` here: keep its webhook-id and record it the same way.
        return HttpResponse(status=204)
    update = event["data"]
    with transaction.atomic():
        try:
            # The webhook-id (= data.idempotencyKey) kept in the same transaction as its effect:
            # a notification sent twice (a retry, a redelivery) is handled once.
            HandledNotification.objects.create(webhook_id=request.headers["webhook-id"], order_id=update["orderId"], state=update["payment"]["state"])
        except IntegrityError:
            return HttpResponse(status=204)
        if update["payment"]["state"] == "completed" and not update["amountMismatch"]:
            # Paid only for this order's own amount and currency, and fulfilled once.
            Order.objects.filter(order_id=update["orderId"], amount=update["amount"], currency_code=update["currencyCode"], paid=False).update(
                paid=True, paid_at=timezone.now(), fulfilments=F("fulfilments") + 1
            )
    # 2xx once recorded: anything else is retried with backoff (or sent again by `momo-checkout redeliver`).
    return HttpResponse(status=204)
