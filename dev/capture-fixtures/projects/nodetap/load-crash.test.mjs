// dies while loading, before any test is defined
import t from 'tap';
throw new Error('cannot load');
