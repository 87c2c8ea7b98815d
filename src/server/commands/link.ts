/**
 * `npx momo-checkout link create --currency XOF --description TEXT (--amount A | --min A --max B)`:
 * a merchant at a terminal creates a payment link through the running companion's server API
 * (`MOMO_SERVER_URL` or `--url`, `MOMO_SERVER_SECRET`: server-api-call.ts) and gets its URL and a QR
 * code drawn in the terminal, to send by WhatsApp or SMS or show at a market stall. A random
 * idempotency key is sent unless `--key` gives one: repeating the command with the same `--key`
 * gives the same link.
 */
import { parseArgs } from 'node:util';
import qrcode from 'qrcode-generator';
import { UsageError } from './usage-error.js';
import { callServerApi, serverApiTarget } from './server-api-call.js';

/** The URL as a QR code of text: two rows of modules per line (▀ ▄ █), with the quiet zone of 2 modules around it. */
export function terminalQr(text: string): string[] {
  const qr = qrcode(0, 'L');
  qr.addData(text, 'Byte');
  qr.make();
  const size = qr.getModuleCount();
  const quiet = 2;
  const dark = (row: number, column: number) => row >= 0 && column >= 0 && row < size && column < size && qr.isDark(row, column);
  const lines: string[] = [];
  // Light modules are drawn (█) and dark ones left blank: on a dark terminal the code reads as printed.
  for (let row = -quiet; row < size + quiet; row += 2) {
    let line = '';
    for (let column = -quiet; column < size + quiet; column++) {
      const top = !dark(row, column);
      const bottom = row + 1 < size + quiet && !dark(row + 1, column);
      line += top && bottom ? '█' : top ? '▀' : bottom ? '▄' : ' ';
    }
    lines.push(line);
  }
  return lines;
}

export async function linkCommand(args: string[], env: Record<string, string | undefined>, out: (line: string) => void, fetchImpl: typeof fetch = fetch): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'create') throw new UsageError('link takes one action: momo-checkout link create --currency XOF --description TEXT (--amount A | --min A --max B).');
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      currency: { type: 'string' },
      description: { type: 'string' },
      amount: { type: 'string' },
      min: { type: 'string' },
      max: { type: 'string' },
      reusable: { type: 'boolean', default: false },
      'max-payments': { type: 'string' },
      expires: { type: 'string' },
      'return-url': { type: 'string' },
      key: { type: 'string' },
      url: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length > 0) throw new UsageError(`link create takes no ${JSON.stringify(positionals[0])}: give each value after its flag (--description "Pagne wax").`);
  if (!values.currency || !values.description) throw new UsageError('link create needs --currency (e.g. XOF) and --description (what the payer pays for).');
  const maxPayments = values['max-payments'] === undefined ? undefined : Number(values['max-payments']);
  if (maxPayments !== undefined && !Number.isInteger(maxPayments)) throw new UsageError('--max-payments must be a whole number.');
  const body = {
    currencyCode: values.currency,
    description: values.description,
    ...(values.amount !== undefined ? { amount: values.amount } : {}),
    ...(values.min !== undefined ? { minAmount: values.min } : {}),
    ...(values.max !== undefined ? { maxAmount: values.max } : {}),
    ...(values.reusable ? { reusable: true } : {}),
    ...(maxPayments !== undefined ? { maxPayments } : {}),
    ...(values.expires !== undefined ? { expiresAt: values.expires } : {}),
    ...(values['return-url'] !== undefined ? { returnUrl: values['return-url'] } : {}),
  };
  const key = values.key ?? crypto.randomUUID();
  const sent = await callServerApi(serverApiTarget(env, values.url), '/links', { method: 'POST', body, headers: { 'idempotency-key': key } }, fetchImpl);
  const answer = (sent.body ?? null) as Record<string, any> | null;
  if (!sent.ok || answer === null) {
    out(`Link not created: ${sent.ok ? 'the answer was empty' : sent.message}${sent.ok || sent.status !== undefined ? '' : ` Run the same command with --key ${key} to retry safely.`}`);
    return 1;
  }
  if (values.json) {
    out(JSON.stringify(answer, null, 2));
    return 0;
  }
  const price = answer.amount !== null ? `${answer.amount} ${answer.currencyCode}` : `${answer.minAmount} to ${answer.maxAmount} ${answer.currencyCode}`;
  out(`Payment link ${answer.linkId}: ${price}, ${answer.reusable ? 'reusable' : 'single-use'}, until ${answer.expiresAt}.`);
  out(answer.url);
  for (const line of terminalQr(answer.url)) out(line);
  return 0;
}
