// Preloaded into every measured server: SIGUSR2 runs a full garbage collection, so the
// benchmark reads memory per viewer without the noise of garbage not yet collected.
process.on('SIGUSR2', () => globalThis.gc?.());
