// The demo merchant's page script (served as a file: the page's CSP allows no inline script).
// It does what a merchant's page does with the element's events: show that the order is paid.
// No innerHTML anywhere: the page requires Trusted Types for script sinks.
// A new order is shown at once (no redirect): its own address goes in the address bar, so that a
// reload shows this order again rather than placing another.
const address = document.body.dataset.address;
if (address && location.pathname + location.search !== address) history.replaceState(history.state, '', address);

const checkout = document.querySelector('momo-checkout');
const banner = document.querySelector('.paid-banner');

if (checkout && banner) {
  checkout.addEventListener('momo-succeeded', () => {
    banner.hidden = false;
  });
  checkout.addEventListener('momo-state-change', (event) => {
    document.body.dataset.checkoutStatus = event.detail.status;
  });
  // An element that started from the page's embedded checkout view (a reload after paying) may
  // have reached its state before this script ran: read it as well as listening.
  if (checkout.status === 'succeeded') banner.hidden = false;
  if (checkout.status) document.body.dataset.checkoutStatus = checkout.status;
}
