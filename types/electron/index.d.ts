// The `electron` module's types, from the copy of Electron's own declarations next to
// this file (electron.d.ts, the pinned version's, unchanged). Electron is an optional
// dependency that npm skips on Node < 22.12 (its installer needs 22.12); the Electron
// glue is type-checked against the same declarations either way. `npm run
// types:electron` refreshes the copy; src-main/electron/electron-types.test.ts checks
// that it matches the installed Electron.
// electron.d.ts is a global script (namespace Electron), not a module: only a reference brings it in.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./electron.d.ts" />
export = Electron.CrossProcessExports;
