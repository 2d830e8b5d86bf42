// A transition the spec lets a caller repeat, each time with an effect of its own: completing a
// repeating reminder or company follow-up moves it one round per completion, issuing an estimate
// again freezes one more version. Calls fired at once, a double click or a client retrying after a
// timeout would then move the record once per call, and neither engine can tell such a duplicate
// from a deliberate repeat by the state it finds (the first call has already committed).
//
// So a repeat that comes within REPEAT_WINDOW_MS of the transition it repeats, with nothing else
// changed on the record in between, is taken for that same call: it changes nothing and answers the
// record as the first call left it (docs/api-decisions.md, "Transitions take effect once"). A
// deliberate repeat after the window, or after any other change, takes effect as the spec says;
// so does completing a repeating reminder or follow-up whose next round has come due meanwhile.
import { millisOf, now } from './time.ts';

export const REPEAT_WINDOW_MS = 10_000;

/**
 * Whether a repeat of a transition last made at `lastAt` is a duplicate of it: the record has not
 * changed since (`changedAt`, its updated_at, is still the transition's own time) and the window
 * has not passed.
 */
export function isDuplicateRepeat(lastAt: string | null, changedAt: string, at: string = now()): boolean {
  return lastAt !== null && changedAt === lastAt && millisOf(at) - millisOf(lastAt) < REPEAT_WINDOW_MS;
}
