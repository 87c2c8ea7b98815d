/**
 * What a built script-tag file asks of the browser, read off its syntax tree (acorn) and the CSS in
 * its template literals (css-tree), each named by its path in MDN's compat data: the syntax
 * (`javascript.operators.optional_chaining`…), the CSS (`css.properties.container-type`,
 * `css.at-rules.container`, `css.selectors.has`…) and the APIs (`api.ReadableStream.pipeThrough`,
 * `javascript.builtins.Intl.DisplayNames`…). test/ship/browser-support.test.ts holds them to the
 * declared matrix.
 */
import { parse, type Node } from 'acorn';
import { full } from 'acorn-walk';
import * as cssTree from 'css-tree';
import { compatAt, compatData, type CompatNode } from './support-matrix.js';

/** Syntax newer than ES2019 (everything older works in every browser of the matrix). */
function syntaxOf(node: Node & Record<string, unknown>): string | null {
  switch (node.type) {
    case 'ChainExpression':
      return 'javascript.operators.optional_chaining';
    case 'LogicalExpression':
      return node.operator === '??' ? 'javascript.operators.nullish_coalescing' : null;
    case 'AssignmentExpression':
      return ({ '??=': 'javascript.operators.nullish_coalescing_assignment', '||=': 'javascript.operators.logical_or_assignment', '&&=': 'javascript.operators.logical_and_assignment' } as Record<string, string>)[node.operator as string] ?? null;
    case 'PropertyDefinition':
      return node.static ? 'javascript.classes.static.class_fields' : 'javascript.classes.public_class_fields';
    case 'PrivateIdentifier':
      return 'javascript.classes.private_class_fields';
    case 'StaticBlock':
      return 'javascript.classes.static.initialization_blocks';
    case 'ImportExpression':
      return 'javascript.operators.import';
    case 'MetaProperty':
      return 'javascript.operators.import_meta';
    case 'AwaitExpression':
      return 'javascript.operators.await';
    case 'Literal': {
      const regex = node.regex as { flags: string } | undefined;
      if (regex?.flags.includes('v')) return 'javascript.builtins.RegExp.unicodeSets';
            return typeof node.bigint === 'string' ? 'javascript.builtins.BigInt' : null;
    }
    default:
      return null;
  }
}

/** Units of CSS lengths newer than the matrix's baseline, by MDN's path. */
const cssUnits: Record<string, string> = {
  cqw: 'css.types.length.container_query_length_units', cqh: 'css.types.length.container_query_length_units', cqi: 'css.types.length.container_query_length_units', cqb: 'css.types.length.container_query_length_units', cqmin: 'css.types.length.container_query_length_units', cqmax: 'css.types.length.container_query_length_units',
  dvh: 'css.types.length.viewport_percentage_units_dynamic', dvw: 'css.types.length.viewport_percentage_units_dynamic', svh: 'css.types.length.viewport_percentage_units_small', lvh: 'css.types.length.viewport_percentage_units_large',
};

/** `css.types.<name>` or one level down (`css.types.color.color-mix`): where MDN files a CSS function. */
function cssFunctionPath(name: string): string | null {
  const types = compatData.css!.types as CompatNode;
  if (compatAt(`css.types.${name}`)) return `css.types.${name}`;
  for (const [group, child] of Object.entries(types)) if (group !== '__compat' && (child as CompatNode)?.[name]) return `css.types.${group}.${name}`;
  return null;
}

function cssFeatures(css: string, into: Set<string>): void {
  const ast = cssTree.parse(css, { parseValue: true, onParseError: () => undefined });
  cssTree.walk(ast, (node) => {
    if (node.type === 'Declaration' && !node.property.startsWith('--')) into.add(`css.properties.${node.property}`);
    else if (node.type === 'Atrule') into.add(`css.at-rules.${node.name}`);
    else if (node.type === 'PseudoClassSelector' || node.type === 'PseudoElementSelector') into.add(`css.selectors.${node.name}`);
    else if (node.type === 'Function') {
      const path = cssFunctionPath(node.name);
      if (path) into.add(path);
    } else if (node.type === 'Dimension' && cssUnits[node.unit]) into.add(cssUnits[node.unit]!);
  });
}

/** A template literal or string that is a stylesheet (Lit's `css`), not markup or text. */
const looksLikeCss = (text: string): boolean => /[\w\])-]\s*\{[^{}]*:[^{}]*\}/.test(text) && !/<\w/.test(text);

/** Interfaces and builtins MDN knows as globals (`ReadableStream`, `Intl`…). */
function globalPath(name: string): string | null {
  if (compatAt(`javascript.builtins.${name}`)) return `javascript.builtins.${name}`;
  if (compatAt(`api.${name}`)) return `api.${name}`;
  if (compatAt(`api._globals.${name}`)) return `api._globals.${name}`;
  return null;
}

/**
 * The interfaces whose members a read like `x.pipeThrough` may be: the DOM a custom element lives
 * in, fetch and its streams, and the language's builtins. A minified file keeps these names (they
 * are the platform's), while its own objects' names may collide with far-off APIs (`token`, `phone`
 * are also PaymentAddress's): those are not asked about.
 */
const memberOwners = [
  'api.EventTarget', 'api.Node', 'api.Element', 'api.HTMLElement', 'api.Document', 'api.DocumentFragment', 'api.ShadowRoot', 'api.Window', 'api.CustomElementRegistry',
  'api.HTMLInputElement', 'api.HTMLFormElement', 'api.HTMLButtonElement', 'api.HTMLTemplateElement', 'api.HTMLSlotElement', 'api.CSSStyleSheet', 'api.ElementInternals', 'api.Event', 'api.CustomEvent', 'api.KeyboardEvent', 'api.MediaQueryList',
  'api.Response', 'api.Request', 'api.Headers', 'api.ReadableStream', 'api.ReadableStreamDefaultReader', 'api.TextDecoderStream', 'api.AbortController', 'api.AbortSignal', 'api.URL', 'api.URLSearchParams', 'api.Storage', 'api.Navigator', 'api.Location', 'api.History', 'api.Performance',
  'javascript.builtins.Array', 'javascript.builtins.String', 'javascript.builtins.Object', 'javascript.builtins.Promise', 'javascript.builtins.Map', 'javascript.builtins.Set', 'javascript.builtins.WeakMap', 'javascript.builtins.Number', 'javascript.builtins.RegExp', 'javascript.builtins.JSON', 'javascript.builtins.Math', 'javascript.builtins.Date', 'javascript.builtins.Symbol', 'javascript.builtins.Reflect', 'javascript.builtins.Error',
  'javascript.builtins.Intl.NumberFormat', 'javascript.builtins.Intl.DisplayNames', 'javascript.builtins.Intl.Collator', 'javascript.builtins.Intl.PluralRules', 'javascript.builtins.Intl.Locale', 'javascript.builtins.Intl.DateTimeFormat', 'javascript.builtins.Intl.Segmenter', 'javascript.builtins.Intl.ListFormat', 'javascript.builtins.Intl.RelativeTimeFormat',
];

/** The MDN paths of a member of that name on those interfaces (`pipeThrough` → `api.ReadableStream.pipeThrough`). */
export function memberPaths(name: string): string[] {
  return memberOwners.map((owner) => `${owner}.${name}`).filter((path) => compatAt(path));
}

export interface BuiltFeatures {
  /** MDN paths that must each work (syntax, CSS, globals, `Global.static` members). */
  required: Set<string>;
  /** Member names read off objects (`x.pipeThrough`): one of their MDN paths must work. */
  members: Map<string, string[]>;
  /** The stylesheet text found, for the test's own sanity check. */
  cssText: string;
}

export function builtFeatures(source: string, sourceType: 'script' | 'module'): BuiltFeatures {
  const ast = parse(source, { ecmaVersion: 'latest', sourceType });
  const required = new Set<string>();
  const members = new Map<string, string[]>();
  const css: string[] = [];
  full(ast, (raw) => {
    const node = raw as Node & Record<string, unknown>;
    const syntax = syntaxOf(node);
    if (syntax) required.add(syntax);
    if (node.type === 'TemplateLiteral') {
      const text = (node.quasis as Array<{ value: { cooked: string | null; raw: string } }>).map((quasi) => quasi.value.cooked ?? quasi.value.raw).join('0');
      if (looksLikeCss(text)) css.push(text);
    }
    if (node.type === 'Identifier') {
      const path = /^[A-Z]/.test(node.name as string) || ['fetch', 'matchMedia', 'structuredClone', 'queueMicrotask', 'requestIdleCallback'].includes(node.name as string) ? globalPath(node.name as string) : null;
      if (path) required.add(path);
    }
    if (node.type === 'MemberExpression' && !node.computed) {
      const object = node.object as Node & Record<string, unknown>;
      const property = (node.property as { name?: string }).name;
      if (!property) return;
      const owner = object.type === 'Identifier' ? globalPath(object.name as string) : null;
      if (owner && compatAt(`${owner}.${property}`)) required.add(`${owner}.${property}`);
      else if (!owner) {
        const paths = memberPaths(property);
        if (paths.length > 0) members.set(property, paths);
      }
    }
  });
  const cssText = css.join('\n');
  cssFeatures(cssText, required);
  return { required, members, cssText };
}
