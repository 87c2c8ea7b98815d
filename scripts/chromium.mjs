// How every tool here launches Chromium (TOOLCHAIN.md, "Chromium"): Debian's build unless
// CHROME_PATH names another, run as root, with the background networking that this machine's
// closed network refuses turned off. One place, so the browser tests, the stories, the ship
// tests, the end-to-end tests and the screenshot script cannot drift apart.
// A .mjs file (with chromium.d.mts for TypeScript) because web-test-runner.config.mjs imports it too.

/** The Chromium executable: `CHROME_PATH`, else Debian's `/usr/bin/chromium`. */
export const chromiumPath = process.env.CHROME_PATH || '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
