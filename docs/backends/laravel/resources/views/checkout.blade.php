<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Order {{ $order->order_id }}</title>
<script src="/assets/momo-checkout.js" integrity="{{ $integrity }}" crossorigin="anonymous" defer></script>
<h1>Order {{ $order->order_id }}: {{ $order->amount }} {{ $order->currency_code }}</h1>
<momo-checkout endpoint="{{ $endpoint }}" token="{{ $token }}" country="BJ"></momo-checkout>
<script>
  // "Payment received" is the payment service's word; the order is paid when this shop's database
  // says so (its notification route). Show the shop's own order page, which waits for that.
  document.querySelector('momo-checkout').addEventListener('momo-succeeded', () => {
    setTimeout(() => location.assign(@json('/orders/' . rawurlencode($order->order_id) . '/')), 1500);
  });
</script>
</html>
