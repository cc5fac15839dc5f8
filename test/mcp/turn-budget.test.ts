import { describe, expect, it } from 'vitest';
import { TurnBudget } from '../../src/mcp/turn-budget.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('TurnBudget', () => {
  it('lets callers through at once while the turn has budget left', async () => {
    let clock = 0;
    const turns = new TurnBudget(10, () => clock);
    const order: string[] = [];
    const a = turns.take().then(() => order.push('a'));
    clock = 5;
    const b = turns.take().then(() => order.push('b'));
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual(['a', 'b']); // both in the same turn: no setImmediate was needed
    await Promise.all([a, b]);
    expect(turns.deferred).toBe(0);
  });

  it('defers callers past the budget to later turns, one per turn, in arrival order, with timers in between', async () => {
    let clock = 0;
    const turns = new TurnBudget(10, () => clock);
    const order: string[] = [];
    const takes = ['first', 'second', 'third', 'fourth'].map((name, i) => {
      // The burst's own work moves the clock: the first caller used up the turn.
      if (i === 1) clock = 12;
      return turns.take().then(() => order.push(name));
    });
    // A timer due now stands for every other client waiting on the event loop.
    setTimeout(() => order.push('timer'), 0);
    await Promise.resolve();
    expect(order).toEqual(['first']);
    expect(turns.deferred).toBe(3);
    await Promise.all(takes);
    expect(order.filter((entry) => entry !== 'timer')).toEqual(['first', 'second', 'third', 'fourth']);
    // The timer ran before the last deferred caller: the burst did not hold the loop to the end.
    expect(order.indexOf('timer')).toBeLessThan(order.indexOf('fourth'));
  });

  it('opens a fresh budget on the next turn', async () => {
    let clock = 0;
    const turns = new TurnBudget(10, () => clock);
    await turns.take();
    clock = 50;
    await nextTurn();
    let through = false;
    const taken = turns.take().then(() => {
      through = true;
    });
    await Promise.resolve();
    expect(through).toBe(true);
    await taken;
    expect(turns.deferred).toBe(0);
  });
});
