// The cluster row of `npm run bench` (issue 19): click-with-effect and the default snapshot through a
// gateway + one worker on NATS vs the same calls in process, same page, same run (interleaved, so both
// see the same machine load). Also counts what crosses NATS per call (messages, bytes) and the CPU the
// gateway and the worker's Node process spend per call. Needs nats-server (Debian: apt-get install
// nats-server) and a built dist/ (npm run bench builds it).
//
//   node bench/cluster.mjs [--iterations N]     prints the figures as JSON
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { quantile } from './lib/stats.mjs';
import { killTree, track } from './lib/proc.mjs';
import { PROBE_LABEL, startPageServer } from './pages.mjs';
import { CHROMIUM, REPO_DIR } from './systems/common.mjs';

const dist = (p) => pathToFileURL(join(REPO_DIR, 'dist', p)).href;
const now = () => performance.now();

function natsServer() {
  return [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin']
    .map((d) => join(d, 'nats-server'))
    .find((p) => existsSync(p));
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function until(what, ok, ms = 30_000) {
  const t0 = Date.now();
  while (!(await ok())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** utime + stime of one process, in ms (Linux clock ticks are 10 ms). */
function cpuMs(pid) {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function must(out, what) {
  if (!out.ok) throw new Error(`${what}: ${out.content}`);
  return out.data;
}

const probeRef = (data) =>
  data.snapshot.refs.find((r) => r.role === 'button' && r.accessible_name === PROBE_LABEL)?.ref;

/** Measure; returns the figures (or {error}). `server` is bench's page server (started here when absent). */
export async function measureCluster({ server: given, iterations = 30 } = {}) {
  const bin = natsServer();
  if (!bin) return { error: 'nats-server not installed (apt-get install nats-server)' };
  const server = given ?? (await startPageServer());
  const [{ BrowRuntime }, { ClusterRuntime }, { connectNats }] = await Promise.all([
    import(dist('runtime/runtime.js')),
    import(dist('cluster/gateway.js')),
    import(dist('cluster/connect.js')),
  ]);
  const port = await freePort();
  const url = `nats://127.0.0.1:${port}`;
  const nats = spawn(bin, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  track(nats.pid);
  let worker;
  let local;
  let gw;
  let monitor;
  try {
    await until('nats-server', async () => {
      try {
        (await connectNats({ url })).close();
        return true;
      } catch {
        return false;
      }
    });
    worker = spawn(
      process.execPath,
      [join(REPO_DIR, 'bin/brow.js'), 'node', '--nats', url, '--name', 'bench'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, BROW_CHROME: CHROMIUM },
      },
    );
    track(worker.pid);
    let log = '';
    worker.stderr.on('data', (d) => (log += d));
    await until('the worker', () => /serving up to/.test(log) || worker.exitCode !== null);
    if (worker.exitCode !== null) throw new Error(`worker exited: ${log}`);

    local = new BrowRuntime({ executable: CHROMIUM });
    gw = await ClusterRuntime.connect({ url });
    const page = server.url('form');
    const sides = {
      in_process: { rt: local, snapshot: [], click: [] },
      cluster: { rt: gw, snapshot: [], click: [] },
    };
    for (const side of Object.values(sides)) {
      side.page = must(await side.rt.invoke('browser_open_page', { url: page }), 'open').page_id;
    }
    const once = async (side, record) => {
      let t = now();
      const snap = must(await side.rt.invoke('browser_list_elements', { page_id: side.page }), 'snapshot');
      if (record) side.snapshot.push(now() - t);
      const ref = probeRef(snap);
      if (!ref) throw new Error('probe button not in the snapshot');
      t = now();
      const click = must(await side.rt.invoke('browser_click', { page_id: side.page, ref }), 'click');
      if (record) side.click.push(now() - t);
      return { snap, click };
    };
    for (let i = 0; i < 5; i++) for (const side of Object.values(sides)) await once(side, false);
    for (let i = 0; i < iterations; i++) {
      // alternate who goes first, so neither always follows the other's Chromium work
      const order = i % 2 ? ['in_process', 'cluster'] : ['cluster', 'in_process'];
      for (const k of order) await once(sides[k], true);
    }

    // what crosses NATS, and the CPU per call, in phases of their own
    monitor = await connectNats({ url, name: 'bench-monitor' });
    const counted = { messages: 0, bytes: 0, heartbeats: 0 };
    const replySizes = [];
    monitor.subscribe('>', {
      callback: (_e, m) => {
        if (m.subject === 'brow.hb') return void (counted.heartbeats += 1);
        counted.messages += 1;
        counted.bytes += m.data.length;
        if (m.subject.startsWith('_INBOX.') && !m.subject.startsWith('_INBOX.brow.'))
          replySizes.push(m.data.length);
      },
    });
    await monitor.flush();
    const phase = async (side, n, what) => {
      const c0 = { ...counted };
      replySizes.length = 0;
      const own0 = ownCpuMs();
      const w0 = cpuMs(worker.pid);
      for (let i = 0; i < n; i++) {
        if (what === 'snapshot')
          must(await side.rt.invoke('browser_list_elements', { page_id: side.page }), 'snapshot');
        else {
          const ref = probeRef(
            must(await side.rt.invoke('browser_list_elements', { page_id: side.page }), 'snapshot'),
          );
          must(await side.rt.invoke('browser_click', { page_id: side.page, ref }), 'click');
        }
      }
      await monitor.flush();
      await new Promise((r) => setTimeout(r, 100));
      const calls = what === 'snapshot' ? n : 2 * n;
      return {
        calls,
        messages_per_call: (counted.messages - c0.messages) / calls,
        bytes_per_call: Math.round((counted.bytes - c0.bytes) / calls),
        reply_bytes_p50: quantile(replySizes, 0.5),
        this_process_cpu_ms_per_call: (ownCpuMs() - own0) / calls,
        worker_node_cpu_ms_per_call: (cpuMs(worker.pid) - w0) / calls,
      };
    };
    const n = Math.max(10, Math.round(iterations / 2));
    const nats_snapshot = await phase(sides.cluster, n, 'snapshot');
    const nats_snapshot_click = await phase(sides.cluster, n, 'click');
    const local_snapshot = await phase(sides.in_process, n, 'snapshot');
    const local_snapshot_click = await phase(sides.in_process, n, 'click');
    const stat = (v) => ({ p50_ms: quantile(v, 0.5), p95_ms: quantile(v, 0.95) });
    // event history (since_seq) through the gateway, which asks the worker, vs the in-process core
    const history = async (rt) => {
      const times = [];
      let events = 0;
      for (let i = 0; i < 20; i++) {
        const t = now();
        events = (await rt.history({}, 0)).length;
        times.push(now() - t);
      }
      return { events, p50_ms: quantile(times, 0.5) };
    };
    const history_replay = { cluster: await history(gw), in_process: await history(local) };
    const r = {
      iterations,
      page: 'form',
      in_process: { snapshot: stat(sides.in_process.snapshot), click: stat(sides.in_process.click) },
      cluster: { snapshot: stat(sides.cluster.snapshot), click: stat(sides.cluster.click) },
      nats: { snapshot: nats_snapshot, snapshot_and_click: nats_snapshot_click },
      in_process_cpu: { snapshot: local_snapshot, snapshot_and_click: local_snapshot_click },
      heartbeats_seen: counted.heartbeats,
      history_replay,
    };
    r.added_p50_ms = {
      snapshot: r.cluster.snapshot.p50_ms - r.in_process.snapshot.p50_ms,
      click: r.cluster.click.p50_ms - r.in_process.click.p50_ms,
    };
    return r;
  } catch (e) {
    return { error: e.message };
  } finally {
    await monitor?.close().catch(() => {});
    await gw?.close().catch(() => {});
    await local?.close().catch(() => {});
    if (worker?.pid) killTree(worker.pid, 'SIGKILL');
    if (nats.pid) killTree(nats.pid, 'SIGKILL');
    if (!given) await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--iterations');
  const iterations = i > 0 ? Number(process.argv[i + 1]) : 30;
  measureCluster({ iterations }).then(
    (r) => {
      console.log(JSON.stringify(r, null, 2));
      process.exit(r.error ? 1 : 0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
