import { assertNodeVersion, describeConfig, getLogger, initLogger, loadConfig } from '@plink/platform';
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

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'gateway stopping');
    await app.close();
    log.info('gateway stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  getLogger().fatal({ err }, 'gateway failed to start');
  process.exit(1);
});
