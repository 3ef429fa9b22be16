/** What brow asks the vision model, and how it reads a label out of the answer. */
import { BrowserError } from '../errors.js';

/** The prompt for browser_visual_query. */
export function queryPrompt(query: string): string {
  return [
    'You are looking at a screenshot of a web page.',
    'Answer the question below from what the screenshot shows. Be concise and factual;',
    'if the screenshot does not show the answer, say so instead of guessing.',
    '',
    `Question: ${query}`,
  ].join('\n');
}

/** The prompt for browser_find_visual: name the label of the target, as JSON. */
export function findPrompt(target: string, labels: string[]): string {
  return [
    'This screenshot of a web page has its interactive elements outlined, each with a small magenta tag',
    'holding a label (A1, A2, …) at the outline.',
    `Labels on this screenshot: ${labels.join(', ')}.`,
    '',
    `Target: ${target}`,
    '',
    'Which label marks the target? Answer with JSON only, no other text:',
    '{"label": "A2", "evidence": "<what you see that identifies it, a few words>"}',
    'If no labelled element is the target, answer {"label": null, "evidence": "<what you see instead>"}.',
  ].join('\n');
}

export interface LabelAnswer {
  label: string | null;
  evidence: string;
}

const cap = (s: string, n = 300): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n)}…` : one;
};

/**
 * The label and evidence in a model's answer: the JSON object it was asked for (also inside a code
 * fence or beside other text), else the one label-shaped word the answer holds ("A2").
 */
export function parseLabelAnswer(text: string): LabelAnswer {
  const json = text.match(/\{[\s\S]*\}/)?.[0];
  if (json) {
    try {
      const o = JSON.parse(json) as { label?: unknown; evidence?: unknown };
      const label = typeof o.label === 'string' && o.label.trim() ? o.label.trim().toUpperCase() : null;
      const evidence = typeof o.evidence === 'string' ? cap(o.evidence) : '';
      return { label, evidence };
    } catch {
      // not JSON after all: read it as text below
    }
  }
  const words = [...new Set(text.toUpperCase().match(/\bA\d{1,3}\b/g) ?? [])];
  if (words.length === 1) return { label: words[0]!, evidence: cap(text) };
  if (words.length > 1) {
    throw new BrowserError(
      'action_failed',
      `The vision model named several labels (${words.join(', ')}) instead of one.`,
      {
        hint: 'Describe the target more precisely, or find it by text with browser_find.',
        details: { answer: cap(text) },
      },
    );
  }
  return { label: null, evidence: cap(text) };
}
