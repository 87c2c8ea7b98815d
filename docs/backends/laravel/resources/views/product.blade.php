<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Basket</title>
<h1>Basket: one print, {{ $price }} {{ $currency }}</h1>
<form method="post" action="/orders">@csrf<button type="submit">Place the order</button></form>
</html>
