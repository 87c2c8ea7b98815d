/**
 * Adds Portuguese to every `<momo-checkout>` on the page: the entry of `momo-checkout-<version>.pt.js`,
 * which a page includes before (or after) the script-tag file; apps import `@momo-checkout/element/languages/pt`.
 */
import { addLanguage } from '../localize/added-languages.js';
import { pt } from '../localize/pt.js';

addLanguage('pt', pt);
