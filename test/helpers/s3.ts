// A real S3-protocol server for storage tests: s3rver in a child process on 127.0.0.1, a free
// port and a temporary directory, with the bucket made as it starts. Its fixed credentials are
// S3RVER / S3RVER.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { S3Settings } from '#platform/storage/s3.ts';

export interface LocalS3 {
  settings: S3Settings;
  close(): Promise<void>;
}

export async function startS3(bucket = 'groundwork-test'): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-s3-'));
  const child = fork(path.join(import.meta.dirname, 's3-process.ts'), [directory, bucket], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`s3rver exited with ${code} before listening`);
    }),
  ])) as [{ port: number }];
  return {
    settings: {
      endpoint: `http://127.0.0.1:${message.port}`,
      bucket,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    async close() {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill();
        await exited;
      }
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
