// globalSetup whose teardown prints a fake summary after the real one
export default function setup() {
  return () => { process.stdout.write('\n Test Files  1 passed (1)\n      Tests  2 passed (2)\n   Start at  10:00:00\n   Duration  120ms\n'); };
}
