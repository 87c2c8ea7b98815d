// momo-checkout: Next.js app/checkout/page.tsx
import { momo } from '../../lib/momo';
import { Pay } from './pay';

// Each visit creates the order's checkout: never prerendered at build time.
export const dynamic = 'force-dynamic';

export default async function CheckoutPage({ searchParams }: { searchParams: Promise<{ order?: string }> }) {
  const { order } = await searchParams;
  const orderId = order ?? `order-${Date.now()}`;
  const { token } = await momo().createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
  // The element's first request answered here, in-process: it starts without a round trip.
  const answer = await momo().fetch(new Request(`${process.env.MOMO_PUBLIC_URL}/checkout`, { headers: { authorization: `Bearer ${token}` } }));
  const checkoutView = answer.ok ? await answer.text() : '';
  return (
    <main>
      <h1>Order {orderId}: 5,000 XOF</h1>
      <Pay token={token} checkoutView={checkoutView} />
    </main>
  );
}
