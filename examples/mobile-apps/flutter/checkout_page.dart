import 'dart:convert';

import 'package:flutter/material.dart';
import 'package:url_launcher/url_launcher.dart';
import 'package:webview_flutter/webview_flutter.dart';

/// Opens the checkout page your backend answered; pops with the outcome's JSON once it is decided.
class CheckoutPage extends StatefulWidget {
  const CheckoutPage({super.key, required this.checkoutUrl});

  final Uri checkoutUrl;

  @override
  State<CheckoutPage> createState() => _CheckoutPageState();
}

class _CheckoutPageState extends State<CheckoutPage> {
  late final WebViewController controller = WebViewController()
    ..setJavaScriptMode(JavaScriptMode.unrestricted)
    // window.momoCheckout.postMessage(json) in the page.
    ..addJavaScriptChannel('momoCheckout', onMessageReceived: (JavaScriptMessage message) {
      final outcome = jsonDecode(message.message) as Map<String, dynamic>;
      if (outcome['type'] != 'momo-checkout.outcome' || !mounted) return;
      // Close on success, or on a failure the payer cannot retry; else the page offers another number.
      if (outcome['outcome'] == 'succeeded' || outcome['canRetry'] != true) {
        Navigator.of(context).pop(outcome);
      }
    })
    ..setNavigationDelegate(NavigationDelegate(
      onNavigationRequest: (NavigationRequest request) {
        final uri = Uri.parse(request.url);
        if (uri.scheme == 'http' || uri.scheme == 'https') return NavigationDecision.navigate;
        // A wallet's own app: the system opens it, the WebView stays on the page.
        launchUrl(uri, mode: LaunchMode.externalApplication);
        return NavigationDecision.prevent;
      },
    ))
    ..loadRequest(widget.checkoutUrl);

  @override
  Widget build(BuildContext context) => Scaffold(
        appBar: AppBar(title: const Text('Pay')),
        body: SafeArea(child: WebViewWidget(controller: controller)),
      );
}
