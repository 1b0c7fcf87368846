/**
 * The agent's log in a file (--log-file), for hosts without a service manager that keeps it (a Windows scheduled
 * task discards a program's output; systemd's journal keeps it without this option). Each line is stamped with the
 * time; when the file would pass `maxBytes` it is renamed to `<file>.1` (replacing the previous one) and a new file
 * is started, so the log takes at most twice `maxBytes` on disk (one cycle line a minute is ~150 KB a day).
 */
import fs from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';

export const LOG_FILE_MAX_BYTES = 10 * 1024 * 1024;

export class RotatingLog {
  private size: number;

  constructor(
    readonly file: string,
    readonly maxBytes = LOG_FILE_MAX_BYTES,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.size = fileSize(file);
  }

  /** Appends one line (synchronously: a few lines a minute, and nothing is lost when the process then exits). */
  write(line: string, at = new Date()): void {
    const text = `${at.toISOString()} ${line}\n`;
    const bytes = Buffer.byteLength(text);
    if (this.size > 0 && this.size + bytes > this.maxBytes) {
      fs.renameSync(this.file, `${this.file}.1`);
      this.size = 0;
    }
    fs.appendFileSync(this.file, text);
    this.size += bytes;
  }
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Sends console.log / console.error / console.warn of this process to `file` (RotatingLog) instead of stdout / stderr. */
export function logToFile(file: string, maxBytes = LOG_FILE_MAX_BYTES): RotatingLog {
  const log = new RotatingLog(file, maxBytes);
  const write = (...args: unknown[]) => log.write(format(...args));
  console.log = write;
  console.error = write;
  console.warn = write;
  return log;
}
