// The one reader of state/judgments/<bead>.json outside the judge: validated, a corrupt file a note (never thrown).
import { CorruptStateError, type StateStore } from './store.js';
import type { Judgment } from '../schema/types.generated.js';

interface StoredJudgment {
  /** The validated judgment, or null when there is none or it is corrupt. */
  judgment: Judgment | null;
  /** Why there is no usable judgment, when a file exists but cannot be used. */
  note: string | null;
}

export function readStoredJudgment(store: StateStore, bead: string): StoredJudgment {
  try {
    return { judgment: store.read<Judgment>('judgments', bead), note: null };
  } catch (e) {
    if (e instanceof CorruptStateError) return { judgment: null, note: `judgment not used: ${e.message}` };
    throw e;
  }
}
