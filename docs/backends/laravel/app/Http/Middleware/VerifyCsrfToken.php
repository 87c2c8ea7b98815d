<?php

namespace App\Http\Middleware;

use Illuminate\Foundation\Http\Middleware\VerifyCsrfToken as Middleware;

class VerifyCsrfToken extends Middleware
{
    // The companion's server posts notifications with no cookie or form token; what proves them is
    // the signature over the raw body, checked first by MomoEventsController.
    protected $except = ['momo/events'];
}
