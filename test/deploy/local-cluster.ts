/**
 * deploy/local-cluster.sh as the tests run it: N replicas behind HAProxy on a free port; the
 * replicas' addresses and process ids come from the script's own output lines.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';

export const HAS_HAPROXY = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;

export interface Replica {
  name: string;
  url: string;
  pid: number;
}

export interface LocalCluster {
  url: string;
  replicas: Replica[];
  /** What the script, HAProxy and the replicas' startup wrote on stderr so far (a replica going down, say). */
  stderr(): string;
  /** SIGTERM to the script, which stops HAProxy and every replica still running. */
  stop(): Promise<void>;
}

/** `scriptArgs`: what goes between N and `--` (by default PORT 0, a free one). */
export async function startLocalCluster(
  count: number,
  emulatorFlags: string[] = [],
  scriptArgs: string[] = ['0'],
): Promise<LocalCluster> {
  const script = spawn('bash', ['deploy/local-cluster.sh', String(count), ...scriptArgs, '--', ...emulatorFlags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  script.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => script.once('exit', () => resolve()));
  const stop = async () => {
    if (script.exitCode === null && script.signalCode === null) script.kill('SIGTERM');
    await exited;
  };
  const replicas: Replica[] = [];
  const lines = createInterface({ input: script.stdout });
  const timer = setTimeout(() => script.kill('SIGTERM'), 30_000);
  try {
    for await (const line of lines) {
      const replica = /^(replica\d+) (http:\/\/\S+) pid (\d+)$/.exec(line);
      if (replica) replicas.push({ name: replica[1]!, url: replica[2]!, pid: Number(replica[3]) });
      const cluster = /^cluster listening on (http:\/\/\S+)/.exec(line);
      if (cluster) return { url: cluster[1]!, replicas, stderr: () => stderr, stop };
    }
    throw new Error(`deploy/local-cluster.sh ended before listening:\n${stderr}`);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once the process is gone (it is not this process's child, so polled). */
export async function stopProcess(pid: number): Promise<void> {
  process.kill(pid, 'SIGTERM');
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = performance.now() + 10_000;
  while (alive()) {
    if (performance.now() > deadline) throw new Error(`process ${pid} still runs 10 s after SIGTERM`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
