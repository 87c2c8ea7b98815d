<?php

namespace App\Http\Controllers;

use App\Models\Order;
use Illuminate\Routing\Controller;
use Illuminate\Support\Str;

class ShopController extends Controller
{
    private const PRICE = '5000';
    private const CURRENCY = 'XOF';

    public function product()
    {
        return view('product', ['price' => self::PRICE, 'currency' => self::CURRENCY]);
    }

    public function placeOrder()
    {
        $order = Order::create(['order_id' => 'order-' . Str::random(16), 'amount' => self::PRICE, 'currency_code' => self::CURRENCY]);
        return redirect("/orders/{$order->order_id}/checkout");
    }

    public function checkout(string $orderId)
    {
        $order = Order::where('order_id', $orderId)->firstOrFail();
        if ($order->paid) {
            return redirect("/orders/$orderId/");
        }
        // Idempotent on the order id: every visit gets the same checkout (its token renewed if expired).
        $checkout = momo_create_checkout($order->order_id, $order->amount, $order->currency_code, url("/orders/$orderId/"));
        return view('checkout', [
            'order' => $order,
            'token' => $checkout['token'],
            'endpoint' => config('momo.endpoint'),
            'integrity' => ElementScriptController::integrity(),
        ]);
    }

    public function order(string $orderId)
    {
        return view('order', ['order' => Order::where('order_id', $orderId)->firstOrFail()]);
    }
}
