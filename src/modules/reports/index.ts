// The reports area's public entry: what other areas, the demo seed, the CLI and tests outside the
// HTTP API may use. The reports themselves are read over HTTP; the two query helpers below are named
// here for their own tests (test/reports/bucket.test.ts, unread-joins.nodb.test.ts), which check
// them against the database and the compiled SQL (test/platform/boundaries.nodb.test.ts holds the line).
export { bucketOf } from './bucket.ts';
export { DropUnreadJoins } from './unread-joins.ts';
