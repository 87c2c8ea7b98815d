/**
 * Adds Swahili to every `<momo-checkout>` on the page: the entry of `momo-checkout-<version>.sw.js`,
 * which a page includes before (or after) the script-tag file; apps import `@momo-checkout/element/languages/sw`.
 */
import { addLanguage } from '../localize/added-languages.js';
import { sw } from '../localize/sw.js';

addLanguage('sw', sw);
