// fails to load
import { nothing } from './does-not-exist.mjs';
nothing();
