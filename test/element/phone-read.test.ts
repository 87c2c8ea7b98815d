/**
 * The browser's hand-written number reader (src/element/phone-read.ts) on the bundled metadata against
 * libphonenumber-js on the served countries' own metadata (with the formats the bundle leaves out), on
 * every served country: the same E.164 when libphonenumber-js reads a number, a refusal when it
 * refuses, and "unknown country" exactly when it says so (the element then sends the number as typed
 * to the companion).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { normalizePhone } from '../../src/contract/phone.js';
import type { MetadataJson } from '../../src/contract/phone.js';
import { generatedModule, generatedPath, libphonenumberMin, servedMetadata } from '../../scripts/build-phone-metadata.js';
import { metadataCountries, phoneMetadata } from '../../src/element/phone-metadata.generated.js';
import { readPhone } from '../../src/element/phone-read.js';

/** What libphonenumber-js reads with: the served countries' entries as it ships them, formats included. */
const reference = servedMetadata(libphonenumberMin().metadata) as unknown as MetadataJson;
type Plan = [string, string, string, number[], unknown?, (string | 0)?, unknown?, (string | 0)?, (string | 0)?];
const plans = metadataCountries.map((code) => [code, phoneMetadata.countries[code] as Plan] as const);

/** Returns whether libphonenumber-js read the number (so a run can show it tried valid ones too). */
function agree(typed: string, country: string | undefined): boolean {
  const ours = readPhone(typed, country, phoneMetadata);
  const theirs = normalizePhone(typed, { ...(country ? { defaultCountry: country } : {}), metadata: reference });
  const label = `${JSON.stringify(typed)} in ${country ?? 'no country'}`;
  if (theirs.ok) {
    assert.deepEqual(ours, { ok: true, e164: theirs.e164 }, label);
    return true;
  }
  {
    assert.equal(ours.ok, false, `${label}: libphonenumber-js refuses it (${theirs.code}), ours reads ${JSON.stringify(ours)}`);
    assert.equal(!ours.ok && ours.code === 'INVALID_COUNTRY', theirs.code === 'INVALID_COUNTRY', `${label}: ${JSON.stringify(ours)} vs ${theirs.code}`);
  }
  return false;
}

/** The plan's own valid national numbers half the time (fast-check draws them from its pattern), any digits otherwise. */
const digitsFor = (plan: Plan) => fc.oneof(fc.stringMatching(new RegExp(`^(?:${plan[2]})$`)), fc.stringMatching(/^\d{1,15}$/));

describe('the bundled metadata', () => {
  it('is what scripts/build-phone-metadata.ts makes of the installed libphonenumber-js (re-run it after an upgrade)', () => {
    assert.equal(readFileSync(generatedPath, 'utf8'), generatedModule());
  });
});

describe('readPhone agrees with libphonenumber-js on the served countries', () => {
  it('reads the sandbox and catalogue numbers the element is tested with', () => {
    for (const [typed, country] of [
      ['01 97 00 00 00', 'BJ'], ['00229 01-97-00-00-00', 'BJ'], ['+2290196000001', undefined], ['229 01 97 00 00 00', 'BJ'],
      ['07 00 00 00 01', 'CI'], ['+225 07 00', undefined], ['0241234567', 'GH'], ['+233 024 123 4567', undefined],
      ['0711 123456', 'KE'], ['011234567', 'GA'], ['+33 6 12 34 56 78', 'BJ'], ['01 97', 'BJ'], ['5', 'BJ'], ['+', 'BJ'], ['abc', 'BJ'],
      ['0812345678', 'CD'], ['08031234567', 'NG'], ['', 'BJ'], ['+0229', undefined],
    ] as const) {
      agree(typed, country);
    }
    assert.deepEqual(readPhone('01 97 00 00 00', 'BJ', phoneMetadata), { ok: true, e164: '+2290197000000' });
    assert.deepEqual(readPhone('+229 01 97', undefined, phoneMetadata), { ok: false, code: 'TOO_SHORT' });
  });

  for (const [country, plan] of plans) {
    it(`${country}: national, international, 00, calling code without +, trunk 0, separators`, () => {
      let read = 0;
      fc.assert(
        fc.property(
          digitsFor(plan),
          fc.constantFrom('', '0', '00', `+${plan[0]}`, `00${plan[0]}`, plan[0], `+${plan[0]}0`, '+'),
          fc.constantFrom('', ' ', '-', '.'),
          fc.constantFrom<string | undefined>(country, undefined, 'BJ', 'KE'),
          (digits, prefix, separator, chosen) => {
            const typed = `${prefix}${digits.replace(/(\d{2})(?=\d)/g, `$1${separator}`)}`;
            if (agree(typed, chosen)) read += 1;
          },
        ),
        { numRuns: 500 },
      );
      assert.ok(read > 50, `only ${read} of the numbers drawn were valid: the comparison saw too few good ones`);
    });
  }
});
