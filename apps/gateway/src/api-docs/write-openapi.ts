import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { OPENAPI_FILE, REPO_ROOT, generateApiDocument, renderApiDocument } from './api-docs';

/** `npm run build` (the gateway's build, after tsc): writes docs/openapi.json from the code. */
async function main() {
  const document = await generateApiDocument();
  mkdirSync(dirname(OPENAPI_FILE), { recursive: true });
  writeFileSync(OPENAPI_FILE, renderApiDocument(document));
  const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  console.log(`wrote ${relative(REPO_ROOT, OPENAPI_FILE)} (${operations} operations)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
