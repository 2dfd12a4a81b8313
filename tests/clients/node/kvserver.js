// Starts the real kvserver binary on a free loopback port (--port 0 --port-file) for the client
// library tests, and loads the library under test from this folder's node_modules.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// The libraries come from the committed package-lock.json via scripts/setup.sh; a missing
// node_modules is a broken setup, so the test fails rather than skips.
function requireLibrary(name) {
  try {
    return require(name);
  } catch (e) {
    console.error(`client library '${name}' is not installed (${e.code}): run scripts/setup.sh, ` +
                  `which runs 'npm ci --prefix tests/clients/node'`);
    process.exit(1);
  }
}

function libraryVersion(name) {
  return require(`${name}/package.json`).version;
}

async function startKvserver(binary) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kv-node-'));
  const portFile = path.join(dir, 'port');
  let output = '';
  // --save '': nothing is written to the working directory.
  const child = spawn(binary,
                      ['--port', '0', '--bind', '127.0.0.1', '--port-file', portFile, '--save', ''],
                      { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 10000;
  while (!fs.existsSync(portFile)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`kvserver did not write its port file:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const port = Number(fs.readFileSync(portFile, 'utf8').trim());
  return {
    port,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function kvserverBinary() {
  const binary = process.argv[2] || process.env.KVSERVER;
  if (!binary) {
    console.error(`usage: node ${path.basename(process.argv[1])} /path/to/kvserver [library]`);
    process.exit(2);
  }
  return binary;
}

module.exports = { requireLibrary, libraryVersion, startKvserver, kvserverBinary };
