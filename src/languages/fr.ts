/**
 * Adds French to every `<momo-checkout>` on the page: the entry of `momo-checkout-<version>.fr.js`,
 * which a page includes before (or after) the script-tag file; apps import `@momo-checkout/element/languages/fr`.
 */
import { addLanguage } from '../localize/added-languages.js';
import { fr } from '../localize/fr.js';

addLanguage('fr', fr);
