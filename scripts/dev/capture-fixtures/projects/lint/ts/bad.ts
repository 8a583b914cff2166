// tsc: 3 errors
const n: number = 'text';
function f(a: string): number { return a; }
f(1);
export {};
