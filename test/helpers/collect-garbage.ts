/**
 * A full garbage collection on demand, for tests that hold a WeakRef to what the code under
 * test should let go of: the flag is set at run time, so the test workers need no option.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
export const collectGarbage = runInNewContext('gc') as () => void;
