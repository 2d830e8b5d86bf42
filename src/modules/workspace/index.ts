// The workspace area's public entry: what other areas, the demo seed and the CLI may use. Everything
// else under src/modules/workspace/ is the area's own (test/platform/boundaries.test.ts holds the line).

export { findActiveUser } from './users/repo.ts';
export { userObject, UserSchema } from './users/serialize.ts';
