/**
 * Header edits from Settings → MCP (`McpHeaderEdit` per header) into what config.toml
 * keeps: `secret:mcp.SERVER.HEADER` for a value typed in (the value goes to the secret
 * store), `env:VAR` for one read from the environment, the saved reference for a header
 * left as it was. For a connection test the typed value is used as is, in memory only.
 */
import { headerNameProblem, headerSecretName, type McpHeaderEdit } from '@shared/mcp-headers';
import { SECRET_REF_PREFIX } from './secrets';

export interface HeaderPlan {
  /** NAME -> what config.toml holds (or, for a test, the value itself when typed) */
  headers: Record<string, string>;
  /** secret store entries to write before config.toml */
  store: { name: string; value: string }[];
  /** secret store entries no longer referenced, removed after config.toml is written */
  drop: string[];
}

export class HeaderEditError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

export function planHeaderEdits(
  server: string,
  edits: Record<string, McpHeaderEdit> | undefined,
  saved: Record<string, string> | undefined,
  mode: 'save' | 'test',
): HeaderPlan {
  const plan: HeaderPlan = { headers: {}, store: [], drop: [] };
  const seen = new Set<string>();
  for (const [name, edit] of Object.entries(edits ?? {})) {
    const path = `mcp.servers.${server}.headers.${name}`;
    const problem = headerNameProblem(name);
    if (problem) throw new HeaderEditError(path, problem);
    if (seen.has(name.toLowerCase())) {
      throw new HeaderEditError(path, `"${name}" is given twice (header names ignore case)`);
    }
    seen.add(name.toLowerCase());
    if (edit.action === 'set') {
      if (!edit.value) throw new HeaderEditError(path, 'the value is empty');
      if (/[\r\n]/.test(edit.value)) {
        throw new HeaderEditError(path, 'the value must be one line');
      }
      const secret = headerSecretName(server, name);
      if (mode === 'test') plan.headers[name] = edit.value;
      else {
        plan.store.push({ name: secret, value: edit.value });
        plan.headers[name] = `${SECRET_REF_PREFIX}${secret}`;
      }
    } else if (edit.action === 'env') {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(edit.name)) {
        throw new HeaderEditError(path, `"${edit.name}" is not an environment variable name`);
      }
      plan.headers[name] = `env:${edit.name}`;
    } else {
      const ref = saved?.[name];
      if (!ref) throw new HeaderEditError(path, 'it has no saved value yet: type one');
      plan.headers[name] = ref;
    }
  }
  for (const [name, ref] of Object.entries(saved ?? {})) {
    const secret = headerSecretName(server, name);
    if (ref === `${SECRET_REF_PREFIX}${secret}` && plan.headers[name] !== ref) {
      if (!plan.store.some((s) => s.name === secret)) plan.drop.push(secret);
    }
  }
  return plan;
}
