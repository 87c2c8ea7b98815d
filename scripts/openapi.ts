/**
 * `npm run openapi`: writes docs/openapi.json, the OpenAPI 3.1 document of the server API, from
 * the zod schemas the server validates with (src/server/server-api/server-api-schemas.ts). A test
 * fails when the committed copy is stale.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serverApiDocument } from '../src/server/server-api/server-api-routes.js';

export const openApiFile = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));

export function openApiText(): string {
  return `${JSON.stringify(serverApiDocument(), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(openApiFile, openApiText());
  console.log(`wrote ${openApiFile}`);
}
