/**
 * permissions.query({name: "notifications"}) agrees with Notification.permission. Old headless
 * answered "prompt" there while Notification.permission said "denied": a classic tell.
 */
import type { StealthPatch } from './types.js';

export const permissions: StealthPatch = (u, _o, win) => {
  if (!win.Permissions || !win.Notification) return;
  u.replaceMethod(win.Permissions.prototype, 'query', (native, self, args) => {
    const result = u.apply(native, self, args) as Promise<PermissionStatus>;
    const desc = args[0] as { name?: unknown } | undefined;
    if (!desc || desc.name !== 'notifications') return result;
    return result.then((status) => {
      const wanted = win.Notification.permission === 'default' ? 'prompt' : win.Notification.permission;
      if (status.state !== wanted)
        Object.defineProperty(status, 'state', { get: () => wanted, configurable: true });
      return status;
    });
  });
};
