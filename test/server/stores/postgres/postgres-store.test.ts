/**
 * The Postgres store against a real PostgreSQL 15 (test/support/postgres-server.ts): the whole store
 * contract, with the injected clock (the store keeps time on the companion's clock, as the file
 * store does), each case in a schema of its own on one database.
 */
import { after, before } from 'node:test';
import { createPostgresStore } from '../../../../src/server/stores/postgres/postgres-store.js';
import { createLogger } from '../../../../src/server/log.js';
import { runStoreContract } from '../../../../src/server/stores/store-contract.js';
import { seedPostgresStore } from '../../../support/seed-records.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../../../support/postgres-server.js';

let server: PostgresServer;
let url: string;
let schemas = 0;
const quiet = createLogger({ sink: () => {} });

before(async () => {
  server = await startPostgresServer();
  url = server.urlOf(createDatabase(server));
});

after(async () => {
  await server?.stop();
});

// The volume cases' 20,100 payments go in as one transaction of the store's own rows (seed-records.ts).
runStoreContract('postgres store', ({ now }) => createPostgresStore({ url, schema: `contract_${++schemas}`, now, log: quiet }), {
  seed: (_store, records) => seedPostgresStore(url, `contract_${schemas}`, records),
});
