/** browser_read_styles' default property list, in a file of its own so the capability's description can name its size without loading styles.ts. */

/** The properties read when the caller names none: layout, box, type, colour, visibility. */
export const DEFAULT_PROPERTIES = [
  'display', 'position', 'top', 'right', 'bottom', 'left', 'width', 'height', 'margin', 'padding',
  'border', 'border-radius', 'box-sizing', 'overflow', 'z-index', 'opacity', 'visibility',
  'color', 'background-color', 'background-image', 'font-family', 'font-size', 'font-weight',
  'line-height', 'text-align', 'flex-direction', 'justify-content', 'align-items', 'gap',
  'grid-template-columns', 'transform', 'cursor', 'pointer-events',
]; // prettier-ignore
