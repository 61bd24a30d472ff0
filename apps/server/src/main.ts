import { DEMO_ACCESS_CODES, DEMO_APP_NAME, DEMO_CAMPAIGN_SLUG, DEMO_GATE_SLUG, DEMO_RELEASE_SLUG } from './cms/demoCampaign.ts';
import { DEFAULT_ADMIN_EMAIL } from './cms/users/bootstrap.ts';
import { loadConfig } from './platform/config.ts';
import { createLogger } from './platform/logger.ts';
import { startServer, type Surface } from './server.ts';

/** `npm start` entry: both surfaces, or one with `--only party|cms`. */
async function main(): Promise<void> {
  const onlyArg = process.argv.find((a) => a.startsWith('--only'));
  const only = (onlyArg?.split('=')[1] ?? process.argv[process.argv.indexOf('--only') + 1]) as Surface | undefined;
  if (onlyArg && only !== 'party' && only !== 'cms') throw new Error('--only takes party or cms');
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const server = await startServer(config, { only: onlyArg ? only : undefined, logger });

  const lines = ['', `Fanfare is running${config.production ? ' in production mode' : ''}:`];
  if (server.urls.party) {
    lines.push(`  Listening party${config.demo.seed ? ' (demo)' : '       '}:  ${server.urls.party}/`);
    lines.push(`  Party API docs:          ${server.urls.party}/docs`);
    // The proxy's target for upgrades (deploy/nginx): the party's own address is for its HTTP only.
    if (server.urls.sockets) lines.push(`  Socket upgrades:         ${server.urls.sockets}/ (SOCKET_PORT)`);
  }
  if (server.urls.cms) {
    lines.push(`  CMS API:                 ${server.urls.cms}/`);
    lines.push(`  CMS API docs:            ${server.urls.cms}/docs`);
    lines.push(`  Back office:             ${server.urls.cms}/admin/`);
    lines.push(`    first admin:           ${config.cms.adminEmail ?? DEFAULT_ADMIN_EMAIL}, ${config.cms.adminPassword ? 'password from ADMIN_PASSWORD' : 'password printed above on the first start'}`);
    if (config.demo.seed) lines.push(`  Demo campaign page:      ${server.urls.cms}/c/${DEMO_APP_NAME}/${DEMO_CAMPAIGN_SLUG}`);
    if (config.demo.seed) lines.push(`  Demo release page:       ${server.urls.cms}/c/${DEMO_APP_NAME}/${DEMO_RELEASE_SLUG}`);
    if (config.demo.seed) lines.push(`  Demo token gate:         ${server.urls.cms}/c/${DEMO_APP_NAME}/${DEMO_GATE_SLUG}  codes: ${DEMO_ACCESS_CODES.join(', ')}`);
  }
  lines.push(`  Database:                ${config.databaseUrl.replace(/\/\/[^@]*@/, '//***@')}`);
  lines.push(`  Providers:               spotify ${config.emulators.spotify ? 'emulator' : 'live'}, apple ${config.emulators.apple ? 'emulator' : 'live'}`);
  process.stdout.write(lines.join('\n') + '\n\n');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
