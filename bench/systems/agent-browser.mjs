// agent-browser (Vercel Labs), driven through its CLI, one process per command, as an
// agent runs it from a shell.
//
// Install notes: the npm package ships prebuilt native binaries in bin/ (the postinstall
// script only downloads one when it is missing, and npm does not run it here anyway:
// it is not in allowScripts). We run bin/agent-browser-linux-x64 directly; the
// bin/agent-browser.js wrapper would pick the same file (the package declares
// node >= 24 but the native binary does not care).
//
// Flags (from `agent-browser --help` of the pinned version):
//   --executable-path /usr/bin/chromium
//   --args "--no-sandbox,…"           root needs no sandbox; closed-network args
//   --namespace/--session             a private daemon for this bench run
// Environment:
//   HOME=<temp dir>                   its sockets, pid files and Chromium profile stay there
//   AGENT_BROWSER_NO_VERSION_CHECK=1  it would fetch a release page (closed network)
//   AGENT_BROWSER_IDLE_TIMEOUT_MS     a daemon left behind by a crash ends by itself
// The first command starts a background daemon (detached; it owns Chromium). Its pid
// is read from HOME/.agent-browser/namespaces/<ns>/run/<session>.pid, tracked, and
// killed by pid at the end after `close --all`.
// Commands: open <url>, snapshot, click @eN. `click` prints "✓ Done" (no page state),
// so seeing the changed text takes a `snapshot`.

import { execFile } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { alive, killTree, processTree, sleep, track, untrack } from '../lib/proc.mjs';
import { CHROME_ARGS, CHROMIUM, NODE_MODULES, findRefOnLine, pkgVersion, tempDir } from './common.mjs';

const BIN = join(NODE_MODULES, 'agent-browser/bin/agent-browser-linux-x64');
let counter = 0;

export class AgentBrowser {
  name = 'agent-browser';
  label = 'agent-browser';

  async start() {
    if (process.platform !== 'linux' || process.arch !== 'x64')
      throw new Error(`no bundled binary used for ${process.platform}-${process.arch}`);
    if (!existsSync(BIN)) throw new Error(`native binary missing: ${BIN}`);
    // npm may unpack it without its exec bit (the package's postinstall, which npm skips here, sets it)
    if ((statSync(BIN).mode & 0o111) === 0) chmodSync(BIN, 0o755);
    this.home = tempDir('ab');
    this.namespace = `bench${process.pid}`;
    this.session = `s${++counter}`;
    this.env = {
      ...process.env,
      HOME: this.home,
      AGENT_BROWSER_NO_VERSION_CHECK: '1',
      AGENT_BROWSER_IDLE_TIMEOUT_MS: '900000',
    };
    this.daemonPid = null;
    const v = await this.#run(['--version'], 20_000);
    this.version = v.text.trim();
  }

  #run(args, timeoutMs) {
    return new Promise((resolve, reject) => {
      const child = execFile(
        BIN,
        args,
        {
          env: this.env,
          cwd: this.home,
          timeout: timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: 256 * 1024 * 1024,
        },
        (err, stdout, stderr) => {
          untrack(child.pid);
          if (err) {
            reject(
              new Error(
                `agent-browser ${args[args.length - 2] ?? ''} ${args[args.length - 1]}: ${err.killed ? `timeout after ${timeoutMs} ms` : `exit ${err.code}`} ${String(stderr || stdout).slice(0, 300)}`,
              ),
            );
            return;
          }
          resolve({ text: stdout });
        },
      );
      track(child.pid);
    });
  }

  #base() {
    return [
      '--namespace',
      this.namespace,
      '--session',
      this.session,
      '--executable-path',
      CHROMIUM,
      '--args',
      CHROME_ARGS.join(','),
    ];
  }

  #pidFile() {
    return join(this.home, '.agent-browser/namespaces', this.namespace, 'run', `${this.session}.pid`);
  }

  #noteDaemon() {
    if (this.daemonPid) return;
    try {
      const pid = Number(readFileSync(this.#pidFile(), 'utf8').trim());
      if (pid > 0) {
        this.daemonPid = pid;
        track(pid);
      }
    } catch {
      /* not yet */
    }
  }

  async #cmd(args, timeoutMs) {
    try {
      return await this.#run([...this.#base(), ...args], timeoutMs);
    } finally {
      this.#noteDaemon();
    }
  }

  navigate(url) {
    return this.#cmd(['open', url], 120_000);
  }

  snapshot() {
    return this.#cmd(['snapshot'], 180_000);
  }

  findRef(text, label) {
    return findRefOnLine(text, label, /\[(?:[^\]]*, )?ref=(e\d+)/);
  }

  click(ref) {
    return this.#cmd(['click', `@${ref}`], 120_000);
  }

  followUp() {
    return this.snapshot();
  }

  rootPids() {
    this.#noteDaemon();
    return this.daemonPid ? [this.daemonPid] : [];
  }

  describe() {
    return {
      version: this.version ?? pkgVersion('agent-browser'),
      command: `agent-browser-linux-x64 --namespace NS --session S --executable-path ${CHROMIUM} --args "${CHROME_ARGS.join(',')}" <open URL | snapshot | click @eN>`,
      notes: [
        'runs the native binary shipped in the npm package (no postinstall download; package says node>=24, the binary does not need node)',
        'HOME set to a temp dir, AGENT_BROWSER_NO_VERSION_CHECK=1 (closed network), browser args via --args',
        'one CLI process per command talking to its background daemon; click prints no page state, so seeing the change takes a snapshot',
      ],
    };
  }

  async stop() {
    if (!this.env) return;
    this.#noteDaemon();
    const tree = this.daemonPid ? processTree(this.daemonPid) : [];
    try {
      await this.#run(['--namespace', this.namespace, '--session', this.session, 'close'], 20_000);
    } catch {
      /* kill below */
    }
    if (this.daemonPid) {
      for (let i = 0; i < 20 && alive(this.daemonPid); i++) await sleep(100);
      untrack(this.daemonPid);
    }
    for (const p of tree) killTree(p);
    rmSync(this.home, { recursive: true, force: true });
  }
}
