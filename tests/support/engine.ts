/** Whether the real engine (model, ffmpeg, onnxruntime) starts here; tests needing it skip otherwise. */
export async function engineAvailable(): Promise<{ ok: boolean; why: string }> {
  try {
    const { createEngine } = await import('../../engine/index.ts');
    await createEngine();
    return { ok: true, why: '' };
  } catch (err) {
    return { ok: false, why: err instanceof Error ? err.message : String(err) };
  }
}
