// @ts-check
// Which engine the page talks to: 'websocket', the server that served it
// (`gobblet --http`). The static site (tools/wasm, docs/wasm.md) replaces
// this file with one that says 'worker': the WebAssembly engine in a Web
// Worker of the page.
/** @type {'websocket' | 'worker'} */
export const ENGINE = 'websocket';
