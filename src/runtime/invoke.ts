/** invoke(name, input, ctx) → Outcome: validates, runs, classifies. Never throws into a door. */
import { z } from 'zod';
import { getCapability, capabilities } from '../capabilities/registry.js';
import { gatesOf, type AnyCapability, type CapabilityContext } from '../capabilities/define.js';
import { withDeadline } from '../core/deadline.js';
import { BrowserError, classifyError } from '../core/errors.js';
import type { PendingEntry } from '../core/replay/log.js';
import type { BrowPage } from '../core/session/page.js';
import { nearest } from './near.js';
import { failureText, type ErrorOutcome, type Outcome } from './outcome.js';

export function errorOutcome(e: unknown): ErrorOutcome {
  const err = classifyError(e);
  return {
    ok: false,
    content: failureText(err.code, err.message, err.hint),
    data: err.toJSON(),
  };
}

/** Names of the capability's input fields, for error messages. */
export function fieldNames(cap: AnyCapability): string[] {
  return Object.keys(cap.input.shape);
}

function describeIssues(cap: AnyCapability, error: z.ZodError): BrowserError {
  const parts: string[] = [];
  for (const issue of error.issues) {
    const path = issue.path.join('.') || '(input)';
    if (issue.code === 'unrecognized_keys')
      parts.push(`unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`);
    else parts.push(`${path}: ${issue.message}`);
  }
  return new BrowserError('invalid_request', `Invalid input for ${cap.name}: ${parts.join('; ')}.`, {
    hint: `${cap.name} takes: ${fieldNames(cap).join(', ')}.`,
    details: { expected_fields: fieldNames(cap) },
  });
}

/** The tool names closest to a misspelt one. */
function closest(name: string): string[] {
  const want = name.toLowerCase().replace(/^browser[_:]*/, '');
  const short = capabilities.map((c) => c.name.replace(/^browser_/, ''));
  return nearest(want, short).map((n) => (n === 'browser' ? n : `browser_${n}`));
}

/** How deep JSON input may nest: far past any real argument, well short of a stack overflow. */
const MAX_INPUT_DEPTH = 1000;

/**
 * invalid_request when the input nests deeper than `max` arrays/objects (measured without
 * recursion: a 200,000-deep argument must not overflow the stack here or anywhere after).
 */
function nestedDeeperThan(input: unknown, max: number): BrowserError | null {
  const stack: [unknown, number][] = [[input, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) {
      return new BrowserError('invalid_request', `The input nests deeper than ${max} levels.`, {
        hint: 'Flatten the argument: no tool takes JSON nested this deep.',
        details: { max_depth: max },
      });
    }
    for (const child of Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return null;
}

/** Run a capability by name with untrusted JSON input. */
export async function invoke(name: string, input: unknown, ctx: CapabilityContext): Promise<Outcome> {
  const cap = getCapability(name);
  if (!cap) {
    const near = closest(name);
    return errorOutcome(
      new BrowserError('invalid_request', `There is no tool named "${name}".`, {
        hint: near.length > 0 ? `Did you mean ${near.join(', ')}?` : 'List the tools to see their names.',
      }),
    );
  }
  return runCapability(cap, input, ctx);
}

/**
 * Run one capability with untrusted JSON input: validate, hold the session it names, run the handler
 * under invoke's own deadline (the caller's bound plus config call_grace_ms), classify the outcome.
 */
export async function runCapability(
  cap: AnyCapability,
  input: unknown,
  ctx: CapabilityContext,
): Promise<Outcome> {
  const name = cap.name;
  const tooDeep = nestedDeeperThan(input, MAX_INPUT_DEPTH);
  if (tooDeep) return errorOutcome(tooDeep);
  // a call naming a session or one of its pages keeps that session alive until it ends (even one
  // refused as invalid is activity)
  const endCall = ctx.core.beginCall(input, ctx.owner);
  const parsed = cap.input.safeParse(input ?? {});
  if (!parsed.success) {
    endCall();
    return errorOutcome(describeIssues(cap, parsed.error));
  }
  // a capability that waits for a person by design (a handoff, a pick) says how long it may run
  const limit =
    Math.max(ctx.core.config.max_timeout_ms, cap.maxRunMs?.(parsed.data) ?? 0) +
    ctx.core.config.call_grace_ms;
  // the handler's signal ends when the caller's does or at invoke's own deadline, so a wait stops
  const ac = new AbortController();
  const onCallerAbort = () => ac.abort(ctx.signal?.reason);
  if (ctx.signal?.aborted) onCallerAbort();
  else ctx.signal?.addEventListener('abort', onCallerAbort, { once: true });
  // the session's action log (browser_export_script): the input as given (no defaults), its refs
  // read as locators under the page's lock, after the gates, before the call acts (onPage calls
  // enterPage); a call that never reached its page is logged without them
  let logged: PendingEntry | null | undefined;
  // (which calls: the capability's own `replay.log`; what it types: its `replay.textInput`)
  const replay = cap.replay;
  const beginLog =
    replay && replay.log
      ? async (page?: BrowPage): Promise<void> => {
          if (logged !== undefined) return;
          logged = null;
          logged = await import('../core/replay/log.js')
            .then((m) =>
              m.beginEntry(
                ctx.core,
                ctx.owner,
                cap.name,
                (input ?? {}) as Record<string, unknown>,
                page,
                replay.textInput,
              ),
            )
            .catch(() => null);
        }
      : undefined;
  const handlerCtx: CapabilityContext = {
    ...ctx,
    signal: ac.signal,
    name: cap.name,
    gates: gatesOf(cap, parsed.data),
    ...(beginLog ? { enterPage: beginLog } : {}),
  };
  try {
    // at the deadline the handler's signal aborts (so a wait stops) and the call fails
    const r = await withDeadline(cap.handle(parsed.data, handlerCtx), limit, () => {
      const e = new BrowserError('timeout', `${name} did not finish within ${limit} ms.`);
      ac.abort(e);
      return e;
    });
    await beginLog?.();
    logged?.end(true, r.data);
    return {
      ok: true,
      content: r.text,
      data: r.data,
      ...(r.images && r.images.length > 0 ? { images: r.images } : {}),
    };
  } catch (e) {
    const out = errorOutcome(e);
    await beginLog?.().catch(() => undefined);
    logged?.end(false, out.data);
    return out;
  } finally {
    ctx.signal?.removeEventListener('abort', onCallerAbort);
    endCall();
  }
}
