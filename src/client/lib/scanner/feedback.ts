/** Scan feedback where the device has it: a short vibration and a beep (a lower double beep for a rejected read). */
let audio: AudioContext | null = null;

function beep(frequency: number, ms: number, delayMs = 0): void {
  try {
    const Ctx = window.AudioContext ?? (window as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    audio ??= new Ctx();
    if (audio.state === 'suspended') void audio.resume();
    const start = audio.currentTime + delayMs / 1000;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + ms / 1000);
    osc.connect(gain).connect(audio.destination);
    osc.start(start);
    osc.stop(start + ms / 1000);
  } catch {
    /* no audio: silent */
  }
}

export function scanFeedback(kind: 'ok' | 'rejected'): void {
  try {
    navigator.vibrate?.(kind === 'ok' ? 80 : [60, 60, 60]);
  } catch {
    /* not allowed (no user gesture yet) */
  }
  if (kind === 'ok') beep(1760, 90);
  else {
    beep(440, 90);
    beep(440, 90, 140);
  }
}
