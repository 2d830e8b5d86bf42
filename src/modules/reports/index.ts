// The reports area's public entry: what other areas, the demo seed and the CLI may use. Nothing yet:
// the reports are read over HTTP (test/platform/boundaries.test.ts holds the line).
export {};
