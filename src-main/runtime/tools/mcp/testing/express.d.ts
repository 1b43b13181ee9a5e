/**
 * The part of express the auth test servers use (auth-mcp-servers.ts). express comes with
 * the MCP SDK (its server-side auth is express middleware) but without its types, and
 * the project does not otherwise depend on it.
 */
declare module 'express' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';

  export interface Request extends IncomingMessage {
    body?: unknown;
    path: string;
    query: Record<string, unknown>;
    header(name: string): string | undefined;
  }
  export interface Response extends ServerResponse {
    status(code: number): Response;
    json(body: unknown): Response;
    redirect(url: string): void;
  }
  export type NextFunction = (error?: unknown) => void;
  export type RequestHandler = (req: Request, res: Response, next: NextFunction) => void;
  export interface Express {
    use(...handlers: RequestHandler[]): Express;
    get(path: string, ...handlers: RequestHandler[]): Express;
    post(path: string, ...handlers: RequestHandler[]): Express;
    delete(path: string, ...handlers: RequestHandler[]): Express;
    listen(port: number, host: string, ready: () => void): Server;
  }
  interface ExpressModule {
    (): Express;
    json(): RequestHandler;
  }
  const express: ExpressModule;
  export default express;
}
