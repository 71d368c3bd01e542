// `npm run simulator`: the simulator on its own, for trying the relay against it by hand.
// Prints one JSON line with its URL, project id and key (the key only when it is the built-in
// development key: a key from the environment is never printed), then JSON log lines.
// SIGTERM/SIGINT close it gracefully.
import { DEFAULTS } from './assumptions.ts';
import { EnvError, readEnv } from './env.ts';
import { startSimulator } from './simulator.ts';

const write = (line: object) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);

async function main(): Promise<void> {
  let config: ReturnType<typeof readEnv>;
  try {
    config = readEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`simulator: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  const sim = await startSimulator({ ...config.options, port: config.port, host: config.host, log: write });
  if (config.scheme) sim.routing.configure(config.scheme);
  write({
    msg: 'simulator listening',
    url: sim.url,
    projectId: sim.projectId,
    authKey: sim.authKey === DEFAULTS.authKey ? sim.authKey : '(from SIMULATOR_AUTH_KEY)',
    officeLine: sim.officeLine,
    agents: sim.agents.list().map((a) => a.login),
    routing: config.scheme ? { method: sim.routing.scheme?.method, submission: config.scheme.submission, import: config.scheme.import } : null,
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    write({ msg: 'simulator stopping', signal });
    const force = setTimeout(() => process.exit(1), 5_000);
    force.unref();
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`simulator: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
