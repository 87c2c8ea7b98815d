/** Reads the QR code in a screenshot, as a phone's camera app would (jsQR, a pure-JS reader). */
import assert from 'node:assert/strict';
import jsQRPackage from 'jsqr';
import { PNG } from 'pngjs';

function readQrCode(screenshotPng: Buffer): string {
  const decoded = decode(screenshotPng);
  assert.ok(decoded !== undefined, 'the QR code on the screen can be read');
  return decoded;
}

/**
 * Reads the QR code an element shows, as a camera held to the screen does: from frame after frame
 * (`screenshot`) until one is readable, for up to `ms`. A single frame taken as the element
 * appeared was once unreadable in CI (the approval page's code, in redirect-wallet.test.ts).
 */
export async function readQrCodeOnScreen(screenshot: () => Promise<Buffer>, ms = 5_000): Promise<string> {
  const end = Date.now() + ms;
  for (;;) {
    const frame = await screenshot();
    const decoded = decode(frame);
    if (decoded !== undefined) return decoded;
    if (Date.now() > end) return readQrCode(frame);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function decode(screenshotPng: Buffer): string | undefined {
  const image = PNG.sync.read(screenshotPng);
  // jsqr is CommonJS that declares an ES default export: from ESM its function is on `.default`.
  return jsQRPackage.default(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}
