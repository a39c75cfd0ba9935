import { compareSettled, warmUp } from '../../bin/bench/timing';

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

  it('times a warmed-up pair over as many rounds as fit the budget, within the least and most rounds', async () => {
    const calls = { baseline: 0, subject: 0 };
    const count = (side: keyof typeof calls) => () => calls[side]++;
    const fewest = await compareSettled(
      { queryBudgetMs: 0, minRounds: 3, mostRounds: 9, warmUpBudgetMs: 0, warmUpMostRounds: 2 },
      count('baseline'),
      count('subject'),
    );
    expect(fewest).toMatchObject({ rounds: 3, warmUpRounds: 2 });
    expect(calls).toEqual({ baseline: 5, subject: 5 });
    const most = await compareSettled(
      { queryBudgetMs: 60_000, minRounds: 3, mostRounds: 9, warmUpBudgetMs: 0, warmUpMostRounds: 2 },
      count('baseline'),
      count('subject'),
    );
    expect(most.rounds).toBe(9);
  });
});
