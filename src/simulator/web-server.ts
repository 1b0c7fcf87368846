import http from 'node:http';
import { plainIPv4 } from './cidr';
import { MultipartParser } from './multipart';
import { refuseSocket, resetSocket, type MinerLookup } from './rpc-server';
import { SLOW_REPLY_MS, type SimEnv } from './sim-types';
import { textReply, type WebReply, type WebRequest } from './web-types';
import { antminerStockWeb } from './devices/antminer-stock';
import { braiinsWeb } from './devices/braiins';
import type { SimMiner } from './devices/sim-miner';
import { luxosWeb } from './devices/luxos';
import { vnishWeb } from './devices/vnish';
import { whatsminerWeb } from './devices/whatsminer';

const MAX_BODY_BYTES = 1024 * 1024;

function route(m: SimMiner, req: WebRequest, env: SimEnv): WebReply {
  switch (m.family) {
    case 'whatsminer': return whatsminerWeb(m, req);
    case 'braiins': return braiinsWeb(m, req, env);
    case 'vnish': return vnishWeb(m, req, env);
    case 'luxos': return luxosWeb(m, req);
    default: return antminerStockWeb(m, req, env);
  }
}

/** The fleet's single web listener (port 80): each miner's web UI/API, chosen by the local address dialled. */
export function createWebServer(lookup: MinerLookup, env: SimEnv): http.Server {
  const server = http.createServer((req, res) => {
    const socket = req.socket;
    const m = lookup(plainIPv4(socket.localAddress));
    if (!m || m.state !== 'online') {
      refuseSocket(socket, m);
      return;
    }
    if (m.quirk === 'reset') {
      resetSocket(socket);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://sim');
    const boundary = MultipartParser.boundaryOf(req.headers['content-type']);
    const parser = boundary ? new MultipartParser(boundary) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c: Buffer) => {
      if (parser) {
        parser.write(c);
        return;
      }
      size += c.length;
      if (size > MAX_BODY_BYTES) tooBig = true;
      else chunks.push(c);
    });
    req.on('error', () => socket.destroy());
    req.on('end', () => {
      let reply: WebReply;
      if (tooBig) reply = textReply('Request Entity Too Large', 413);
      else {
        const wr: WebRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks) };
        if (parser) wr.upload = parser.result;
        try {
          reply = route(m, wr, env);
        } catch (e) {
          reply = textReply(`internal error: ${(e as Error).message}`, 500);
        }
      }
      const send = (): void => {
        if (res.destroyed) return;
        if (m.state !== 'online') {
          resetSocket(socket);
          return;
        }
        const body = typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body;
        res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(body.length) });
        if (reply.after) res.on('finish', reply.after);
        res.end(body);
      };
      if (m.quirk === 'slow') setTimeout(send, SLOW_REPLY_MS);
      else send();
    });
  });
  server.on('connection', (socket) => {
    const m = lookup(plainIPv4(socket.localAddress));
    if (!m || m.state !== 'online') refuseSocket(socket, m);
  });
  server.keepAliveTimeout = 5000;
  return server;
}
