/**
 * A URL as a QR code in SVG, drawn by Lit as a template (no markup string, nothing inline for the
 * CSP to refuse): one path of dark modules on a light square with the quiet zone of 4 modules the
 * QR standard asks for, so a phone's camera reads it off a screen or a printed sheet.
 */
import { svg, type SVGTemplateResult } from 'lit';
import qrcode from 'qrcode-generator';

const quietZone = 4;

export function qrSvg(text: string, label: string): SVGTemplateResult {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const size = qr.getModuleCount();
  let path = '';
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) if (qr.isDark(row, column)) path += `M${column + quietZone} ${row + quietZone}h1v1h-1z`;
  }
  const side = size + 2 * quietZone;
  return svg`<svg class="qr" role="img" aria-label=${label} viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges" xmlns="http://www.w3.org/2000/svg">
    <rect width=${side} height=${side} fill="#fff"></rect><path d=${path} fill="#000"></path>
  </svg>`;
}
