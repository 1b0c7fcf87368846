/**
 * Whatsminer error-code messages (miner-protocols.md §9.2): fixed codes plus the slot/chip patterns.
 * Unknown codes get a generic message carrying the code.
 */

const FIXED: Record<number, string> = {
  100: 'Fan unknown.', 110: 'Intake fan speed error.', 111: 'Exhaust fan speed error.',
  120: 'Intake fan speed error.  Fan speed deviates by more than 2000.', 121: 'Exhaust fan speed error.  Fan speed deviates by more than 2000.',
  130: 'Intake fan speed error.  Fan speed deviates by more than 3000.', 131: 'Exhaust fan speed error.  Fan speed deviates by more than 3000.',
  140: 'Fan speed too high.', 200: 'Power probing error.  No power found.', 201: "Power supply and configuration file don't match.",
  202: 'Power output voltage error.', 203: 'Power protecting due to high environment temperature.',
  204: 'Power current protecting due to high environment temperature.', 205: 'Power current error.', 206: 'Power input low voltage error.',
  207: 'Power input current protecting due to bad power input.', 208: 'Power power error.', 209: 'Power voltage offset error.', 210: 'Power error.',
  211: 'Power iout error, please reboot.', 212: 'Power vout error, reach vout border. Border: [1150, 1500]',
  213: 'Power input voltage and current do not match power output.', 214: 'Power pin did not change.', 215: 'Power vout set error.',
  216: 'Power remained unchanged for a long time.', 217: 'Power set enable error.', 218: 'Power input voltage is lower than 230V for high power mode.',
  219: 'Power input current is incorrect.', 263: 'Power communication warning.', 264: 'Power communication error.', 267: 'Power watchdog protection.',
  268: 'Power output high current protection.', 269: 'Power input high current protection.', 270: 'Power input high voltage protection.',
  271: 'Power input low voltage protection.', 272: 'Excessive power supply output warning.', 273: 'Power input too high warning.',
  274: 'Power fan warning.', 275: 'Power high temperature warning.', 329: 'Control board temperature sensor communication error.',
  360: 'Hashboard high temperature error.', 361: 'Hashboard high temperature error.', 362: 'Hashboard high temperature error.',
  363: 'Hashboard high temperature error.', 370: 'The environment temperature fluctuates too much.', 380: 'Humidity sensor not found.',
  381: 'Humidity sensor read error.', 382: 'Humidity sensor read error.', 383: 'Humidity sensor protecting.', 400: 'Eeprom unknown error.',
  500: 'Board unknown error.', 600: 'Environment temperature is too high.', 610: 'Environment temperature is too high for high performance mode.',
  700: 'MAC address invalid', 701: 'Control board no support chip.', 710: 'Control board rebooted as an exception.',
  711: 'Control board rebooted as exception and cpufreq reduced, please upgrade the firmware', 712: 'Control board rebooted as an exception.',
  713: 'The network is unstable, change time.', 714: 'Unknown error.', 800: 'CGMiner checksum error.', 801: 'System monitor checksum error.',
  802: 'Remote daemon checksum error.', 810: 'Air to liquid PCB serial # does not match.', 900: 'Unknown error.', 901: 'Power rate error.',
  902: 'Unknown error.', 2000: 'No pool information configured.', 2010: 'All pools are disabled.', 2030: 'High rejection rate on pool.',
  2040: 'The pool does not support asicboost mode.', 2310: 'Hashrate is too low.', 2320: 'Hashrate is too low.', 2330: 'Hashrate loss is too high.',
  2340: 'Hashrate loss is too high.', 2350: 'Hashrate loss.', 5080: 'Chip temp calibration failed, please restore factory settings.',
  8000: 'The tool version is too low, please update.', 8010: 'Low freq.', 8020: 'Low hashrate.', 8035: 'High env temp.', 8100: 'Chip data error.',
  8200: 'Power version error.', 8210: 'Miner type error.', 8220: 'Version info error.', 8300: 'Empty level error.', 8400: 'Old firmware.',
  8410: 'Software version error.', 8600: 'Missing product serial #.', 8610: 'Missing product type.', 8620: 'Missing miner serial #.',
  8621: 'Wrong miner serial # length.', 8630: 'Missing power serial #.', 8631: 'Wrong power serial #.', 8632: 'Fault miner serial #.',
  8640: 'Missing power model.', 8641: 'Wrong power model name.', 8642: 'Wrong power model vout.', 8643: 'Wrong power model rate.',
  8644: 'Wrong power model format.', 8650: 'Wrong hash board struct.', 8660: 'Wrong miner cooling type.', 8670: 'Missing PCB serial #.',
  8700: 'Miner power mismatch.', 9000: 'Process error, exited with signal: 3.', 9010: 'Process error, exited with signal: 3.',
  9999: 'Miner unknown error.', 100000: 'Security library error, please upgrade firmware', 100001: '/antiv/signature illegal.',
  100002: '/antiv/dig/init.d illegal.', 100003: '/antiv/dig/pf_partial.dig illegal.', 100100: 'Security BTMiner removed, please upgrade firmware.',
  110000: 'Security illegal file, please upgrade firmware.', 110001: 'Security virus 0001 is removed, please upgrade firmware.',
};

/** 3-digit slot codes: prefix (2 digits) → template with {n} = slot. */
const SLOT3: Record<string, string> = {
  '30': 'Slot {n} temperature sensor detection error.', '32': 'Slot {n} temperature reading error.', '35': 'Slot {n} temperature protecting.',
  '41': 'Slot {n} eeprom detection error.', '42': 'Slot {n} eeprom parsing error.', '43': 'Slot {n} chip bin type error.',
  '44': 'Slot {n} eeprom chip number X error.', '45': 'Slot {n} eeprom xfer error.', '51': 'Slot {n} miner type error.',
  '52': 'Slot {n} bin type error.', '53': 'Slot {n} not found.', '54': 'Slot {n} error reading chip id.', '55': 'Slot {n} has bad chips.',
  '56': 'Slot {n} loss of balance error.', '57': 'Slot {n} xfer error chip.', '58': 'Slot {n} reset error.', '59': 'Slot {n} frequency too low.',
  '72': 'Control board slot {n} frame error.',
};

/** 4-digit slot codes `PPPn`. */
const SLOT4: Record<string, string> = {
  '202': 'Pool {n} connection failed.', '211': 'Slot {n} factory test step failed.', '501': 'Slot {n} chip voltage too low.',
  '502': 'Slot {n} chip voltage changed.', '503': 'Slot {n} chip temperature difference is too large.',
  '504': 'Slot {n} chip hottest temperature difference is too large.', '505': 'Slot {n} stopped hashing, chips temperature protecting.',
  '507': 'Slot {n} water velocity is abnormal.', '509': 'Slot {n} chip temp calibration check no balance.', '511': 'Slot {n} frequency up timeout.',
  '512': 'Slot {n} too many CRC errors.', '513': 'Slot {n} unstable.', '517': 'Slot {n} frequency up timeout.',
};

/** Chip codes `TTnc` (4 digits) / `TTnccc` (6 digits). */
const CHIP: Record<string, string> = {
  '52': 'Slot {n} chip {c} error nonce.', '53': 'Slot {n} chip {c} too few nonce.', '54': 'Slot {n} chip {c} temp protected.',
  '55': 'Slot {n} chip {c} has been reset.', '56': 'Slot {n} chip {c} zero nonce.',
};

export function whatsminerErrorMessage(code: number): string {
  const fixed = FIXED[code];
  if (fixed) return fixed;
  const s = String(code);
  const fill = (t: string, n: string, c = '') => t.replace('{n}', String(Number(n))).replace('{c}', String(Number(c)));
  if (s.length === 3) {
    const t = SLOT3[s.slice(0, 2)];
    if (t) return fill(t, s.slice(2));
    if (/^2[3-9]\d$/.test(s)) return 'Power protection or vendor status error.';
  }
  if (s.length === 4) {
    const t4 = SLOT4[s.slice(0, 3)];
    if (t4) return fill(t4, s.slice(3));
    if (/^85\d[0-4]$/.test(s)) return ['Hashrate substandard L{n}.', 'Power consumption substandard L{n}.', 'Fan speed substandard L{n}.', 'Fan speed substandard L{n}.', 'Voltage substandard L{n}.'][Number(s[3])]!.replace('{n}', s[2] ?? '');
    const tc = CHIP[s.slice(0, 2)];
    if (tc) return fill(tc, s[2] ?? '0', s[3] ?? '0');
  }
  if (s.length === 6 && !s.startsWith('1')) {
    const tc = CHIP[s.slice(0, 2)];
    if (tc) return fill(tc, s[2] ?? '0', s.slice(3));
  }
  return `Whatsminer error ${code}.`;
}
