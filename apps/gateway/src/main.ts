import { assertNodeVersion, stopOnSignals } from '@plink/platform';
import { describeConfig, loadConfig } from '@plink/config';
import { getLogger, initLogger, listenMetricsPort } from '@plink/observability';
import { createGateway } from './bootstrap';
import { demoSeedOn, tellLauncherDemoSignIn } from './demo-creator';

async function main() {
  assertNodeVersion();
  const config = loadConfig();
  initLogger({ level: config.logLevel, pretty: config.env === 'development', name: 'gateway' });
  const log = getLogger();
  log.info({ config: describeConfig(config) }, 'gateway starting');
  const app = await createGateway(config);
  // Before listening: npm start prints it with the "ready" line it writes once the port answers.
  if (demoSeedOn(config)) tellLauncherDemoSignIn(app);
  await app.listen({ port: config.port, host: config.host });
  log.info(`Plink is running at ${config.appOrigin} (listening on ${config.host}:${config.port})`);
  // HEALTH_PORT: /metrics for scrapers inside the network, apart from the public port (see listenMetricsPort).
  const metricsPort = config.healthPort === undefined ? undefined : await listenMetricsPort(config.healthPort, config.host, config.metricsToken);
  if (metricsPort) log.info({ port: config.healthPort }, 'gateway metrics on /metrics of HEALTH_PORT');
  // Within a bounded time even while Redis is unreachable (see stopOnSignals).
  stopOnSignals(
    log,
    'gateway',
    async () => {
      await app.close();
      metricsPort?.close();
      metricsPort?.closeAllConnections();
    },
    config.shutdownGraceMs,
  );
}

main().catch((err) => {
  getLogger().fatal({ err }, 'gateway failed to start');
  process.exit(1);
});
