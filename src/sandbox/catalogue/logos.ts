/**
 * Operator logos drawn by the sandbox itself (a coloured rounded square with initials): no
 * external asset, and no real brand artwork in a simulator.
 */
import { countries } from './catalogue.js';

function findOperator(code: string) {
  for (const country of countries) {
    for (const operator of [...country.operators, ...(country.wallet ? [country.wallet] : [])]) {
      if (operator.code === code) return operator;
    }
  }
  return undefined;
}

function initials(name: string): string {
  const words = name.split(/[\s-]+/).filter(Boolean);
  const letters = words.length > 1 ? words.slice(0, 2).map((word) => word[0]) : [name.slice(0, 2)];
  return letters.join('').toUpperCase();
}

/** Dark text on light colours, white on dark ones (simple luminance threshold). */
function textColour(hex: string): string {
  const value = parseInt(hex.slice(1), 16);
  const luminance = 0.299 * ((value >> 16) & 255) + 0.587 * ((value >> 8) & 255) + 0.114 * (value & 255);
  return luminance > 160 ? '#1a1a1a' : '#ffffff';
}

export function logoSvg(code: string): string | undefined {
  const operator = findOperator(code);
  if (!operator) return undefined;
  const text = initials(operator.name).replace(/[<>&"]/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${operator.name.replace(/[<>&"]/g, '')}"><rect width="64" height="64" rx="14" fill="${operator.colour}"/><text x="32" y="41" font-family="Arial, Helvetica, sans-serif" font-size="24" font-weight="700" text-anchor="middle" fill="${textColour(operator.colour)}">${text}</text></svg>`;
}
