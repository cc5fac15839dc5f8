// The snapshot schemas of refresh-options-schema tied to the arguments they check: a key or type added to one
// alone fails the build. Apart from the schema file so that neither imports the other's module (no cycle).
import type { SchemaFor } from '../util/index.js';
import type { snapshotInfoSchema, snapshotQuerySchema } from './refresh-options-schema.js';
import type { listSnapshots, saveSnapshot } from './snapshot-store.js';

export const SNAPSHOT_QUERY_MATCH: SchemaFor<NonNullable<Parameters<typeof listSnapshots>[1]>, typeof snapshotQuerySchema> = true;
export const SNAPSHOT_INFO_MATCH: SchemaFor<Parameters<typeof saveSnapshot>[3], typeof snapshotInfoSchema> = true;
