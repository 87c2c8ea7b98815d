/** Two companion processes on one PostgreSQL database, with no Redis (the suite: two-processes-suite.ts). */
import { startSharedPostgres } from '../support/shared-stores.js';
import { twoProcessesOn } from './two-processes-suite.js';

twoProcessesOn('PostgreSQL', startSharedPostgres);
