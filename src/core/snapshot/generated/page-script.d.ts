/**
 * Types of page-script.js beside this file, which scripts/build.mjs generates from
 * src/core/snapshot/injected/page-script.entry.ts (it is not committed: `npm run build` makes it).
 */
/** A hash of the built script; the page side's `api.version` is the same string. */
export declare const version: string;
/** The bundled in-page script, one IIFE, evaluated in a document to install the page API. */
export declare const source: string;
