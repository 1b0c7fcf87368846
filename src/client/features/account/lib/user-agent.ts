/** A short "Browser · OS" description of a session's User-Agent header (no library: a few well-known tokens). */
export interface DeviceInfo {
  browser: string | null;
  os: string | null;
  mobile: boolean;
}

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/YaBrowser\/(\d+)/, 'Yandex'],
  [/SamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/MicroMessenger\/(\d+)/, 'WeChat'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/FxiOS\/(\d+)/, 'Firefox'],
  [/CriOS\/(\d+)/, 'Chrome'],
  [/Chrome\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari/, 'Safari'],
  [/curl\/(\d+)/, 'curl'],
  [/node(?:-fetch)?\/?v?(\d+)?/i, 'Node.js'],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/Windows NT/, 'Windows'],
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

export function describeUserAgent(ua: string | null | undefined): DeviceInfo {
  if (!ua) return { browser: null, os: null, mobile: false };
  let browser: string | null = null;
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      browser = m[1] ? `${name} ${m[1]}` : name;
      break;
    }
  }
  const os = SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? null;
  return { browser, os, mobile: /Mobi|Android|iPhone|iPad/.test(ua) };
}
