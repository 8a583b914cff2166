export default { test: { globalSetup: ['./spoof-teardown.js'] } };
