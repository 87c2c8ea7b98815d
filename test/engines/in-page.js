// In-page helpers of the engines suite, injected as text by test/engines/engine-page.ts (plain
// JavaScript, not TypeScript: it is sent to the browser as it is, untouched by a compiler).
//
// Written by hand because neither driver has a role-and-name query that reaches into shadow roots
// in every engine (Playwright's does, in Chromium only here; WebDriver's "find element" stops at
// each shadow root): this walks the composed tree as a person sees it, and finds a control by its
// role and its accessible name the way the e2e tests' getByRole / getByLabel do, simply.
(() => {
  if (globalThis.__engines) return;

  /** Every element of the document, inside open shadow roots too, in tree order. */
  function* all(root) {
    for (const element of root.querySelectorAll('*')) {
      yield element;
      if (element.shadowRoot) yield* all(element.shadowRoot);
    }
  }

  const text = (element) => (element.innerText ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();

  function labelOf(element) {
    const aria = element.getAttribute('aria-label');
    if (aria) return aria.trim();
    const root = element.getRootNode();
    const labelledBy = element.getAttribute('aria-labelledby');
    if (labelledBy) return labelledBy.split(/\s+/).map((id) => text(root.getElementById(id) ?? document.createElement('i'))).join(' ').trim();
    if (element.id) {
      const label = root.querySelector(`label[for="${CSS.escape(element.id)}"]`);
      if (label) return text(label);
    }
    const wrapping = element.closest('label');
    if (wrapping) return text(wrapping);
    if (element.tagName === 'IMG') return element.getAttribute('alt') ?? '';
    return text(element);
  }

  const roles = {
    button: 'button, [role="button"], input[type="submit"]',
    link: 'a[href]',
    heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
    radio: 'input[type="radio"]',
    img: 'img, [role="img"]',
    textbox: 'input:not([type="radio"]):not([type="checkbox"]):not([type="submit"]), textarea',
    alert: '[role="alert"]',
    status: '[role="status"]',
  };

  function visible(element) {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
  }

  function matches(name, wanted) {
    if (wanted.regex) return new RegExp(wanted.regex, wanted.flags).test(name);
    return wanted.exact ? name === wanted.text : name.includes(wanted.text);
  }

  /** The first visible element of this role (or field of this label) whose name matches. */
  function find(query) {
    const selector = query.label ? roles.textbox : roles[query.role];
    for (const element of all(document)) {
      if (!element.matches(selector) || !visible(element)) continue;
      // A click waits for an enabled control, as a person waits for a greyed-out button.
      if (query.enabled && (element.disabled || element.getAttribute('aria-disabled') === 'true')) continue;
      if (matches(labelOf(element), query.name)) return element;
    }
    return null;
  }

  /** Whether a person sees this text anywhere on the page (shadow roots included). */
  function seesText(wanted) {
    for (const element of all(document)) {
      if (element.shadowRoot || !visible(element)) continue;
      if (matches(text(element), wanted)) return true;
    }
    return false;
  }

  /** The element's centre in the viewport, scrolled into view first (for a real pointer click). */
  function centre(query) {
    const element = find(query);
    if (!element) return null;
    element.scrollIntoView({ block: 'center', inline: 'center' });
    const box = element.getBoundingClientRect();
    return { x: Math.round(box.left + box.width / 2), y: Math.round(box.top + box.height / 2) };
  }

  /** Focuses a field and selects what it holds, so that typed keys replace it. */
  function focusField(query) {
    const element = find(query);
    if (!element) return false;
    element.focus();
    element.select?.();
    return true;
  }

  /** What the page shows, shortened: for a failure's message. */
  function shown() {
    // The element's own text first: it is what a failure is usually about.
    const parts = [];
    for (const element of all(document)) if (element.shadowRoot) parts.push(...[...element.shadowRoot.children].map(text));
    parts.push(text(document.body));
    return `${location.pathname}${location.search}: ${parts.filter(Boolean).join(' | ').slice(0, 800)}`;
  }

  /** The first step's layout: is anything wider than the window, and is the element shown? */
  function layout() {
    const host = document.querySelector('momo-checkout');
    const box = host?.getBoundingClientRect();
    return {
      innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
      hostWidth: box ? Math.round(box.width) : 0,
      hostRight: box ? Math.round(box.right) : 0,
      phoneWidth: Math.round(host?.shadowRoot?.querySelector('#phone')?.getBoundingClientRect().width ?? 0),
      dir: host?.shadowRoot?.querySelector('[dir]')?.getAttribute('dir') ?? null,
    };
  }

  /**
   * Plays an engine without container queries and :has() on the element: its stylesheets again,
   * less what such an engine drops (the @container rules, container-type, every rule whose selector
   * has :has()), with `@supports not (container-type: …)` taken as true. Gives the count dropped.
   */
  function asOlderEngine() {
    const root = document.querySelector('momo-checkout')?.shadowRoot;
    if (!root) return -1;
    let dropped = 0;
    const keep = (rules) =>
      [...rules]
        .map((rule) => {
          if (rule instanceof CSSContainerRule) return (dropped++, '');
          if (rule instanceof CSSSupportsRule && /not\s*\(\s*container-type/.test(rule.conditionText)) return (dropped++, keep(rule.cssRules));
          if (rule instanceof CSSStyleRule && rule.selectorText.includes(':has(')) return (dropped++, '');
          if (rule instanceof CSSMediaRule) return `@media ${rule.conditionText} { ${keep(rule.cssRules)} }`;
          return rule.cssText.replace(/container-type:\s*inline-size;?/g, () => (dropped++, ''));
        })
        .join('\n');
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(root.adoptedStyleSheets.map((each) => keep(each.cssRules)).join('\n'));
    root.adoptedStyleSheets = [sheet];
    return dropped;
  }

  /**
   * A script's click and typing, for a host that has no pointer or keyboard of its own (the app
   * WebViews of test/support/app-flows.ts, driven over a pipe): what they test is the page's way
   * to the app, not the element's input, which the engines suite types into with real keys.
   */
  function press(query) {
    const element = find(query);
    element?.click();
    return element !== null;
  }
  function setField(query, value) {
    const element = find(query);
    if (!element) return false;
    element.focus();
    element.value = value;
    element.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    element.blur();
    return true;
  }

  globalThis.__engines = { find: (query) => find(query) !== null, fieldValue: (query) => find(query)?.value ?? null, seesText, centre, focusField, shown, layout, asOlderEngine, press, setField };
})();
