// tsc: 1 error
export const x: string = 42;
