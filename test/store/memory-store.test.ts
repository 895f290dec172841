/**
 * The Store contract against the in-memory store.
 */
import { createMemoryStore } from '../../src/index.js';
import { storeContract } from '../helpers/store-contract.js';

storeContract('memory store', async (options) => createMemoryStore(options));
