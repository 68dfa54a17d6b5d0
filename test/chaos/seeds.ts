// The seeds `npm test` runs (chaos.test.ts), chosen for what their schedules hold between them: every command,
// fault and interruption, hooks killed mid-run, two processes on one config dir, three clients, the ledger's
// commands beside rotations, and the races that broke the lifecycle before (schedule.test.ts checks the mix).
export const FIXED_SEEDS = [7, 12, 16, 21, 23, 26, 27, 36, 37, 51, 53, 59, 60, 62, 72, 74, 330];
