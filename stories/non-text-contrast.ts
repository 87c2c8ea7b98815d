/**
 * WCAG 1.4.11 (non-text contrast): the borders that show where a field, a choice, the card or the
 * spinner's track is must stand at 3:1 against the card. axe checks text contrast only, so the
 * stories check this themselves, in every theme.
 */

function channels(color: string): [number, number, number, number] | null {
  const match = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(color);
  if (!match) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3]), match[4] === undefined ? 1 : Number(match[4])];
}

function luminance([r, g, b]: [number, number, number, number]): number {
  const linear = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastRatio(a: string, b: string): number | null {
  const ca = channels(a);
  const cb = channels(b);
  if (!ca || !cb) return null;
  const [high, low] = [luminance(ca), luminance(cb)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** Fails with every border under 3:1 against the card's background. */
export function expectNonTextContrast(el: HTMLElement): void {
  const root = el.shadowRoot!;
  const card = root.querySelector<HTMLElement>('.base');
  if (!card) return;
  const surface = getComputedStyle(card).backgroundColor;
  const low: string[] = [];
  for (const part of [card, ...root.querySelectorAll<HTMLElement>('input:not([type="radio"]), select, .choice, .spinner')]) {
    const style = getComputedStyle(part);
    if (style.borderTopStyle === 'none' || parseFloat(style.borderTopWidth) === 0) continue;
    // The spinner's track is its right border (the top is the moving arc, in the brand colour).
    const border = part.classList.contains('spinner') ? style.borderRightColor : style.borderTopColor;
    const ratio = contrastRatio(border, surface);
    if (ratio !== null && ratio < 3) low.push(`${part.localName}.${part.className || '-'} ${border} on ${surface}: ${ratio.toFixed(2)}:1`);
  }
  if (low.length > 0) throw new Error(`non-text contrast under 3:1 (WCAG 1.4.11):\n${low.join('\n')}`);
}
