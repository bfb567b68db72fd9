// @ts-check
// A short tone for a move (the Sound setting, off unless turned on): a drop
// lower than a board move. Where the browser has no audio, nothing.

/** @type {AudioContext | null} */
let audio = null;

/** @param {string} move */
export function playMoveTone(move) {
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = move[1] === '@' ? 440 : 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.12);
  } catch (e) { /* no audio here: the move is shown all the same */ }
}
