/** The default in-memory store holds the `CheckoutStore` contract every store must hold. */
import { createMemoryStore } from '../../../../src/server/index.js';
import { runStoreContract } from '../../../../src/server/stores/store-contract.js';

runStoreContract('memory store', ({ now }) => createMemoryStore({ now }));
