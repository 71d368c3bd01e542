// A real Redis Cluster for one test file: `primaries` redis-servers with cluster mode on, each on a
// free loopback port in its own directory (support/redis-server.ts), joined by `redis-cli --cluster
// create` with the slots spread over them, and ready once every node says cluster_state:ok.
import { spawn } from 'node:child_process';
import { createClient } from 'redis';
import { startRedisServer, type RedisServer } from './redis-server.ts';

export interface RedisCluster {
  nodes: RedisServer[];
  /** The nodes' URLs, comma-separated: REDIS_URL with REDIS_CLUSTER=true. */
  seeds: string;
  stop(): Promise<void>;
}

function run(binary: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${binary} ${args.join(' ')} failed: ${output}`))));
  });
}

async function clusterState(url: string): Promise<string> {
  const client = createClient({ url });
  await client.connect();
  try {
    return String(await client.sendCommand(['CLUSTER', 'INFO']));
  } finally {
    client.destroy();
  }
}

/** `persistent`: AOF on (a killed node comes back with its data), as support/redis-server.ts. */
export async function startRedisCluster(primaries = 3, persistent = false): Promise<RedisCluster> {
  const nodes = await Promise.all(Array.from({ length: primaries }, () => startRedisServer({ persistent, config: { 'cluster-enabled': 'yes', 'cluster-node-timeout': '2000' } })));
  const stop = () => Promise.all(nodes.map((n) => n.stop())).then(() => undefined);
  try {
    await run('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes']);
    const deadline = Date.now() + 15_000;
    for (const node of nodes) {
      while (!(await clusterState(node.url)).includes('cluster_state:ok')) {
        if (Date.now() > deadline) throw new Error(`cluster node ${node.url} did not reach cluster_state:ok`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { nodes, seeds: nodes.map((n) => n.url).join(','), stop };
}
