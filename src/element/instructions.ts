/**
 * Operator instructions split into text and USSD codes, so the codes render as tap-to-dial links.
 * Everything stays text (never HTML): the instructions come from the payment service.
 */
export type InstructionPart = { text: string } | { code: string; href: string };

// A USSD code starts with * or #, holds digits, * and #, and ends with # (e.g. *144*4*6#, #150#).
const ussd = /[*#]\d[\d*#]*#/g;

/** `tel:` URI for a USSD code: `#` must be percent-encoded or the dialer drops everything after it. */
export function telHref(code: string): string {
  return `tel:${code.replace(/#/g, '%23')}`;
}

export function splitInstructions(text: string): InstructionPart[] {
  const parts: InstructionPart[] = [];
  let last = 0;
  for (const match of text.matchAll(ussd)) {
    const index = match.index ?? 0;
    if (index > last) parts.push({ text: text.slice(last, index) });
    parts.push({ code: match[0], href: telHref(match[0]) });
    last = index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
