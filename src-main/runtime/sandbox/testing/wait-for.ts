/** Retries `probe` every 200 ms until it resolves, or rethrows its error after `timeoutMs`. */
export async function waitFor(probe: () => Promise<unknown>, timeoutMs: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      await probe();
      return;
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
