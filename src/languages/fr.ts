/**
 * Adds French to every `<momo-checkout>` on the page: the entry of `momo-checkout-<version>.fr.js`,
 * which a page includes after (or before) the script-tag file; apps import `momo-checkout/languages/fr`.
 */
import { addLanguage } from '../localize/added-languages.js';
import { fr } from '../localize/fr.js';

addLanguage('fr', fr);
