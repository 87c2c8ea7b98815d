/**
 * A test-runner command that turns the page's screen into a touch screen (or back), through the
 * DevTools protocol: Chromium then answers `(pointer: coarse)` as a phone does. Playwright's own
 * `hasTouch` needs a new context (a reload), which would end the test.
 *
 * In a test: `await executeServerCommand('touch-screen', { enabled: true })`.
 */
export function touchScreenPlugin() {
  // The emulation lives as long as its DevTools session. "Back" detaches the session, which gives
  // the browser's own screen again: sending enabled: false instead leaves a screen with no pointer.
  const sessions = new WeakMap();
  return {
    name: 'touch-screen-command',
    async executeCommand({ command, payload, session }) {
      if (command !== 'touch-screen') return undefined;
      if (session.browser.type !== 'playwright') throw new Error('touch-screen needs the Playwright launcher (Chromium).');
      const page = session.browser.getPage(session.id);
      await sessions.get(page)?.detach();
      sessions.delete(page);
      if (payload?.enabled) {
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
        sessions.set(page, cdp);
      }
      return true;
    },
  };
}
