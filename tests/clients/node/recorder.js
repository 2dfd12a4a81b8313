// A loopback proxy in front of a server that records every command its clients send, so a test
// can state exactly what a client library sends at connect.
'use strict';
const net = require('node:net');

// One RESP multibulk request at the front of `buf`: { args, length }, or null if incomplete.
// Client libraries send nothing else.
function parseRequest(buf) {
  if (buf.length === 0) return null;
  if (buf[0] !== 0x2a) throw new Error(`not a multibulk request: ${buf.subarray(0, 20)}`);
  let end = buf.indexOf('\r\n');
  if (end < 0) return null;
  const count = Number(buf.subarray(1, end));
  let pos = end + 2;
  const args = [];
  for (let i = 0; i < count; i++) {
    end = buf.indexOf('\r\n', pos);
    if (end < 0) return null;
    const len = Number(buf.subarray(pos + 1, end));
    const start = end + 2;
    if (buf.length < start + len + 2) return null;
    args.push(buf.subarray(start, start + len).toString());
    pos = start + len + 2;
  }
  return { args, length: pos };
}

// Listens on a free loopback port and forwards each connection to 127.0.0.1:`port`; `commands`
// gets each request's arguments, in order.
async function startRecorder(port) {
  const commands = [];
  const sockets = new Set();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    let pending = Buffer.alloc(0);
    client.on('data', (data) => {
      pending = Buffer.concat([pending, data]);
      for (let r = parseRequest(pending); r; r = parseRequest(pending)) {
        commands.push(r.args);
        pending = pending.subarray(r.length);
      }
      upstream.write(data);
    });
    upstream.on('data', (data) => client.write(data));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: proxy.address().port,
    commands,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}

// The commands a client sent before its first PING, written as "HELLO 3", "CLIENT SETINFO
// LIB-NAME <name>" (argument values that vary by version are kept: the test compares them).
function beforeFirstPing(commands) {
  const ping = commands.findIndex((c) => c[0].toUpperCase() === 'PING');
  return (ping < 0 ? commands : commands.slice(0, ping)).map((c) => c.join(' '));
}

// The number of error replies in an INFO errorstats text.
function errorCount(errorstats) {
  let n = 0;
  for (const m of String(errorstats).matchAll(/^errorstat_[^:]+:count=(\d+)/gm)) n += Number(m[1]);
  return n;
}

// For each of `modes` (name -> client options): opens a client through a recorder with
// `open(port, options)` (which resolves once the client has answered a PING) and closes it with
// `close(client)`. Returns, per mode, the commands sent before the PING and how many error
// replies the server counted meanwhile (`errorstats()` reads INFO errorstats on another
// connection).
async function recordConnects(serverPort, modes, open, close, errorstats) {
  const recorder = await startRecorder(serverPort);
  const sent = {};
  const errors = {};
  try {
    for (const [mode, options] of Object.entries(modes)) {
      const before = errorCount(await errorstats());
      recorder.commands.length = 0;
      const client = await open(recorder.port, options);
      sent[mode] = beforeFirstPing(recorder.commands);
      await close(client);
      errors[mode] = errorCount(await errorstats()) - before;
    }
  } finally {
    await recorder.close();
  }
  return { sent, errors };
}

module.exports = { recordConnects };
