/**
 * Adds Arabic to every `<momo-checkout>` on the page: the entry of `momo-checkout-<version>.ar.js`,
 * which a page includes before (or after) the script-tag file; apps import `@momo-checkout/element/languages/ar`.
 */
import { addLanguage } from '../localize/added-languages.js';
import { ar } from '../localize/ar.js';

addLanguage('ar', ar);
