/**
 * Whether the approval page is better opened on the payer's phone (issue 23): a mouse or trackpad
 * as the main pointer and a wide window mean a desktop or laptop, while the wallet and its login
 * live on the phone. A touch screen, or a narrow window, is the phone itself: open the page there.
 */
export const phoneHandoffQuery = '(pointer: fine) and (min-width: 1024px)';

export function prefersPhoneHandoff(): boolean {
  return typeof matchMedia === 'function' && matchMedia(phoneHandoffQuery).matches;
}
