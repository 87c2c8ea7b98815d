<?php

namespace App\Models;

use Illuminate\Database\Eloquent\Model;

/** Each notification's webhook-id (its idempotency key), kept once handled: a repeat is skipped. */
class HandledNotification extends Model
{
    protected $primaryKey = 'webhook_id';

    public $incrementing = false;

    protected $keyType = 'string';

    protected $fillable = ['webhook_id', 'order_id', 'state'];
}
