/**
 * A view read again whenever a push says its data moved, with at most one request in
 * flight: pushes that arrive meanwhile ask for one more read after it, not one each (a
 * batch's progress pushes come faster than its grid or report is read).
 */
export function coalescedReload(read: () => Promise<void>, isLive: () => boolean): () => void {
  let inFlight = false;
  let again = false;
  const reload = (): void => {
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    void read().finally(() => {
      inFlight = false;
      if (again && isLive()) {
        again = false;
        reload();
      }
    });
  };
  return reload;
}
