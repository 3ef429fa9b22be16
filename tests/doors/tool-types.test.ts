/**
 * Library types (issue 17), checked by `tsc --noEmit` (npm test) and by vitest's expectTypeOf: tool
 * names are a union, and a tool's data is typed from its output schema, in `createBrow()`'s methods
 * and in `brow/sdk`. Nothing here runs a browser or a server: the calls sit in functions never called.
 */
import { describe, expectTypeOf, it } from 'vitest';
import { capabilities } from '../../src/capabilities/registry.js';
import type { Brow } from '../../src/doors/lib/brow.js';
import type { BrowData, ToolData, ToolName } from '../../src/doors/lib/methods.js';
import type { ToolClient } from '../../src/doors/sdk/tool-client.js';

describe('tool names and data types', () => {
  it('ToolName is the union of the registry names', () => {
    expectTypeOf<'browser_click'>().toExtend<ToolName>();
    expectTypeOf<'browser_open_page'>().toExtend<ToolName>();
    expectTypeOf<'browser_teleport'>().not.toExtend<ToolName>();
    // every registered name is in the union (a runtime list checked against the type)
    const names: ToolName[] = capabilities.map((c) => c.name as ToolName);
    expectTypeOf(names).toEqualTypeOf<ToolName[]>();
  });

  it('data is typed per tool from its output schema', () => {
    expectTypeOf<ToolData<'browser_open_page'>['page_id']>().toEqualTypeOf<string>();
    expectTypeOf<ToolData<'browser_find'>['total']>().toEqualTypeOf<number>();
    expectTypeOf<ToolData<'browser_click'>['action']['outcome']>().toEqualTypeOf<string>();
    expectTypeOf<BrowData<'openPage'>>().toEqualTypeOf<ToolData<'browser_open_page'>>();
    expectTypeOf<BrowData<'stopSession'>['was_running']>().toEqualTypeOf<boolean>();
  });

  it('a wrong tool name or data field does not compile', () => {
    const library = async (brow: Brow) => {
      const opened = await brow.openPage({ url: 'https://example.com' });
      if (opened.ok) {
        expectTypeOf(opened.data.page_id).toEqualTypeOf<string>();
        // @ts-expect-error open_page's data has no such field
        void opened.data.colour;
      } else {
        expectTypeOf(opened.data.error_code).toBeString();
      }
      const strict = await (brow as unknown as Brow<true>).find({ text: 'Search' });
      expectTypeOf(strict.data.matches).toBeArray();
    };
    const sdk = async (tool: ToolClient) => {
      const r = await tool.call('browser_list_sessions');
      expectTypeOf(r.data.sessions).toBeArray();
      expectTypeOf(r.data.error_code).toEqualTypeOf<string | undefined>();
      // @ts-expect-error no such field in list_sessions' data
      void r.data.pages;
      // @ts-expect-error no such tool
      void tool.call('browser_teleport');
      // @ts-expect-error params are typed per tool: click needs a ref
      void tool.call('browser_click', { page_id: 'p-1' });
    };
    expectTypeOf(library).toBeFunction();
    expectTypeOf(sdk).toBeFunction();
  });
});
