/**
 * Loads a language's file for the script-tag build (issue 32): a `<script>` beside the script-tag
 * file, from the same folder it came from, with the `integrity` hash the build wrote into this file
 * (`__MOMO_LANGUAGE_FILES__`, vite.browser.config.ts). A `<script>` element and not fetch + eval:
 * the page's CSP needs nothing new (its `script-src` already allows the script-tag file's origin; no
 * `connect-src`, no `'unsafe-eval'`), and the browser itself refuses bytes that do not match the hash.
 *
 * On a page that enforces Trusted Types (`require-trusted-types-for 'script'`) a script's `src` takes
 * only a TrustedScriptURL: the element makes them with a policy of its own name, `momo-checkout`
 * (as Lit's templates use `lit-html`), which turns nothing into a URL but its own language files.
 * Such a page allows it with one word, `trusted-types lit-html momo-checkout` (issue 41: before, a
 * `lang` switched after load showed English there and the file was never requested).
 */
import { addedLanguage } from './added-languages.js';

declare const __MOMO_LANGUAGE_FILES__: Record<string, { file: string; integrity: string }>;

const files = __MOMO_LANGUAGE_FILES__;

/**
 * Where this file was loaded from, read while it runs: the IIFE's `document.currentScript` (gone
 * once it has run), the ES module's own URL (an IIFE has no `import.meta`: the bundler leaves it
 * undefined there), else the page's base.
 */
const current = document.currentScript;
const scriptUrl: string = (current instanceof HTMLScriptElement && current.src) || (import.meta.url as string | undefined) || document.baseURI;

/** How long a language file may take before the element shows English (a few KB, one round trip). */
const giveUpAfterMs = 6000;

/** The part of the Trusted Types API used here (not in TypeScript's DOM library). */
interface TrustedTypesFactory {
  createPolicy(name: string, rules: { createScriptURL(input: string): string }): { createScriptURL(input: string): unknown };
}

export const trustedTypesPolicyName = 'momo-checkout';

/**
 * The element's policy, made once, when the first language file is loaded; none where the browser
 * has no Trusted Types, or where the page's `trusted-types` list does not name it (the assignment
 * then throws, and the console warning says what to add). It makes no URL but its own files'.
 */
let policy: { createScriptURL(code: string): unknown } | undefined;
/** `code`'s file as the page lets a script's `src` take it: through the policy when there is one. */
function trustedUrl(code: string): unknown {
  try {
    policy ??= (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes?.createPolicy(trustedTypesPolicyName, {
      // Given a language's code, not a URL: it can only make the URL of a file in the table (any
      // other code is returned as it is, a relative name that is no file of ours).
      createScriptURL: languageFileUrl,
    });
  } catch {
    // Not allowed by the page (or made already by another copy of the element): the plain URL.
  }
  return policy ? policy.createScriptURL(code) : languageFileUrl(code);
}

/** Whether `code` comes as a file of its own: the build wrote one for it. */
export function hasLanguageFile(code: string): boolean {
  return Object.prototype.hasOwnProperty.call(files, code);
}

export function languageFileUrl(code: string): string {
  const entry = files[code];
  return entry ? new URL(entry.file, scriptUrl).href : code;
}

export function loadLanguageFile(code: string): Promise<void> {
  const entry = files[code];
  if (!entry) return Promise.reject(new Error(`no language file for "${code}"`));
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    const timer = setTimeout(() => reject(new Error('it took too long')), giveUpAfterMs);
    script.addEventListener('load', () => {
      clearTimeout(timer);
      if (addedLanguage(code)) resolve();
      else reject(new Error('the file ran but added no language'));
    });
    // A network failure, a 404, or bytes that do not match the hash (the browser refuses to run them).
    script.addEventListener('error', () => {
      clearTimeout(timer);
      reject(new Error('missing, or refused by its integrity hash'));
    });
    script.integrity = entry.integrity;
    // CORS, which `integrity` needs for a file from another origin (a CDN); harmless on the page's own.
    script.crossOrigin = 'anonymous';
    try {
      // Throws on a page that enforces Trusted Types and does not allow the element's policy:
      // English then, and the warning says why.
      script.src = trustedUrl(code) as string;
    } catch (error) {
      clearTimeout(timer);
      reject(new Error(`${error}; allow trusted-types ${trustedTypesPolicyName}`));
      return;
    }
    document.head.append(script);
  });
}
