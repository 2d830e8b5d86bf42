// platform/work-queued.ts: a queue's listeners hear of a commit that queued work on it once, after
// the commit, and never for a rolled-back transaction or another queue.
import { describe, expect, it } from 'vitest';
import { runAfterCommit } from '#db/after-commit.ts';
import { whenWorkQueued, workQueuedIn } from '#platform/work-queued.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('workQueuedIn', () => {
  it('tells the queue’s listeners once per transaction, after its commit', async () => {
    const heard: string[] = [];
    const stopA = whenWorkQueued('test_runs', () => heard.push('runs'));
    const stopB = whenWorkQueued('test_mail', () => heard.push('mail'));
    try {
      const trx = { isTransaction: true };
      workQueuedIn(trx, 'test_runs');
      workQueuedIn(trx, 'test_runs');
      await turn();
      expect(heard).toEqual([]); // not before the commit
      runAfterCommit(trx);
      expect(heard).toEqual(['runs']);
    } finally {
      stopA();
      stopB();
    }
  });

  it('tells nobody for a transaction that never commits, and nobody after the unsubscribe', async () => {
    const heard: string[] = [];
    const stop = whenWorkQueued('test_exports', () => heard.push('exports'));
    workQueuedIn({ isTransaction: true }, 'test_exports'); // rolled back: inTransaction never runs it
    await turn();
    expect(heard).toEqual([]);
    stop();
    const trx = { isTransaction: true };
    workQueuedIn(trx, 'test_exports');
    runAfterCommit(trx);
    expect(heard).toEqual([]);
  });

  it('gives a queue’s listeners the latest due time the transaction gave it', async () => {
    const heard: (string | undefined)[] = [];
    const stop = whenWorkQueued('test_due', (dueAt) => heard.push(dueAt));
    try {
      const trx = { isTransaction: true };
      workQueuedIn(trx, 'test_due', '2026-12-01T06:00:00.000002');
      workQueuedIn(trx, 'test_due', '2026-12-01T06:00:00.000009');
      workQueuedIn(trx, 'test_due', '2026-12-01T06:00:00.000005');
      runAfterCommit(trx);
      const plain = { isTransaction: true };
      workQueuedIn(plain, 'test_due');
      runAfterCommit(plain);
      expect(heard).toEqual(['2026-12-01T06:00:00.000009', undefined]);
    } finally {
      stop();
    }
  });

  it('outside a transaction the write has committed: listeners hear it at once', async () => {
    const heard: string[] = [];
    const stop = whenWorkQueued('test_plain', () => heard.push('plain'));
    try {
      workQueuedIn({ isTransaction: false }, 'test_plain');
      workQueuedIn({ isTransaction: false }, 'test_plain');
      await turn();
      expect(heard).toEqual(['plain', 'plain']);
    } finally {
      stop();
    }
  });
});
