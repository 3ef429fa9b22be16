// Install what a fresh Debian machine lacks for brow: Chromium (and ffmpeg, Xvfb for recording and
// headful tests, nats-server for the cluster tests) via apt-get when we are root; otherwise say
// exactly what to install. Never downloads a browser from anywhere else.
import { execSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const has = (cmd) => {
  try {
    execSync(`command -v ${cmd}`, { stdio: 'ignore', shell: '/bin/sh' });
    return true;
  } catch {
    return false;
  }
};
const executable = (p) => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const chrome =
  [process.env.BROW_CHROME, process.env.CHROME_PATH, process.env.PUPPETEER_EXECUTABLE_PATH].find(
    (p) => p && executable(p),
  ) ||
  [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ].find(executable);

const wanted = [];
if (!chrome) wanted.push('chromium');
if (!has('ffmpeg')) wanted.push('ffmpeg');
if (!has('Xvfb')) wanted.push('xvfb');
// the cluster tests (tests/cluster) start a real NATS server; Debian installs it in /usr/sbin
if (!has('nats-server') && !executable('/usr/sbin/nats-server')) wanted.push('nats-server');
if (!has('fc-list') || !execSync('fc-list 2>/dev/null || true', { shell: '/bin/sh' }).toString().trim())
  wanted.push('fonts-liberation');

if (wanted.length === 0) process.exit(0);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && has('apt-get')) {
  console.log(`brow setup: installing ${wanted.join(', ')} with apt-get…`);
  execSync('apt-get update -qq', { stdio: 'inherit' });
  execSync(
    `DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${wanted.join(' ')}`,
    {
      stdio: 'inherit',
      shell: '/bin/sh',
    },
  );
} else if (!chrome) {
  console.error(
    'brow needs Chromium or Chrome. Install it (Debian/Ubuntu: sudo apt-get install chromium; macOS: install Google Chrome),\n' +
      'or point BROW_CHROME at an existing binary. Optional: ffmpeg (recording), Xvfb (headful sessions without a desktop),\n' +
      'nats-server (the cluster tests).',
  );
  process.exit(1);
} else {
  console.log(
    `brow setup: optional tools missing (${wanted.join(', ')}); recording or headful tests may be skipped.`,
  );
}
