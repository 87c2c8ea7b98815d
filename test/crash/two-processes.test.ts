/** Two companion processes on one Redis (the suite: two-processes-suite.ts). */
import { startSharedRedis } from '../support/shared-stores.js';
import { twoProcessesOn } from './two-processes-suite.js';

twoProcessesOn('Redis', startSharedRedis);
