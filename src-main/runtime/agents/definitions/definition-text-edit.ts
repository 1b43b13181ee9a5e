/**
 * The text a saved definition is written as, keeping what the user wrote in the file:
 * an agent file is theirs to edit by hand too, so saving from the editor or the
 * playground must not drop their comments, blank lines or key order. The file's text is
 * patched (`@decimalturn/toml-patch`, as config.toml's edits are) to the data the fields
 * say; the result is checked to parse to exactly the text `definitionToToml` would write,
 * and when it does not (a file that no longer parses, a value the patcher cannot write as
 * it was) that text is written instead: values right, comments lost.
 */
import { patch, TomlFormat } from '@decimalturn/toml-patch';
import { parse as parseToml } from 'smol-toml';
import type { AgentDefinitionData } from '@shared/domain/agent-definition';
import { definitionToToml } from './definition-toml';

type Table = Record<string, unknown>;

/** `data` as TOML text, in `previous`'s layout when there is one. */
export function definitionText(data: AgentDefinitionData, previous?: string): string {
  const fresh = definitionToToml(data);
  if (previous === undefined) return fresh;
  try {
    // what the fields say, as the fresh text parses (keys the editor does not know, such
    // as a typo in the file, are left out, as the fresh text leaves them out)
    const wanted = parseToml(fresh) as Table;
    parseToml(previous);
    const edited = patch(previous, wanted, TomlFormat.autoDetectFormat(previous));
    return sameData(parseToml(edited), wanted) ? edited : fresh;
  } catch {
    return fresh;
  }
}

function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameData((a as Table)[k], (b as Table)[k]));
}
