/**
 * `read_file` and `write_file`: whole-file reads and writes in the sandbox's workspace,
 * for clients that are not OpenManus agents (the sandbox MCP server, docs/mcp.md): they
 * expect plain file access beside `str_replace_editor`, whose `view` numbers the lines
 * and whose `create` refuses to overwrite. Same confinement and size cap as the editor;
 * contents move through the engine's archive API, never a shell command line.
 */
import { z } from 'zod';
import type { SandboxAccess } from './sandbox-access';
import { WorkspaceFiles } from './workspace-files';
import { fail, ok, type Tool } from '../tool';

const readSchema = z
  .object({
    path: z.string().describe('Path of the file, e.g. /workspace/main.py.'),
  })
  .strict();

const writeSchema = z
  .object({
    path: z.string().describe('Path of the file, e.g. /workspace/main.py.'),
    content: z.string().describe('The whole new content of the file (UTF-8 text).'),
  })
  .strict();

export function createReadFileTool(access: SandboxAccess): Tool<z.infer<typeof readSchema>> {
  return {
    name: 'read_file',
    description: `Read a UTF-8 text file of the sandbox workspace (${access.settings.work_dir}) as it is, without line numbers.`,
    schema: readSchema,
    async execute(args, context) {
      try {
        return await access.use(context.signal, async (sandbox, signal) => {
          const files = new WorkspaceFiles(sandbox, signal);
          const info = await files.probe(args.path);
          if (info.kind === 'missing') return fail(`The file ${info.path} does not exist.`);
          if (info.kind !== 'file') return fail(`${info.path} is not a regular file.`);
          return ok(await files.readText(info));
        });
      } catch (error) {
        return access.failureResult(error, { tool: 'read_file', step: context.step });
      }
    },
  };
}

export function createWriteFileTool(access: SandboxAccess): Tool<z.infer<typeof writeSchema>> {
  return {
    name: 'write_file',
    description: `Write a UTF-8 text file in the sandbox workspace (${access.settings.work_dir}), replacing it if it exists and creating missing folders.`,
    schema: writeSchema,
    async execute(args, context) {
      try {
        return await access.use(context.signal, async (sandbox, signal) => {
          const files = new WorkspaceFiles(sandbox, signal);
          const info = await files.probe(args.path);
          if (info.kind === 'directory' || info.kind === 'other') {
            return fail(`${info.path} is not a regular file.`);
          }
          await files.writeText(info, args.content, info.kind === 'file' ? info.mode : undefined);
          return ok(`Wrote ${Buffer.byteLength(args.content)} bytes to ${info.path}`);
        });
      } catch (error) {
        return access.failureResult(error, { tool: 'write_file', step: context.step });
      }
    },
  };
}
