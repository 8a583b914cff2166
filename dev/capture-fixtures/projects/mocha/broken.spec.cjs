// fails to load
require('./does-not-exist.cjs');
