/**
 * Counts the companion's calls to the payment service (issue 4 "Size and speed": one corridor
 * lookup per number, at most one preview per (number, choice), one pay-in plus one per 422).
 * The demo hands the companion a fetch that goes to the in-process sandbox through this recorder.
 * Phone numbers stay in memory for the counts; `describeCalls` masks them.
 */

export interface UpstreamCall {
  method: string;
  /** e.g. `/v1/pay-in` */
  path: string;
  status: number;
  /** `phone` / `phoneNumber` of the query or body, as sent. */
  phoneNumber: string | null;
  /** `operatorCode` of the preview or pay-in (`wallet` when the payer chose the overlay wallet). */
  operatorCode: string | null;
  /** The pay-in's `orderId`. */
  orderId: string | null;
  /** The error `code` of a non-2xx answer (`OTP_REQUIRED`, `REDIRECT_URLS_REQUIRED`, ...). */
  code: string | null;
}

export interface CallSummary {
  corridorLookups: Record<string, number>;
  /** Key: `<number> <operator|wallet>`. */
  previews: Record<string, number>;
  payIns: number;
  /** Pay-ins answered 422 (OTP_REQUIRED, REDIRECT_URLS_REQUIRED): each calls for exactly one re-post. */
  payIns422: number;
  /** Pay-ins refused with 400 (a wrong OTP): the payer's correction is one more re-post. */
  payIns400: number;
  /** Pay-ins accepted (200): one per attempt. */
  payInsAccepted: number;
  countries: number;
  other: number;
}

async function readJsonField(body: Request | Response): Promise<Record<string, unknown>> {
  try {
    const value: unknown = await body.clone().json();
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A `fetch` for the companion that hands each request to `target` and records it in `calls`. */
export function recordingFetch(target: (request: Request) => Promise<Response>, calls: UpstreamCall[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.method === 'POST' ? await readJsonField(request) : {};
    const response = await target(request);
    const answer = response.ok ? {} : await readJsonField(response);
    calls.push({
      method: request.method,
      path: url.pathname,
      status: response.status,
      phoneNumber: url.searchParams.get('phone') ?? url.searchParams.get('phoneNumber') ?? text(body.phoneNumber),
      operatorCode: url.searchParams.get('operatorCode') ?? text(body.operatorCode),
      orderId: text(body.orderId),
      code: text(answer.code),
    });
    return response;
  };
}

export function summariseCalls(calls: readonly UpstreamCall[]): CallSummary {
  const summary: CallSummary = { corridorLookups: {}, previews: {}, payIns: 0, payIns422: 0, payIns400: 0, payInsAccepted: 0, countries: 0, other: 0 };
  for (const call of calls) {
    if (call.path === '/v1/corridors/available') {
      const key = call.phoneNumber ?? '?';
      summary.corridorLookups[key] = (summary.corridorLookups[key] ?? 0) + 1;
    } else if (call.path === '/v1/pay-in/preview') {
      const key = `${call.phoneNumber ?? '?'} ${call.operatorCode === 'wallet' ? 'wallet' : 'operator'}`;
      summary.previews[key] = (summary.previews[key] ?? 0) + 1;
    } else if (call.path === '/v1/pay-in') {
      summary.payIns += 1;
      if (call.status === 422) summary.payIns422 += 1;
      else if (call.status === 400) summary.payIns400 += 1;
      else if (call.status >= 200 && call.status < 300) summary.payInsAccepted += 1;
    } else if (call.path === '/v1/countries') {
      summary.countries += 1;
    } else {
      summary.other += 1;
    }
  }
  return summary;
}

/** Last two digits only: counts are printed, numbers are not (ground rules). */
const maskPhone = (key: string): string => key.replace(/\+\d+(\d{2})/g, '+…$1');

export function describeCalls(summary: CallSummary): string {
  const lookups = Object.entries(summary.corridorLookups).map(([number, count]) => `${maskPhone(number)}×${count}`);
  const previews = Object.entries(summary.previews).map(([key, count]) => `${maskPhone(key)}×${count}`);
  return [
    `corridor lookups ${lookups.join(', ') || 'none'}`,
    `previews ${previews.join(', ') || 'none'}`,
    `pay-ins ${summary.payIns} (${summary.payInsAccepted} accepted, ${summary.payIns422}×422, ${summary.payIns400}×400)`,
    `countries ${summary.countries}`,
  ].join('; ');
}
