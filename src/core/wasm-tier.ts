// undici's HTTP parser (llhttp) and the jq engine are WebAssembly. V8 re-compiles WebAssembly with its
// optimizing tier on background threads, and the process waits for them at exit, longer than a short request
// or a jq filter takes. The baseline compiler alone is fast enough for both. Called
// before either is first compiled, so that commands using neither (help, config, a request over node:http)
// never load node:v8.
let set = false;

export function baselineWasmCompilerOnly(): void {
  if (set) return;
  set = true;
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
}
