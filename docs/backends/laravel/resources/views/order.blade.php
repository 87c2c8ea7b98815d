<!doctype html>
<html lang="en">
<meta charset="utf-8">
@unless ($order->paid)<meta http-equiv="refresh" content="2">@endunless
<title>Order {{ $order->order_id }}</title>
<h1>Order {{ $order->order_id }}</h1>
@if ($order->paid)
<p id="order-state">Paid: thank you. Your order is on its way.</p>
@else
<p id="order-state">Waiting for the payment's confirmation… This page refreshes by itself.</p>
@endif
</html>
