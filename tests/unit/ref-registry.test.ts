/** RefRegistry: page-wide refs that are stable per element and never reused on the page. */
import type { Frame } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { BrowserError } from '../../src/core/errors.js';
import { RefRegistry } from '../../src/core/snapshot/ref-registry.js';

// The registry only holds frames weakly and hands them back; any object stands in for one.
const frameA = {} as Frame;
const frameB = {} as Frame;

function codeOf(fn: () => unknown): { code: string; message: string; details: Record<string, unknown> } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BrowserError);
    const err = e as BrowserError;
    return { code: err.code, message: err.message, details: err.details };
  }
  throw new Error('expected a BrowserError');
}

describe('RefRegistry', () => {
  it('one element keeps its ref; its role and name follow the latest listing', () => {
    const r = new RefRegistry();
    expect(r.refFor(frameA, 'F1', 'doc1', 1, 'button', 'Save')).toBe('e1');
    expect(r.refFor(frameA, 'F1', 'doc1', 2, 'link', 'Home')).toBe('e2');
    expect(r.refFor(frameA, 'F1', 'doc1', 1, 'button', 'Saved')).toBe('e1');
    const entry = r.lookup('e1');
    expect(entry).toMatchObject({
      ref: 'e1',
      docKey: 'doc1',
      localId: 1,
      frameId: 'F1',
      role: 'button',
      name: 'Saved',
    });
    expect(entry.frame.deref()).toBe(frameA);
    expect(r.size).toBe(2);
    expect(r.documents).toBe(1);
  });

  it('the same local id in another document is another element with a new number', () => {
    const r = new RefRegistry();
    r.refFor(frameA, 'F1', 'doc1', 1, 'button', 'A');
    expect(r.refFor(frameB, 'F2', 'doc2', 1, 'button', 'B')).toBe('e2');
    expect(r.lookup('e2').frame.deref()).toBe(frameB);
    // entries of one frame share one WeakRef
    r.refFor(frameA, 'F1', 'doc1', 7, 'link', 'C');
    expect(r.lookup('e1').frame).toBe(r.lookup('e3').frame);
  });

  it('lookup trims whitespace and tells a malformed ref from a never-issued one', () => {
    const r = new RefRegistry();
    r.refFor(frameA, 'F1', 'doc1', 1, 'button', 'A');
    expect(r.lookup('  e1\n').ref).toBe('e1');
    const bad = codeOf(() => r.lookup('button'));
    expect(bad.code).toBe('ref_not_found');
    expect(bad.message).toContain('is not a ref');
    for (const ref of ['e0', 'e2', 'e999']) {
      const never = codeOf(() => r.lookup(ref));
      expect(never.code, ref).toBe('ref_not_found');
      expect(never.message).toContain('was ever listed');
    }
    expect(codeOf(() => r.lookup('E1')).code).toBe('ref_not_found');
    expect(codeOf(() => r.lookup('e-1')).code).toBe('ref_not_found');
  });

  it('forgetting a document makes its refs stale (not unknown) and keeps the others', () => {
    const r = new RefRegistry();
    r.refFor(frameA, 'F1', 'old', 1, 'button', 'A');
    r.refFor(frameA, 'F1', 'old', 2, 'button', 'B');
    r.refFor(frameB, 'F2', 'kept', 1, 'button', 'C');
    expect(r.forgetDocuments(new Set(['kept']))).toBe(2);
    expect(r.size).toBe(1);
    expect(r.documents).toBe(1);
    const stale = codeOf(() => r.lookup('e2'));
    expect(stale.code).toBe('stale_ref');
    expect(stale.details).toEqual({ ref: 'e2', reason: 'navigated' });
    expect(r.lookup('e3').name).toBe('C');
    // forgetting again drops nothing; a ref never issued is still unknown, not stale
    expect(r.forgetDocuments(new Set(['kept']))).toBe(0);
    expect(codeOf(() => r.lookup('e4')).code).toBe('ref_not_found');
  });

  it('numbers are never reused: a forgotten document coming back, or clear(), goes on counting', () => {
    const r = new RefRegistry();
    r.refFor(frameA, 'F1', 'doc1', 1, 'button', 'A');
    r.forgetDocuments(new Set());
    // the same (document, local id) seen again after it was forgotten gets a new number
    expect(r.refFor(frameA, 'F1', 'doc1', 1, 'button', 'A')).toBe('e2');
    expect(codeOf(() => r.lookup('e1')).code).toBe('stale_ref');
    r.clear();
    expect(r.size).toBe(0);
    expect(r.documents).toBe(0);
    expect(codeOf(() => r.lookup('e2')).code).toBe('stale_ref');
    expect(r.refFor(frameA, 'F1', 'doc9', 1, 'button', 'Z')).toBe('e3');
  });

  it('sparse local ids (a document listed in part) count only the entries held', () => {
    const r = new RefRegistry();
    r.refFor(frameA, 'F1', 'doc1', 5000, 'button', 'A');
    r.refFor(frameA, 'F1', 'doc1', 3, 'button', 'B');
    expect(r.size).toBe(2);
    expect(r.forgetDocuments(new Set())).toBe(2);
    expect(r.size).toBe(0);
  });
});
