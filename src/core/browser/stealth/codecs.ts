/** H.264 and AAC play, as in Chrome (some Chromium builds answer "" for proprietary codecs). */
import type { StealthPatch } from './types.js';

export const codecs: StealthPatch = (u, _o, win) => {
  const PROPRIETARY = /^(video\/mp4|audio\/mp4|audio\/aac|audio\/x-m4a|audio\/mpeg)\b|avc1|mp4a/i;
  if (win.HTMLMediaElement) {
    u.replaceMethod(win.HTMLMediaElement.prototype, 'canPlayType', (native, self, args) => {
      const answer = u.apply(native, self, args) as string;
      return answer === '' && PROPRIETARY.test(String(args[0])) ? 'probably' : answer;
    });
  }
  if (win.MediaSource && typeof win.MediaSource.isTypeSupported === 'function') {
    u.replaceMethod(win.MediaSource, 'isTypeSupported', (native, self, args) => {
      const answer = u.apply(native, self, args) as boolean;
      return answer || PROPRIETARY.test(String(args[0]));
    });
  }
};
