import { assertNodeVersion, describeConfig, getLogger, initLogger, loadConfig, stopOnSignals } from '@plink/platform';
import { createGateway } from './bootstrap';

async function main() {
  assertNodeVersion();
  const config = loadConfig();
  initLogger({ level: config.logLevel, pretty: config.env === 'development', name: 'gateway' });
  const log = getLogger();
  log.info({ config: describeConfig(config) }, 'gateway starting');
  const app = await createGateway(config);
  await app.listen({ port: config.port, host: config.host });
  log.info(`Plink is running at ${config.appOrigin} (listening on ${config.host}:${config.port})`);
  // Within a bounded time even while Redis is unreachable (see stopOnSignals).
  stopOnSignals(log, 'gateway', () => app.close(), config.shutdownGraceMs);
}

main().catch((err) => {
  getLogger().fatal({ err }, 'gateway failed to start');
  process.exit(1);
});
