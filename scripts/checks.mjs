// The static checks `npm test` runs before vitest, in two lanes at once (the machines that
// run it have two cores): eslint alone takes ~40 s, prettier, tsc, knip and the OpenAPI lint
// ~45 s, one after another ~85 s. Each check's output is printed whole when it ends, so the
// lanes' lines never interleave; the exit code is 1 when any check failed.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const LANES = [['lint'], ['format:check', 'typecheck', 'knip', 'lint:openapi']];

/** Runs `npm run <script>`; resolves with whether it passed, after printing its output. */
function run(script) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.once('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.once('close', (code) => {
      const passed = code === 0;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n> ${script}: ${passed ? 'passed' : `failed (exit ${code})`} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(passed);
    });
  });
}

/** A lane's checks one after another; all of them run even when one fails. */
async function lane(scripts) {
  let passed = true;
  for (const script of scripts) passed = (await run(script)) && passed;
  return passed;
}

const results = await Promise.all(LANES.map(lane));
if (results.includes(false)) process.exitCode = 1;
