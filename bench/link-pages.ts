/**
 * Payment links' pages for the page benches (lighthouse.ts, page-load.ts): a companion on loopback
 * in front of the sandbox (the tests' harness, test/server/harness.ts) with the element's script-tag
 * files built once (test/ship/built.ts), and two links made through the server API: a fixed amount
 * and an amount the payer chooses within bounds. Both reusable, so every run opens a live link (and
 * a page a shop posts publicly, which search engines may index); `singleUse` is a one-buyer link's
 * page, `noindex`, for Lighthouse alone (it is never paid here).
 */
import { startHarness } from '../test/server/harness.js';
import { builtOnce, removeBuild } from '../test/ship/built.js';

const secret = 'bench-link-pages-server-secret-0123456789abcdef';

export interface LinkPages {
  /** `[label, url]`: the fixed-amount link's page, then the payer-chosen one's. */
  pages: Array<{ label: string; url: string; amount?: string }>;
  /** A single-use link's page: what its `noindex` costs in Lighthouse's SEO score. */
  singleUse: { label: string; url: string };
  close(): Promise<void>;
}

export async function startLinkPages(): Promise<LinkPages> {
  const build = await builtOnce();
  const h = await startHarness({
    serverSecret: secret,
    setupChecksAtStart: false,
    shopName: 'Maison Adjoa',
    elementAssetsDir: build.outDir,
    // Dozens of loads from one address in a minute: the per-address limit is not what is measured.
    limits: { perAddress: { burst: 100_000, perMinute: 100_000 } },
  });
  const create = async (terms: Record<string, unknown>): Promise<string> => {
    const response = await fetch(`${h.base}/server/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ currencyCode: 'XOF', ...terms }),
    });
    if (response.status !== 201) throw new Error(`creating a link answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { url: string }).url;
  };
  return {
    pages: [
      { label: 'link, fixed amount', url: await create({ description: 'Pagne wax, 6 yards', amount: '5000', reusable: true }) },
      { label: 'link, payer-chosen amount', url: await create({ description: 'Don pour la coopérative', minAmount: '1000', maxAmount: '20000', reusable: true }), amount: '2500' },
    ],
    singleUse: { label: 'link, single-use', url: await create({ description: 'Commande 18, pour Aminata', amount: '12500' }) },
    async close() {
      await h.close();
      await removeBuild();
    },
  };
}
