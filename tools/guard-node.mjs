// Fails fast when a script runs on a Node older than 24 (how that happens: docs/toolchain-notes.md).
// Plain JavaScript that any Node version can parse.
const major = Number(process.versions.node.split('.')[0]);
if (!(major >= 24)) {
  console.error(
    `Plink needs Node 24 or newer (found ${process.version}). Run it through npm scripts, which use the Node 24 from node_modules/.bin, or run \`npm ci\` first.`,
  );
  process.exit(1);
}
