// What a phone does for a game besides drawing it: keeps the screen awake
// while the game is played, and gives a cue (a vibration and a short
// sound) when it becomes this seat's turn, which the player can switch off
// (remembered on the device). It also installs the app's offline shell.
import {t} from './i18n';
import type {Shell} from './game';

const CUE = 'treasury.turn-cue';

// cueOn says whether the turn cue is switched on (it is unless switched off).
export function cueOn() {
  try {
    return localStorage.getItem(CUE) !== 'off';
  } catch {
    return true;
  }
}

function setCue(on: boolean): void {
  try {
    localStorage.setItem(CUE, on ? 'on' : 'off');
  } catch {
    // private mode: for this page only
  }
}

// cueSwitch is the button that switches the turn cue on and off.
export function cueSwitch(onChange: () => void): HTMLElement {
  const on = cueOn();
  return h2('button', {type: 'button', class: 'cue-switch', 'aria-pressed': on ? 'true' : 'false', 'data-k': 'turn-cue', 'data-turn-cue': on ? 'on' : 'off',
    onclick: () => { setCue(!on); onChange(); }}, on ? t('app.cue.on') : t('app.cue.off'));
}

function h2(tag: string, attrs: Record<string, string | EventListener>, text: string): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  el.textContent = text;
  return el;
}

let audio: AudioContext | null = null;

// beep plays a short two-note chime (no sound file: WebAudio). A browser
// plays sound only after the page has been touched once, as a game's page
// has by then.
function beep() {
  try {
    const ac = audio || (audio = new AudioContext());
    const at = ac.currentTime;
    [660, 880].forEach((f, i) => {
      const o = ac.createOscillator();
      const g = ac.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, at + i * 0.15);
      g.gain.exponentialRampToValueAtTime(0.2, at + i * 0.15 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, at + i * 0.15 + 0.14);
      o.connect(g).connect(ac.destination);
      o.start(at + i * 0.15);
      o.stop(at + i * 0.15 + 0.15);
    });
  } catch {
    // no audio here: the vibration (or nothing) is the cue
  }
}

// myTurn says whether the game awaits the seat (the table language's
// awaiting list).
export const myTurn = (view: {ended: boolean; awaiting?: {actor: string; seat?: number}[]}, seat: number | null | undefined): boolean => !view.ended && seat !== null && seat !== undefined &&
  (view.awaiting || []).some((a) => a.actor === 'seat' && a.seat === seat);

// turnCue gives the cue when the game comes to await the seat after it did
// not (not when the screen opens on the seat's turn: the player is looking).
export function turnCue(s: Shell): void {
  const mine = s.role === 'seat' && s.view ? myTurn(s.view, s.seat) : false;
  if (mine && s.wasMine === false && cueOn()) {
    if (navigator.vibrate) navigator.vibrate([120, 80, 120]);
    beep();
    document.body.dataset.cues = String(Number(document.body.dataset.cues || 0) + 1);
  }
  s.wasMine = mine;
}

// keepAwake holds a screen wake lock while the game is played and the page
// is shown (a browser drops it when the page is hidden; it is taken again
// when the page comes back). It returns the function that lets the screen
// sleep again.
export function keepAwake(s: Pick<Shell, 'view'>) {
  let lock: WakeLockSentinel | null = null;
  let stopped = false;
  const take = async () => {
    if (stopped || lock || !navigator.wakeLock || document.visibilityState !== 'visible' || (s.view && s.view.ended)) return;
    try {
      lock = await navigator.wakeLock.request('screen');
      document.body.dataset.awake = '1';
      lock.addEventListener('release', () => {
        lock = null;
        delete document.body.dataset.awake;
      });
    } catch {
      lock = null; // refused (battery saver, no user gesture yet): the screen may sleep
    }
  };
  const onVisible = () => take();
  document.addEventListener('visibilitychange', onVisible);
  take();
  return {
    check() {
      if (s.view && s.view.ended && lock) lock.release();
      else take();
    },
    stop() {
      stopped = true;
      document.removeEventListener('visibilitychange', onVisible);
      if (lock) lock.release();
    },
  };
}

// installShell registers the service worker that keeps the app's own files
// for use offline (never an API answer). Browsers allow it on https and on
// localhost only.
export function installShell() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('/app/sw.js', {scope: '/'}).catch(() => {});
}
