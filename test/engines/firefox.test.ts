/** Issue 33: the payer's flows and the console in Firefox ESR (test/engines/engine-suite.ts), and issue 44's payment links (payment-link-suite.ts). */
import { engineSuite } from './engine-suite.js';
import { openFirefox } from './firefox.js';
import { paymentLinkSuite } from './payment-link-suite.js';

// Headless Firefox takes any viewport width: the 360 px screens use the same driver.
engineSuite({ engine: 'Firefox', open: openFirefox });
paymentLinkSuite({ engine: 'Firefox', open: openFirefox });
