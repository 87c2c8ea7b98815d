// momo-checkout: Next.js next.config.ts
import type { NextConfig } from 'next';

const config: NextConfig = {
  // The companion keeps its checkouts in a SQLite file through better-sqlite3, a native module:
  // Node loads the package from node_modules instead of the bundler copying it.
  serverExternalPackages: ['momo-checkout'],
};

export default config;
