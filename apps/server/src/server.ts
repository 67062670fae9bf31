import { ConfigError, loadConfig } from './config.ts';
import { openConfigured } from './db/db.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  // The database starts first: the embedded one's thread spends a second or more starting its
  // WebAssembly, on the other core while this thread loads and builds the app.
  const opening = openConfigured(config);
  // A failure is the app's to report when it awaits the database, not an unhandled rejection
  // while the modules below still load.
  opening.catch(() => undefined);
  const { buildApp } = await import('./app.ts');
  const app = await buildApp(config, { opening });
  if (config.localSignInAnywhere) {
    app.log.warn(
      'ALLOW_LOCAL_SIGNIN is on: anyone who can reach this server can sign in as anyone, by name',
    );
  } else if (config.localSignIn) {
    app.log.info('local sign-in is on for this machine only (loopback, no GOOGLE_CLIENT_ID)');
  }
  if (config.demo) await (await import('./demo/seed.ts')).seedDemo(app);
  const stopSimulator = config.simulate
    ? (await import('./demo/simulator.ts')).startSimulator(app)
    : async () => undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took more than 10 s; exiting anyway');
      process.exit(1);
    }, 10_000);
    force.unref();
    // Fastify closes the connections idle when the drain starts; one whose last request
    // finishes during the drain would stay open as long as its client keeps it alive (minutes
    // for a browser) and hold the process until the forced exit.
    const reap = setInterval(() => app.server.closeIdleConnections(), 100);
    reap.unref();
    try {
      // The simulator's last tick ends before the database closes under it.
      await stopSimulator();
      await app.close();
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
    clearInterval(reap);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  console.log(`Sagan is running at http://${shownHost}:${port}/apps/sagan/`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
