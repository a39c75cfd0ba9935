import { warmUp } from '../../bin/bench/timing';

describe('bench warm-up', () => {
  it('alternates the two sides, each after `before`, at least twice and at most maxRounds times', async () => {
    const calls: string[] = [];
    const result = await warmUp(
      60_000,
      () => calls.push('baseline'),
      () => calls.push('subject'),
      async () => {
        calls.push('before');
      },
      3,
    );
    expect(result.rounds).toBe(3);
    expect(calls).toEqual(Array.from({ length: 3 }, () => ['before', 'baseline', 'before', 'subject']).flat());
  });

  it('runs two rounds even when the budget is spent, and answers a round of both sides in milliseconds', async () => {
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const result = await warmUp(
      0,
      () => pause(5),
      () => pause(5),
    );
    expect(result.rounds).toBe(2);
    expect(result.roundMs).toBeGreaterThanOrEqual(9);
  });
});
