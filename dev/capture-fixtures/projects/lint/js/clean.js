// clean
export const ok = 1;
