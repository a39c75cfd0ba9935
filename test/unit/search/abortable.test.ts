import { abortable } from '../../../functions/search/abortable';

describe('abortable', () => {
  it('answers as the request does while the signal stays quiet', async () => {
    const controller = new AbortController();
    await expect(abortable(controller.signal, Promise.resolve(7))).resolves.toBe(7);
    const failure = new Error('refused');
    await expect(abortable(controller.signal, Promise.reject(failure))).rejects.toBe(failure);
  });

  it('rejects with the signal’s reason at once and cancels the request, whenever the request ends', async () => {
    const controller = new AbortController();
    let cancelled = 0;
    const never = new Promise<number>(() => undefined);
    const pending = abortable(controller.signal, never, () => (cancelled += 1));
    const reason = new Error('over budget');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(cancelled).toBe(1);
    // Already aborted: cancelled before anything waits.
    await expect(abortable(controller.signal, never, () => (cancelled += 1))).rejects.toBe(reason);
    expect(cancelled).toBe(2);
  });

  it('reports the signal’s reason when the request fails because it was stopped', async () => {
    const controller = new AbortController();
    const reason = new Error('client gone');
    let fail!: (error: Error) => void;
    const request = new Promise<number>((_resolve, reject) => (fail = reject));
    const pending = abortable(controller.signal, request, () => fail(new Error('INTERRUPT Error: Interrupted!')));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
