import UIKit
import WebKit

/** What the page sends once, when the payment is decided. */
struct MomoOutcome: Decodable {
    let type: String
    let orderId: String
    let outcome: String
    let state: String
    let canRetry: Bool
}

/** Opens the checkout page your backend answered and closes on its outcome. */
final class CheckoutViewController: UIViewController, WKScriptMessageHandler, WKNavigationDelegate {
    private let checkoutURL: URL
    private let onOutcome: (MomoOutcome) -> Void
    private var webView: WKWebView!

    init(checkoutURL: URL, onOutcome: @escaping (MomoOutcome) -> Void) {
        self.checkoutURL = checkoutURL
        self.onOutcome = onOutcome
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { fatalError("create it with init(checkoutURL:onOutcome:)") }

    override func loadView() {
        let configuration = WKWebViewConfiguration()
        // window.webkit.messageHandlers.momoCheckout.postMessage(json) in the page.
        configuration.userContentController.add(self, name: "momoCheckout")
        webView = WKWebView(frame: .zero, configuration: configuration)
        webView.navigationDelegate = self
        view = webView
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        webView.load(URLRequest(url: checkoutURL))
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        // The content controller holds its handler strongly: let this controller go.
        webView.configuration.userContentController.removeScriptMessageHandler(forName: "momoCheckout")
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        guard let text = message.body as? String, let data = text.data(using: .utf8),
              let outcome = try? JSONDecoder().decode(MomoOutcome.self, from: data),
              outcome.type == "momo-checkout.outcome" else { return }
        onOutcome(outcome)
        // Close on success, or on a failure the payer cannot retry; else the page offers another number.
        if outcome.outcome == "succeeded" || !outcome.canRetry { dismiss(animated: true) }
    }

    func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction, decisionHandler: @escaping (WKNavigationActionPolicy) -> Void) {
        guard let url = navigationAction.request.url else { return decisionHandler(.cancel) }
        if url.scheme == "http" || url.scheme == "https" { return decisionHandler(.allow) }
        // A wallet's own app: the system opens it, the WebView stays on the page.
        UIApplication.shared.open(url)
        decisionHandler(.cancel)
    }
}
