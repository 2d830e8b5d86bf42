// Settings tests set environment variables: this gives them a `set` that clears the named variables
// and sets the given ones, and puts every named variable back as it was after each test.
import { afterEach } from 'vitest';

export function envVars(names: readonly string[]): (vars: Record<string, string>) => void {
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  afterEach(() => {
    for (const n of names) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
  });
  return (vars) => {
    for (const n of names) delete process.env[n];
    Object.assign(process.env, vars);
  };
}
