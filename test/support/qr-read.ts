/** Reads the QR code in a screenshot, as a phone's camera app would (jsQR, a pure-JS reader). */
import assert from 'node:assert/strict';
import jsQRPackage from 'jsqr';
import { PNG } from 'pngjs';

export function readQrCode(screenshotPng: Buffer): string {
  const image = PNG.sync.read(screenshotPng);
  // jsqr is CommonJS that declares an ES default export: from ESM its function is on `.default`.
  const decoded = jsQRPackage.default(new Uint8ClampedArray(image.data), image.width, image.height);
  assert.ok(decoded, 'the QR code on the screen can be read');
  return decoded.data;
}
