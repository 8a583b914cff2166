// fails to load: syntax error
test('never runs', () => { expect(1).toBe(1) ;
