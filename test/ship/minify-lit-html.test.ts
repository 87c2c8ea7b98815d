/**
 * The script-tag build folds the indentation of Lit templates (scripts/minify-lit-html.ts): what the
 * browser renders stays the same, only the bytes go.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldTemplateIndentation } from '../../scripts/minify-lit-html.js';

describe('foldTemplateIndentation', () => {
  it('turns each run of white space holding a line break into one space, in html and svg templates and the ones nested in them', () => {
    const code = [
      'const view = html`<form>',
      '    <p class="a">${x}</p>',
      '    ${ok ? html`<span>',
      '        yes</span>` : nothing}',
      '  </form>`;',
      'const qr = svg`<svg>\n  <path d=${d}/>\n</svg>`;',
    ].join('\n');
    assert.equal(
      foldTemplateIndentation(code),
      [
        'const view = html`<form> <p class="a">${x}</p> ${ok ? html`<span> yes</span>` : nothing} </form>`;',
        'const qr = svg`<svg> <path d=${d}/> </svg>`;',
      ].join('\n'),
    );
  });

  it('keeps spaces within a line, the code inside ${...}, and every other template as written', () => {
    const code = [
      'const a = html`<b>one  two</b> ${items.map((item) =>',
      '  item.name)}`;',
      'const message = `first line',
      '    second line`;',
      'const styles = css`:host {',
      '  display: block; }`;',
    ].join('\n');
    assert.equal(foldTemplateIndentation(code), code);
  });

  it('leaves a template holding <pre> or <textarea> alone: there white space is what the reader sees', () => {
    const code = 'const a = html`<pre>\n  indented\n</pre>`;\nconst b = html`<textarea>\n  x</textarea>`;';
    assert.equal(foldTemplateIndentation(code), code);
  });
});
