/**
 * A Vite plugin that folds the indentation inside Lit `html\`...\`` and `svg\`...\`` templates of the
 * browser build: every run of white space that holds a line break becomes one space. Vite minifies
 * JavaScript but leaves template text as written, and the views' indentation was 0.1 KB gzip of the
 * script-tag file.
 *
 * One space renders as the run did (HTML collapses white space outside `<pre>` and `<textarea>`,
 * which a template holding either keeps as written), and keeps the text nodes Lit counts its parts
 * by. The templates are found by TypeScript's parser, not a pattern: they nest inside `${...}`.
 */
import ts from 'typescript';
import type { Plugin } from 'vite';

const tags = new Set(['html', 'svg']);

/** The text between a template part's delimiters: `...`, `...${, }...${ or }...`. */
function textRange(part: ts.TemplateLiteralLikeNode, source: ts.SourceFile): [number, number] {
  const start = part.getStart(source) + 1;
  const end = part.getEnd() - (part.kind === ts.SyntaxKind.TemplateHead || part.kind === ts.SyntaxKind.TemplateMiddle ? 2 : 1);
  return [start, end];
}

export function foldTemplateIndentation(code: string, fileName = 'module.ts'): string {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true);
  const ranges: Array<[number, number]> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && tags.has(node.tag.text)) {
      const { template } = node;
      const parts = ts.isNoSubstitutionTemplateLiteral(template) ? [template] : [template.head, ...template.templateSpans.map((span) => span.literal)];
      if (!parts.some((part) => /<(pre|textarea)\b/i.test(part.text))) ranges.push(...parts.map((part) => textRange(part, source)));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let folded = code;
  for (const [start, end] of ranges.sort((a, b) => b[0] - a[0])) {
    folded = folded.slice(0, start) + folded.slice(start, end).replace(/[ \t]*(?:\r\n?|\n)\s*/g, ' ') + folded.slice(end);
  }
  return folded;
}

export function minifyLitHtml(): Plugin {
  return {
    name: 'momo-minify-lit-html',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/src\/.*\.ts$/.test(id) || !/\b(html|svg)`/.test(code)) return null;
      const next = foldTemplateIndentation(code, id);
      return next === code ? null : { code: next, map: null };
    },
  };
}
