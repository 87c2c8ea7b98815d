/** Issue 33: the payer's flows and the console in WebKitGTK, Safari's engine (test/engines/engine-suite.ts), and issue 44's payment links (payment-link-suite.ts). */
import { engineSuite, firstStepReady } from './engine-suite.js';
import { openWebKit } from './webkit.js';
import { webkitWindow } from './webkit-window.js';
import { paymentLinkSuite } from './payment-link-suite.js';

// MiniBrowser stops at 447 px: the 360 px screens open in a WebKitGTK window of our own.
engineSuite({
  engine: 'WebKit',
  open: openWebKit,
  narrowScreen: (url, width, height, png) => webkitWindow(url, width, height, png, firstStepReady),
});
paymentLinkSuite({ engine: 'WebKit', open: openWebKit });
