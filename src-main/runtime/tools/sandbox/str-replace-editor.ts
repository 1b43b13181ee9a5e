/**
 * `str_replace_editor` (OpenManus tool/str_replace_editor.py) on the sandbox's
 * workspace: view with line numbers or a folder listing, create, unique-match
 * str_replace, insert after a line, and undo_edit. Paths are confined to the workspace
 * (also through symlinks); files move through archives, never a shell command line.
 * Undo history belongs to this tool instance, so agents never share it.
 */
import { z } from 'zod';
import type { SandboxAccess } from './sandbox-access';
import {
  catN,
  clip,
  countNewlines,
  insertAfter,
  replaceUnique,
  selectRange,
  snippetAround,
  numbered,
} from './editor-text';
import { WorkspaceFiles, type PathInfo } from './workspace-files';
import { fail, ok, type Tool, type ToolResult } from '../tool';

const COMMANDS = ['view', 'create', 'str_replace', 'insert', 'undo_edit'] as const;

const schema = z
  .object({
    command: z.enum(COMMANDS).describe('The command to run.'),
    path: z.string().describe('Path of the file or folder, e.g. /workspace/main.py.'),
    file_text: z.string().optional().describe('For create: the content of the new file.'),
    old_str: z
      .string()
      .optional()
      .describe('For str_replace: the exact text to replace; it must occur exactly once.'),
    new_str: z
      .string()
      .optional()
      .describe(
        'For str_replace: the replacement (default empty). For insert: the text to insert.',
      ),
    insert_line: z
      .number()
      .int()
      .optional()
      .describe('For insert: new_str is inserted after this line (0 = at the top).'),
    view_range: z
      .array(z.number().int())
      .length(2)
      .optional()
      .describe('For view of a file: [start, end] lines, 1-based; end -1 means to the end.'),
  })
  .strict();

type EditorArgs = z.infer<typeof schema>;

/** What undo_edit restores: the previous content, or "the file did not exist". */
type HistoryEntry = { text: string; mode: number } | { created: true };

export function createStrReplaceEditorTool(access: SandboxAccess): Tool<EditorArgs> {
  const history = new Map<string, HistoryEntry[]>();
  const remember = (path: string, entry: HistoryEntry) => {
    const list = history.get(path) ?? [];
    list.push(entry);
    history.set(path, list);
  };

  return {
    name: 'str_replace_editor',
    description: [
      'View, create and edit files in the sandbox workspace.',
      `* Paths are absolute (or relative to ${access.settings.work_dir}) and must stay inside ${access.settings.work_dir}.`,
      '* `view` on a file shows it with line numbers (like `cat -n`); on a folder it lists files up to 2 levels deep, without hidden ones.',
      '* `create` makes a new file (it refuses to overwrite an existing one).',
      '* `str_replace` replaces `old_str`, which must match exactly one place in the file, including whitespace.',
      '* `insert` adds `new_str` after line `insert_line`.',
      '* `undo_edit` reverts the last change this tool made to the file.',
      '* Long outputs are clipped and marked <response clipped>.',
    ].join('\n'),
    schema,
    async execute(args, context) {
      try {
        return await access.use(context.signal, async (sandbox, signal) => {
          const files = new WorkspaceFiles(sandbox, signal);
          const info = await files.probe(args.path);
          return await run(args, info, files);
        });
      } catch (error) {
        return access.failureResult(error, { tool: 'str_replace_editor', step: context.step });
      }
    },
  };

  async function run(args: EditorArgs, info: PathInfo, files: WorkspaceFiles): Promise<ToolResult> {
    const label = info.path;
    if (info.kind === 'other') return fail(`${label} is not a regular file or folder.`);
    if (args.command !== 'create' && info.kind === 'missing') {
      return fail(`The path ${label} does not exist. Please provide a valid path.`);
    }
    if (info.kind === 'directory' && args.command !== 'view') {
      return fail(
        `The path ${label} is a directory and only the \`view\` command can be used on directories.`,
      );
    }
    switch (args.command) {
      case 'view': {
        if (info.kind === 'directory') {
          if (args.view_range) {
            return fail(
              'The `view_range` parameter is not allowed when `path` points to a directory.',
            );
          }
          const listing = await files.listDirectory(info);
          return ok(
            clip(
              `Here's the files and directories up to 2 levels deep in ${label}, excluding hidden items:\n${listing}\n`,
            ),
          );
        }
        const text = await files.readText(info);
        if (!args.view_range) return ok(catN(text, label));
        const selected = selectRange(text, args.view_range as [number, number]);
        if ('error' in selected) return fail(selected.error);
        return ok(
          clip(
            `Here's the result of running \`cat -n\` on ${label}:\n${numbered(selected.lines, selected.first)}\n`,
          ),
        );
      }
      case 'create': {
        if (args.file_text === undefined) {
          return fail('Parameter `file_text` is required for command: create');
        }
        if (info.kind !== 'missing') {
          return fail(
            `File already exists at: ${label}. Cannot overwrite files using command \`create\`.`,
          );
        }
        await files.writeText(info, args.file_text);
        remember(info.real, { created: true });
        return ok(`File created successfully at: ${label}`);
      }
      case 'str_replace': {
        if (args.old_str === undefined) {
          return fail('Parameter `old_str` is required for command: str_replace');
        }
        const text = await files.readText(info);
        const newStr = args.new_str ?? '';
        const replaced = replaceUnique(text, args.old_str, newStr, label);
        if ('error' in replaced) return fail(replaced.error);
        await files.writeText(info, replaced.text, info.mode);
        remember(info.real, { text, mode: info.mode });
        return ok(
          `The file ${label} has been edited. ` +
            snippetAround(replaced.text, replaced.line, countNewlines(newStr), label) +
            'Review the changes and make sure they are as expected. Edit the file again if necessary.',
        );
      }
      case 'insert': {
        if (args.insert_line === undefined) {
          return fail('Parameter `insert_line` is required for command: insert');
        }
        if (args.new_str === undefined)
          return fail('Parameter `new_str` is required for command: insert');
        const text = await files.readText(info);
        const inserted = insertAfter(text, args.insert_line, args.new_str);
        if ('error' in inserted) return fail(inserted.error);
        await files.writeText(info, inserted.text, info.mode);
        remember(info.real, { text, mode: info.mode });
        return ok(
          `The file ${label} has been edited. ` +
            snippetAround(inserted.text, args.insert_line + 1, countNewlines(args.new_str), label) +
            'Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). ' +
            'Edit the file again if necessary.',
        );
      }
      case 'undo_edit': {
        const entry = history.get(info.real)?.pop();
        if (!entry) return fail(`No edit history found for ${label}.`);
        if ('created' in entry) {
          await files.remove(info);
          return ok(`Last edit to ${label} undone successfully: the file it created was removed.`);
        }
        await files.writeText(info, entry.text, entry.mode);
        return ok(`Last edit to ${label} undone successfully. ${catN(entry.text, label)}`);
      }
    }
  }
}
