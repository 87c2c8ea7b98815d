// momo-checkout: Next.js app/momo/[...path]/route.ts
import { momo } from '../../../lib/momo';

// The companion at /momo (MOMO_PUBLIC_URL ends in /momo): the element's calls, its status streams,
// the service's notifications. Route handlers get the untouched request, raw body included.
export const runtime = 'nodejs'; // status streams are long-lived responses
export const dynamic = 'force-dynamic';
export const GET = (request: Request) => momo().fetch(request);
export const POST = (request: Request) => momo().fetch(request);
export const OPTIONS = (request: Request) => momo().fetch(request);
