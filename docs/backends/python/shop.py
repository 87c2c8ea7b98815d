"""shop.py: a minimal shop on the standard library's http.server.

GET /checkout?order=...  the order page with <momo-checkout> (the checkout created server side)
GET /momo-checkout.js    the element's script, from the installed package
POST /webhook            each payment transition from the companion (MOMO_MERCHANT_WEBHOOK_URL)
"""
import base64
import fcntl
import hashlib
import html
import json
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import momo

# The package's own file (MOMO_ELEMENT_FILE: node_modules/momo-checkout/dist/browser/...), served
# by this shop at /momo-checkout.js unless MOMO_ELEMENT_SCRIPT names where else you serve it: its
# hash pins the script, so the browser runs no other bytes, whoever serves them.
SCRIPT = os.environ.get("MOMO_ELEMENT_SCRIPT") or "/momo-checkout.js"
with open(os.environ["MOMO_ELEMENT_FILE"], "rb") as script:
    ELEMENT = script.read()
INTEGRITY = "sha384-" + base64.b64encode(hashlib.sha384(ELEMENT).digest()).decode()


def record(webhook_id, update):
    """Keeps a notification and fulfils its order once.

    The shop's database, here: one JSON line per notification in a file (MOMO_EVENTS_FILE), read and
    written under one lock. In a shop: a table keyed by webhook-id, written in the same transaction
    as the order's change.
    """
    with open(os.environ["MOMO_EVENTS_FILE"], "a+") as events:
        fcntl.flock(events, fcntl.LOCK_EX)
        events.seek(0)
        kept = [json.loads(line) for line in events if line.strip()]
        # At least once: a notification sent again (a retry, `momo-checkout redeliver`) keeps its
        # webhook-id, so one already kept was handled: nothing more to do.
        if any(line["webhookId"] == webhook_id for line in kept):
            return
        fulfilled_before = any(line["orderId"] == update["orderId"] and line["fulfilled"] for line in kept)
        # Paid, the amount as ordered, and not fulfilled yet: mark the order paid and ship it, once.
        fulfil = update["payment"]["state"] == "completed" and not update["amountMismatch"] and not fulfilled_before
        events.write(json.dumps({
            "webhookId": webhook_id,
            "orderId": update["orderId"],
            "state": update["payment"]["state"],
            "amount": update["amount"],
            "fulfilled": fulfil,
        }) + "\n")


class Shop(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlparse(self.path)
        if url.path == "/momo-checkout.js":
            return self.answer(200, ELEMENT, "text/javascript")
        if url.path != "/checkout":
            return self.send_error(404)
        query = parse_qs(url.query)
        # In a shop these come from the order in your database, never from the browser.
        order_id = query.get("order", ["order-42"])[0]
        amount = query.get("amount", ["5000"])[0]
        checkout = momo.create_checkout(order_id, amount, "XOF", os.environ["SHOP_URL"] + "/checkout?order=" + order_id)
        e = lambda text: html.escape(text, quote=True)
        page = f"""<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Order {e(order_id)}</title>
<script src="{e(SCRIPT)}" integrity="{e(INTEGRITY)}" crossorigin="anonymous" defer></script>
<h1>Order {e(order_id)}: {e(amount)} XOF</h1>
<momo-checkout endpoint="{e(os.environ['MOMO_ENDPOINT'])}" token="{e(checkout['token'])}" country="BJ"></momo-checkout>
</html>"""
        self.answer(200, page.encode(), "text/html; charset=utf-8")

    def do_POST(self):
        if self.path != "/webhook":
            return self.send_error(404)
        payload = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            event = momo.verify_webhook(payload, headers, os.environ["MOMO_MERCHANT_WEBHOOK_SECRET"])
        except Exception as error:
            self.log_message("momo webhook refused: %s", error)
            return self.answer(400, b"", "text/plain")
        update = event["data"]
        if event["type"] == "payment.updated":
            record(headers["webhook-id"], update)
        # else test.ping, or refund.updated when refunds are on: record those too if you refund.
        # Answer 2xx once recorded: anything else is retried, with backoff, for 72 hours.
        self.answer(204, b"", "text/plain")

    def answer(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8000"))), Shop).serve_forever()
