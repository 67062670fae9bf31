/**
 * The one way the tests wait for a state nothing announces (a count another node publishes, a
 * queue that drains): polls `cond` until it holds, and throws, naming `what`, once `timeoutMs`
 * have passed without. A wait that ends on the state itself, never on the clock alone.
 */
export async function until(
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
