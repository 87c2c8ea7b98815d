<?php
// /                          the product, with a form that places the order
// POST /orders               the order, made server side (the amount comes from here, never the browser)
// /orders/{id}/checkout      the checkout page: <momo-checkout>, its script pinned by integrity hash
// /orders/{id}/              the order as this shop's database has it (where the payer lands after paying)
// POST /momo/events          each payment transition from the companion (MOMO_MERCHANT_WEBHOOK_URL)
use App\Http\Controllers\ElementScriptController;
use App\Http\Controllers\MomoEventsController;
use App\Http\Controllers\ShopController;
use Illuminate\Support\Facades\Route;

Route::get('/', [ShopController::class, 'product']);
Route::post('/orders', [ShopController::class, 'placeOrder']);
Route::get('/orders/{orderId}/checkout', [ShopController::class, 'checkout']);
Route::get('/orders/{orderId}/', [ShopController::class, 'order']);
Route::get('/assets/momo-checkout.js', [ElementScriptController::class, 'show']);
Route::post('/momo/events', MomoEventsController::class);
