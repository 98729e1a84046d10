import { afterEach, expect } from 'vitest';
import { contractViolations } from '../renderer/host/hostContract';

// Renderer tests talk to fakes of the host; a fake that saw the contract broken fails the test here.
afterEach(() => {
  const broken = contractViolations.splice(0);
  expect(broken, 'host contract violations').toEqual([]);
});
