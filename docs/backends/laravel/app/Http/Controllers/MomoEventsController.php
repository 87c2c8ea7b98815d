<?php

namespace App\Http\Controllers;

use App\Models\HandledNotification;
use App\Models\Order;
use Illuminate\Database\QueryException;
use Illuminate\Http\Request;
use Illuminate\Routing\Controller;
use Illuminate\Support\Facades\DB;
use Illuminate\Support\Facades\Log;
use MomoError;

/** POST /momo/events: each payment transition from the companion (MOMO_MERCHANT_WEBHOOK_URL). */
class MomoEventsController extends Controller
{
    public function __invoke(Request $request)
    {
        try {
            // getContent(): the RAW body, as signed (never $request->all() or a re-encoded JSON).
            $event = momo_verify_webhook(
                $request->getContent(),
                (string) $request->header('webhook-id'),
                (string) $request->header('webhook-timestamp'),
                (string) $request->header('webhook-signature'),
                (string) config('momo.webhook_secret'),
            );
        } catch (MomoError | \JsonException $error) {
            Log::warning('momo notification refused: ' . $error->getMessage());
            return response('refused', 400);
        }
        if (($event['type'] ?? '') !== 'payment.updated') {
            // `test.ping` (`momo-checkout ping`): verified, nothing to change. A shop that refunds also
            // gets `refund.updated` here: keep its webhook-id and record it the same way.
            return response()->noContent();
        }
        $update = $event['data'];
        try {
            DB::transaction(function () use ($request, $update): void {
                // The webhook-id (= data.idempotencyKey) kept in the same transaction as its effect:
                // a notification sent twice (a retry, a redelivery) is handled once.
                HandledNotification::create([
                    'webhook_id' => $request->header('webhook-id'),
                    'order_id' => $update['orderId'],
                    'state' => $update['payment']['state'],
                ]);
                if ($update['payment']['state'] === 'completed' && !$update['amountMismatch']) {
                    // Paid only for this order's own amount and currency, and fulfilled once.
                    Order::where(['order_id' => $update['orderId'], 'amount' => $update['amount'], 'currency_code' => $update['currencyCode'], 'paid' => false])
                        ->update(['paid' => true, 'paid_at' => now(), 'fulfilments' => DB::raw('fulfilments + 1')]);
                }
            });
        } catch (QueryException $error) {
            // The primary key refused a webhook-id already handled: done before, answer 2xx again.
            if (!HandledNotification::whereKey($request->header('webhook-id'))->exists()) {
                throw $error;
            }
        }
        // 2xx once recorded: anything else is retried with backoff (or sent again by `momo-checkout redeliver`).
        return response()->noContent();
    }
}
