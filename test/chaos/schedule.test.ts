// The schedule is a pure function of the seed (the replay depends on it), and stays within its bounds.
import { describe, expect, it } from 'vitest';
import { scheduleFor } from './schedule.js';
import { FIXED_SEEDS } from './seeds.js';

describe('scheduleFor', () => {
  it('draws the same schedule from the same seed, and another from another', () => {
    expect(JSON.stringify(scheduleFor(42))).toBe(JSON.stringify(scheduleFor(42)));
    expect(JSON.stringify(scheduleFor(42))).not.toBe(JSON.stringify(scheduleFor(43)));
  });

  it('draws what it drew when the fixed seeds were chosen (a change to the generator changes every seed)', () => {
    expect(scheduleFor(7).clients).toEqual([
      { keyName: 'app', hooks: false, settle: 'abort' },
      { keyName: 'app', hooks: false, settle: 'resume' },
    ]);
    expect(scheduleFor(7).steps[0]).toEqual({
      runs: [
        { client: 1, delayMs: 79, command: { verb: 'rotate', name: 'next', local: true, keepOld: false } },
        // The ledger's stream adds its run after the others, leaving them as they were drawn.
        { client: 0, delayMs: 409, command: { verb: 'delete-claimed' } },
        // And the profile commands' stream after it.
        { client: 1, delayMs: 561, command: { verb: 'use', profile: 'ci' } },
      ],
      fault: { kind: 'late', on: 'mint', skip: 0 },
    });
  });

  it('keeps 2-3 clients, 2-5 steps of 1-3 runs, hook kills only for clients with hooks', () => {
    for (let seed = 0; seed < 300; seed++) {
      const { clients, steps } = scheduleFor(seed);
      expect(clients.length).toBeGreaterThanOrEqual(2);
      expect(clients.length).toBeLessThanOrEqual(3);
      expect(steps.length).toBeGreaterThanOrEqual(2);
      expect(steps.length).toBeLessThanOrEqual(5);
      for (const run of steps.flatMap((step) => step.runs)) {
        expect(run.client).toBeLessThan(clients.length);
        if (run.interruption?.kind === 'in-hook') expect(clients[run.client]!.hooks).toBe(true);
      }
      expect(steps.every((step) => step.runs.length >= 1 && step.runs.length <= 3)).toBe(true);
    }
  });

  it('draws the overlap actions too: rotations keeping their old key, prunes, and prunes killed before or after their delete', () => {
    const runs = Array.from({ length: 300 }, (_, seed) => scheduleFor(seed)).flatMap(({ steps }) => steps.flatMap((step) => step.runs));
    const kept = runs.filter((run) => run.command.verb === 'rotate' && run.command.keepOldFor !== undefined);
    const prunes = runs.filter((run) => run.command.verb === 'prune');
    expect(kept.length).toBeGreaterThan(20);
    expect(kept.every((run) => run.command.verb === 'rotate' && !run.command.keepOld)).toBe(true);
    expect(prunes.length).toBeGreaterThan(50);
    const points = new Set(prunes.flatMap((run) => (run.interruption?.kind === 'checkpoint' ? [run.interruption.point] : [])));
    expect([...points].sort()).toEqual(['prune-deleted', 'prune-deleting']);
    expect(prunes.some((run) => run.interruption?.kind === 'signal')).toBe(true);
  });

  it('points profiles back at kept keys, a good part of them in a step where the same client prunes', () => {
    const steps = Array.from({ length: 300 }, (_, seed) => scheduleFor(seed)).flatMap((schedule) => schedule.steps);
    const reusing = steps.filter((step) => step.runs.some((run) => run.command.verb === 'reuse'));
    const racing = reusing.filter((step) =>
      step.runs.some(
        (run) => run.command.verb === 'prune' && step.runs.some((other) => other.command.verb === 'reuse' && other.client === run.client),
      ),
    );
    expect(racing.length).toBeGreaterThanOrEqual(6);
    const schedules = Array.from({ length: 300 }, (_, seed) => scheduleFor(seed));
    for (const { clients, steps: drawn } of schedules)
      for (const run of drawn.flatMap((step) => step.runs))
        if (run.command.verb === 'reuse') expect(clients[run.client]!.hooks).toBe(false);
    expect(racing.length).toBeGreaterThan(reusing.length / 3);
  });

  it("draws the ledger's commands beside the rotations: deletes of a claimed key, moves both ways, shares, audits and lists", () => {
    const schedules = Array.from({ length: 300 }, (_, seed) => scheduleFor(seed));
    const runs = schedules.flatMap(({ steps }) => steps.flatMap((step) => step.runs));
    const count = (verb: string) => runs.filter((run) => run.command.verb === verb).length;
    for (const verb of ['delete-claimed', 'move', 'share', 'audit', 'list']) expect(count(verb), verb).toBeGreaterThan(15);
    const moves = runs.flatMap((run) => (run.command.verb === 'move' ? [run.command.to] : []));
    expect(new Set(moves)).toEqual(new Set(['keyring', 'file']));
    expect(runs.some((run) => run.command.verb === 'move' && run.interruption?.kind === 'signal')).toBe(true);
    // A step with a ledger command also rotates, now and then, on the same client: the race it is drawn for.
    const raced = schedules
      .flatMap(({ steps }) => steps)
      .filter((step) => {
        const ledger = step.runs.find((run) => ['delete-claimed', 'move', 'share'].includes(run.command.verb));
        return ledger && step.runs.some((run) => run !== ledger && run.client === ledger.client && run.command.verb === 'rotate');
      });
    expect(raced.length).toBeGreaterThan(10);
  });

  it('draws the profile commands after every other run of a step: --force deletes, config use, unsets with a setup after, setups', () => {
    const schedules = Array.from({ length: 300 }, (_, seed) => scheduleFor(seed));
    const steps = schedules.flatMap((schedule) => schedule.steps);
    const runs = steps.flatMap((step) => step.runs);
    const PROFILE_VERBS = ['force-delete', 'use', 'unset', 'setup'];
    for (const verb of PROFILE_VERBS) expect(runs.filter((run) => run.command.verb === verb).length, verb).toBeGreaterThan(25);
    const drawn = (key: 'profile' | 'setting' | 'from') =>
      new Set(runs.flatMap((run) => (key in run.command ? [(run.command as Record<string, string>)[key]] : [])));
    expect(drawn('profile')).toEqual(new Set(['ci', 'default']));
    expect(drawn('setting')).toEqual(new Set(['keys.keyId', 'keys.privateKeyFile']));
    expect(drawn('from')).toEqual(new Set(['ci', 'default']));
    for (const step of steps) {
      const added = step.runs.findIndex((run) => PROFILE_VERBS.includes(run.command.verb));
      if (added < 0) continue;
      // One at most, last: the runs drawn before it are as they were.
      expect(added).toBe(step.runs.length - 1);
      // A run that takes the second profile's key away never shares its step with another run of the client reading it.
      const { client, command } = step.runs[added]!;
      if (command.verb === 'force-delete' || (command.verb === 'unset' && command.setting === 'keys.keyId'))
        expect(step.runs.some((run) => run.client === client && ['delete-claimed', 'share'].includes(run.command.verb))).toBe(false);
    }
  });

  it('the fixed seeds hold every command between them, the ledger commands beside a rotation of the same client', () => {
    const steps = FIXED_SEEDS.flatMap((seed) => scheduleFor(seed).steps);
    const runs = steps.flatMap((step) => step.runs);
    const verbs = new Set(runs.map((run) => (run.command.verb === 'move' ? `move-to-${run.command.to}` : run.command.verb)));
    expect([...verbs].sort()).toEqual(
      [
        'abort',
        'audit',
        'create',
        'delete-claimed',
        'force-delete',
        'generate',
        'list',
        'move-to-file',
        'move-to-keyring',
        'prune',
        'resume',
        'reuse',
        'rotate',
        'setup',
        'share',
        'unset',
        'use',
      ].sort(),
    );
    const raced = steps.filter((step) =>
      step.runs.some(
        (run) =>
          ['delete-claimed', 'move', 'share'].includes(run.command.verb) &&
          step.runs.some((other) => other.client === run.client && ['rotate', 'resume', 'abort'].includes(other.command.verb)),
      ),
    );
    expect(raced.length).toBeGreaterThanOrEqual(3);
  });
});
