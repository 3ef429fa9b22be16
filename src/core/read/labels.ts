/** Which refs a labelled screenshot tags, and where their boxes fall on the image. */
import { sendRacingDialog } from '../scripts/evaluate.js';
import type { BrowPage } from '../session/page.js';
import { takeSnapshot } from '../snapshot/snapshot.js';
import type { LabelBox } from './image.js';

const MAX_LABELS = 300;
const LABELLED_ACTIONS = new Set(['click', 'fill', 'type', 'press', 'select', 'check', 'upload', 'drag']);

interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Visible refs with something to do, as label boxes in image pixels. */
export async function labelBoxes(
  page: BrowPage,
  region: Region,
  scale: number,
  m: { scrollX: number; scrollY: number },
): Promise<{ boxes: LabelBox[]; map: Record<string, string> }> {
  const snap = await sendRacingDialog(page, takeSnapshot(page));
  const boxes: LabelBox[] = [];
  const map: Record<string, string> = {};
  const picked = snap.nodes
    .filter(
      (n) =>
        n.ref &&
        !n.opaque &&
        n.box[2] >= 1 &&
        n.box[3] >= 1 &&
        n.actions.some((a) => LABELLED_ACTIONS.has(a)),
    )
    .map((n) => ({ n, x: n.box[0] + m.scrollX, y: n.box[1] + m.scrollY, w: n.box[2], h: n.box[3] }))
    .filter(
      (b) =>
        b.x < region.x + region.width &&
        b.x + b.w > region.x &&
        b.y < region.y + region.height &&
        b.y + b.h > region.y,
    )
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .slice(0, MAX_LABELS);
  picked.forEach((b, i) => {
    const label = `A${i + 1}`;
    map[label] = b.n.ref!;
    boxes.push({
      label,
      x: Math.round((b.x - region.x) * scale),
      y: Math.round((b.y - region.y) * scale),
      width: Math.max(1, Math.round(b.w * scale)),
      height: Math.max(1, Math.round(b.h * scale)),
    });
  });
  return { boxes, map };
}
