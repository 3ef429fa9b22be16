/** Answers about every session, merged from each worker's: the session list, and the doctor's cluster report. */
import { failure, type Outcome } from '../runtime/outcome.js';
import type { WorkerStatus } from './subjects.js';

/** browser_list_sessions over the cluster: every worker's sessions, one list. */
export function mergeSessions(outs: Outcome[]): Outcome {
  const sessions: unknown[] = [];
  const lines: string[] = [];
  for (const o of outs) {
    if (!o.ok) continue;
    sessions.push(...((o.data.sessions as unknown[] | undefined) ?? []));
    if (o.content !== 'No sessions.') lines.push(o.content);
  }
  return { ok: true, content: lines.length ? lines.join('\n') : 'No sessions.', data: { sessions } };
}

/** browser_doctor through a gateway: the cluster's workers, and each one's own report. */
export function mergeDoctor(workers: WorkerStatus[], outs: Outcome[], consoleUrl: string | null): Outcome {
  if (workers.length === 0) {
    return failure(
      'resource_limit',
      'No brow worker is connected to the cluster.',
      'Start one: brow node --nats <url>.',
      {
        reason: 'no_workers',
      },
    );
  }
  const reports = outs.map((o, i) => ({
    worker: workers[i]!.id,
    ...(o.ok ? o.data : { error: o.data }),
    ok: o.ok && o.data.ok === true,
  }));
  const capacity = workers.reduce((n, w) => n + w.capacity, 0);
  const sessions = workers.reduce((n, w) => n + w.sessions, 0);
  const ok = reports.every((r) => r.ok === true);
  const first = outs.find((o) => o.ok);
  const lines = [
    `Cluster: ${workers.length} worker(s), ${sessions}/${capacity} sessions.`,
    ...workers.map(
      (w) =>
        `- ${w.id} on ${w.host}: ${w.sessions}/${w.capacity} sessions, load ${w.load}, ${w.chromium_version ?? 'Chromium ?'}, up ${w.uptime_s} s${w.draining ? ', draining' : ''}`,
    ),
    ...(first ? ['First worker:', first.content] : []),
  ];
  return {
    ok: true,
    content: lines.join('\n'),
    data: {
      ...(first?.ok ? first.data : {}),
      ok,
      console_url: consoleUrl,
      active_sessions: sessions,
      max_sessions: capacity,
      cluster: { workers, reports },
    },
  };
}
