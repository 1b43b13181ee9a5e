/**
 * Is the model's endpoint there? One `GET {base_url}/models` with a short deadline: no
 * tokens spent, and any HTTP answer proves the server is reachable. A refused key is
 * said; a server without `/models` (some proxies) still counts as reachable. The key is
 * never part of the answer.
 */
import type { LlmProfile } from '../config/schema';

export interface ModelProbe {
  status: 'ok' | 'warn';
  message: string;
}

export async function probeModelEndpoint(
  profile: LlmProfile,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ModelProbe> {
  const url = `${profile.baseUrl.replace(/\/+$/, '')}/models`;
  const started = Date.now();
  const deadline = AbortSignal.timeout(options.timeoutMs ?? 3000);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  try {
    const response = await fetch(url, {
      headers: profile.apiKey
        ? { authorization: `Bearer ${profile.apiKey}`, 'api-key': profile.apiKey }
        : {},
      signal,
    });
    await response.body?.cancel().catch(() => undefined);
    const ms = Date.now() - started;
    if (response.status === 401 || response.status === 403) {
      return {
        status: 'warn',
        message: `${profile.baseUrl} refused the API key (HTTP ${response.status}): model calls will fail`,
      };
    }
    return {
      status: 'ok',
      message: `${profile.model} at ${profile.baseUrl} is reachable (HTTP ${response.status}, ${ms} ms)`,
    };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const reason = deadline.aborted
      ? `no answer within ${Math.round((options.timeoutMs ?? 3000) / 1000)} s`
      : describeFetchError(error);
    return { status: 'warn', message: `${profile.baseUrl} cannot be reached (${reason})` };
  }
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
