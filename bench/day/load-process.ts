// bench/day.ts's side of the load process (load.ts): forked with tsx like the server, so the load
// and the server are two processes, as a real server and its callers are; one question at a time
// over the IPC channel.
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FromLoad, PhaseResult, PhaseWebhooks, ToLoad } from './load.ts';
import type { WorkspaceSize } from './mix.ts';
import type { ProvisionedWorkspace } from './provision.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export class LoadProcess {
  private readonly child: ChildProcess;
  private readonly waiting: ((m: FromLoad) => void)[] = [];
  private readonly exited: Promise<number | null>;

  constructor() {
    this.child = fork(path.join(here, 'load.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (m: FromLoad) => this.waiting.shift()?.(m));
    this.exited = new Promise((resolve) => this.child.once('exit', resolve));
    void this.exited.then((code) => {
      if (this.waiting.length > 0) console.error(`the load process exited (${code}) before answering`);
    });
  }

  /** The next message of the load process; rejects if it exits first. */
  private next<T extends FromLoad['type']>(type: T): Promise<Extract<FromLoad, { type: T }>> {
    return new Promise((resolve, reject) => {
      void this.exited.then((code) => reject(new Error(`the load process exited (${code})`)));
      this.waiting.push((m) =>
        m.type === type
          ? resolve(m as Extract<FromLoad, { type: T }>)
          : reject(new Error(`expected ${type}, got ${m.type}`)),
      );
    });
  }

  private tell(m: ToLoad): void {
    this.child.send(m);
  }

  async prepare(base: string, workspaces: ProvisionedWorkspace[], size: WorkspaceSize, seed: number) {
    const answer = this.next('prepared');
    this.tell({ type: 'prepare', base, workspaces, size, seed });
    return answer;
  }

  async grow(workspaces: ProvisionedWorkspace[]) {
    const answer = this.next('grown');
    this.tell({ type: 'grow', workspaces });
    return answer;
  }

  /** One phase; `onMeasuring` runs when its warm-up ends and the measured window starts. */
  async phase(
    p: { name: string; workspaces: number; warmupS: number; seconds: number; tour: boolean },
    onMeasuring: () => void,
  ): Promise<PhaseResult> {
    const measuring = this.next('measuring');
    const done = this.next('phase');
    this.tell({ type: 'phase', ...p });
    await measuring;
    onMeasuring();
    return (await done).result;
  }

  async finish(settleS: number): Promise<PhaseWebhooks[]> {
    const answer = this.next('finished');
    this.tell({ type: 'finish', settleS });
    const { webhooks } = await answer;
    await this.exited;
    return webhooks;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}
