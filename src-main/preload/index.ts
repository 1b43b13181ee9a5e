/**
 * The preload bridge: exposes `window.workbench` with one named method per contract
 * entry and nothing generic (no ipcRenderer, no event objects reach the page).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { buildPreloadApi } from './build-api';

contextBridge.exposeInMainWorld('workbench', buildPreloadApi(ipcRenderer));
