// Each schema of open-ledger-schema tied to the interface it mirrors: a key or type added to one alone fails the
// build. Apart from the schema file so that neither imports the other's module (no cycle).
import type { SchemaFor } from '../util/index.js';
import type { OpenLedgerOptions } from './open-ledger.js';
import type { optionsSchema } from './open-ledger-schema.js';

export const OPEN_LEDGER_OPTIONS_MATCH: SchemaFor<OpenLedgerOptions, typeof optionsSchema> = true;
