/**
 * The console's language on the pages the server writes (src/server/console/console-pages.ts): the
 * `?lang=` asked, else the first of Accept-Language the console speaks (contract/languages.ts),
 * else English; and the sign-in page offers the other language by its own name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { languageOf, signInPage } from '../../../src/server/console/console-pages.js';

const request = (query: string, acceptLanguage?: string) =>
  new Request(`https://shop.example/momo/console${query}`, acceptLanguage ? { headers: { 'accept-language': acceptLanguage } } : {});

describe('the console page language', () => {
  it('is the one asked in ?lang= when the console speaks it', () => {
    assert.equal(languageOf(request('?lang=fr', 'en')), 'fr');
    assert.equal(languageOf(request('?lang=en', 'fr')), 'en');
  });

  it('falls back to Accept-Language, in its order, for a ?lang= the console does not speak', () => {
    assert.equal(languageOf(request('?lang=pt', 'de-DE,fr-CA;q=0.8,en;q=0.5')), 'fr');
    assert.equal(languageOf(request('', 'en-GB,fr;q=0.9')), 'en');
  });

  it('is English when nothing asked is spoken, a longer code included (frr is North Frisian, not French)', () => {
    assert.equal(languageOf(request('')), 'en');
    assert.equal(languageOf(request('', 'frr')), 'en');
    assert.equal(languageOf(request('', 'sw-KE')), 'en');
  });

  it('offers the other language on the sign-in page, by its own name and tag', () => {
    const french = signInPage('fr', '/momo/console');
    assert.match(french, /<html lang="fr">/);
    assert.match(french, /<a href="\/momo\/console\?lang=en" lang="en" hreflang="en">English<\/a>/);
    assert.match(signInPage('en', '/momo/console'), /<a href="\/momo\/console\?lang=fr" lang="fr" hreflang="fr">Français<\/a>/);
  });
});
