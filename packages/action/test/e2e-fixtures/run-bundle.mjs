// The entrypoint the end-to-end test hands to `local-action run`.
//
// local-action imports an entrypoint and then calls the run() it exports (it is built to run an action's unbundled
// src/main.ts, with @actions/core swapped for its stubs). The committed bundle exports nothing: like `node
// dist/index.js` on a runner, importing it runs the action, and the import settles when the action is done. So run()
// here imports the bundle, exactly once, and does nothing else.
export async function run() {
  await import('../../dist/index.js');
}
