// Runs before every test file (vitest.config.ts `setupFiles`). The files of a worker share its
// modules (`isolate: false`: importing the app once per worker rather than once per file is most
// of what the suite saved), so what a file sets process-wide is undone here, and each file starts
// as it would in a process of its own: the system clock (a file may pause it or move it days
// ahead), no area list installed (a file may install its own, with a stand-in area), and no keys
// remembered (the memo is keyed by the key, which is random, so this is only belt and braces).
import { uninstallAreasForTests } from '#src/area.ts';
import { invalidateAuthCache } from '#platform/auth-cache.ts';
import { resetClockForTests } from '#platform/time.ts';

resetClockForTests();
uninstallAreasForTests();
invalidateAuthCache();
