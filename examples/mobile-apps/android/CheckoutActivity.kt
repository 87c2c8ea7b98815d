package com.shop.app

import android.annotation.SuppressLint
import android.content.ActivityNotFoundException
import android.content.Intent
import android.os.Bundle
import android.webkit.JavascriptInterface
import android.webkit.WebResourceRequest
import android.webkit.WebView
import android.webkit.WebViewClient
import androidx.appcompat.app.AppCompatActivity
import org.json.JSONObject

/** Opens the checkout page your backend answered (intent extra "checkoutUrl") and closes on its outcome. */
class CheckoutActivity : AppCompatActivity() {
    private lateinit var webView: WebView

    @SuppressLint("SetJavaScriptEnabled")
    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        val checkoutUrl = intent.getStringExtra("checkoutUrl") ?: return finish()
        webView = WebView(this)
        setContentView(webView)
        webView.settings.javaScriptEnabled = true
        // The page keeps its token in sessionStorage for the way back from a wallet's approval page.
        webView.settings.domStorageEnabled = true
        webView.settings.setSupportMultipleWindows(false)
        // window.momoCheckout.postMessage(json) in the page.
        webView.addJavascriptInterface(Bridge(), "momoCheckout")
        webView.webViewClient = object : WebViewClient() {
            override fun shouldOverrideUrlLoading(view: WebView, request: WebResourceRequest): Boolean {
                val scheme = request.url.scheme
                if (scheme == "http" || scheme == "https") return false
                // A wallet's own app: the system opens it, the WebView stays on the page.
                try {
                    startActivity(Intent(Intent.ACTION_VIEW, request.url))
                } catch (_: ActivityNotFoundException) {
                }
                return true
            }
        }
        if (savedInstanceState == null) webView.loadUrl(checkoutUrl) else webView.restoreState(savedInstanceState)
    }

    override fun onSaveInstanceState(outState: Bundle) {
        super.onSaveInstanceState(outState)
        webView.saveState(outState)
    }

    private inner class Bridge {
        // Called on a background thread of the WebView.
        @JavascriptInterface
        fun postMessage(message: String) {
            val outcome = JSONObject(message)
            if (outcome.optString("type") != "momo-checkout.outcome") return
            runOnUiThread {
                setResult(RESULT_OK, Intent().putExtra("orderId", outcome.getString("orderId")).putExtra("outcome", outcome.getString("outcome")))
                // Close on success, or on a failure the payer cannot retry; else the page offers another number.
                if (outcome.getString("outcome") == "succeeded" || !outcome.getBoolean("canRetry")) finish()
            }
        }
    }
}
