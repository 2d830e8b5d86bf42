// search_operations: finds operations by words, scored over their name, toolset, path and summary.
// The spec's words and the routes' differ in places (a customer is a client account, a site a
// location, a follow-up a task), so a few of the spec's words are read as the routes' too.
import type { Operation } from './operations.ts';

const ALSO: Record<string, string[]> = {
  customer: ['client account'],
  company: ['client account'],
  site: ['location'],
  property: ['location'],
  address: ['location'],
  followup: ['task'],
  follow: ['task'],
  reminder: ['task'],
  person: ['contact'],
  people: ['contact'],
  feed: ['event'],
  quote: ['estimate'],
  bid: ['estimate'],
  pipeline: ['job stage', 'move'],
  subscription: ['webhook'],
  price: ['recalculate'],
  send: ['issue'],
};

const singular = (word: string) =>
  word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;

export const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1)
    .map(singular);

interface Indexed {
  op: Operation;
  name: Set<string>;
  toolset: Set<string>;
  text: Set<string>;
}

export function indexOf(operations: readonly Operation[]): Indexed[] {
  return operations.map((op) => ({
    op,
    name: new Set(wordsOf(op.name)),
    toolset: new Set(wordsOf(op.toolset)),
    text: new Set(wordsOf(`${op.path} ${op.summary} ${op.description ?? ''}`)),
  }));
}

/** How well one word matches: fully in the name, less in the toolset, least in the text. */
function wordScore(entry: Indexed, word: string): number {
  if (entry.name.has(word)) return 3;
  if (entry.toolset.has(word)) return 2;
  return entry.text.has(word) ? 1 : 0;
}

/**
 * Each query word scores its best reading: itself, or (a little less) a phrase of the routes'
 * words it stands for, whose words must all match for full credit ("customer" is "client account").
 */
function scoreOf(entry: Indexed, query: string[][][]): number {
  let score = 0;
  for (const readings of query) {
    let best = 0;
    for (const [i, phrase] of readings.entries()) {
      const matched = phrase.reduce((sum, word) => sum + wordScore(entry, word), 0) / phrase.length;
      best = Math.max(best, i === 0 ? matched : 0.8 * matched);
    }
    score += best;
  }
  return score;
}

/** The best matches for `query`, best first (ties by name); none when no word matches. */
export function searchOperations(index: readonly Indexed[], query: string, limit: number): Operation[] {
  const words = wordsOf(query).map((word) => [[word], ...(ALSO[word] ?? []).map((phrase) => phrase.split(' '))]);
  if (!words.length) return [];
  return index
    .map((entry) => ({ op: entry.op, score: scoreOf(entry, words) }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.op.name.localeCompare(b.op.name))
    .slice(0, limit)
    .map((hit) => hit.op);
}

/**
 * Edit distance: the fewest one-character inserts, deletes, substitutions and swaps of two
 * neighbours that turn a into b (optimal string alignment; "jbo" is one edit from "job").
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    const above = rows[i - 1];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(above[j] + 1, row[j - 1] + 1, above[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2][j - 2] + 1);
      row[j] = best;
    }
    rows.push(row);
  }
  return rows[a.length][b.length];
}

/** Whether two words are the same but for one typo (words of four letters or more). */
const nearWord = (a: string, b: string) => a === b || (a.length >= 4 && b.length >= 4 && editDistance(a, b) <= 1);

/**
 * How much of two names' words match, 0 to 1: the share of the asked name's words found in the
 * operation's (as themselves, with one typo, or as the routes' phrase for a spec word: customer is
 * client account) averaged with the share of the operation's words so covered.
 */
function wordOverlap(asked: string[], words: string[]): number {
  const covered = new Set<string>();
  let found = 0;
  for (const a of asked) {
    const direct = words.filter((w) => nearWord(a, w));
    const phrase = (ALSO[a] ?? []).map((p) => p.split(' ')).find((p) => p.every((w) => words.includes(w)));
    const hit = direct.length > 0 ? direct : (phrase ?? []);
    if (hit.length === 0) continue;
    found++;
    for (const w of hit) covered.add(w);
  }
  if (asked.length === 0 || words.length === 0) return 0;
  return (found / asked.length + covered.size / words.length) / 2;
}

/** Edit distance at most this is a typo of a name (get_jobs or get_jbo for get_job, send_invoce for send_invoice). */
const TYPO = 1;

/**
 * For a name that is no operation's, the nearest of `names`, best first (at most `limit`). Names
 * a typo away, when there are any, are the answer. Otherwise names are scored by the words they
 * share (typos and the spec's words count: create_customer is near create_client_account) plus
 * their likeness over the whole name (1 less the edit distance over the longer length); a name
 * sharing no word and differing in more than a third of its characters is not near, nor one scoring
 * under three quarters of the best, so the answer is a few candidates and never the catalogue.
 */
export function nearestNames(names: readonly string[], asked: string, limit = 5): string[] {
  const wanted = asked.trim().toLowerCase();
  // No operation's name is near an empty one or one this long (and the distances would cost).
  if (!wanted || wanted.length > 100) return [];
  const askedWords = wordsOf(wanted);
  const candidates = names.map((name) => ({ name, distance: editDistance(wanted, name) }));
  const typos = candidates.filter((c) => c.distance <= TYPO);
  if (typos.length > 0) {
    return typos
      .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
      .slice(0, limit)
      .map((c) => c.name);
  }
  const scored = candidates.flatMap(({ name, distance }) => {
    const overlap = wordOverlap(askedWords, wordsOf(name));
    const longest = Math.max(wanted.length, name.length);
    if (overlap === 0 && distance > Math.floor(longest / 3)) return [];
    return [{ name, score: overlap + 1 - distance / longest }];
  });
  const best = Math.max(0, ...scored.map((s) => s.score));
  return scored
    .filter((s) => s.score >= 0.75 * best)
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((s) => s.name);
}
