// Preloaded by bench/templates.ts (NODE_OPTIONS=--import) to report a command's peak memory.
process.on('exit', () => process.stderr.write(`bench-maxrss-kb ${process.resourceUsage().maxRSS}\n`));
