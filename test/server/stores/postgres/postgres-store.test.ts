/**
 * The Postgres store against a real PostgreSQL 15 (test/support/postgres-server.ts): the whole store
 * contract, with the injected clock (the store keeps time on the companion's clock, as the file
 * store does), each case in a schema of its own on one database.
 */
import { createPostgresStore } from '../../../../src/server/stores/postgres/postgres-store.js';
import { createLogger } from '../../../../src/server/log.js';
import { runStoreContract } from '../../../../src/server/stores/store-contract.js';
import { seedPostgresStore } from '../../../support/seed-records.js';
import { usePostgresDatabase } from '../../../support/postgres-server.js';

const postgres = usePostgresDatabase();

let schemas = 0;
const quiet = createLogger({ sink: () => {} });

// The volume cases' 20,100 payments go in as one transaction of the store's own rows (seed-records.ts).
runStoreContract('postgres store', ({ now }) => createPostgresStore({ url: postgres.url, schema: `contract_${++schemas}`, now, log: quiet }), {
  seed: (_store, records) => seedPostgresStore(postgres.url, `contract_${schemas}`, records),
});
