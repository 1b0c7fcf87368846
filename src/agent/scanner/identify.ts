import type { FirmwareFamily } from '@shared/schemas/miner-snapshot';
import { displayModel, makeOf } from '../catalogue';
import type { DriverEnv, IdentifiedMiner } from '../miner-types';
import { arr, obj, parseCompileTime, str } from '../normalise-util';
import { AntminerWeb } from '../protocols/antminer-web';
import { buildRequest, parseReply, rpcCommand, rpcExchange, type RpcObject } from '../protocols/cgminer-rpc';
import { httpRequest, type HttpResponse } from '../protocols/http-client';

/**
 * Identification per miner-protocols.md §7: HTTP `GET /` and RPC `version` in parallel, classify by the
 * first recognisable answer (custom firmware wins over stock on Antminer hardware), then one model query
 * per family (Antminer: version Type / get_system_info; Whatsminer: devdetails Model + get_version fw_ver;
 * Braiins: devdetails Model; VNish: stats STATS[0].Type; LuxOS: version Type).
 */

function classifyWeb(res: HttpResponse | null): FirmwareFamily | null {
  if (!res) return null;
  const auth = res.headers['www-authenticate'];
  const authText = Array.isArray(auth) ? auth.join(' ') : (auth ?? '');
  if (res.status === 401 && /realm="antMiner/.test(authText)) return 'antminer-stock';
  const loc = String(res.headers['location'] ?? '');
  if ((res.status === 307 || res.status === 302 || res.status === 301) && (/^https:/i.test(loc) || /\/cgi-bin\/luci/.test(res.body))) return 'whatsminer';
  if (/\/cgi-bin\/luci/.test(res.body) && /whatsminer/i.test(res.body)) return 'whatsminer';
  if (res.body.includes('Braiins OS')) return 'braiins';
  if (res.body.includes('Luxor Firmware')) return 'luxos';
  if (res.body.includes('AnthillOS')) return 'vnish';
  return null;
}

function classifyRpc(raw: string | null): FirmwareFamily | null {
  if (!raw) return null;
  const u = raw.toUpperCase();
  if (u.includes('BOSMINER') || u.includes('BOSER')) return 'braiins';
  if (u.includes('BTMINER') || u.includes('BITMICRO')) return 'whatsminer';
  if (u.includes('LUXMINER')) return 'luxos';
  if (u.includes('VNISH')) return 'vnish';
  if (u.includes('ANTMINER') && !u.includes('DEVDETAILS')) return 'antminer-stock';
  return null;
}

function ymd(iso: string | null): string {
  return iso ? iso.slice(0, 10).replace(/-/g, '') : '';
}

/** Identifies one address; null when nothing answers (or what answers is not a miner). */
export async function identifyMiner(ip: string, env: DriverEnv): Promise<IdentifiedMiner | null> {
  const o = { connectTimeoutMs: env.connectTimeoutMs, timeoutMs: env.rpcTimeoutMs };
  const [rpcRaw, web] = await Promise.all([
    rpcExchange(ip, env.ports.rpc, buildRequest('version'), { ...o, completeWhenJson: true }).catch(() => null),
    httpRequest(ip, env.ports.web, '/', { timeoutMs: env.webTimeoutMs, maxBytes: 64 * 1024 }).catch(() => null),
  ]);
  if (rpcRaw === null && web === null) return null;
  let rpcReply: RpcObject | null = null;
  if (rpcRaw) {
    try {
      rpcReply = parseReply(rpcRaw);
    } catch {
      rpcReply = null;
    }
  }
  const fromWeb = classifyWeb(web);
  const fromRpc = classifyRpc(rpcRaw);
  // custom firmware on Antminer hardware wins over a stock-looking answer
  let family: FirmwareFamily | null = fromRpc && fromRpc !== 'antminer-stock' ? fromRpc : (fromWeb ?? fromRpc);
  if (fromWeb && fromWeb !== 'antminer-stock' && family === 'antminer-stock') family = fromWeb;
  if (!family) {
    // VNish answers `version` with "Invalid command": try stats before giving up
    if (rpcReply) {
      try {
        const st = await rpcCommand(ip, env.ports.rpc, 'stats', o);
        if (/VNISH/i.test(JSON.stringify(st))) family = 'vnish';
        else if (/ANTMINER/i.test(JSON.stringify(st))) family = 'antminer-stock';
      } catch {
        // not a miner we know
      }
    }
    if (!family) return null;
  }
  const mk = (reported: string, firmwareVersion: string, compileTime: string | null, extra: Partial<IdentifiedMiner> = {}): IdentifiedMiner => ({
    ip,
    family: family as FirmwareFamily,
    make: makeOf(reported, family as FirmwareFamily),
    model: displayModel(reported, family as FirmwareFamily),
    reportedModel: reported,
    firmwareVersion,
    compileTime,
    ...extra,
  });

  switch (family) {
    case 'antminer-stock': {
      const v = obj(arr(rpcReply?.['VERSION'])[0]);
      let type = str(v['Type']);
      let ct = str(v['CompileTime']);
      if (!type) {
        // RPC down (process not running): the web API still tells the model
        try {
          const sys = await new AntminerWeb(ip, env.ports.web, { credentials: env.credentials.antminer, timeoutMs: env.webTimeoutMs }).getSystemInfo();
          type = str(sys['minertype']);
          ct = ct || str(sys['system_filesystem_version']);
        } catch {
          type = type || 'Antminer';
        }
      }
      const iso = parseCompileTime(ct);
      return mk(type, ct, iso, { newApi: ymd(iso) >= '20230701' });
    }
    case 'whatsminer': {
      const [dd, gv] = await Promise.all([
        rpcCommand(ip, env.ports.rpc, 'devdetails', { ...o, completeWhenJson: true }).catch(() => null),
        rpcCommand(ip, env.ports.rpc, 'get_version', { ...o, completeWhenJson: true, cmdKey: 'cmd' }).catch(() => null),
      ]);
      const model = str(obj(arr(dd?.['DEVDETAILS'])[0])['Model']);
      const fw = str(obj(gv?.['Msg'])['fw_ver']).replace(/'/g, '');
      const iso = parseCompileTime(fw);
      return mk(model || 'Whatsminer', fw, iso, { whatsminerApi: ymd(iso) >= '20241101' ? 'v3' : 'v2' });
    }
    case 'braiins': {
      const dd = await rpcCommand(ip, env.ports.rpc, 'devdetails', o).catch(() => null);
      const model = str(obj(arr(dd?.['DEVDETAILS'])[0])['Model']);
      const v = obj(arr(rpcReply?.['VERSION'])[0]);
      const ver = str(v['BOSer']) || str(v['BOSminer']) || str(obj(arr(rpcReply?.['STATUS'])[0])['Description']);
      return mk(model || 'Antminer', ver, parseCompileTime(/(20\d{2}-\d{2}-\d{2})/.exec(ver)?.[1] ?? null));
    }
    case 'vnish': {
      const st = await rpcCommand(ip, env.ports.rpc, 'stats', o).catch(() => null);
      const s0 = obj(arr(st?.['STATS'])[0]);
      const type = str(s0['Type']);
      const ver = str(s0['Cgminer']) || (/Vnish\s+([\d.]+)/i.exec(type)?.[1] ?? '');
      return mk(type || 'Antminer', ver, parseCompileTime(str(s0['CompileTime'])));
    }
    default: {
      const v = obj(arr(rpcReply?.['VERSION'])[0]);
      return mk(str(v['Type']), str(v['LUXminer']) || str(v['Miner']), parseCompileTime(str(v['CompileTime'])));
    }
  }
}

