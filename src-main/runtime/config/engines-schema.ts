/**
 * `[sandbox] engines` as config.toml may write it: each entry an address string or a
 * table (`url`, `cert_path`, `known_hosts`, `max_containers`), checked by
 * `parseEngineAddress` so a bad entry is refused with its index and what to write.
 */
import { z } from 'zod';
import { parseEngineAddress, type EngineEntry } from './engine-address';

/** One of `[sandbox] engines`: an address, or a table with its TLS folder and cap. */
const engineEntrySchema = z
  .union([
    z.string().trim().min(1),
    z
      .object({
        url: z.string().trim().min(1),
        cert_path: z.string().trim().min(1).optional(),
        known_hosts: z.string().trim().min(1).optional(),
        max_containers: z.number().int().min(1).max(1000).optional(),
      })
      .strict(),
  ])
  .transform((entry): EngineEntry => (typeof entry === 'string' ? { url: entry } : entry))
  .superRefine((entry, ctx) => {
    const address = parseEngineAddress(entry);
    if (typeof address === 'string') ctx.addIssue({ code: 'custom', message: address });
  });

/**
 * the engines sandboxes are spread over, by free capacity (issue 18); empty: the one
 * DOCKER_HOST names, else the local socket
 */
export const enginesSchema = z
  .array(engineEntrySchema)
  .max(32)
  .default([])
  .superRefine((entries, ctx) => {
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      if (seen.has(entry.url)) {
        ctx.addIssue({
          code: 'custom',
          path: [index],
          message: `${entry.url} is listed twice`,
        });
      }
      seen.add(entry.url);
    });
  });
