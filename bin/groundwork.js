#!/usr/bin/env node
// The package's command: runs src/main.ts through tsx (serve, migrate, admin …).
import { register } from 'tsx/esm/api';
register();
await import('../src/main.ts');
