import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { CONFIGURATION_DOC_FILE, ENV_EXAMPLE_FILE, REPO_ROOT, configSections, renderConfigurationDoc, renderEnvExample } from './config-docs';

/** `npm run build` (the config lib's build, after tsc): writes docs/configuration.md and .env.example from the config schema. */
const sections = configSections();
writeFileSync(CONFIGURATION_DOC_FILE, renderConfigurationDoc(sections));
writeFileSync(ENV_EXAMPLE_FILE, renderEnvExample(sections));
const count = sections.reduce((n, s) => n + s.variables.length, 0);
console.log(`wrote ${relative(REPO_ROOT, CONFIGURATION_DOC_FILE)} and ${relative(REPO_ROOT, ENV_EXAMPLE_FILE)} (${count} variables)`);
