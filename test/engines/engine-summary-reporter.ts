/**
 * A node:test reporter for the engines suite: one closing line that counts each engine's tests
 * (their names start with `Firefox:` or `WebKit:`, test/engines/engine-suite.ts), e.g.
 * `engines: Firefox 8 passed, 0 failed · WebKit 8 passed, 0 failed`. Runs beside the spec reporter.
 */
import type { TestEvent } from 'node:test/reporters';

export default async function* engineSummary(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const counts = new Map<string, { passed: number; failed: number }>();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const engine = /^(\w+): /.exec(event.data.name)?.[1];
    if (!engine || event.data.details.type === 'suite') continue;
    const count = counts.get(engine) ?? { passed: 0, failed: 0 };
    if (event.type === 'test:pass') count.passed += 1;
    else count.failed += 1;
    counts.set(engine, count);
  }
  const parts = [...counts].map(([engine, { passed, failed }]) => `${engine} ${passed} passed, ${failed} failed`);
  yield `engines: ${parts.length > 0 ? parts.join(' · ') : 'no engine test ran'}\n`;
}
