// `npm run mutate:validation`: the mutation run of one module; stryker.config.mjs says what it mutates and runs.
import { mutationConfig } from './stryker.config.mjs';

export default mutationConfig('validation');
