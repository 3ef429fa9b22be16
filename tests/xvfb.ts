/**
 * An Xvfb of the test's own, on a display number the X server picks (`-displayfd`): a fixed number
 * collides with a second copy of the suite running beside this one (its Xvfb would serve both, and
 * its exit would take the other copy's windows with it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { scaled } from './scale.js';

export interface Xvfb {
  /** ":N", for DISPLAY. */
  display: string;
  proc: ChildProcess;
  stop(): void;
}

export function startXvfb(screen = '1400x1000x24'): Promise<Xvfb> {
  // fd 3: where Xvfb writes the display number it took, once it accepts connections
  const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', screen, '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`Xvfb did not start: ${err}`)), scaled(15_000));
    const fail = (e: Error) => {
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(e);
    };
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    proc.once('error', fail);
    proc.once('exit', (code) => fail(new Error(`Xvfb exited (code ${code}): ${err}`)));
    (proc.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      out += d.toString();
      const n = /^(\d+)\n/.exec(out)?.[1];
      if (n === undefined) return;
      clearTimeout(timer);
      proc.removeAllListeners('exit');
      resolve({ display: `:${n}`, proc, stop: () => void proc.kill('SIGTERM') });
    });
  });
}
