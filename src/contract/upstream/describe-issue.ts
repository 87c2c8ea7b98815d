import type { z } from 'zod';

/**
 * One line naming the first failing field, e.g. `corridors: data.operators[0].currencies is required`,
 * so a change on the real service is found in one log line (assumptions.md).
 */
export function describeSchemaError(what: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `${what}: the answer does not have the expected shape`;
  const path = formatPath(issue.path);
  const missing = issue.code === 'invalid_type' && issue.message.includes('received undefined');
  const reason = missing ? 'is required' : issue.message.toLowerCase();
  return `${what}: ${path || '(body)'} ${reason}`;
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text ? `.${String(part)}` : String(part);
  }
  return text;
}
