/**
 * Audio fingerprints: a headless AudioContext reports no output latency, and an
 * OfflineAudioContext renders bit-identical samples on every server of a build. Latency reads as
 * a desktop's, and rendered samples carry a tiny offset chosen from the tab's secret.
 */
import type { StealthPatch } from './types.js';

export const audio: StealthPatch = (u, o, win) => {
  const ac = win.AudioContext?.prototype;
  if (ac) {
    u.replaceGetter(ac, 'baseLatency', (_self, native) => (native() as number) || 0.01);
    u.replaceGetter(ac, 'outputLatency', (_self, native) => (native() as number) || 0.04);
  }
  const offline = win.OfflineAudioContext?.prototype;
  const buffer = win.AudioBuffer?.prototype;
  if (!offline || !buffer) return;
  let seed = 7;
  for (let i = 0; i < o.secret.length; i++) seed = (Math.imul(seed, 33) + o.secret.charCodeAt(i)) | 0;
  const offset = ((seed >>> 0) % 1000) * 1e-9 + 1e-7;
  const rendered = new WeakSet<object>();
  u.replaceMethod(offline, 'startRendering', (native, self, args) =>
    (u.apply(native, self, args) as Promise<AudioBuffer>).then((b) => {
      rendered.add(b);
      return b;
    }),
  );
  const touched = new WeakSet<object>();
  u.replaceMethod(buffer, 'getChannelData', (native, self, args) => {
    const data = u.apply(native, self, args) as Float32Array;
    if (rendered.has(self as object) && !touched.has(data)) {
      touched.add(data);
      for (let i = 0; i < data.length; i += 100) data[i] = data[i]! + offset;
    }
    return data;
  });
};
