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
