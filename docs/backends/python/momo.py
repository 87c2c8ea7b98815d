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
    """What went wrong with the companion or a notification, in a sentence that says what to check."""


def _setting(name):
    value = os.environ.get(name, "")
    if not value:
        raise MomoError(f"{name} is not set: see docs/backends.md, 'Run the companion'")
    return value


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

    A refusal raises MomoError with the companion's code and sentence; so does an unreachable
    companion, or an answer that is not the companion's.
    """
    url = _setting("MOMO_SERVER_URL") + path
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Authorization": "Bearer " + _setting("MOMO_SERVER_SECRET"),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    except OSError as error:  # refused, unknown host, timed out (URLError is an OSError)
        raise MomoError(f"momo-checkout companion unreachable at {url}: {getattr(error, 'reason', error)}") from None
    start = text[:120].decode(errors="replace")
    try:
        answer = json.loads(text)
    except ValueError:
        raise MomoError(
            f"momo-checkout: HTTP {status} from {url} is not JSON: is MOMO_SERVER_URL the companion's "
            f"<MOMO_PUBLIC_URL>/server? It answered: {start}"
        ) from None
    if status != 200:
        error = answer.get("error", {}) if isinstance(answer, dict) else {}
        raise MomoError(f"momo-checkout: HTTP {status} {error.get('code', '')}: {error.get('message') or start}")
    return answer


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
    try:
        key = base64.b64decode(secret.removeprefix("whsec_"), validate=True)
    except ValueError:
        raise MomoError("the secret is not whsec_ followed by base64: copy MOMO_MERCHANT_WEBHOOK_SECRET as the companion has it") from None
    signed = f"{msg_id}.{timestamp}.".encode() + payload
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    # The header may hold several space-separated signatures ("v1,<base64> v1,<base64>").
    for versioned in signatures.split(" "):
        version, _, signature = versioned.partition(",")
        if version == "v1" and hmac.compare_digest(expected, signature):
            try:
                return json.loads(payload)
            except ValueError:
                raise MomoError("the signed body is not JSON: is this endpoint receiving the companion's notifications?") from None
    raise MomoError("no matching signature: is MOMO_MERCHANT_WEBHOOK_SECRET the one the companion uses?")
