import { Linking } from 'react-native';
import { WebView, type WebViewMessageEvent } from 'react-native-webview';

/** What the page sends once, when the payment is decided (docs/mobile-apps.md). */
export interface MomoOutcome {
  type: 'momo-checkout.outcome';
  orderId: string;
  outcome: 'succeeded' | 'failed';
  state: string;
  canRetry: boolean;
}

export function MomoCheckoutScreen({ checkoutUrl, onDone }: { checkoutUrl: string; onDone: (outcome: MomoOutcome) => void }) {
  const onMessage = (event: WebViewMessageEvent) => {
    const message = JSON.parse(event.nativeEvent.data) as MomoOutcome;
    if (message.type !== 'momo-checkout.outcome') return;
    // Close on success, or on a failure the payer cannot retry; else the page offers another number.
    if (message.outcome === 'succeeded' || !message.canRetry) onDone(message);
  };
  return (
    <WebView
      source={{ uri: checkoutUrl }}
      onMessage={onMessage}
      setSupportMultipleWindows={false}
      onShouldStartLoadWithRequest={(request) => {
        if (/^https?:/.test(request.url)) return true;
        // A wallet's own app (its scheme, or intent: on Android): the system opens it, the page stays.
        void Linking.openURL(request.url).catch(() => undefined);
        return false;
      }}
    />
  );
}
