// momo-checkout: Next.js app/checkout/pay.tsx
'use client';
import { useRouter } from 'next/navigation';
import { MomoCheckout } from '@momo-checkout/element/react';

// A client component of the shop's own: event handlers cannot cross from a Server Component.
// The server-rendered HTML holds an empty <momo-checkout>; the checkout appears once the browser
// runs the element, starting from `checkoutView` instead of asking the companion.
export function Pay({ token, checkoutView }: { token: string; checkoutView: string }) {
  const router = useRouter();
  return (
    <MomoCheckout
      endpoint="/momo"
      token={token}
      checkoutView={checkoutView}
      lang="en"
      onMomoSucceeded={(event) => router.push(`/thanks?order=${encodeURIComponent(event.detail.orderId)}`)}
    />
  );
}
