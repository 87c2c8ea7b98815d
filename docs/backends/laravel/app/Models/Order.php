<?php

namespace App\Models;

use Illuminate\Database\Eloquent\Model;

class Order extends Model
{
    // `amount`: a decimal string in the currency's major unit ("5000" XOF), as the companion takes it.
    // `fulfilments`: how many times the order was fulfilled: once, whatever notifications arrive twice.
    protected $fillable = ['order_id', 'amount', 'currency_code'];

    protected $casts = ['paid' => 'boolean', 'paid_at' => 'datetime'];
}
