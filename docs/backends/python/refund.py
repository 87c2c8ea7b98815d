"""refund.py: refund a completed payment, in part or in full, to the number that paid.

The companion must run with MOMO_REFUNDS=on. Standard library only.
"""
import urllib.parse

from momo import post


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
    # A timeout or an unreachable companion: nothing is known, call again with the same refund_id.
    return post("/payments/" + urllib.parse.quote(order_id, safe="") + "/refunds", body, timeout=60)
