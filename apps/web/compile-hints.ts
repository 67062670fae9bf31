// V8's explicit compile hint, shared by the build that writes it (vite.config.ts compileHints)
// and the benchmark smoke that checks a fan's first load carries it (bench/web.ts).

/** First in a chunk, it asks V8 (Chromium 136+) to compile the whole file as it streams in. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/**
 * Smaller chunks compile lazily in well under a millisecond; the hint's bytes (≈ 25 on the wire
 * a file) would cost more than it saves, and a fan's first load is a dozen such files.
 */
export const EAGER_MIN_BYTES = 8 * 1024;
