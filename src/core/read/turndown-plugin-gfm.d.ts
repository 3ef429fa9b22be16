/** turndown-plugin-gfm ships no types: the plugins we use. */
declare module 'turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  type Plugin = (service: TurndownService) => void;
  export const gfm: Plugin;
  export const tables: Plugin;
  export const strikethrough: Plugin;
  export const highlightedCodeBlock: Plugin;
  export const taskListItems: Plugin;
}
