// A subscriber in its own process that binds browser::console-event and never answers.
// Usage: node hanging-subscriber.mjs <engine url> <session id>; prints "delivered N" lines.
import { registerWorker } from 'iii-sdk';

const [url, sessionId] = process.argv.slice(2);
const iii = registerWorker(url, {
  workerName: 'hanging-subscriber',
  otel: { enabled: false },
  enableMetricsReporting: false,
});
let delivered = 0;
iii.registerFunction('hang::console', () => {
  delivered += 1;
  return new Promise(() => undefined);
});
iii.registerTrigger({
  type: 'browser::console-event',
  function_id: 'hang::console',
  config: { session_id: sessionId },
});
setInterval(() => process.stdout.write(`delivered ${delivered}\n`), 200);
