/**
 * Values OpenManus's example configs ship as placeholders (issue 26 item 10). Imported as
 * they were, `api_key = "YOUR_API_KEY"` was stored as a secret (so `config show` said runs
 * used the real model, which then answered 401), and the Azure example's
 * `base_url = "{YOUR_AZURE_ENDPOINT…}/openai/deployments/{AZURE_DEPLOYMENT_ID}"` failed the
 * URL check, was dropped, and left the profile pointing at api.openai.com.
 */

/**
 * A key that is an instruction, not a key: real keys have no spaces or braces and do not
 * spell out "api key" or "your …" ("YOUR_API_KEY", "AZURE API KEY", "your Jiekou.AI api
 * key", "sk-...", "<key>").
 */
export function isPlaceholderKey(value: string): boolean {
  const key = value.trim();
  return (
    /\s/.test(key) ||
    /[{}<>]/.test(key) ||
    /^your[_-]?/i.test(key) ||
    /api[_-]?key/i.test(key) ||
    /^(sk-)?(x+|\.+|\*+)$/i.test(key) ||
    /^(sk-)?\.\.\.$/.test(key)
  );
}

/** A URL with template parts left in (`{YOUR_AZURE_ENDPOINT…}`, `<host>`, `YOUR_…`). */
export function isPlaceholderUrl(value: string): boolean {
  return /[{}<>]/.test(value) || /YOUR[_-]/i.test(value);
}
