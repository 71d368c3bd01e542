// Preloaded (`node --import`) by a test into a relay process it starts: writes the URL of every
// module the process loads, one per line, to the file named by DIALBACK_LOADED_MODULES, so the test
// can tell what a production relay needs at run time. Uses Node's synchronous module hooks.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const out = process.env.DIALBACK_LOADED_MODULES;
if (out) {
  registerHooks({
    load(url, context, nextLoad) {
      appendFileSync(out, `${url}\n`);
      return nextLoad(url, context);
    },
  });
}
