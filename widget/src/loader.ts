// The script-tag entry (dist/widget/widget.js). Runs as a CLASSIC script on any site, so this file
// exports nothing and shares no runtime module with the lazy chunks (see context.ts).
import { boot } from './boot.ts';
import { report } from './report.ts';

try {
  // currentScript is only set while this script runs synchronously; read it before anything awaits.
  boot(window, document, document.currentScript);
} catch (error) {
  report(error);
}
