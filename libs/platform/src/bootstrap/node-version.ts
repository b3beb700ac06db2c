/** Fails fast, with a clear message, on a Node older than the one Plink is built for. */
export function assertNodeVersion(minMajor = 24): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < minMajor) {
    process.stderr.write(
      `Plink needs Node ${minMajor} or newer (found ${process.version}). Run it through npm scripts, which use the Node ${minMajor} from node_modules/.bin.\n`,
    );
    process.exit(1);
  }
}
