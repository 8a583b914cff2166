// 1 pass, 1 timeout
test('quick', () => {});
test('slow', () => new Promise((r) => setTimeout(r, 2000)), 100);
