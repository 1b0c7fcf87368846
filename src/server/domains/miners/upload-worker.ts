/**
 * The upload worker (a worker thread of the server, upload-parser.ts): reads, checks and prepares agent uploads off the
 * main thread, so a 30 MB upload's JSON parse, check and parameter building (~1 s of CPU per 20,000 miners) neither
 * stalls every other request nor waits for the database. Per upload it answers the head (or why the upload is
 * refused), then each chunk's parameters as soon as they are made, then the end.
 */
import { parentPort } from 'node:worker_threads';
import { prepareChunks, readUpload } from './upload-prepare';
import type { WorkerReply, WorkerRequest } from './upload-parser';

const port = parentPort;
if (!port) throw new Error('upload-worker runs as a worker thread');

port.on('message', (req: WorkerRequest) => {
  const send = (reply: WorkerReply) => port.postMessage(reply);
  try {
    const r = readUpload(Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength).toString('utf8'), new Set(req.offShelf));
    if (!r.ok) {
      send(r.invalidJson ? { id: req.id, type: 'invalid', json: true } : { id: req.id, type: 'invalid', fields: r.fields });
      return;
    }
    send({ id: req.id, type: 'head', head: r.head });
    for (const chunk of prepareChunks(r.latest, req.chunkSize)) send({ id: req.id, type: 'chunk', chunk });
    send({ id: req.id, type: 'end' });
  } catch (err) {
    send({ id: req.id, type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
});
