/**
 * The operations console's script entry (`momo-console.js`, built by scripts/build-console.ts):
 * registers its elements. Served by the companion to a signed-in page only.
 */
import { ConsoleEndpointSection } from './endpoint-section.js';
import { ConsoleExportSection } from './export-section.js';
import { ConsoleLinkSection } from './links/link-section.js';
import { ConsoleLinkShare } from './links/link-share.js';
import { ConsoleLinksSection } from './links/links-section.js';
import { MomoConsole } from './momo-console.js';
import { ConsoleOverviewSection } from './overview-section.js';
import { ConsolePaymentSection } from './payment-section.js';
import { ConsolePaymentsSection } from './payments-section.js';

const elements = {
  'momo-console': MomoConsole,
  'momo-console-overview': ConsoleOverviewSection,
  'momo-console-payments': ConsolePaymentsSection,
  'momo-console-payment': ConsolePaymentSection,
  'momo-console-endpoint': ConsoleEndpointSection,
  'momo-console-export': ConsoleExportSection,
  'momo-console-links': ConsoleLinksSection,
  'momo-console-link': ConsoleLinkSection,
  'momo-console-link-share': ConsoleLinkShare,
} as const;

for (const [tag, element] of Object.entries(elements)) if (!customElements.get(tag)) customElements.define(tag, element);

declare global {
  interface HTMLElementTagNameMap {
    'momo-console': MomoConsole;
    'momo-console-overview': ConsoleOverviewSection;
    'momo-console-payments': ConsolePaymentsSection;
    'momo-console-payment': ConsolePaymentSection;
    'momo-console-endpoint': ConsoleEndpointSection;
    'momo-console-export': ConsoleExportSection;
    'momo-console-links': ConsoleLinksSection;
    'momo-console-link': ConsoleLinkSection;
    'momo-console-link-share': ConsoleLinkShare;
  }
}
