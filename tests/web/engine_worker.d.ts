// What web/wasm/engine_worker.js uses of the engine that tools/wasm builds
// (gobblet-engine.js, loaded with importScripts), for the type check only.

// The engine made by createGobbletEngine: its exported C function, called
// through Emscripten's ccall (async: the search awaits yields; the JSPI
// build's entry point returns the promise itself).
interface GobbletEngine {
  ccall(name: 'gobblet_worker_run', returnType: 'number', argTypes: [], args: [], options: { async: true }): Promise<number>;
  // Emscripten's in-memory files (MEMFS), where the worker puts the proof
  // database files the page hands it: the calls it makes.
  FS: {
    analyzePath(path: string): { exists: boolean };
    mkdir(path: string): void;
    readdir(path: string): string[];
    unlink(path: string): void;
    rmdir(path: string): void;
    streams: ({ path: string } | null)[];  // the open files, by descriptor
    writeFile(path: string, data: Uint8Array, options: { canOwn: boolean }): void;
    chmod(path: string, mode: number): void;
  };
}

declare function createGobbletEngine(settings: {
  print(text: string): void;
  printErr(text: string): void;
  // Emscripten's hook that makes the instance itself (the JSPI build).
  instantiateWasm?(imports: { env: Record<string, Function> },
                   receive: (instance: { exports: Record<string, unknown> }) => void): {};
}): Promise<GobbletEngine>;

// What the engine reads its input from and writes its output to
// (tools/wasm/engine_main.cpp): set by the worker.
declare var gobbletHost: {
  takeLine(): string | null;
  output(line: string): void;
  yield(waiting: boolean): Promise<void>;
};
