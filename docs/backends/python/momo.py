"""momo.py: the two things a Python backend does with the momo-checkout companion.

Standard library only (urllib, hmac). The `standardwebhooks` package on PyPI does the same
verification: `Webhook(secret).verify(payload, headers)`.
"""
import base64
import hashlib
import hmac
import json
import os
import time
import urllib.error
import urllib.request

TOLERANCE_SECONDS = 300


class MomoError(Exception):
    pass


def create_checkout(order_id, amount, currency_code, return_url=None):
    """Creates (or gets again) the checkout of an order: {"token", "orderId", "expiresAt"}.

    Idempotent on the order id: call it every time the order page is shown.
    `amount` is a decimal STRING ("5000", "12.50"), never a float.
    """
    body = {"orderId": order_id, "amount": amount, "currencyCode": currency_code}
    if return_url is not None:
        body["returnUrl"] = return_url
    # e.g. a 409: this order id already has a checkout for another amount.
    return post("/checkouts", body, timeout=10)


def post(path, body, timeout):
    """POSTs `body` to the companion's server API (`path` under MOMO_SERVER_URL), returns the answer.

    A refusal raises MomoError with the companion's code and sentence.
    """
    request = urllib.request.Request(
        os.environ["MOMO_SERVER_URL"] + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Authorization": "Bearer " + os.environ["MOMO_SERVER_SECRET"],
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        answer = json.load(error).get("error", {})
        raise MomoError(f"momo-checkout: HTTP {error.code} {answer.get('code', '')}: {answer.get('message', '')}") from None


def verify_webhook(payload, headers, secret):
    """Verifies a notification from the companion (Standard Webhooks) and returns the event.

    `payload` is the RAW body bytes as received, never a re-encoded one.
    """
    msg_id = headers.get("webhook-id", "")
    timestamp = headers.get("webhook-timestamp", "")
    signatures = headers.get("webhook-signature", "")
    if not msg_id or not timestamp.isdigit() or not signatures:
        raise MomoError("missing webhook-id, webhook-timestamp or webhook-signature header")
    if abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        raise MomoError("timestamp outside the tolerance: check this server clock (NTP)")
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.".encode() + payload
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    # The header may hold several space-separated signatures ("v1,<base64> v1,<base64>").
    for versioned in signatures.split(" "):
        version, _, signature = versioned.partition(",")
        if version == "v1" and hmac.compare_digest(expected, signature):
            return json.loads(payload)
    raise MomoError("no matching signature: is MOMO_MERCHANT_WEBHOOK_SECRET the one the companion uses?")
