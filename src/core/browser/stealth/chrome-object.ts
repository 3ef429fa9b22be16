/** window.chrome with app, csi and loadTimes when the browser left it out (the old headless shell). */
import type { StealthPatch } from './types.js';

export const chromeObject: StealthPatch = (u, _o, win) => {
  if (win.chrome) return;
  const start = Date.now();
  const fn = (name: string, impl: () => unknown) => u.fabricate(name, () => impl());
  const chrome = {
    app: {
      isInstalled: false,
      InstallState: { DISABLED: 'disabled', INSTALLED: 'installed', NOT_INSTALLED: 'not_installed' },
      RunningState: { CANNOT_RUN: 'cannot_run', READY_TO_RUN: 'ready_to_run', RUNNING: 'running' },
      getDetails: fn('getDetails', () => null),
      getIsInstalled: fn('getIsInstalled', () => false),
    },
    csi: fn('csi', () => ({ onloadT: start, startE: start, pageT: Date.now() - start, tran: 15 })),
    loadTimes: fn('loadTimes', () => ({
      requestTime: start / 1000,
      startLoadTime: start / 1000,
      commitLoadTime: start / 1000,
      finishDocumentLoadTime: 0,
      finishLoadTime: 0,
      firstPaintTime: 0,
      firstPaintAfterLoadTime: 0,
      navigationType: 'Other',
      wasFetchedViaSpdy: false,
      wasNpnNegotiated: false,
      npnNegotiatedProtocol: 'unknown',
      wasAlternateProtocolAvailable: false,
      connectionInfo: 'http/1.1',
    })),
  };
  Object.defineProperty(win, 'chrome', {
    value: chrome,
    writable: true,
    configurable: false,
    enumerable: true,
  });
};
