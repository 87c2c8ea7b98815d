<?php

namespace App\Http\Controllers;

use Illuminate\Routing\Controller;

/** The element's script, served by the shop from the package's file, and its integrity hash. */
class ElementScriptController extends Controller
{
    public function show()
    {
        return response()->file(config('momo.element_file'), [
            'Content-Type' => 'text/javascript',
            'Cache-Control' => 'public, max-age=300',
        ]);
    }

    /** The Subresource Integrity hash of the script: the browser runs it only if it matches. */
    public static function integrity(): string
    {
        return 'sha384-' . base64_encode(hash_file('sha384', config('momo.element_file'), true));
    }
}
