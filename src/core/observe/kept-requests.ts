/**
 * The puppeteer requests behind a session's newest network entries. The network log is the
 * kernel's (observe/); keeping the handle behind each entry belongs with it, so a feature that
 * reads bodies (read/request-bodies.ts) asks here instead of the page wiring a feature in.
 */
import type { HTTPRequest } from 'puppeteer-core';
import { slot, type StateBag } from '../state-bag.js';

/** How many recent requests per session keep their handle (and so a readable body). */
export const KEPT_REQUESTS = 200;

/** A session's newest requests by network seq (owned by the session: see state-bag.ts). */
const keptSlot = slot('observe.kept-requests', () => new Map<number, HTTPRequest>());

/** Remember the request behind network entry `seq` of `owner` (a session); the oldest are forgotten. */
export function keepRequest(owner: { readonly state: StateBag }, req: HTTPRequest, seq: number): void {
  const m = owner.state.get(keptSlot);
  m.set(seq, req);
  if (m.size > KEPT_REQUESTS) m.delete(m.keys().next().value as number);
}

/** The request behind network entry `seq` of `owner`, while it is among the newest kept. */
export function keptRequest(owner: { readonly state: StateBag }, seq: number): HTTPRequest | undefined {
  return owner.state.peek(keptSlot)?.get(seq);
}
