/**
 * `pbf-explorer`, the command line: the page's engine (the same Wasm decoder, pool, query
 * language and semantics) for scripts. Exit codes: 0 success, 1 a query error (the page's
 * messages), 2 bad usage.
 */
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { fileInfoRows } from '../workers/common/file-info-rows';
import { parseCommand, USAGE, UsageError, type Command } from './args';
import { writeAnswer } from './output';
import { printable } from './printable';
import { progressLine } from './progress';
import { optimizeFile, type Optimized } from './optimize';
import { readTarget } from './read';
import { serveApp } from './serve';
import { programOf } from './elsewhere';

/**
 * Runs `write` into a new file at `path` and waits until it is on disk.
 * @throws Error when the file cannot be created or written (the system's message, with `path`).
 */
async function writeAnswerTo(path: string, write: (out: Writable) => Promise<void>): Promise<void> {
  const out = createWriteStream(path);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  await Promise.race([write(out), failed]);
  out.end();
  await Promise.race([new Promise((resolve) => out.once('finish', resolve)), failed]);
}

/** A message on stderr; file names, servers' words and data in it are escaped (`printable`). */
const say = (text: string) => process.stderr.write(`pbf-explorer: ${printable(text)}\n`);

async function run(command: Command): Promise<void> {
  if (command.name === 'help') {
    process.stdout.write(command.text);
    return;
  }
  if (command.name === 'sql') {
    process.stdout.write(programOf(command.engine, command.target, command.query));
    return;
  }
  if (command.name === 'serve') {
    const { url } = await serveApp(command.file, command.port);
    process.stdout.write(`pbf-explorer: the app is at ${url}\n(Ctrl-C stops it)\n`);
    return new Promise(() => {}); // serves until stopped
  }
  if (command.name === 'optimize') {
    const status = process.stderr.isTTY ? (line: string) => process.stderr.write(`\r\x1b[K${line}`) : () => {};
    let written: Optimized;
    try {
      written = await optimizeFile(command.target, command.out, status);
    } finally {
      status(''); // cleared before the result, or the error, is written
    }
    const { bytes, indexBytes, blobs } = written;
    process.stdout.write(`${command.out}: ${bytes} bytes in ${blobs} blobs; ${command.out}.idx: ${indexBytes} bytes\n`);
    return;
  }
  const progress = progressLine(process.stderr);
  const onProgress = progress.update;
  try {
    if (command.name === 'query') {
      const { target } = command;
      // Only GeoJSON's and GeoParquet's metadata show the file's facts: other formats skip the newest timestamp (4–7 % of a read).
      const query = command.format === 'geojson' || command.format === 'geoparquet' ? command.query : { ...command.query, newest_timestamp: false };
      const index = command.useIndex ? { kind: 'beside' as const } : { kind: 'none' as const };
      const onIndexRefused = (reason: string) => say(`not using the index beside ${target} (${reason}): reading the whole file`);
      const { assembler, info } = await readTarget(target, query, { threads: command.threads, index, onProgress, onIndexRefused });
      progress.clear();
      if (command.out === null) await writeAnswer(process.stdout, assembler, command.format, info, query);
      else await writeAnswerTo(command.out, (out) => writeAnswer(out, assembler, command.format, info, query));
      assembler.free();
    } else if (command.name === 'info') {
      const { assembler, info } = await readTarget(command.target, null, { threads: command.threads, index: { kind: 'none' }, onProgress });
      assembler.free();
      progress.clear();
      const text = command.json ? JSON.stringify(info, null, 2) + '\n' : fileInfoRows(info).map(([label, text]) => `${label}: ${text}\n`).join('');
      process.stdout.write(printable(text));
    } else {
      let written = 0;
      const onBuilt = async (bytes: Uint8Array) => {
        await writeFile(command.out, bytes);
        written = bytes.length;
      };
      const { assembler, info } = await readTarget(command.target, null, { threads: command.threads, index: { kind: 'build', onBuilt }, onProgress });
      assembler.free();
      progress.clear();
      if (!written) throw new Error(`${command.target} is a history file: it gets no blob index`);
      process.stdout.write(`${command.out}: ${written} bytes (${((written / info.size) * 100).toFixed(2)} % of the file)\n`);
    }
  } finally {
    progress.clear();
  }
}

/** Runs the command in `argv` (the words after the program) and resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv, process.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    say(e.message);
    process.stderr.write(`\n${USAGE}`);
    return 2;
  }
  try {
    await run(command);
    return 0;
  } catch (e) {
    say(`error: ${(e as Error).message ?? e}`);
    return 1;
  }
}

// A reader that stops early (`| head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => process.exit(e.code === 'EPIPE' ? 0 : 1));
process.exitCode = await main(process.argv.slice(2));
