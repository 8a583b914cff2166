// 1 pass, then the worker process is killed outright (no exit handler can run)
import { test } from 'vitest';
test('before kill', () => {});
test('kills the worker', () => { process.kill(process.pid, 'SIGKILL'); });
test('after kill', () => {});
