/**
 * The approval page's address as a QR code (issue 23): encoded here, on the companion, so the
 * payer's script-tag file carries no encoder (qrcode-generator is 7.5 KB gzip in a browser bundle;
 * the element draws this answer with a few lines of SVG). README, "Approve on your phone".
 */
import qrcode from 'qrcode-generator';
import type { ApprovalQrView } from '../../contract/companion.js';

/**
 * Error correction M (15 %): a phone camera reading a laptop screen through glare. Each run of
 * dark modules in a row is one rectangle, which keeps the path about a third of one square per module.
 */
export function approvalQrView(url: string): ApprovalQrView {
  const qr = qrcode(0, 'M');
  qr.addData(url, 'Byte');
  qr.make();
  const size = qr.getModuleCount();
  let path = '';
  for (let row = 0; row < size; row++) {
    let column = 0;
    while (column < size) {
      if (!qr.isDark(row, column)) {
        column++;
        continue;
      }
      const start = column;
      while (column < size && qr.isDark(row, column)) column++;
      path += `M${start} ${row}h${column - start}v1h-${column - start}z`;
    }
  }
  return { url, size, path };
}
