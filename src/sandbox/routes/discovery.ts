/** Discovery: corridors (§4.6), operators (§4.4), countries (§4.5, public), and the logos they link. */
import type { Hono } from 'hono';
import { countries, currencies, type CountryDef, type OperatorDef } from '../catalogue/catalogue.js';
import { fail, ok } from '../envelope.js';
import { logoSvg } from '../catalogue/logos.js';
import { isStrictE164, resolveNumber } from '../catalogue/resolve.js';

import type { PayerBase } from '../paths.js';

function operatorView(operator: OperatorDef, origin: string) {
  return { code: operator.code, name: operator.name, logoUrl: `${origin}/logos/${operator.code}.svg` };
}

/** assumptions.md §corridors: one entry per (operator, currency) pair. */
function corridorEntries(operator: OperatorDef, country: CountryDef, origin: string) {
  return operator.corridors.map((corridor) => ({
    ...operatorView(operator, origin),
    country: country.code,
    workflowType: operator.workflow,
    minAmountMajor: Number(corridor.minAmountMajor),
    maxAmountMajor: corridor.maxAmountMajor === null ? null : Number(corridor.maxAmountMajor),
    instructions: operator.instructions,
    currencies: [{ code: corridor.currencyCode, decimalPlaces: currencies[corridor.currencyCode]?.decimalPlaces ?? 0 }],
  }));
}

export function registerDiscovery(app: Hono, payerBase: PayerBase): void {
  app.get('/v1/corridors/available', (c) => {
    const phone = c.req.query('phone');
    const transactionType = c.req.query('transactionType') ?? 'payin';
    if (phone === undefined || phone === '') {
      return fail(400, 'VALIDATION_ERROR', 'phone is required: pass the payer\'s number in E.164, URL-encoded (%2B for +)');
    }
    if (!isStrictE164(phone)) {
      return fail(400, 'VALIDATION_ERROR', 'phone must be strict E.164 (+ and digits, no spaces); encode + as %2B in the query');
    }
    if (transactionType !== 'payin' && transactionType !== 'payout') {
      return fail(400, 'VALIDATION_ERROR', 'transactionType must be payin or payout');
    }
    const origin = payerBase(c.req.url);
    const resolved = resolveNumber(phone);
    const operators = [];
    if (resolved?.operator) operators.push(...corridorEntries(resolved.operator, resolved.country, origin));
    // assumptions.md: the overlay wallet appears beside the prefix's operator (pay-in only).
    if (resolved?.operator && resolved.country.wallet && transactionType === 'payin') {
      operators.push(...corridorEntries(resolved.country.wallet, resolved.country, origin));
    }
    // `country` is left out when the calling code is one the sandbox does not serve.
    return ok({ phone, country: resolved?.country.code, transactionType, operators });
  });

  app.get('/v1/operators', (c) => {
    const country = c.req.query('country');
    // §4.4 / §8: exactly 2 characters.
    if (country !== undefined && country.length !== 2) {
      return fail(400, 'VALIDATION_ERROR', 'country must be exactly 2 characters (ISO 3166-1 alpha-2, e.g. BJ)');
    }
    const origin = payerBase(c.req.url);
    const chosen = country === undefined ? countries : countries.filter((entry) => entry.code === country.toUpperCase());
    const seen = new Set<string>();
    const operators = [];
    for (const entry of chosen) {
      for (const operator of [...entry.operators, ...(entry.wallet ? [entry.wallet] : [])]) {
        if (seen.has(operator.code)) continue;
        seen.add(operator.code);
        operators.push(operatorView(operator, origin));
      }
    }
    return ok({ operators });
  });

  app.get('/v1/countries', (c) => {
    const origin = payerBase(c.req.url);
    return ok({
      countries: countries.map((country) => {
        const payIn = [...country.operators, ...(country.wallet ? [country.wallet] : [])];
        return {
          code: country.code,
          name: country.name,
          dialCode: country.dialCode,
          currencies: [...new Set(payIn.flatMap((operator) => operator.corridors.map((corridor) => corridor.currencyCode)))],
          operators: payIn.map((operator) => operatorView(operator, origin)),
        };
      }),
    });
  });

  app.get('/logos/:file', (c) => {
    const match = /^([a-z0-9-]+)\.svg$/.exec(c.req.param('file'));
    const svg = match?.[1] ? logoSvg(match[1]) : undefined;
    if (!svg) return fail(404, 'NOT_FOUND', 'no such logo');
    return new Response(svg, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=3600' } });
  });
}
