// Preloaded into the CLI by bench/long-session.mjs (`--expose-gc --import`): on SIGUSR2 it
// collects garbage and prints the live heap to stderr, so the bench can tell retained memory
// from memory V8 simply has not handed back yet. Not part of the product.
process.on("SIGUSR2", () => {
  globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  process.stderr.write(`heap-probe ${heapUsed} ${rss}\n`);
});
