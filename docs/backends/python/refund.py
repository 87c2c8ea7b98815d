"""refund.py: refund a completed payment, in part or in full, to the number that paid.

The companion must run with MOMO_REFUNDS=on. Standard library only.
"""
import json
import os
import urllib.error
import urllib.parse
import urllib.request

from momo import MomoError


def refund(order_id, refund_id, amount, reason=None):
    """Returns the refund ({"refundId", "state", "payoutOrderId", ...}).

    Its outcome comes later as a signed "refund.updated" notification. `refund_id` is YOUR id for
    this refund: calling again with the same id and amount makes no second pay-out (do it after a
    timeout). `amount` is a decimal STRING ("2000"). A refusal raises MomoError with the
    companion's code and sentence (EXCEEDS_PAID_AMOUNT, NOT_REFUNDABLE, REFUND_ID_REUSED, ...).
    """
    body = {"refundId": refund_id, "amount": amount}
    if reason is not None:
        body["reason"] = reason
    request = urllib.request.Request(
        os.environ["MOMO_SERVER_URL"] + "/payments/" + urllib.parse.quote(order_id, safe="") + "/refunds",
        data=json.dumps(body).encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Authorization": "Bearer " + os.environ["MOMO_SERVER_SECRET"],
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        answer = json.load(error).get("error", {})
        raise MomoError(f"momo-checkout: HTTP {error.code} {answer.get('code', '')}: {answer.get('message', '')}") from None
