/**
 * Issue 32: a `<momo-checkout>` whose language comes in a file of its own loads that file itself, once
 * per page, whatever the number of elements. While it loads, the element waits (hidden, its space
 * kept) rather than flash English; a file that cannot be had leaves English, with one console warning.
 */
import { languageAddedEvent } from './added-languages.js';
import { languageFileUrl, loadLanguageFile } from './load-language-file.js';

export type LanguageRequest = 'pending' | 'failed';

const requests = new Map<string, LanguageRequest>();

/** Starts loading `code`'s file (once) and says where it stands; only called for a language not yet added. */
export function requestLanguage(code: string, tag: string): LanguageRequest {
  const known = requests.get(code);
  if (known) return known;
  requests.set(code, 'pending');
  loadLanguageFile(code).then(
    () => requests.delete(code),
    (error: unknown) => {
      requests.set(code, 'failed');
      console.warn(
        `<momo-checkout>: lang="${tag}": could not load ${languageFileUrl(code)} (${error instanceof Error ? error.message : String(error)}); showing English. ` +
          `Include it with its own <script> and integrity (docs/embedding.md, "Languages").`,
      );
      // Elements waiting for it show English now (a file that arrives later still switches them).
      window.dispatchEvent(new Event(languageAddedEvent));
    },
  );
  return 'pending';
}
