/**
 * Resolves once a worker has made the GPU process set up WebGL (`workers/gpu-warm-up.ts`), or
 * after `timeoutMs` whatever happened: the map is created after it, so the page's thread does
 * not block on that set-up.
 */
export function gpuWarmedUp(timeoutMs = 2000): Promise<void> {
  if (typeof OffscreenCanvas === 'undefined' || typeof Worker === 'undefined') return Promise.resolve();
  return new Promise((resolve) => {
    const worker = new Worker(new URL('../workers/gpu-warm-up.ts', import.meta.url), { type: 'module', name: 'gpu-warm-up' });
    const done = () => {
      clearTimeout(timer);
      worker.terminate();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    worker.onmessage = done;
    worker.onerror = done;
  });
}
