/**
 * A link's address as a QR code in SVG, from the modules the companion encoded
 * (page-routes/approval-qr.ts: the console's script carries no encoder), drawn by Lit as a template
 * (no markup string, nothing inline for the CSP to refuse): the dark modules on a light square with
 * the quiet zone of 4 modules the QR standard asks for, so a phone reads it off a screen or a sheet.
 */
import { svg, type SVGTemplateResult } from 'lit';
import type { ApprovalQrView } from '../../contract/companion.js';

const quietZone = 4;

export function qrSvg(qr: ApprovalQrView, label: string): SVGTemplateResult {
  const side = qr.size + 2 * quietZone;
  return svg`<svg class="qr" role="img" aria-label=${label} viewBox="${-quietZone} ${-quietZone} ${side} ${side}" shape-rendering="crispEdges" xmlns="http://www.w3.org/2000/svg">
    <rect x=${-quietZone} y=${-quietZone} width=${side} height=${side} fill="#fff"></rect><path d=${qr.path} fill="#000"></path>
  </svg>`;
}
