// What every area's table types share. Conventions on both engines:
// - timestamps are TEXT in the fixed UTC form `YYYY-MM-DDTHH:MM:SS.ffffff`, so they sort and
//   compare as strings identically on SQLite and PostgreSQL (see platform/time.ts);
// - booleans are INTEGER 0/1 (Flag); JSON documents are TEXT; money is integer cents.

/** A boolean column: 0 or 1 on both engines. */
export type Flag = 0 | 1;

/** A boolean as its column stores it. */
export const flag = (on: boolean): Flag => (on ? 1 : 0);
