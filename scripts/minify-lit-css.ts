/**
 * A Vite plugin that minifies the CSS inside Lit `css\`...\`` templates of the browser build.
 * Vite minifies JavaScript but leaves template text as written, and the element's stylesheet is
 * a sixth of its own code. Hand-written because the libraries that do this (minify-literals and
 * friends) bring an HTML and a CSS minifier with them for what is, for CSS with no interpolation,
 * a few safe whitespace rules. Templates with `${` are left alone.
 */
import type { Plugin } from 'vite';

export function minifyCssText(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .trim();
}

export function minifyLitCss(): Plugin {
  return {
    name: 'momo-minify-lit-css',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/src\/.*\.ts$/.test(id) || !code.includes('css`')) return null;
      const next = code.replace(/\bcss`([^`$]*)`/g, (_match, body: string) => `css\`${minifyCssText(body)}\``);
      return next === code ? null : { code: next, map: null };
    },
  };
}
