/**
 * Issue 41: after the payer has acted, the element gives back the height it reserved for the page
 * (issue 32), so a paid card leaves no large empty area below it, and the page moving then is not
 * counted as a layout shift (it follows the payer's own press). The steps after the press take
 * their own heights from then on: a later step of another height (the paid card is shorter than
 * the approval step) moves the page below without an input, as any step taller than the
 * reservation always did. And "Payment received" is in the
 * element once, announced by the live region and shown: a merchant's test that queries the text
 * finds one element.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import { $, enterNumber, mount, payment, payUntilPaid, reach } from './fixtures.js';

/** Counted layout shifts (not within 500 ms of an input) on this page from now on, and what moved. */
function watchShifts(): { counted: () => number; moved: string[] } {
  let counted = 0;
  const moved: string[] = [];
  const start = performance.now();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Array<{ previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }> }>) {
      if (entry.startTime < start) continue;
      moved.push(`${entry.hadRecentInput ? 'after input' : 'COUNTED'} ${entry.value.toFixed(4)}: ${entry.sources.map((s) => `${s.previousRect.y}→${s.currentRect.y}`).join(', ')}`);
      if (!entry.hadRecentInput) counted += entry.value;
    }
  }).observe({ type: 'layout-shift', buffered: true });
  return { counted: () => counted, moved };
}

const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

describe('<momo-checkout> after the payer has acted', () => {
  it('paid: the reserved height is given back at the press (a shift not counted); the card is the element\'s height', async () => {
    const m = await mount();
    // The shop's text below the element: what would move.
    const below = await fixture<HTMLParagraphElement>(html`<p>The shop's text below the checkout.</p>`);
    m.el.parentElement!.after(below);
    await enterNumber(m);
    // The number step settled (its operator row and button laid out) before the payer presses.
    await frame();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reserved = m.el.getBoundingClientRect().height;
    const shifts = watchShifts();
    // A real press (a trusted input), as the payer's: the shift it causes is the payer's own.
    const pay = $(m.root, '[part="submit-button"]').getBoundingClientRect();
    await sendMouse({ type: 'click', position: [Math.round(pay.x + pay.width / 2), Math.round(pay.y + pay.height / 2)] });
    await reach(m.el, 'awaiting-approval');
    await frame();
    const waiting = m.el.getBoundingClientRect().height;
    expect(waiting, 'given back at the press').to.be.lessThan(reserved - 50);
    expect(shifts.moved.length, 'the page below moved at the press').to.be.greaterThan(0);
    expect(shifts.counted(), `the press's shift is the payer's own: ${shifts.moved.join('; ')}`).to.equal(0);
    // The outcome comes seconds later, with no input: it may move the page only by its own height.
    await new Promise((resolve) => setTimeout(resolve, 700));
    m.client.emit(payment('completed', 2));
    await reach(m.el, 'succeeded');
    await frame();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const card = $(m.root, '[part="base"]').getBoundingClientRect().height;
    const host = m.el.getBoundingClientRect().height;
    expect(host, `reserved ${reserved}, waiting ${waiting}, paid card ${card}, element ${host}`).to.be.closeTo(card, 1);
    // What the paid card's own height moves, with no input (reported, not a failure: see above).
    console.log(`momo after-payment: reserved ${reserved} px, approval step ${waiting} px, paid ${host} px; shifts: ${shifts.moved.join('; ')}`);
    below.remove();
  });

  it("a merchant's own min-height on momo-checkout still holds after the press", async () => {
    const m = await mount();
    m.el.style.minHeight = '30rem';
    await enterNumber(m);
    await payUntilPaid(m);
    await frame();
    expect(m.el.getBoundingClientRect().height).to.equal(480);
  });

  it('"Payment received" once in the element: shown, and announced by the live region that holds it', async () => {
    const m = await mount();
    await enterNumber(m);
    await payUntilPaid(m);
    const holding = [...m.root.querySelectorAll('*')].filter((el) => el.children.length === 0 && el.textContent?.includes('Payment received'));
    expect(holding.map((el) => el.tagName)).to.deep.equal(['H2']);
    expect(holding[0]!.closest('[role="status"]'), 'inside the live region').to.not.equal(null);
    expect(getComputedStyle(holding[0]!.closest('[role="status"]')!).position, 'shown, not visually hidden').to.equal('static');
    await expect(m.el).to.be.accessible();
  });
});
